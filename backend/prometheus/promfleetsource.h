#pragma once

#include "backend/metrics/hoststatus.h"
#include "backend/prometheus/promclient.h"
#include "backend/prometheus/promfleet.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <map>

namespace flashdeck {
class AppPaths;
namespace ssh {
class Transport;
class TunnelReply;
} // namespace ssh
} // namespace flashdeck

namespace flashdeck::prom {

/**
 * The fleet as the operator's Prometheus sees it, refreshed with the same handful of instant
 * queries whatever the fleet's size. Inventory hosts get their deployment's profile and pins from
 * Flashdeck's own records and the same alerts as over SSH; hosts only Prometheus knows are listed
 * too. A failed refresh keeps the last answer's hosts for the caller to judge, and says why.
 */
class PromFleetSource final : public QObject
{
    Q_OBJECT

public:
    PromFleetSource(const PromConfig &config, const QString &secret, const AppPaths &paths,
                    metrics::AlertThresholds thresholds, QObject *parent = nullptr);
    ~PromFleetSource() override;

    void setInventory(const QList<KnownHost> &hosts);
    void setThresholds(const metrics::AlertThresholds &thresholds);
    /** Reach Prometheus through this host's SSH session (the bastion); null: directly. */
    void setThroughHost(ssh::Transport *transport);

    /** One refresh now (a no-op while one runs). */
    void refresh();
    /** A refresh now and every `intervalMs` after. */
    void start(int intervalMs);
    void stop();

    /** Whether any refresh has finished, well or not. */
    bool answered() const { return m_answered; }
    /** Why the last refresh failed ("" when it did not). */
    const QString &error() const { return m_error; }
    /** What Prometheus warned of, or what came back partial, in the last refresh. */
    const QStringList &warnings() const { return m_warnings; }
    /** The hosts of the last good refresh, by name. */
    const QList<metrics::HostStatus> &hosts() const { return m_hosts; }
    const metrics::HostStatus *host(const QString &name) const;
    /** Milliseconds the last refresh took, from the first query sent to the table assembled. */
    qint64 lastRefreshMs() const { return m_lastRefreshMs; }
    const PromConfig &config() const { return m_config; }
    /** The values of the host label that named `host` in the last answer (for its range queries). */
    QStringList labelValues(const QString &host) const { return m_labelValues.value(host); }
    /** The client it asks with (its credentials and tunnel), for a host's history. */
    PromClient &client() { return m_client; }

Q_SIGNALS:
    /** A refresh ended: hosts() and error() say how. */
    void refreshed();

private:
    void sendQueries();
    void finish();

    PromConfig m_config;
    const AppPaths &m_paths;
    metrics::AlertThresholds m_thresholds;
    PromClient m_client;
    QList<KnownHost> m_inventory;
    QPointer<ssh::Transport> m_through;
    QPointer<ssh::TunnelReply> m_tunnel;
    QTimer m_timer;
    QElapsedTimer m_clock;
    bool m_running = false;
    bool m_answered = false;
    int m_waiting = 0;
    quint64 m_round = 0;
    QHash<FleetQuery, PromResult> m_answers;
    QStringList m_failures;
    QString m_error;
    QStringList m_warnings;
    QList<metrics::HostStatus> m_hosts;
    QHash<QString, qsizetype> m_index;
    QHash<QString, QStringList> m_labelValues; // host → its row in m_hosts: the Fleet table asks per cell
    std::map<QString, metrics::AlertTracker> m_alerts;
    qint64 m_lastRefreshMs = 0;
};

} // namespace flashdeck::prom
