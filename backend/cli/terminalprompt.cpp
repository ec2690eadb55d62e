#include "backend/cli/terminalprompt.h"

#include <QFile>

#include <cerrno>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace flashdeck::cli {

namespace {

/** Writes all of `data` (a terminal may take it in parts); false when it cannot. */
bool writeAll(int fd, const char *data, size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        data += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

} // namespace

std::optional<QString> promptTerminal(const QString &prompt, bool echo)
{
    const int fd = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        return std::nullopt;
    }
    const QByteArray text = prompt.toUtf8();
    if (!writeAll(fd, text.constData(), static_cast<size_t>(text.size()))) {
        ::close(fd);
        return std::nullopt; // a terminal we cannot write the question to cannot be asked
    }
    termios saved{};
    const bool haveTermios = ::tcgetattr(fd, &saved) == 0;
    if (haveTermios && !echo) {
        termios quiet = saved;
        quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
        ::tcsetattr(fd, TCSAFLUSH, &quiet);
    }
    QByteArray line;
    char c = 0;
    bool ok = false;
    while (::read(fd, &c, 1) == 1) {
        if (c == '\n' || c == '\r') {
            ok = true;
            break;
        }
        line.append(c);
    }
    if (haveTermios && !echo) {
        ::tcsetattr(fd, TCSAFLUSH, &saved);
        (void)writeAll(fd, "\n", 1); // only cosmetic: the answer was read
    }
    ::close(fd);
    QString answer = QString::fromUtf8(line);
    line.fill('\0');
    if (!ok) {
        return std::nullopt;
    }
    return answer;
}

} // namespace flashdeck::cli
