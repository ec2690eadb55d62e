#pragma once

#include "backend/core/result.h"
#include "backend/fleet/hostentry.h"

#include <QList>

#include <optional>

namespace flashdeck {

/**
 * The host inventory, `hosts.json` in the config folder. Written atomically (writeFileAtomically) with
 * owner-only permissions; a file that does not parse is reported and left untouched, never
 * overwritten with an empty list.
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
    [[nodiscard]] Status save() const;

    const QList<HostEntry> &hosts() const { return m_hosts; }
    std::optional<HostEntry> find(const QString &name) const;
    [[nodiscard]] Status add(const HostEntry &host);
    /** Replaces the entry with the same name. */
    [[nodiscard]] Status update(const HostEntry &host);
    [[nodiscard]] Status remove(const QString &name);

private:
    QString m_path;
    QList<HostEntry> m_hosts;
};

} // namespace flashdeck
