#include "backend/core/lockedfile.h"

#include "backend/core/atomicfile.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace flashdeck {

namespace {

QString systemError(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

/**
 * Holds an exclusive flock(2) on the lock file while it lives. flock, not fcntl locks: an fcntl
 * lock is the process's, so a second update on another thread of the same process would not
 * wait; a flock belongs to the open file description and does.
 */
class LockHolder final
{
public:
    LockHolder() = default;
    LockHolder(const LockHolder &) = delete;
    LockHolder &operator=(const LockHolder &) = delete;
    ~LockHolder()
    {
        // Closing the descriptor releases the lock whatever close() answers (close(2): the
        // descriptor is gone even on EINTR); there is nothing left to retry.
        if (m_fd >= 0) {
            if (::close(m_fd) != 0) {
                m_fd = -1;
            }
        }
    }

    [[nodiscard]] Status acquire(const QString &lockPath, const QString &dataPath, int timeoutMs)
    {
        m_fd = ::open(QFile::encodeName(lockPath).constData(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (m_fd < 0) {
            const int error = errno;
            return Status::failure(
                QCoreApplication::translate("Files",
                                            "Cannot open the lock file %1 (%2), so %3 was not changed. Check the "
                                            "folder's owner and permissions, then try again.")
                    .arg(lockPath, systemError(error), dataPath));
        }
        // Polled rather than blocking: a writer stopped while it holds the lock (Ctrl+Z) must not
        // freeze the window for good. A change holds the lock for milliseconds.
        const QDeadlineTimer deadline(timeoutMs);
        unsigned long pauseMs = 1;
        while (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            if (error == EINTR) {
                continue;
            }
            if (error != EWOULDBLOCK) {
                return Status::failure(
                    QCoreApplication::translate("Files",
                                                "Cannot lock %1 (%2), so %3 was not changed. Check the folder's file "
                                                "system supports locks, then try again.")
                        .arg(lockPath, systemError(error), dataPath));
            }
            if (deadline.hasExpired()) {
                return Status::failure(
                    QCoreApplication::translate("Files",
                                                "%1 is being changed by another Flashdeck process, which has held %2 "
                                                "for more than %3 seconds, so nothing was changed. Let that process "
                                                "finish (fuser -v %2 names it), then try again.")
                        .arg(dataPath, lockPath)
                        .arg(timeoutMs / 1000));
            }
            QThread::msleep(pauseMs);
            pauseMs = std::min<unsigned long>(pauseMs * 2, 16);
        }
        return Status::ok();
    }

private:
    int m_fd = -1;
};

/** The file's bytes; none when it does not exist. */
Result<std::optional<QByteArray>> readCurrent(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (!QFileInfo::exists(path) && !QFileInfo(path).isSymLink()) {
            return std::optional<QByteArray>();
        }
        return Status::failure(
            QCoreApplication::translate("Files",
                                        "Cannot read %1 (%2), so it was not changed. Check its owner and permissions, "
                                        "then try again.")
                .arg(path, file.errorString()));
    }
    QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError) {
        return Status::failure(
            QCoreApplication::translate("Files",
                                        "Cannot read %1 (%2), so it was not changed. Check the disk, then try again.")
                .arg(path, file.errorString()));
    }
    return std::optional<QByteArray>(std::move(bytes));
}

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

LockedFile::Edit::Edit(Kind kind, QByteArray bytes, Status status)
    : m_kind(kind)
    , m_bytes(std::move(bytes))
    , m_status(std::move(status))
{ }

LockedFile::Edit LockedFile::Edit::replaceWith(QByteArray bytes)
{
    return Edit(Kind::Replace, std::move(bytes), Status::ok());
}

LockedFile::Edit LockedFile::Edit::refuse(Status why)
{
    Q_ASSERT(!why.isOk());
    return Edit(Kind::Refuse, {}, std::move(why));
}

LockedFile::Edit LockedFile::Edit::corrupt(Status problem)
{
    Q_ASSERT(!problem.isOk());
    return Edit(Kind::Corrupt, {}, std::move(problem));
}

LockedFile::LockedFile(QString path, QFileDevice::Permissions permissions, int lockTimeoutMs)
    : m_path(std::move(path))
    , m_permissions(permissions)
    , m_lockTimeoutMs(lockTimeoutMs)
{ }

Status LockedFile::update(const Change &change) const
{
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    LockHolder lock;
    if (Status s = lock.acquire(lockPath(), m_path, m_lockTimeoutMs); !s) {
        return s;
    }
    const Result<std::optional<QByteArray>> current = readCurrent(m_path);
    if (!current) {
        return current.status();
    }
    const Edit edit = change(current.value());
    switch (edit.m_kind) {
    case Edit::Kind::Refuse:
        return edit.m_status;
    case Edit::Kind::Corrupt: {
        const Result<QString> copy = keepAside(current.value().value_or(QByteArray()));
        const QString where = copy
            ? QCoreApplication::translate("Files", "A copy of the file as it is now is kept as %1.").arg(copy.value())
            : QCoreApplication::translate("Files", "Its copy could not be kept aside: %1").arg(copy.message());
        return Status::failure(edit.m_status.message() + QLatin1Char(' ') + where, edit.m_status.detail());
    }
    case Edit::Kind::Replace:
        break;
    }
    if (current.value() && *current.value() == edit.m_bytes) {
        return Status::ok();
    }
    if (const Status s = writeFileAtomically(m_path, edit.m_bytes, m_permissions); !s) {
        return Status::failure(
            QCoreApplication::translate("Files",
                                        "Could not write %1 (%2); the previous version is unchanged. Check free disk "
                                        "space and the folder's permissions, then try again.")
                .arg(m_path, s.message()),
            s.message());
    }
    return Status::ok();
}

Status LockedFile::whileLocked(const std::function<void()> &work) const
{
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    LockHolder lock;
    Status s = lock.acquire(lockPath(), m_path, m_lockTimeoutMs);
    work();
    return s;
}

Result<QString> LockedFile::keepAside(const QByteArray &bytes) const
{
    // The same bad bytes kept already (a second attempt): that copy, not one more.
    const QFileInfo info(m_path);
    const QString prefix = info.fileName() + QStringLiteral(".corrupt-");
    const QFileInfoList kept =
        info.dir().entryInfoList({prefix + QLatin1Char('*')}, QDir::Files | QDir::Hidden, QDir::Name);
    for (const QFileInfo &k : kept) {
        if (k.size() == bytes.size() && contents(k.absoluteFilePath()) == bytes) {
            return k.absoluteFilePath();
        }
    }
    const QString copy = info.dir().absoluteFilePath(
        prefix + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")));
    if (const Status s = writeFileAtomically(copy, bytes, QFile::ReadOwner | QFile::WriteOwner); !s) {
        return Status::failure(QCoreApplication::translate("Files", "Cannot write %1 (%2).").arg(copy, s.message()));
    }
    return copy;
}

} // namespace flashdeck
