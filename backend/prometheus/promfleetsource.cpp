#include "backend/prometheus/promfleetsource.h"

#include "backend/core/apppaths.h"
#include "backend/core/heldlock.h"
#include "backend/deploy/deploysession.h"
#include "backend/deploy/upgradeplan.h"
#include "backend/recipe/deployment.h"
#include "backend/ssh/transport.h"
#include "backend/ssh/tunnelreply.h"

#include <QCoreApplication>
#include <QDateTime>

namespace flashdeck::prom {

PromFleetSource::PromFleetSource(const PromConfig &config, const QString &secret, const AppPaths &paths,
                                 metrics::AlertThresholds thresholds, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_paths(paths)
    , m_thresholds(std::move(thresholds))
    , m_client(config, secret)
{
    connect(&m_timer, &QTimer::timeout, this, &PromFleetSource::refresh);
}

PromFleetSource::~PromFleetSource() = default;

void PromFleetSource::setInventory(const QList<KnownHost> &hosts)
{
    m_inventory = hosts;
}

void PromFleetSource::setThresholds(const metrics::AlertThresholds &thresholds)
{
    m_thresholds = thresholds;
}

void PromFleetSource::setThroughHost(ssh::Transport *transport)
{
    // One raw pointer read: GCC's -O3 null-dereference check does not trust a QPointer read twice.
    if (ssh::TunnelReply *tunnel = m_tunnel.data()) {
        tunnel->abandon();
    }
    m_through = transport;
    m_client.routeThrough({});
}

const metrics::HostStatus *PromFleetSource::host(const QString &name) const
{
    const auto it = m_index.constFind(name);
    return it == m_index.cend() ? nullptr : &m_hosts.at(*it);
}

void PromFleetSource::start(int intervalMs)
{
    m_timer.start(std::max(1000, intervalMs));
    refresh();
}

void PromFleetSource::stop()
{
    m_timer.stop();
}

void PromFleetSource::refresh()
{
    if (m_running) {
        return;
    }
    m_running = true;
    m_clock.start();
    if (const Status s = m_config.check(); !s) {
        m_failures = {s.message()};
        m_answers.clear();
        finish();
        return;
    }
    const ssh::TunnelReply *open = m_tunnel.data();
    ssh::Transport *through = m_through.data();
    if (!through || (open && open->phase() == ssh::TunnelReply::Phase::Ready)) {
        sendQueries();
        return;
    }
    // A Prometheus only the bastion reaches: one tunnel through its session, kept while it lives.
    const quint16 port = quint16(m_config.url.port(m_config.url.scheme() == QLatin1String("https") ? 443 : 80));
    // A listening port (any free one), not a private link: Qt's HTTP client (TLS for an https
    // Prometheus) connects only to an address. The listener admits the operator's uid alone.
    ssh::TunnelReply *tunnel = through->tunnelToPort(m_config.url.host(), port, 0, this);
    m_tunnel = tunnel;
    tunnel->onOpened(
        this,
        [this](quint16 local) {
            QUrl route;
            route.setScheme(m_config.url.scheme());
            route.setHost(QStringLiteral("127.0.0.1"));
            route.setPort(local);
            m_client.routeThrough(route);
            sendQueries();
        },
        [this](const QString &message) {
            m_failures = {QCoreApplication::translate("Prometheus", "Could not reach Prometheus at %1 through %2: %3")
                              .arg(m_config.url.toString(QUrl::RemoveUserInfo), m_config.throughHost, message)};
            m_answers.clear();
            finish();
        });
}

void PromFleetSource::sendQueries()
{
    const QList<FleetQueryText> queries = fleetQueries(m_config.hostLabel);
    m_answers.clear();
    m_failures.clear();
    m_waiting = int(queries.size());
    const quint64 round = ++m_round;
    const QDateTime at = QDateTime::currentDateTimeUtc();
    for (const FleetQueryText &q : queries) {
        m_client.query(
            q.expr,
            [this, round, what = q.what](const Result<PromResult> &r) {
                if (round != m_round) {
                    return;
                }
                if (r) {
                    m_answers.insert(what, r.value());
                } else {
                    m_failures.append(r.message());
                }
                if (--m_waiting == 0) {
                    finish();
                }
            },
            at); // every query at the same instant: one consistent picture of the fleet
    }
}

void PromFleetSource::finish()
{
    m_running = false;
    m_answered = true;
    m_warnings.clear();
    for (const PromResult &r : std::as_const(m_answers)) {
        m_warnings.append(r.warnings);
    }
    m_warnings.removeDuplicates();
    if (m_answers.isEmpty()) {
        // Nothing came back: the source is down, slow or refuses us. The last table stays for the
        // caller to show as old, or to fall back from.
        m_error = m_failures.isEmpty() ? QCoreApplication::translate("Prometheus", "Prometheus gave no answer.")
                                       : m_failures.first();
        m_lastRefreshMs = m_clock.elapsed();
        Q_EMIT refreshed();
        return;
    }
    m_error.clear();
    for (const QString &f : std::as_const(m_failures)) {
        m_warnings.append(QStringLiteral("partial: %1").arg(f));
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const HostNamer namer(m_config, m_inventory);
    m_hosts = assembleFleet(m_answers, namer, now);
    m_labelValues.clear();
    for (const PromResult &r : std::as_const(m_answers)) {
        for (const PromSeries &series : r.series) {
            const QString value = series.label(m_config.hostLabel);
            if (!value.isEmpty()) {
                QStringList &values = m_labelValues[namer.nameOf(series)];
                if (!values.contains(value)) {
                    values.append(value);
                }
            }
        }
    }
    m_index.clear();
    for (qsizetype i = 0; i < m_hosts.size(); ++i) {
        m_index.insert(m_hosts.at(i).host, i);
    }
    m_answers.clear(); // the hosts keep copies; the answers' series can be large
    for (metrics::HostStatus &s : m_hosts) {
        if (s.inInventory) {
            if (const Result<recipe::Deployment> d = recipe::Deployment::read(m_paths, s.host)) {
                s.applyDeployment(d.value());
            }
            s.upgradeRunning =
                HeldLock::isHeld(deploy::UpgradePlan::lockOf(recipe::Deployment::directory(m_paths, s.host)));
            s.deployRunning =
                HeldLock::isHeld(deploy::DeploySession::lockOf(recipe::Deployment::directory(m_paths, s.host)));
        }
        s.alerts = m_alerts[s.host].update(metrics::evaluateAlerts(s, m_thresholds), now);
    }
    m_lastRefreshMs = m_clock.elapsed();
    Q_EMIT refreshed();
}

} // namespace flashdeck::prom
