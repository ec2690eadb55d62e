#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

namespace flashdeck::test {

/**
 * A small tmpfs mounted over a test's folder: a real file system that really fills up, so "disk
 * full" is the kernel's ENOSPC, partial writes included, not a mock. Needs root (CAP_SYS_ADMIN),
 * as the tests' sshd fixtures do; the CI runs as root. Unmounted (lazily) when it goes.
 */
class TmpfsMount
{
public:
    TmpfsMount(const QString &dir, int sizeKiB)
        : m_dir(dir)
    {
        QDir().mkpath(dir);
        const QByteArray options = "size=" + QByteArray::number(sizeKiB) + "k,mode=0700";
        if (::mount("flashdeck-test", QFile::encodeName(dir).constData(), "tmpfs", 0, options.constData()) == 0) {
            m_mounted = true;
        } else {
            m_error = QStringLiteral("cannot mount a tmpfs on %1 (%2): the disk-full tests need root")
                          .arg(dir, QString::fromLocal8Bit(std::strerror(errno)));
        }
    }
    ~TmpfsMount()
    {
        if (m_mounted) {
            ::umount2(QFile::encodeName(m_dir).constData(), MNT_DETACH);
        }
    }
    TmpfsMount(const TmpfsMount &) = delete;
    TmpfsMount &operator=(const TmpfsMount &) = delete;

    bool isMounted() const { return m_mounted; }
    const QString &error() const { return m_error; }

    /** Fills the disk with a filler file but `leaveFree` bytes; returns the bytes it took. */
    qint64 fill(qint64 leaveFree = 0)
    {
        const QByteArray path = QFile::encodeName(fillerPath());
        const int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        if (fd < 0) {
            return 0;
        }
        static const QByteArray block(4096, 'F');
        qint64 total = 0;
        for (;;) {
            const ssize_t n = ::write(fd, block.constData(), size_t(block.size()));
            if (n <= 0) {
                break;
            }
            total += n;
        }
        // The last few bytes of a block can still fit: take them too.
        for (;;) {
            if (::write(fd, "F", 1) != 1) {
                break;
            }
            ++total;
        }
        if (leaveFree > 0 && ::ftruncate(fd, std::max<qint64>(0, total - leaveFree)) == 0) {
            total = std::max<qint64>(0, total - leaveFree);
        }
        ::close(fd);
        return total;
    }
    /** Frees what fill() took (the operator cleaned up). */
    void unfill() { QFile::remove(fillerPath()); }

private:
    QString fillerPath() const { return m_dir + QStringLiteral("/.filler"); }

    QString m_dir;
    bool m_mounted = false;
    QString m_error;
};

} // namespace flashdeck::test
