#include "backend/core/heldlock.h"

#include <QCoreApplication>
#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace flashdeck {

namespace {

struct flock wholeFile(short type)
{
    struct flock fl
    {
    };
    fl.l_type = type;
    fl.l_whence = SEEK_SET;
    fl.l_start = 0;
    fl.l_len = 0; // to the end, however long
    fl.l_pid = 0; // required by the OFD commands
    return fl;
}

} // namespace

HeldLock::HeldLock(QString path)
    : m_path(std::move(path))
{ }

HeldLock::~HeldLock()
{
    release();
}

Status HeldLock::acquire()
{
    if (m_fd >= 0) {
        return {};
    }
    const QByteArray path = QFile::encodeName(m_path);
    const int fd = ::open(path.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        return Status::failure(QCoreApplication::translate("Core", "Could not open %1: %2")
                                   .arg(m_path, QString::fromLocal8Bit(std::strerror(errno))));
    }
    struct flock fl = wholeFile(F_WRLCK);
    if (::fcntl(fd, F_OFD_SETLK, &fl) != 0) {
        const int error = errno;
        ::close(fd);
        return Status::failure(error == EAGAIN || error == EACCES
                                   ? QCoreApplication::translate("Core", "%1 is held by another run").arg(m_path)
                                   : QCoreApplication::translate("Core", "Could not lock %1: %2")
                                         .arg(m_path, QString::fromLocal8Bit(std::strerror(error))));
    }
    m_fd = fd;
    return {};
}

void HeldLock::release()
{
    if (m_fd >= 0) {
        ::close(m_fd); // closing the last descriptor of the description drops its lock
        m_fd = -1;
    }
}

bool HeldLock::isHeld(const QString &path)
{
    const QByteArray name = QFile::encodeName(path);
    const int fd = ::open(name.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return false; // never made, or removed: nobody runs
    }
    struct flock fl = wholeFile(F_WRLCK);
    const bool held = ::fcntl(fd, F_OFD_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
    ::close(fd);
    return held;
}

} // namespace flashdeck
