#include "backend/core/linkopener.h"

#include <QCoreApplication>

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace flashdeck {

LinkOpener::LinkOpener(Open open, QByteArray hostHeader)
    : m_open(std::move(open))
    , m_hostHeader(std::move(hostHeader))
{ }

LinkOpener LinkOpener::loopback(quint16 port)
{
    return LinkOpener(
        [port](QString *error) -> int {
            const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            if (fd < 0) {
                if (error) {
                    *error = QString::fromLocal8Bit(std::strerror(errno));
                }
                return -1;
            }
            sockaddr_in to{};
            to.sin_family = AF_INET;
            to.sin_port = htons(port);
            to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            // On loopback a connect completes (or is refused) at once: blocking is fine.
            if (::connect(fd, reinterpret_cast<const sockaddr *>(&to), sizeof to) < 0) {
                const int why = errno;
                ::close(fd);
                if (error) {
                    // "Connection refused", as the socket classes say it.
                    *error = QString::fromLocal8Bit(std::strerror(why));
                }
                return -1;
            }
            return fd;
        },
        "127.0.0.1:" + QByteArray::number(port));
}

int LinkOpener::open(QString *error) const
{
    if (!m_open) {
        if (error) {
            *error = QCoreApplication::translate("Core", "No tunnel to connect through.");
        }
        return -1;
    }
    return m_open(error);
}

} // namespace flashdeck
