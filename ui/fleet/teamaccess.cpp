#include "ui/fleet/teamaccess.h"

#include "backend/expose/gatewayrecordwatch.h"

namespace flashdeck::ui {

TeamAccess::TeamAccess(const AppPaths &paths, QObject *parent)
    : QObject(parent)
    , m_paths(paths)
    , m_watch(new expose::GatewayRecordWatch(paths, this))
{
    connect(m_watch, &expose::GatewayRecordWatch::changed, this, [this](const QString &host) {
        const auto it = m_states.find(host);
        if (it != m_states.end()) {
            it->second = expose::GatewayRecord::read(m_paths, host);
            Q_EMIT changed(host);
        }
    });
}

void TeamAccess::setHosts(const QStringList &hosts)
{
    for (auto it = m_states.begin(); it != m_states.end();) {
        it = hosts.contains(it->first) ? std::next(it) : m_states.erase(it);
    }
    for (const QString &host : hosts) {
        if (m_states.count(host) == 0) {
            m_states.emplace(host, expose::GatewayRecord::read(m_paths, host));
        }
    }
    m_watch->setHosts(hosts);
}

const TeamAccess::State &TeamAccess::of(const QString &host) const
{
    const auto it = m_states.find(host);
    return it == m_states.end() ? m_notFollowed : it->second;
}

} // namespace flashdeck::ui
