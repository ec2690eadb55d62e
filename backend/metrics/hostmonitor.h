#pragma once

#include "backend/metrics/hoststatus.h"
#include "backend/probe/gpuvendor.h"
#include "backend/recipe/deployment.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>

class QTimer;

namespace flashdeck {
namespace logs {
class SharedLog;
struct LogRecord;
} // namespace logs
namespace ssh {
class Transport;
struct ConnectionState;
} // namespace ssh
} // namespace flashdeck

namespace flashdeck::metrics {

class ContainerSampler;
class DiskSampler;
class GpuSampler;
class ServerSampler;
class ServiceSamplers;
class TimeSeries;

/** What a monitor watches and how often. */
struct MonitorConfig
{
    int gpuPeriodMs = 1000;
    int serverPeriodMs = 2000;
    int dockerPeriodMs = 5000;
    int diskPeriodMs = 60000;
    /**
     * The host's deployment as its HostSession holds it (the profile: vendor, port; pins, checks);
     * none where Flashdeck deployed nothing. The monitor never reads the manifest itself: the
     * session is the one reader, and tells the monitor of a change (reloadDeployment).
     */
    std::optional<recipe::Deployment> deployment;
    /** deployments/<host>/upgrade.lock: held while an upgrade or rollback of the host runs. */
    QString upgradeLock;
    /** deployments/<host>/deploy.lock: held while a deployment of the host runs. */
    QString deployLock;
    /** The SGLang port on the host to watch; 0: the manifest profile's first server, if any. */
    quint16 serverPort = 0;
    /** The server's API key, for /v1/loads (from the keyring); never logged. */
    QString apiKey;
    AlertThresholds thresholds;
    /** Where this host's chart history is kept between runs; empty: in memory only. */
    QString archiveFile;
    int archivePeriodMs = 10 * 60 * 1000;
    /**
     * The host's one log stream (its HostSession's), read for Decode batch lines while neither
     * /metrics nor /v1/loads answers: the Deploy and Logs pages read the same stream, so the host
     * sees one `docker logs` however many read it. Null: no log fallback.
     */
    logs::SharedLog *log = nullptr;
};

/**
 * One host, watched over its one SSH connection (issue 7): GPUs every second, Flashdeck's
 * container through the Docker Engine, the SGLang server through a tunnel, free disk at the
 * caches. Keeps the latest HostStatus, a TimeSeries per metric (gaps while the host is away),
 * and the alerts of F34 with their first and last times.
 */
class HostMonitor final : public QObject
{
    Q_OBJECT

public:
    HostMonitor(QString hostName, ssh::Transport &connection, MonitorConfig config, QObject *parent = nullptr);
    ~HostMonitor() override;

    void start();
    void stop();

    const HostStatus &status() const { return m_status; }
    /** Series by name: gpu.<i>.util, gpu.<i>.mem_used_mib, gpu.<i>.power_w, gpu.<i>.temp_c,
     *  kv.usage, kv.used_tokens, server.running, server.queued, server.throughput,
     *  ttft.p50, ttft.p95, e2e.p50, e2e.p95, spec.accept_length. Null when never sampled. */
    const TimeSeries *series(const QString &name) const;
    QStringList seriesNames() const;
    /** The GPUs with a utilisation history (now or from the history on disk), by index. */
    QList<int> gpuIndexes() const;
    /** The profile's expected KV pool in tokens (a chart's reference line), 0 when unknown. */
    qint64 expectedKvTokens() const { return m_expectedKvTokens; }
    /** True once every source answered at least once (or said why it cannot). */
    bool settled() const;
    const AlertTracker &alerts() const { return m_alerts; }
    /** Starts or stops keeping the chart history in `file` (empty: memory only); the file stays. */
    void setArchiveFile(const QString &file);
    /** Writes the chart history now (also every archivePeriodMs and on stop); no-op without a file. */
    void saveHistoryNow() { saveHistory(); }
    /** New thresholds (Settings): judged again at once. */
    void setThresholds(const AlertThresholds &thresholds);
    /** The server's API key, known late (the keyring had none; read from the running container). */
    void setApiKey(const QString &apiKey);
    /** The host's deployment as it is now (one made or redone meanwhile); samples its server. */
    void reloadDeployment(const std::optional<recipe::Deployment> &deployment);

Q_SIGNALS:
    void statusChanged();

private:
    void applyDeployment();
    void onConnection(const ssh::ConnectionState &state);
    void detectVendorAndStart();
    void applyServerHealth();
    void startServerSampler();
    void followServerLog(bool follow);
    void feedDecodeLines(const QList<logs::LogRecord> &records);
    void loadHistory();
    void saveHistory();
    void record(const QString &name, qint64 atMs, std::optional<double> value);
    void markGap(qint64 atMs);
    void changed();
    /** The GPU tool spoke (a reading or an error): its silence counts from now. */
    void heardFromGpus();

    QString m_hostName;
    ssh::Transport &m_conn;
    MonitorConfig m_config;
    HostStatus m_status;
    AlertTracker m_alerts;
    QHash<QString, std::shared_ptr<TimeSeries>> m_series;
    std::unique_ptr<GpuSampler> m_gpus;
    std::unique_ptr<ServerSampler> m_server;
    std::unique_ptr<ServiceSamplers> m_others; // the other services behind the Router, if any
    // Only while neither /metrics nor /v1/loads answers: subscribed to the host's log, for its
    // Decode batch lines (the index of that rule in the log's rules; -1 while not subscribed).
    int m_decodeRule = -1;
    qint64 m_logFromMs = 0; // lines older than this are the stream's history, not the server now
    ContainerSampler *m_containers;
    DiskSampler *m_disk;
    QTimer *m_archiveTimer;
    /** A GPU tool that hangs says nothing at all: after kGpuSilenceMs without a word, say so. */
    QTimer *m_gpuWatchdog;
    qint64 m_gpuHeardAtMs = 0;
    static constexpr qint64 kGpuSilenceMs = 10000;
    std::optional<probe::GpuVendor> m_vendor; // nullopt until the profile or the host says
    ServerHealth m_serverHealth = ServerHealth::Unknown; // what /health said last (m_status.health: what it means)
    bool m_samplersStarted = false; // the vendor is known and the samplers run
    quint16 m_serverPort = 0;
    QList<quint16> m_otherPorts; // the other services' ports (a node's, the AMD profile's)
    qint64 m_expectedKvTokens = 0;
    bool m_running = false;
    bool m_started = false; // samplers were started on a ready connection
    bool m_gpusAnswered = false;
    bool m_dockerAnswered = false;
    bool m_diskAnswered = false;
    QList<int> m_lastGpuIndexes;
};

} // namespace flashdeck::metrics
