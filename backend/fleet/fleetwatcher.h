#pragma once

#include "backend/fleet/deploymentrecords.h"
#include "backend/fleet/hostentry.h"
#include "backend/fleet/rollingupgrade.h"
#include "backend/metrics/hoststatus.h"

#include <QObject>
#include <QStringList>

#include <functional>
#include <map>
#include <memory>
#include <set>

namespace flashdeck {

class AppPaths;
namespace metrics {
class HostMonitor;
} // namespace metrics
namespace prom {
class PromFleetSource;
struct PromConfig;
struct KnownHost;
} // namespace prom
namespace security {
class SecretStore;
} // namespace security
namespace ssh {
class Transport;
} // namespace ssh

} // namespace flashdeck

namespace flashdeck::fleet {

class HostSession;

/**
 * Watches every host of the inventory: one HostSession per host (its one SSH connection and its
 * HostMonitor), which every page shares. It never asks anything by itself: a host whose key is not
 * yet known, or whose key needs a passphrase, shows why and waits for the operator to connect it
 * from the host bar, where the dialogs are. Hosts can come and go while it runs.
 */
class FleetWatcher final : public QObject
{
    Q_OBJECT

public:
    /** Makes a host's one connection (a test's scripted one, say: tests/support/faketransport). */
    using TransportMaker = std::function<std::unique_ptr<ssh::Transport>(const HostEntry &host)>;

    FleetWatcher(const AppPaths &paths, metrics::AlertThresholds thresholds, security::SecretStore *secrets,
                 QObject *parent = nullptr);
    ~FleetWatcher() override;

    /**
     * How each host watched from now on is reached: by default (or given none) a real SSH
     * connection that reconnects when it drops. Set it before setHosts(); hosts already watched
     * keep their connection.
     */
    void setTransportMaker(TransportMaker maker) { m_makeTransport = std::move(maker); }

    /** Starts watching new hosts and stops watching those no longer listed. */
    void setHosts(const QList<HostEntry> &hosts);
    QStringList hosts() const { return m_order; }
    const HostEntry *entry(const QString &host) const;
    metrics::HostMonitor *monitor(const QString &host) const;
    /**
     * The host's one SSH connection, shared by everything that talks to it (logs, chat). For the
     * backend and its tests: the window reaches the host through session().
     */
    ssh::Transport *connection(const QString &host) const;
    /** The host's session: its connection, its monitor, and whether its prompts reach the operator. */
    HostSession *session(const QString &host) const;
    /** Where the deployments' records live. */
    const AppPaths &paths() const { return m_paths; }
    /** The keyring the window shares (null when none was given). */
    security::SecretStore *secrets() const { return m_secrets; }
    /**
     * The keyring the window shares, else (tests without one) the watcher's own: a run the host's
     * session keeps may outlive the page that started it, never the watcher.
     */
    security::SecretStore &secretStore();
    /**
     * How a rolling upgrade reaches each host: its session's connection when it is up, else the
     * host fails with "not connected" (a host that is not up is not upgraded).
     */
    [[nodiscard]] RollingUpgrade::Connect upgradeConnector() const;
    /** New alert thresholds for every host, now and later. */
    void setThresholds(const metrics::AlertThresholds &thresholds);
    const metrics::AlertThresholds &thresholds() const { return m_thresholds; }
    /** Keeps each host's chart history on disk (AppPaths::metricsHistoryFile), now and later. */
    void setKeepHistory(bool on);
    bool keepHistory() const { return m_keepHistory; }
    /** Connects again now (after the operator accepted its key from the host bar, say). */
    void retry(const QString &host);
    /**
     * A deployment on `host` was made or redone (its manifest written): the host's monitor reads
     * it again and samples its server, with its API key (keyring, else the container's).
     */
    void deploymentChanged(const QString &host);

    /**
     * Reads the fleet from the operator's Prometheus as well (every `intervalMs`): the hosts it
     * knows are shown from it and not connected over SSH until the operator picks one in the host
     * bar; the others are watched over SSH as before, and all of them again when Prometheus does
     * not answer. A disabled `config` ends it. `secret`: its token or password.
     */
    void usePrometheus(const prom::PromConfig &config, const QString &secret, int intervalMs = 5000);
    /** The Prometheus source, or null when every host is watched over SSH. */
    prom::PromFleetSource *prometheus() const { return m_prometheus.get(); }
    /** The host's status: Prometheus' when it knows the host, else its SSH monitor's. */
    metrics::HostStatus status(const QString &host) const;
    /** Hosts Prometheus knows and the inventory does not (listed on the Fleet page and in status). */
    QStringList prometheusOnlyHosts() const { return m_prometheusOnly; }
    /** Every host the Fleet page lists: the inventory's, then those only Prometheus knows. */
    QStringList fleetHosts() const { return m_order + m_prometheusOnly; }
    /** Whether the host's figures come from Prometheus now (it answered, and knows the host). */
    bool watchedByPrometheus(const QString &host) const;

Q_SIGNALS:
    void hostsChanged();
    void statusChanged(const QString &host);
    /** A Prometheus refresh ended, well or not (prometheus()->error() says which), or the source went back to SSH
     * (prometheus() is null). */
    void prometheusRefreshed();

private:
    /** A host left the inventory: its session goes now, or when the run it holds ends. */
    void letGo(std::unique_ptr<HostSession> session);
    void watch(const HostEntry &host);
    void recoverApiKey(HostSession &watched, const QString &deploymentId);
    /** Connects the host now, unless Prometheus watches it (or may, before its first answer). */
    void connectUnlessCovered(const QString &host);
    void onPrometheusRefreshed();
    /** The inventory's names and addresses, for Prometheus' host naming. */
    QList<prom::KnownHost> knownHosts() const;

    const AppPaths &m_paths;
    metrics::AlertThresholds m_thresholds;
    bool m_keepHistory = false;
    security::SecretStore *m_secrets;
    std::unique_ptr<security::SecretStore> m_ownSecrets; // before the sessions: it outlives their runs
    TransportMaker m_makeTransport; // empty: the real connection
    std::map<QString, std::unique_ptr<HostSession>> m_watched;
    /** Manifests written by anyone (a terminal's `undeploy`, another window): every page follows. */
    DeploymentRecords m_records;
    QStringList m_order;
    std::unique_ptr<prom::PromFleetSource> m_prometheus;
    std::set<QString> m_deferred; // hosts not connected yet because Prometheus may watch them
    QStringList m_prometheusOnly;
};

} // namespace flashdeck::fleet
