#include "backend/cli/terminalprompt.h"

#include <QFile>

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace flashdeck::cli {

std::optional<QString> promptTerminal(const QString &prompt, bool echo)
{
    const int fd = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        return std::nullopt;
    }
    const QByteArray text = prompt.toUtf8();
    (void)::write(fd, text.constData(), static_cast<size_t>(text.size()));
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
        (void)::write(fd, "\n", 1);
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
