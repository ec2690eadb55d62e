#pragma once

#include "backend/core/lockedfile.h"
#include "backend/core/result.h"
#include "backend/fleet/hostentry.h"

#include <QList>

#include <functional>
#include <optional>

namespace flashdeck::fleet {

/**
 * The host inventory, `hosts.json` in the config folder, which the window and any number of
 * `flashdeck hosts` processes change at once. Each change (add, update, remove) is made to the
 * file as it is now, under its lock (LockedFile): re-read, changed, replaced atomically with
 * owner-only permissions. A file that does not parse is reported and left untouched, never
 * overwritten (a change keeps a copy of it aside and says where).
 */
class Inventory final
{
public:
    explicit Inventory(QString path);

    const QString &path() const { return m_path; }
    /** A missing file is an empty inventory, not an error. */
    [[nodiscard]] Status load();
    /** Parses the inventory file's bytes; `source` names it in error messages. */
    [[nodiscard]] static Result<QList<HostEntry>> parse(const QByteArray &data, const QString &source);
    /**
     * Reads the file again for a change made elsewhere: true when its hosts differ from those held
     * here. On failure (the file does not parse) the hosts held here are kept.
     */
    [[nodiscard]] Result<bool> reload();
    /**
     * Writes the hosts held here over whatever the file holds now: for a first inventory. Every
     * other change goes through add/update/remove, which keep what other processes wrote.
     */
    [[nodiscard]] Status save() const;

    /** The hosts as the last load or change found them in the file. */
    const QList<HostEntry> &hosts() const { return m_hosts; }
    std::optional<HostEntry> find(const QString &name) const;

    /**
     * One change, made to the file's hosts as they are now: `edit` changes the list (or fails,
     * and nothing is written). Returns the new list, which hosts() then holds. When the file was
     * read but the change refused, hosts() holds the file's list (a name someone else took).
     */
    using Edit = std::function<Status(QList<HostEntry> &hosts)>;
    [[nodiscard]] Result<QList<HostEntry>> change(const Edit &edit);
    /** Adds `host`; a name already in the file (added elsewhere meanwhile, too) is refused. */
    [[nodiscard]] Result<QList<HostEntry>> add(const HostEntry &host);
    /** Replaces the entry with the same name. */
    [[nodiscard]] Result<QList<HostEntry>> update(const HostEntry &host);
    [[nodiscard]] Result<QList<HostEntry>> remove(const QString &name);

    /** The file's bytes for `hosts`. */
    static QByteArray serialize(const QList<HostEntry> &hosts);

private:
    [[nodiscard]] Result<QList<HostEntry>> read() const;
    LockedFile file() const;

    QString m_path;
    QList<HostEntry> m_hosts;
};

} // namespace flashdeck::fleet
