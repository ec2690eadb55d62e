#pragma once

#include "backend/core/result.h"
#include "backend/expose/gatewayrecord.h"

#include <QObject>
#include <QStringList>

#include <map>
#include <optional>

namespace flashdeck {
class AppPaths;
} // namespace flashdeck

namespace flashdeck::expose {
class GatewayRecordWatch;
} // namespace flashdeck::expose

namespace flashdeck::ui {

/**
 * Whether and how each host of the fleet is open to the team: its gateway record, read once and
 * again whenever GatewayRecordWatch says anyone replaced or removed it, so the Fleet row follows
 * without reading a file per paint.
 */
class TeamAccess final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TeamAccess)

public:
    /** A record; none (not exposed); or why it cannot be read (then whether it is exposed is unknown). */
    using State = Result<std::optional<expose::GatewayRecord>>;

    explicit TeamAccess(const AppPaths &paths, QObject *parent = nullptr);

    /** The hosts to follow; the others are dropped. */
    void setHosts(const QStringList &hosts);
    /** The host's state as last read (not exposed for a host not followed). */
    const State &of(const QString &host) const;

Q_SIGNALS:
    void changed(const QString &host);

private:
    const AppPaths &m_paths;
    expose::GatewayRecordWatch *m_watch;
    std::map<QString, State> m_states;
    const State m_notFollowed{std::optional<expose::GatewayRecord>()};
};

} // namespace flashdeck::ui
