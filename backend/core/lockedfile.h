#pragma once

#include "backend/core/result.h"

#include <QByteArray>
#include <QFileDevice>
#include <QString>

#include <functional>
#include <optional>

namespace flashdeck {

/**
 * A file that several processes change (hosts.json, acknowledgements.json, …): each change is
 * made to the file as it is NOW, never to a copy read earlier.
 *
 * update() takes an exclusive flock(2) on `<file>.lock` beside it (created 0600 and never
 * deleted, so that every process locks the same inode: a lock on the data file itself would be
 * lost with the inode writeFileAtomically renames over it), re-reads the file, asks the change
 * what the file becomes, and replaces it atomically (writeFileAtomically) before unlocking. Two
 * `flashdeck hosts add` started together used to read the same list and the second write dropped
 * the first's host (issue 40: 16 parallel adds left 4).
 *
 * A file whose bytes the change cannot use (it does not parse) is never overwritten: nothing is
 * written, a copy of it is kept aside (`<file>.corrupt-<time>`) and the failure says where.
 *
 * Readers need no lock: the file is only ever replaced whole, by a rename.
 */
class LockedFile final
{
public:
    /** What a change makes of the file's current bytes. */
    class Edit final
    {
    public:
        /** The file becomes `bytes` (nothing is written when they are what it holds already). */
        static Edit replaceWith(QByteArray bytes);
        /** Nothing is written; update() fails with `why` (a name someone else took meanwhile). */
        static Edit refuse(Status why);
        /**
         * The current bytes cannot be used; `problem` says so, naming the file, in the parser's
         * words. Nothing is written, a copy is kept aside, and update() fails saying where it is.
         */
        static Edit corrupt(Status problem);

    private:
        friend class LockedFile;
        enum class Kind { Replace, Refuse, Corrupt };
        Edit(Kind kind, QByteArray bytes, Status status);
        Kind m_kind;
        QByteArray m_bytes;
        Status m_status;
    };
    /** `current`: the file's bytes, or none when it does not exist yet. */
    using Change = std::function<Edit(const std::optional<QByteArray> &current)>;

    /** How long update() waits for another process's change before it gives up. */
    static constexpr int kLockTimeoutMs = 15000;

    /** `permissions`: the file's when update() writes it (empty: QSaveFile's default). */
    explicit LockedFile(QString path, QFileDevice::Permissions permissions = {}, int lockTimeoutMs = kLockTimeoutMs);

    const QString &path() const { return m_path; }
    /** `<file>.lock`, the file every writer locks. */
    QString lockPath() const { return m_path + QStringLiteral(".lock"); }

    /** Re-reads the file and writes what `change` makes of it, all under the lock. */
    [[nodiscard]] Status update(const Change &change) const;

    /**
     * Runs `work` while holding the lock, for a file another library reads and writes itself
     * (QSettings): `work` runs even when the lock cannot be had, and the failure says why.
     */
    [[nodiscard]] Status whileLocked(const std::function<void()> &work) const;

private:
    [[nodiscard]] Result<QString> keepAside(const QByteArray &bytes) const;

    QString m_path;
    QFileDevice::Permissions m_permissions;
    int m_lockTimeoutMs;
};

} // namespace flashdeck
