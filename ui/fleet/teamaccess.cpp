#include "ui/fleet/teamaccess.h"

#include "backend/expose/gatewayrecordwatch.h"

namespace flashdeck::ui {

TeamAccess::TeamAccess(const AppPaths &paths, QObject *parent)
    : QObject(parent)
    , m_paths(paths)
{ }

TeamAccess::~TeamAccess() = default;

void TeamAccess::setHosts(const QStringList &hosts)
{
    for (auto it = m_hosts.begin(); it != m_hosts.end();) {
        it = hosts.contains(it->first) ? std::next(it) : m_hosts.erase(it);
    }
    for (const QString &host : hosts) {
        if (m_hosts.count(host) != 0) {
            continue;
        }
        Followed followed{std::make_unique<expose::GatewayRecordWatch>(m_paths),
                          expose::GatewayRecord::read(m_paths, host)};
        followed.watch->setHost(host);
        connect(followed.watch.get(), &expose::GatewayRecordWatch::changed, this, [this, host] {
            const auto it = m_hosts.find(host);
            if (it != m_hosts.end()) {
                it->second.state = expose::GatewayRecord::read(m_paths, host);
                Q_EMIT changed(host);
            }
        });
        m_hosts.emplace(host, std::move(followed));
    }
}

const TeamAccess::State &TeamAccess::of(const QString &host) const
{
    const auto it = m_hosts.find(host);
    return it == m_hosts.end() ? m_notFollowed : it->second.state;
}

} // namespace flashdeck::ui
