#include "backend/fleet/fleetwatcher.h"

#include "backend/core/apppaths.h"
#include "backend/core/jsonread.h"
#include "backend/deploy/apikeyrecovery.h"
#include "backend/metrics/hostmonitor.h"
#include "backend/security/secretstore.h"
#include "backend/ssh/hostconnection.h"

#include <QFile>
#include <QPointer>

#include <nlohmann/json.hpp>

namespace flashdeck {

struct FleetWatcher::Watched
{
    HostEntry entry;
    std::unique_ptr<ssh::HostConnection> connection;
    std::unique_ptr<metrics::HostMonitor> monitor;
};

namespace {

QString profileOf(const QString &manifestFile)
{
    QFile f(manifestFile);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QByteArray data = f.readAll();
    const auto m = nlohmann::json::parse(data.constData(), data.constData() + data.size(), nullptr, false);
    return m.is_object() ? QString::fromStdString(jsonread::string(m, "profile")) : QString();
}

} // namespace

FleetWatcher::FleetWatcher(const AppPaths &paths, metrics::AlertThresholds thresholds, SecretStore *secrets,
                           QObject *parent)
    : QObject(parent)
    , m_paths(paths)
    , m_thresholds(thresholds)
    , m_secrets(secrets)
{ }

FleetWatcher::~FleetWatcher()
{
    for (auto &[name, w] : m_watched) {
        if (w->monitor) {
            w->monitor->stop();
        }
    }
}

const HostEntry *FleetWatcher::entry(const QString &host) const
{
    const auto it = m_watched.find(host);
    return it == m_watched.end() ? nullptr : &it->second->entry;
}

metrics::HostMonitor *FleetWatcher::monitor(const QString &host) const
{
    const auto it = m_watched.find(host);
    return it == m_watched.end() ? nullptr : it->second->monitor.get();
}

ssh::HostConnection *FleetWatcher::connection(const QString &host) const
{
    const auto it = m_watched.find(host);
    return it == m_watched.end() ? nullptr : it->second->connection.get();
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
            if (it->second->monitor) {
                it->second->monitor->stop();
            }
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
    if (changed) {
        Q_EMIT hostsChanged();
    }
}

void FleetWatcher::watch(const HostEntry &host)
{
    auto w = std::make_unique<Watched>();
    w->entry = host;
    ssh::SshTarget target = host.toTarget();
    target.reconnect = true;
    w->connection = std::make_unique<ssh::HostConnection>(target);
    ssh::HostConnection *conn = w->connection.get();
    // The fleet never prompts: the host bar is where keys are accepted and passphrases typed.
    connect(conn, &ssh::HostConnection::hostKeyNeedsDecision, conn,
            [conn](const ssh::HostKeyInfo &) { conn->answerHostKey(false); });
    connect(conn, &ssh::HostConnection::passphraseNeeded, conn,
            [conn](const ssh::PassphraseRequest &) { conn->answerPassphrase(std::nullopt); });
    connect(conn, &ssh::HostConnection::passwordNeeded, conn,
            [conn](const ssh::PasswordRequest &) { conn->answerPassword(std::nullopt); });
    connect(conn, &ssh::HostConnection::keyboardInteractiveNeeded, conn,
            [conn](const ssh::KbdIntChallenge &) { conn->answerKeyboardInteractive(std::nullopt); });
    metrics::MonitorConfig config;
    config.manifestFile =
        m_paths.dataDir() + QStringLiteral("/deployments/") + host.name + QStringLiteral("/manifest.json");
    if (m_keepHistory) {
        config.archiveFile = m_paths.metricsHistoryFile(host.name);
    }
    const QString name = host.name;
    m_watched[host.name] = std::move(w);
    // The monitor starts once the deployment's API key is known (/v1/loads needs it where
    // /metrics is off); a keyring that cannot answer only leaves it out.
    const QString profile = profileOf(config.manifestFile);
    const QString deploymentId = profile.isEmpty() ? QString() : host.name + QLatin1Char('-') + profile;
    auto begin = [this, name, config, deploymentId](const QString &apiKey) mutable {
        const auto it = m_watched.find(name);
        if (it == m_watched.end()) {
            return; // removed meanwhile
        }
        config.apiKey = apiKey;
        config.thresholds = m_thresholds; // the current ones, even if they changed while we waited
        Watched &watched = *it->second;
        watched.monitor = std::make_unique<metrics::HostMonitor>(name, *watched.connection, config);
        connect(watched.monitor.get(), &metrics::HostMonitor::statusChanged, this,
                [this, name] { Q_EMIT statusChanged(name); });
        watched.monitor->start();
        if (apiKey.isEmpty() && !deploymentId.isEmpty()) {
            recoverApiKey(watched, deploymentId);
        }
        watched.connection->connectToHost();
        Q_EMIT statusChanged(name);
    };
    if (m_secrets && !profile.isEmpty()) {
        m_secrets->read(SecretStore::apiKeyKey(deploymentId),
                        [begin](const Result<QString> &key) mutable { begin(key ? key.value() : QString()); });
    } else {
        begin(QString());
    }
}

void FleetWatcher::setThresholds(const metrics::AlertThresholds &thresholds)
{
    m_thresholds = thresholds;
    for (auto &[name, w] : m_watched) {
        if (w->monitor) {
            w->monitor->setThresholds(thresholds);
        }
    }
}

void FleetWatcher::setKeepHistory(bool on)
{
    m_keepHistory = on;
    for (auto &[name, w] : m_watched) {
        if (w->monitor) {
            w->monitor->setArchiveFile(on ? m_paths.metricsHistoryFile(name) : QString());
        }
    }
}

void FleetWatcher::recoverApiKey(Watched &watched, const QString &deploymentId)
{
    // No key in the keyring (a machine without one, or a deployment made elsewhere): the one the
    // running server was started with, over the host's Docker.
    auto *recovery = new ApiKeyRecovery(*watched.connection, deploymentId, watched.monitor.get());
    metrics::HostMonitor *monitor = watched.monitor.get();
    connect(recovery, &ApiKeyRecovery::finished, monitor, [recovery, monitor](const Result<QString> &key) {
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
    if (it == m_watched.end() || !it->second->monitor) {
        return;
    }
    Watched &watched = *it->second;
    watched.monitor->reloadDeployment();
    const QString profile =
        profileOf(m_paths.dataDir() + QStringLiteral("/deployments/") + host + QStringLiteral("/manifest.json"));
    if (profile.isEmpty()) {
        return;
    }
    const QString deploymentId = host + QLatin1Char('-') + profile;
    if (!m_secrets) {
        recoverApiKey(watched, deploymentId);
        return;
    }
    QPointer<metrics::HostMonitor> monitor = watched.monitor.get();
    m_secrets->read(SecretStore::apiKeyKey(deploymentId),
                    [this, host, deploymentId, monitor](const Result<QString> &key) {
                        const auto again = m_watched.find(host);
                        if (!monitor || again == m_watched.end() || again->second->monitor.get() != monitor) {
                            return; // gone meanwhile
                        }
                        if (key && !key.value().isEmpty()) {
                            monitor->setApiKey(key.value());
                        } else {
                            recoverApiKey(*again->second, deploymentId);
                        }
                    });
}

void FleetWatcher::retry(const QString &host)
{
    const auto it = m_watched.find(host);
    if (it != m_watched.end()) {
        it->second->connection->connectToHost();
    }
}

} // namespace flashdeck
