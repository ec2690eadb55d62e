#include "backend/core/linkopener.h"

#include <QCoreApplication>
#include <QTcpSocket>

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

// Out of line: inlined into callers, GCC 12's -O3 -Wnull-dereference reports a "potential null
// pointer dereference" inside std::function's emptiness test (the fortified package build failed).
bool LinkOpener::isNull() const
{
    return !m_open;
}

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

QTcpSocket *LinkOpener::openSocket(QObject *parent, QString *error) const
{
    const int fd = open(error);
    if (fd < 0) {
        return nullptr;
    }
    auto *socket = new QTcpSocket(parent);
    if (!socket->setSocketDescriptor(fd)) {
        if (error) {
            *error = socket->errorString();
        }
        ::close(fd);
        delete socket;
        return nullptr;
    }
    return socket;
}

void LinkOpener::release(QTcpSocket *&socket, QObject *receiver)
{
    if (!socket) {
        return;
    }
    socket->disconnect(receiver);
    socket->abort();
    socket->setParent(nullptr);
    socket->deleteLater();
    socket = nullptr;
}

} // namespace flashdeck
