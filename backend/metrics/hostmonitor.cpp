#include "backend/metrics/hostmonitor.h"

#include "backend/applog/logging.h"
#include "backend/core/heldlock.h"
#include "backend/core/jsonread.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/ourcontainers.h"
#include "backend/logs/logrules.h"
#include "backend/logs/sharedlog.h"
#include "backend/metrics/containersampler.h"
#include "backend/metrics/disksampler.h"
#include "backend/metrics/gpusampler.h"
#include "backend/metrics/metricid.h"
#include "backend/metrics/metricsarchive.h"
#include "backend/metrics/serversampler.h"
#include "backend/metrics/servicesamplers.h"
#include "backend/metrics/timeseries.h"
#include "backend/probe/hostfacts.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/profilechoice.h"
#include "backend/recipe/recipe.h"
#include "backend/ssh/commandreply.h"
#include "backend/ssh/transport.h"
#include "backend/ssh/tunnelreply.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QTimer>

#include <nlohmann/json.hpp>
#include <spdlog/logger.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace flashdeck::metrics {

namespace {

qint64 now()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

HostMonitor::HostMonitor(QString hostName, ssh::Transport &connection, MonitorConfig config, QObject *parent)
    : QObject(parent)
    , m_hostName(std::move(hostName))
    , m_conn(connection)
    , m_config(std::move(config))
    , m_containers(new ContainerSampler(connection, m_hostName, m_config.dockerPeriodMs, this))
    , m_disk(new DiskSampler(connection, m_config.diskPeriodMs, this))
    , m_archiveTimer(new QTimer(this))
    , m_gpuWatchdog(new QTimer(this))
{
    m_status.host = m_hostName;
    connect(m_containers, &ContainerSampler::listed, this, [this](const std::optional<ContainerStatus> &container) {
        m_dockerAnswered = true;
        m_status.containerKnown = true;
        m_status.container = container;
        applyServerHealth();
        changed();
    });
    connect(m_containers, &ContainerSampler::failed, this, [this](const QString &message, bool unreachable) {
        m_dockerAnswered = true;
        m_status.containerKnown = false;
        m_status.container.reset();
        if (unreachable) {
            m_status.error = message;
        }
        changed();
    });
    connect(m_disk, &DiskSampler::measured, this, [this](qint64 freeBytes) {
        m_diskAnswered = true;
        m_status.diskFreeBytes = freeBytes;
        changed();
    });
    connect(m_disk, &DiskSampler::failed, this, [this] {
        m_diskAnswered = true; // the last figure stays; an unreadable df is no reason to show zero
        changed();
    });
    // Armed for the silence limit each time the tool is heard, so a host whose tool answers every
    // second never wakes it (a 1 s check per host was 50 wake-ups a second for 50 hosts,
    // bench_fleet); once silent, it records a gap each second until the tool speaks again.
    m_gpuWatchdog->setSingleShot(true);
    connect(m_gpuWatchdog, &QTimer::timeout, this, [this] {
        const qint64 silentMs = now() - m_gpuHeardAtMs;
        if (!m_gpus) {
            return;
        }
        if (silentMs < kGpuSilenceMs) {
            m_gpuWatchdog->start(int(kGpuSilenceMs - silentMs));
            return;
        }
        m_gpuWatchdog->start(1000);
        // Not "no GPUs": no word from the tool at all (issue 9: a hung nvidia-smi). The readings
        // shown go stale as a gap, not as their last values.
        m_gpusAnswered = true;
        m_status.gpus.clear();
        m_status.gpuError =
            QCoreApplication::translate("Metrics",
                                        "%1 has given no reading for %2 s (the tool hangs, or the host is "
                                        "overloaded)")
                .arg(m_gpus->tool())
                .arg(silentMs / 1000);
        for (const int gone : std::as_const(m_lastGpuIndexes)) {
            for (const Metric m : MetricId::gpuMetrics()) {
                record(MetricId::key(m, gone), now(), std::nullopt);
            }
        }
        m_lastGpuIndexes.clear();
        changed();
    });
    connect(&m_conn, &ssh::Transport::stateChanged, this, &HostMonitor::onConnection);
    applyDeployment();
    if (m_config.serverPort != 0) {
        m_serverPort = m_config.serverPort; // the operator's one server: no others
        m_otherPorts.clear();
    }
    // Spread over a tenth of the period, so a fleet's hosts do not all write in the same second.
    m_archiveTimer->setInterval(m_config.archivePeriodMs +
                                int(qHash(m_hostName) % quint64(std::max(1, m_config.archivePeriodMs / 10))));
    connect(m_archiveTimer, &QTimer::timeout, this, &HostMonitor::saveHistory);
    loadHistory();
}

void HostMonitor::loadHistory()
{
    if (m_config.archiveFile.isEmpty()) {
        return;
    }
    auto loaded = MetricsArchive(m_config.archiveFile).load(now());
    if (!loaded) {
        m_status.historyError = loaded.message();
        applog::metrics().warn("{}: {}", m_hostName.toStdString(), loaded.message().toStdString());
        return;
    }
    m_series = std::move(loaded).value();
}

void HostMonitor::setArchiveFile(const QString &file)
{
    if (file == m_config.archiveFile) {
        return;
    }
    m_config.archiveFile = file;
    m_status.historyError.clear();
    if (file.isEmpty()) {
        m_archiveTimer->stop();
        return;
    }
    saveHistory(); // what is in memory now is the history from here on
    if (m_running) {
        m_archiveTimer->start();
    }
}

void HostMonitor::saveHistory()
{
    if (m_config.archiveFile.isEmpty() || m_series.isEmpty()) {
        return;
    }
    const Status saved = MetricsArchive(m_config.archiveFile).save(m_series, now());
    const QString error = saved ? QString() : saved.message();
    if (error != m_status.historyError) {
        if (!saved) {
            applog::metrics().warn("{}: {}", m_hostName.toStdString(), error.toStdString());
        }
        m_status.historyError = error;
        if (m_running) {
            changed();
        }
    }
}

HostMonitor::~HostMonitor()
{
    stop();
}

void HostMonitor::applyDeployment()
{
    if (!m_config.deployment) {
        return; // no deployment by Flashdeck here: GPUs, disk and any Flashdeck container only
    }
    const recipe::Deployment &d = *m_config.deployment;
    m_status.applyDeployment(d);
    if (const auto recipes = recipe::Recipe::builtIn()) {
        for (const recipe::Recipe &r : recipes.value()) {
            if (!r.profile(m_status.profile)) {
                continue;
            }
            // The profile as it was laid out (the operator's port and GPUs; a node's services behind
            // the Router): the first server's metrics, never the Router's, which has SGLang's none.
            if (const Result<recipe::RecipeProfile> laid = recipe::ProfileChoice::asDeployed(r, d)) {
                const recipe::RecipeProfile &p = laid.value();
                m_vendor = p.vendor;
                m_serverPort = p.replicas.isEmpty() ? 0 : p.replicas.first().port;
                m_otherPorts.clear();
                for (qsizetype i = 1; i < p.replicas.size(); ++i) {
                    m_otherPorts.append(p.replicas.at(i).port);
                }
                m_expectedKvTokens = p.kvTokensExpected;
            }
        }
    }
}

void HostMonitor::heardFromGpus()
{
    m_gpuHeardAtMs = now();
    m_gpuWatchdog->start(int(kGpuSilenceMs));
}

void HostMonitor::start()
{
    if (m_running) {
        return;
    }
    m_running = true;
    if (!m_config.archiveFile.isEmpty()) {
        m_archiveTimer->start();
    }
    if (m_conn.state().phase == ssh::ConnectionPhase::Ready) {
        onConnection(m_conn.state());
    }
}

void HostMonitor::stop()
{
    if (m_archiveTimer->isActive()) {
        m_archiveTimer->stop();
        saveHistory();
    }
    m_running = false;
    m_containers->stop();
    m_disk->stop();
    m_gpuWatchdog->stop();
    if (m_gpus) {
        m_gpus->stop();
    }
    if (m_server) {
        m_server->stop();
    }
    if (m_others) {
        m_others->stop();
    }
    followServerLog(false);
}

bool HostMonitor::settled() const
{
    if (isAway(m_status.state)) {
        return true;
    }
    return m_gpusAnswered && m_dockerAnswered && m_diskAnswered &&
        (m_serverPort == 0 || m_serverHealth != ServerHealth::Unknown);
}

void HostMonitor::onConnection(const ssh::ConnectionState &state)
{
    if (!m_running) {
        return;
    }
    switch (state.phase) {
    case ssh::ConnectionPhase::Ready:
        m_status.state = HostState::Up;
        m_status.error.clear();
        if (!m_started) {
            m_started = true;
            detectVendorAndStart();
        }
        changed();
        break;
    case ssh::ConnectionPhase::Reconnecting:
    case ssh::ConnectionPhase::Failed:
    case ssh::ConnectionPhase::Disconnected:
        m_status.state = state.phase == ssh::ConnectionPhase::Failed ? HostState::Failed : HostState::Unreachable;
        m_status.error = state.error.message.isEmpty() ? state.describe() : state.error.message;
        markGap(now());
        changed();
        break;
    default:
        break;
    }
}

void HostMonitor::startServerSampler()
{
    if (m_serverPort == 0) {
        return;
    }
    m_server = std::make_unique<ServerSampler>(m_conn, m_serverPort, m_config.apiKey, m_config.serverPeriodMs);
    m_others.reset();
    if (!m_otherPorts.isEmpty()) {
        m_others = std::make_unique<ServiceSamplers>(m_conn, m_otherPorts, m_config.apiKey, m_config.serverPeriodMs);
        m_others->start();
    }
    connect(m_server.get(), &ServerSampler::healthChanged, this, [this](ServerHealth health) {
        m_serverHealth = health;
        applyServerHealth();
        changed();
    });
    connect(m_server.get(), &ServerSampler::sampled, this, [this](const ServerSnapshot &first, const ServerRates &r) {
        // Several services behind the Router: each one's look, and their sum as the server's.
        QList<ServiceSnapshot> services{{m_serverPort, first}};
        if (m_others) {
            services += m_others->latest();
        }
        const ServerSnapshot s = sumOfServices(services);
        m_status.services = services;
        m_status.server = s;
        // An interval without requests has no latency: keep the last one measured.
        ServerRates merged = r;
        if (!merged.ttftP50) {
            merged.ttftP50 = m_status.rates.ttftP50;
            merged.ttftP95 = m_status.rates.ttftP95;
        }
        if (!merged.e2eP50) {
            merged.e2eP50 = m_status.rates.e2eP50;
            merged.e2eP95 = m_status.rates.e2eP95;
        }
        m_status.rates = merged;
        record(MetricId::key(Metric::KvUsage), s.atMs, s.tokenUsage);
        record(MetricId::key(Metric::KvUsedTokens), s.atMs, s.usedTokens);
        record(MetricId::key(Metric::ServerRunning), s.atMs, s.running);
        record(MetricId::key(Metric::ServerQueued), s.atMs, s.queued);
        record(MetricId::key(Metric::ServerThroughput), s.atMs, s.genThroughput);
        record(MetricId::key(Metric::SpecAcceptLength), s.atMs, s.specAcceptLength);
        if (r.ttftP50) {
            record(MetricId::key(Metric::TtftP50), s.atMs, r.ttftP50);
            record(MetricId::key(Metric::TtftP95), s.atMs, r.ttftP95);
        }
        if (r.e2eP50) {
            record(MetricId::key(Metric::E2eP50), s.atMs, r.e2eP50);
            record(MetricId::key(Metric::E2eP95), s.atMs, r.e2eP95);
        }
        changed();
    });
    connect(m_server.get(), &ServerSampler::logFallbackChanged, this, &HostMonitor::followServerLog);
    m_server->start();
}

void HostMonitor::reloadDeployment(const std::optional<recipe::Deployment> &deployment)
{
    // A deployment made (or redone) while Flashdeck runs: its profile, port and pins, and a
    // sampler for its server, without restarting the monitor (its history stays). None (the
    // manifest unreadable or gone): what was known stays, as it did when the file was read here.
    if (deployment) {
        m_config.deployment = deployment;
    }
    const quint16 before = m_serverPort;
    applyDeployment();
    if (m_config.serverPort != 0) {
        m_serverPort = m_config.serverPort; // the operator's one server: no others
        m_otherPorts.clear();
    }
    if (m_running && m_samplersStarted && m_serverPort != 0 && (!m_server || m_serverPort != before)) {
        m_server.reset();
        m_serverHealth = ServerHealth::Unknown;
        startServerSampler();
    }
    changed();
}

void HostMonitor::detectVendorAndStart()
{
    auto startSamplers = [this] {
        if (m_vendor && *m_vendor != probe::GpuVendor::None) {
            m_gpus = std::make_unique<GpuSampler>(m_conn, *m_vendor, m_config.gpuPeriodMs);
            connect(m_gpus.get(), &GpuSampler::sampled, this, [this](const QList<probe::GpuSample> &gpus, qint64 at) {
                m_gpusAnswered = true;
                heardFromGpus();
                m_status.gpus = gpus;
                m_status.gpusAtMs = at;
                m_status.gpuError.clear();
                QList<int> seen;
                for (const probe::GpuSample &g : gpus) {
                    record(MetricId::key(Metric::GpuUtilisation, g.index), at,
                           g.utilizationGpu ? std::optional<double>(*g.utilizationGpu) : std::nullopt);
                    record(MetricId::key(Metric::GpuMemoryUsed, g.index), at,
                           g.memoryUsedMiB ? std::optional<double>(double(*g.memoryUsedMiB)) : std::nullopt);
                    record(MetricId::key(Metric::GpuPower, g.index), at, g.powerW);
                    record(MetricId::key(Metric::GpuTemperature, g.index), at, g.temperatureC);
                    seen.append(g.index);
                }
                // A GPU that vanished from the readings (fell off the bus): a gap, not its last value.
                for (const int gone : std::as_const(m_lastGpuIndexes)) {
                    if (!seen.contains(gone)) {
                        for (const Metric m : MetricId::gpuMetrics()) {
                            record(MetricId::key(m, gone), at, std::nullopt);
                        }
                    }
                }
                m_lastGpuIndexes = seen;
                changed();
            });
            connect(m_gpus.get(), &GpuSampler::failed, this, [this](const QString &message) {
                m_gpusAnswered = true;
                heardFromGpus();
                m_status.gpuError = message;
                changed();
            });
            m_gpus->start();
            heardFromGpus();
        } else {
            m_gpusAnswered = true;
            m_status.gpuError =
                QCoreApplication::translate("Metrics", "neither nvidia-smi nor amd-smi/rocm-smi is on the host's PATH");
        }
        m_samplersStarted = true;
        startServerSampler();
        m_containers->start();
        m_disk->start();
        changed();
    };
    if (m_vendor) {
        startSamplers();
        return;
    }
    // No manifest: ask the host which GPU tools it has.
    ssh::CommandReply *which =
        m_conn.execute("if command -v nvidia-smi >/dev/null 2>&1; then echo nvidia; elif command -v amd-smi "
                       ">/dev/null 2>&1 || command -v rocm-smi >/dev/null 2>&1; then echo amd; else echo "
                       "none; fi",
                       30000, this);
    connect(which, &ssh::CommandReply::finished, this, [this, which, startSamplers](const ssh::CommandResult &r) {
        which->deleteLater();
        const QByteArray first = r.stdoutData.split('\n').constFirst().trimmed();
        if (!first.isEmpty()) {
            m_vendor = probe::gpuVendorFromName(QString::fromUtf8(first)).value_or(probe::GpuVendor::None);
        }
        startSamplers();
    });
}

void HostMonitor::followServerLog(bool follow)
{
    if (m_config.log == nullptr) {
        return;
    }
    m_config.log->unsubscribe(this);
    m_decodeRule = -1;
    if (!follow || !m_running) {
        return;
    }
    const QList<logs::LogRule> &rules = m_config.log->rules().rules();
    for (int i = 0; i < rules.size(); ++i) {
        if (rules[i].id == QLatin1String("decode")) {
            m_decodeRule = i;
        }
    }
    // No history asked; but a stream this subscription starts first replays what the pages keep
    // (its tail), and an idle server's last Decode line may be hours old: only lines from about
    // now count. A minute of slack for the host's clock against ours (Docker stamps the lines).
    m_logFromMs = now() - 60 * 1000;
    m_config.log->subscribe(this, 0, [this](const QList<logs::LogRecord> &records) { feedDecodeLines(records); });
}

void HostMonitor::feedDecodeLines(const QList<logs::LogRecord> &records)
{
    if (!m_server || m_decodeRule < 0) {
        return;
    }
    for (const logs::LogRecord &r : records) {
        if (r.rule == m_decodeRule && (r.timeNs <= 0 || r.timeNs / 1000000 >= m_logFromMs)) {
            m_server->feedLogLine(r.text, r.timeNs > 0 ? r.timeNs / 1000000 : now());
        }
    }
}

void HostMonitor::applyServerHealth()
{
    // No deployment on the host (its Docker lists none of ours): nothing answering on the port is
    // "no deployment", not a server that is down. A server someone runs by hand still shows.
    const bool none = m_status.containerKnown && !m_status.container;
    m_status.health = none && m_serverHealth == ServerHealth::Down ? ServerHealth::Unknown : m_serverHealth;
}

void HostMonitor::setApiKey(const QString &apiKey)
{
    m_config.apiKey = apiKey;
    if (m_server) {
        m_server->setApiKey(apiKey);
    }
    if (m_others) {
        m_others->setApiKey(apiKey);
    }
}

void HostMonitor::setThresholds(const AlertThresholds &thresholds)
{
    m_config.thresholds = thresholds;
    changed();
}

const TimeSeries *HostMonitor::series(const QString &name) const
{
    const auto it = m_series.constFind(name);
    return it == m_series.cend() ? nullptr : it->get();
}

QList<int> HostMonitor::gpuIndexes() const
{
    QList<int> out;
    for (const QString &name : seriesNames()) {
        if (const auto gpu = MetricId::parseGpuKey(name); gpu && gpu->second == Metric::GpuUtilisation) {
            out.append(gpu->first);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

QStringList HostMonitor::seriesNames() const
{
    QStringList names = m_series.keys();
    names.sort();
    return names;
}

void HostMonitor::record(const QString &name, qint64 atMs, std::optional<double> value)
{
    std::shared_ptr<TimeSeries> &s = m_series[name];
    if (!s) {
        s = std::make_shared<TimeSeries>();
    }
    s->append(atMs, value.value_or(std::numeric_limits<double>::quiet_NaN()));
}

void HostMonitor::markGap(qint64 atMs)
{
    for (auto &s : m_series) {
        s->appendGap(atMs);
    }
}

void HostMonitor::changed()
{
    m_status.updatedMs = now();
    // A stat per change: an upgrade started from a terminal is seen at the next sample.
    m_status.upgradeRunning = !m_config.upgradeLock.isEmpty() && HeldLock::isHeld(m_config.upgradeLock);
    m_status.deployRunning = !m_config.deployLock.isEmpty() && HeldLock::isHeld(m_config.deployLock);
    m_status.alerts = m_alerts.update(evaluateAlerts(m_status, m_config.thresholds), m_status.updatedMs);
    Q_EMIT statusChanged();
}

} // namespace flashdeck::metrics
