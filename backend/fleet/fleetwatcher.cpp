#include "backend/fleet/fleetwatcher.h"

#include "backend/applog/logging.h"
#include "backend/core/apppaths.h"
#include "backend/deploy/apikeyrecovery.h"
#include "backend/deploy/deploysession.h"
#include "backend/deploy/upgradeplan.h"
#include "backend/fleet/hostsession.h"
#include "backend/metrics/hostmonitor.h"
#include "backend/prometheus/promfleetsource.h"
#include "backend/recipe/deployment.h"
#include "backend/security/secretstore.h"
#include "backend/ssh/transport.h"

#include <QCoreApplication>
#include <QPointer>

#include <spdlog/logger.h>

namespace flashdeck::fleet {

FleetWatcher::FleetWatcher(const AppPaths &paths, metrics::AlertThresholds thresholds, security::SecretStore *secrets,
                           QObject *parent)
    : QObject(parent)
    , m_paths(paths)
    , m_thresholds(thresholds)
    , m_secrets(secrets)
    , m_records(paths)
{
    connect(&m_records, &DeploymentRecords::changed, this, &FleetWatcher::deploymentChanged);
}

FleetWatcher::~FleetWatcher() = default;

const HostEntry *FleetWatcher::entry(const QString &host) const
{
    const auto it = m_watched.find(host);
    return it == m_watched.end() ? nullptr : &it->second->entry();
}

metrics::HostMonitor *FleetWatcher::monitor(const QString &host) const
{
    const auto it = m_watched.find(host);
    return it == m_watched.end() ? nullptr : it->second->monitor();
}

ssh::Transport *FleetWatcher::connection(const QString &host) const
{
    const auto it = m_watched.find(host);
    return it == m_watched.end() ? nullptr : &it->second->connection();
}

security::SecretStore &FleetWatcher::secretStore()
{
    if (m_secrets) {
        return *m_secrets;
    }
    if (!m_ownSecrets) {
        m_ownSecrets = std::make_unique<security::SecretStore>();
    }
    return *m_ownSecrets;
}

RollingUpgrade::Connect FleetWatcher::upgradeConnector() const
{
    return [this](const QString &host, const std::function<void(ssh::Transport &)> &ready,
                  const std::function<void(const QString &)> &failed) {
        // The window's own connection to the host: a host that is not up is not upgraded.
        ssh::Transport *c = connection(host);
        if (c && c->state().phase == ssh::ConnectionPhase::Ready) {
            ready(*c);
        } else {
            failed(QCoreApplication::translate("Fleet", "not connected"));
        }
    };
}

HostSession *FleetWatcher::session(const QString &host) const
{
    const auto it = m_watched.find(host);
    return it == m_watched.end() ? nullptr : it->second.get();
}

void FleetWatcher::letGo(std::unique_ptr<HostSession> session)
{
    if (!session->operationRunning()) {
        return; // destroyed here: its connection closes
    }
    // The host left the inventory (a terminal's `hosts remove`, another window) while this window
    // deploys or upgrades it: the run goes on to its end (its lock, journal and containers are not
    // left half-done), unwatched, and its session goes with it.
    applog::app().info("{} left the inventory during a run: kept until the run ends",
                       session->entry().name.toStdString());
    session->setMonitor(nullptr);
    HostSession *kept = session.release();
    kept->setParent(this);
    connect(kept, &HostSession::operationFinished, kept, &QObject::deleteLater);
}

void FleetWatcher::setHosts(const QList<HostEntry> &hosts)
{
    QStringList wanted;
    for (const HostEntry &h : hosts) {
        wanted.append(h.name);
    }
    bool changed = false;
    for (auto it = m_watched.begin(); it != m_watched.end();) {
        if (!wanted.contains(it->first)) {
            letGo(std::move(it->second));
            it = m_watched.erase(it);
            changed = true;
        } else {
            ++it;
        }
    }
    for (const HostEntry &h : hosts) {
        if (m_watched.find(h.name) == m_watched.end()) {
            watch(h);
            changed = true;
        }
    }
    m_order = wanted;
    m_records.setHosts(wanted);
    if (m_prometheus) {
        m_prometheus->setInventory(knownHosts());
    }
    if (changed) {
        Q_EMIT hostsChanged();
    }
}

void FleetWatcher::watch(const HostEntry &host)
{
    // The host's one session: its prompts are refused until the operator asks for the host from
    // the host bar, where the dialogs are (HostSession::connectWithOperator).
    auto w = m_makeTransport ? std::make_unique<HostSession>(host, m_makeTransport(host))
                             : std::make_unique<HostSession>(host);
    metrics::MonitorConfig config;
    config.upgradeLock = deploy::UpgradePlan::lockOf(recipe::Deployment::directory(m_paths, host.name));
    config.deployLock = deploy::DeploySession::lockOf(recipe::Deployment::directory(m_paths, host.name));
    if (m_keepHistory) {
        config.archiveFile = m_paths.metricsHistoryFile(host.name);
    }
    const QString name = host.name;
    w->setDeployment(recipe::Deployment::read(m_paths, host.name));
    const HostSession &session = *w;
    m_watched[host.name] = std::move(w);
    // The monitor starts once the deployment's API key is known (/v1/loads needs it where
    // /metrics is off); a keyring that cannot answer only leaves it out.
    const Result<recipe::Deployment> &deployment = session.deployment();
    const QString profile = deployment ? deployment.value().profile : QString();
    const QString deploymentId = deployment ? deployment.value().id().toString() : QString();
    auto begin = [this, name, config, deploymentId](const QString &apiKey) mutable {
        const auto it = m_watched.find(name);
        if (it == m_watched.end()) {
            return; // removed meanwhile
        }
        config.apiKey = apiKey;
        config.thresholds = m_thresholds; // the current ones, even if they changed while we waited
        HostSession &watched = *it->second;
        if (watched.deployment()) {
            config.deployment = watched.deployment().value(); // as it is now, not when the key was asked
        }
        config.log = watched.logStream(); // the pages' stream: one `docker logs` per host
        watched.setMonitor(std::make_unique<metrics::HostMonitor>(name, watched.connection(), config));
        connect(watched.monitor(), &metrics::HostMonitor::statusChanged, this,
                [this, name] { Q_EMIT statusChanged(name); });
        watched.monitor()->start();
        if (apiKey.isEmpty() && !deploymentId.isEmpty()) {
            recoverApiKey(watched, deploymentId);
        }
        connectUnlessCovered(name);
        Q_EMIT statusChanged(name);
    };
    if (m_secrets && !profile.isEmpty()) {
        m_secrets->read(security::SecretStore::apiKeyKey(deploymentId),
                        [begin](const Result<QString> &key) mutable { begin(key ? key.value() : QString()); });
    } else {
        begin(QString());
    }
}

void FleetWatcher::setThresholds(const metrics::AlertThresholds &thresholds)
{
    m_thresholds = thresholds;
    for (auto &[name, w] : m_watched) {
        if (w->monitor()) {
            w->monitor()->setThresholds(thresholds);
        }
    }
    if (m_prometheus) {
        m_prometheus->setThresholds(thresholds);
    }
}

void FleetWatcher::setKeepHistory(bool on)
{
    m_keepHistory = on;
    for (auto &[name, w] : m_watched) {
        if (w->monitor()) {
            w->monitor()->setArchiveFile(on ? m_paths.metricsHistoryFile(name) : QString());
        }
    }
}

void FleetWatcher::recoverApiKey(HostSession &watched, const QString &deploymentId)
{
    // No key in the keyring (a machine without one, or a deployment made elsewhere): the one the
    // running server was started with, over the host's Docker.
    metrics::HostMonitor *monitor = watched.monitor();
    auto *recovery = new deploy::ApiKeyRecovery(watched.connection(), deploymentId, monitor);
    connect(recovery, &deploy::ApiKeyRecovery::finished, monitor, [recovery, monitor](const Result<QString> &key) {
        recovery->deleteLater();
        if (key) {
            monitor->setApiKey(key.value());
        }
    });
    recovery->start();
}

void FleetWatcher::deploymentChanged(const QString &host)
{
    const auto it = m_watched.find(host);
    if (it != m_watched.end()) {
        // Read once, for every page: each listens to its host's session (deploymentChanged).
        it->second->setDeployment(recipe::Deployment::read(m_paths, host));
    }
    if (it == m_watched.end() || !it->second->monitor()) {
        return;
    }
    HostSession &watched = *it->second;
    const Result<recipe::Deployment> &deployment = watched.deployment();
    watched.monitor()->reloadDeployment(deployment ? std::optional<recipe::Deployment>(deployment.value())
                                                   : std::nullopt);
    if (!deployment) {
        return;
    }
    const QString deploymentId = deployment.value().id().toString();
    if (!m_secrets) {
        recoverApiKey(watched, deploymentId);
        return;
    }
    QPointer<metrics::HostMonitor> monitor = watched.monitor();
    m_secrets->read(security::SecretStore::apiKeyKey(deploymentId),
                    [this, host, deploymentId, monitor](const Result<QString> &key) {
                        const auto again = m_watched.find(host);
                        if (!monitor || again == m_watched.end() || again->second->monitor() != monitor) {
                            return; // gone meanwhile
                        }
                        if (key && !key.value().isEmpty()) {
                            monitor->setApiKey(key.value());
                        } else {
                            recoverApiKey(*again->second, deploymentId);
                        }
                    });
}

QList<prom::KnownHost> FleetWatcher::knownHosts() const
{
    QList<prom::KnownHost> known;
    for (const QString &name : m_order) {
        known.append({name, entry(name) ? entry(name)->address : QString()});
    }
    return known;
}

void FleetWatcher::connectUnlessCovered(const QString &host)
{
    const auto it = m_watched.find(host);
    if (it == m_watched.end()) {
        return;
    }
    const bool bastion = m_prometheus && host == m_prometheus->config().throughHost;
    if (m_prometheus && !bastion && (!m_prometheus->answered() || m_prometheus->host(host))) {
        m_deferred.insert(host);
        return;
    }
    m_deferred.erase(host);
    it->second->connection().connectToHost();
}

void FleetWatcher::usePrometheus(const prom::PromConfig &config, const QString &secret, int intervalMs)
{
    m_prometheus.reset();
    m_prometheusOnly.clear();
    if (!config.enabled()) {
        const std::set<QString> deferred = std::exchange(m_deferred, {});
        for (const QString &host : deferred) {
            connectUnlessCovered(host);
        }
        Q_EMIT hostsChanged();
        // Back to SSH: what showed Prometheus' state (the Fleet header, Add to inventory…, the
        // Metrics page's history) reads that there is none now; it stayed on screen before.
        Q_EMIT prometheusRefreshed();
        return;
    }
    m_prometheus = std::make_unique<prom::PromFleetSource>(config, secret, m_paths, m_thresholds);
    m_prometheus->setInventory(knownHosts());
    if (!config.throughHost.isEmpty()) {
        if (ssh::Transport *bastion = connection(config.throughHost)) {
            m_prometheus->setThroughHost(bastion);
            bastion->connectToHost();
        }
    }
    connect(m_prometheus.get(), &prom::PromFleetSource::refreshed, this, &FleetWatcher::onPrometheusRefreshed);
    m_prometheus->start(intervalMs);
}

void FleetWatcher::onPrometheusRefreshed()
{
    // Not answering: every host over SSH again, as if there were no Prometheus (its last table is
    // not shown as current).
    const bool down = !m_prometheus->error().isEmpty();
    const std::set<QString> deferred = m_deferred;
    for (const QString &host : deferred) {
        if (down || !m_prometheus->host(host)) {
            m_deferred.erase(host);
            if (const auto it = m_watched.find(host); it != m_watched.end()) {
                it->second->connection().connectToHost();
            }
        }
    }
    QStringList only;
    if (!down) {
        for (const metrics::HostStatus &s : m_prometheus->hosts()) {
            if (!s.inInventory) {
                only.append(s.host);
            }
        }
    }
    const bool listChanged = only != m_prometheusOnly;
    m_prometheusOnly = only;
    if (listChanged) {
        Q_EMIT hostsChanged();
    }
    for (const QString &host : std::as_const(m_order)) {
        Q_EMIT statusChanged(host);
    }
    for (const QString &host : std::as_const(m_prometheusOnly)) {
        Q_EMIT statusChanged(host);
    }
    Q_EMIT prometheusRefreshed();
}

bool FleetWatcher::watchedByPrometheus(const QString &host) const
{
    return m_prometheus && m_prometheus->error().isEmpty() && m_prometheus->host(host);
}

metrics::HostStatus FleetWatcher::status(const QString &host) const
{
    if (watchedByPrometheus(host)) {
        return *m_prometheus->host(host);
    }
    if (const metrics::HostMonitor *m = monitor(host)) {
        return m->status();
    }
    metrics::HostStatus none;
    none.host = host;
    return none;
}

void FleetWatcher::retry(const QString &host)
{
    const auto it = m_watched.find(host);
    if (it != m_watched.end()) {
        m_deferred.erase(host);
        it->second->connection().connectToHost();
    }
}

} // namespace flashdeck::fleet
