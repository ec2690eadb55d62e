#include "backend/metrics/hoststatus.h"

#include "backend/core/format.h"
#include "backend/core/settings.h"
#include "backend/recipe/deployment.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>

#include <nlohmann/json.hpp>

namespace flashdeck::metrics {

namespace {

using nlohmann::json;

template<typename T>
json orNull(const std::optional<T> &v)
{
    return v ? json(*v) : json(nullptr);
}

json text(const QString &s)
{
    return s.isEmpty() ? json(nullptr) : json(s.toStdString());
}

/**
 * Why a server's container that is not running does not serve, in words; Docker's own status
 * ("Exited (137) 2 minutes ago", "Created") follows in its words. A container that was created and
 * not started is also what a launch shows for a moment between `create` and `start`.
 */
QString containerDownMessage(const ContainerStatus &c)
{
    const QString docker = c.status.isEmpty() ? c.state : c.status;
    if (c.state == QLatin1String("created")) {
        return QCoreApplication::translate("Metrics", "%1 was created and has not started (Docker: %2)")
            .arg(c.name, docker);
    }
    if (c.state == QLatin1String("paused")) {
        return QCoreApplication::translate("Metrics", "%1 is paused (Docker: %2)").arg(c.name, docker);
    }
    return QCoreApplication::translate("Metrics", "%1 is not running (Docker: %2)").arg(c.name, docker);
}

json gpusJson(const QList<probe::GpuSample> &gpus)
{
    json gpuList = json::array();
    for (const probe::GpuSample &g : gpus) {
        gpuList.push_back({{"index", g.index},
                           {"name", text(g.name)},
                           {"memory_used_mib", orNull(g.memoryUsedMiB)},
                           {"memory_total_mib", orNull(g.memoryTotalMiB)},
                           {"utilization_pct", orNull(g.utilizationGpu)},
                           {"temperature_c", orNull(g.temperatureC)},
                           {"power_w", orNull(g.powerW)}});
    }
    return gpuList;
}

json containerJson(const HostStatus &st)
{
    json out = nullptr;
    if (st.container) {
        out = {{"name", st.container->name.toStdString()},
               {"state", st.container->state.toStdString()},
               {"status", st.container->status.toStdString()},
               {"deployment", st.container->deployment.toStdString()}};
    } else if (st.containerKnown) {
        out = {{"name", nullptr}, {"state", "none"}};
    }
    return out;
}

/** Each SGLang service behind the entry point. */
json servicesJson(const QList<ServiceSnapshot> &services)
{
    json each = json::array();
    for (const ServiceSnapshot &service : services) {
        const ServerSnapshot &v = service.snapshot;
        each.push_back({{"port", service.port},
                        {"token_usage", orNull(v.tokenUsage)},
                        {"used_tokens", orNull(v.usedTokens)},
                        {"max_tokens", orNull(v.maxTokens)},
                        {"running", orNull(v.running)},
                        {"queued", orNull(v.queued)},
                        {"gen_throughput", orNull(v.genThroughput)}});
    }
    return each;
}

json serverJson(const HostStatus &st)
{
    json out = nullptr;
    if (st.health != ServerHealth::Unknown || st.server) {
        const ServerSnapshot s = st.server.value_or(ServerSnapshot{});
        const ServerRates &rates = st.rates;
        out = {{"health", text(serverHealthName(st.health))},
               {"source", text(s.source)},
               {"token_usage", orNull(s.tokenUsage)},
               {"used_tokens", orNull(s.usedTokens)},
               {"max_tokens", orNull(s.maxTokens)},
               {"running", orNull(s.running)},
               {"queued", orNull(s.queued)},
               {"gen_throughput", orNull(s.genThroughput)},
               {"cache_hit_rate", orNull(s.cacheHitRate)},
               {"spec_accept_length", orNull(s.specAcceptLength)},
               {"ttft_p50_s", orNull(rates.ttftP50)},
               {"ttft_p95_s", orNull(rates.ttftP95)},
               {"e2e_p50_s", orNull(rates.e2eP50)},
               {"e2e_p95_s", orNull(rates.e2eP95)},
               {"requests_per_s", orNull(rates.requestsPerSecond)},
               {"error_rate", orNull(rates.errorRate)}};
        // Each SGLang service behind the entry point: the figures above are their sum.
        out["services"] = servicesJson(st.services);
    }
    return out;
}

json alertsJson(const QList<Alert> &alerts)
{
    json alertList = json::array();
    for (const Alert &a : alerts) {
        alertList.push_back(
            {{"id", a.id.toStdString()},
             {"severity", a.severity.toStdString()},
             {"message", a.message.toStdString()},
             {"since", QDateTime::fromMSecsSinceEpoch(a.sinceMs, Qt::UTC).toString(Qt::ISODateWithMs).toStdString()}});
    }
    return alertList;
}

void raiseAlert(QList<Alert> &out, const QString &id, const char *severity, const QString &message)
{
    out.append(Alert{id, QString::fromLatin1(severity), message, 0, 0});
}

/**
 * Drift: the deployment runs other pins than the fleet's pins file (a host never deployed is
 * not drifting: it runs nothing). Judged from the records, so also while the host is away: an
 * upgrade from a terminal to other pins is drift whether or not the host answers now.
 */
void driftAlert(QList<Alert> &out, const HostStatus &s, const AlertThresholds &t)
{
    if (t.pins && s.pins) {
        if (const QStringList differs = s.pins->differencesFrom(*t.pins); !differs.isEmpty()) {
            raiseAlert(out, QStringLiteral("pins-drift"), "warning",
                       QCoreApplication::translate("Metrics", "Runs other pins than %1: %2")
                           .arg(QFileInfo(t.pinsFile).fileName(), differs.join(QStringLiteral("; "))));
        }
    }
}

void gpuMemoryAlerts(QList<Alert> &out, const HostStatus &s, const AlertThresholds &t)
{
    for (const probe::GpuSample &g : s.gpus) {
        if (g.memoryUsedMiB && g.memoryTotalMiB && *g.memoryTotalMiB > 0) {
            const double pct = 100.0 * double(*g.memoryUsedMiB) / double(*g.memoryTotalMiB);
            if (pct >= t.gpuMemoryPct) {
                raiseAlert(out, QStringLiteral("gpu-memory-high:%1").arg(g.index), "warning",
                           QCoreApplication::translate("Metrics", "GPU %1 memory at %2 % (threshold %3 %)")
                               .arg(g.index)
                               .arg(pct, 0, 'f', 1)
                               .arg(t.gpuMemoryPct));
            }
        }
    }
}

/** The queue, the latency and the aborted requests against their thresholds. */
void loadAlerts(QList<Alert> &out, const HostStatus &s, const AlertThresholds &t)
{
    if (s.server && s.server->queued && *s.server->queued >= t.queueDepth) {
        raiseAlert(out, QStringLiteral("queue-high"), "warning",
                   QCoreApplication::translate("Metrics", "%1 requests queued (threshold %2)")
                       .arg(*s.server->queued)
                       .arg(t.queueDepth));
    }
    if (s.rates.ttftP95 && *s.rates.ttftP95 >= t.ttftP95Seconds) {
        raiseAlert(out, QStringLiteral("latency-high"), "warning",
                   QCoreApplication::translate("Metrics", "Time to first token p95 %1 s (threshold %2 s)")
                       .arg(*s.rates.ttftP95, 0, 'f', 2)
                       .arg(t.ttftP95Seconds));
    }
    if (s.rates.errorRate && *s.rates.errorRate * 100.0 >= t.errorRatePct) {
        raiseAlert(out, QStringLiteral("error-rate-high"), "critical",
                   QCoreApplication::translate("Metrics", "%1 % of requests aborted (threshold %2 %)")
                       .arg(*s.rates.errorRate * 100.0, 0, 'f', 1)
                       .arg(t.errorRatePct));
    }
}

/** At most one alert on the server's container: work under way, restarting, down, or not answering. */
void containerAlert(QList<Alert> &out, const HostStatus &s)
{
    if (s.upgradeRunning) {
        // Planned: `upgrade` stops the server and starts it on the new pins (or rolls back). The
        // upgrade's own steps say when it fails; a critical "does not answer" here would page an
        // operator for the work they started.
        raiseAlert(out, QStringLiteral("upgrade-running"), "info",
                   QCoreApplication::translate("Metrics",
                                               "An upgrade runs on this host: its server restarts on the new pins"));
    } else if (s.deployRunning) {
        // Its steps make and start the container and say when one fails: a container "created"
        // and not yet started, or a server loading its weights, is the work under way.
        raiseAlert(
            out, QStringLiteral("deploy-running"), "info",
            QCoreApplication::translate("Metrics", "A deployment runs on this host: its steps start the server"));
    } else if (s.container && s.container->state == QLatin1String("restarting")) {
        raiseAlert(out, QStringLiteral("container-restarting"), "critical",
                   QCoreApplication::translate("Metrics", "%1 keeps restarting (Docker: %2)")
                       .arg(s.container->name, s.container->status));
    } else if (s.container && s.container->state != QLatin1String("running")) {
        raiseAlert(out, QStringLiteral("container-down"), "critical", containerDownMessage(*s.container));
    } else if (s.container && s.health == ServerHealth::Down) {
        raiseAlert(
            out, QStringLiteral("container-down"), "critical",
            QCoreApplication::translate("Metrics", "%1 runs but its server does not answer").arg(s.container->name));
    } else if (!s.containerKnown && s.source == QLatin1String("prometheus") && s.health == ServerHealth::Down) {
        // Prometheus sees no containers: its scrape of the server failing is what it knows.
        raiseAlert(out, QStringLiteral("server-down"), "critical",
                   QCoreApplication::translate("Metrics", "The server does not answer Prometheus' scrape (up is 0)"));
    }
}

/** The disk's free space and the NVFP4 KV kernel's fallback. */
void diskAndKernelAlerts(QList<Alert> &out, const HostStatus &s, const AlertThresholds &t)
{
    if (s.diskFreeBytes && double(*s.diskFreeBytes) / 1e9 < t.diskFreeGb) {
        raiseAlert(out, QStringLiteral("disk-low"), "warning",
                   QCoreApplication::translate("Metrics", "%1 GB free for the caches (threshold %2 GB)")
                       .arg(fmt::gbNumber(*s.diskFreeBytes))
                       .arg(t.diskFreeGb));
    }
    if (s.qmul4Fallback) {
        raiseAlert(out, QStringLiteral("qmul4-fallback"), "warning",
                   QCoreApplication::translate(
                       "Metrics",
                       "The NVFP4 KV kernel fell back from qmul4: the server's image has a CUDA Toolkit "
                       "older than 13.4; run the pinned image (or one with CUDA 13.4 or newer)"));
    }
}

} // namespace

AlertThresholds AlertThresholds::fromSettings(const Settings &settings)
{
    AlertThresholds t;
    t.gpuMemoryPct = settings.alertThreshold(QStringLiteral("gpu_memory_pct"), t.gpuMemoryPct);
    t.queueDepth = settings.alertThreshold(QStringLiteral("queue_depth"), t.queueDepth);
    t.ttftP95Seconds = settings.alertThreshold(QStringLiteral("ttft_p95_s"), t.ttftP95Seconds);
    t.errorRatePct = settings.alertThreshold(QStringLiteral("error_rate_pct"), t.errorRatePct);
    t.diskFreeGb = settings.alertThreshold(QStringLiteral("disk_free_gb"), t.diskFreeGb);
    t.usePinsFile(settings.fleetPinsFile());
    return t;
}

void AlertThresholds::usePinsFile(const QString &file)
{
    pinsFile = file;
    pins.reset();
    pinsError.clear();
    if (file.isEmpty()) {
        return;
    }
    Result<recipe::Pins> read = recipe::Pins::readFrom(file);
    if (read) {
        pins = std::move(read).value();
    } else {
        pinsError = read.message();
    }
}

void HostStatus::applyDeployment(const recipe::Deployment &d)
{
    profile = d.profile;
    undeployed = d.isUndeployed();
    if (undeployed) {
        // Undeployed runs nothing: no pins to show or to drift from, no kernel verdict to raise.
        imageDigest.clear();
        modelSha.clear();
        pins.reset();
        qmul4Fallback = false;
        return;
    }
    imageDigest = d.imageDigest;
    modelSha = d.modelSha;
    const Result<recipe::Pins> read = recipe::Pins::of(d);
    pins = read ? std::optional<recipe::Pins>(read.value()) : std::nullopt;
    qmul4Fallback = d.stepStatus(QStringLiteral("check.qmul4")) == recipe::StepStatus::Warn;
}

json HostStatus::toJson() const
{
    return {{"host", host.toStdString()},
            {"state", hostStateName(state).toStdString()},
            {"error", text(error)},
            {"gpus", gpusJson(gpus)},
            {"gpu_error", text(gpuError)},
            {"container", containerJson(*this)},
            {"server", serverJson(*this)},
            {"disk_free_bytes", orNull(diskFreeBytes)},
            {"profile", text(profile)},
            {"image_digest", text(imageDigest)},
            {"model_sha", text(modelSha)},
            // The deployment's pins (flashdeck pins HOST --json's object), null before any.
            {"pins", pins ? pins->toJson() : json(nullptr)},
            {"alerts", alertsJson(alerts)},
            // Added: an upgrade or rollback of the host runs (its server is down on purpose).
            {"upgrade_running", upgradeRunning},
            {"deploy_running", deployRunning},
            // Added with the Prometheus source: "ssh" or "prometheus", and whether the inventory lists it.
            {"source", source.toStdString()},
            {"in_inventory", inInventory},
            {"updated",
             updatedMs
                 ? json(QDateTime::fromMSecsSinceEpoch(updatedMs, Qt::UTC).toString(Qt::ISODateWithMs).toStdString())
                 : json(nullptr)}};
}

QList<Alert> evaluateAlerts(const HostStatus &s, const AlertThresholds &t)
{
    QList<Alert> out;
    if (isAway(s.state)) {
        raiseAlert(out, QStringLiteral("host-unreachable"), "critical",
                   QCoreApplication::translate("Metrics", "Host unreachable: %1")
                       .arg(s.error.isEmpty() ? QCoreApplication::translate("Metrics", "no answer") : s.error));
        driftAlert(out, s, t);
        return out; // nothing else is known while it is away
    }
    if (s.state == HostState::Unscraped) {
        // Prometheus' exporters there are down or blocked: a warning about them, not "Host
        // unreachable" (SSH may reach it, and the server may serve).
        raiseAlert(out, QStringLiteral("exporters-down"), "warning", s.error);
        return out;
    }
    gpuMemoryAlerts(out, s, t);
    driftAlert(out, s, t);
    loadAlerts(out, s, t);
    containerAlert(out, s);
    diskAndKernelAlerts(out, s, t);
    return out;
}

QList<Alert> AlertTracker::update(const QList<Alert> &now, qint64 atMs)
{
    QList<Alert> next;
    for (Alert a : now) {
        const auto it = std::find_if(m_active.cbegin(), m_active.cend(), [&a](const Alert &x) { return x.id == a.id; });
        a.sinceMs = it != m_active.cend() ? it->sinceMs : atMs;
        a.lastMs = atMs;
        next.append(a);
    }
    for (const Alert &old : m_active) {
        if (std::none_of(next.cbegin(), next.cend(), [&old](const Alert &x) { return x.id == old.id; })) {
            m_history.prepend(old);
        }
    }
    if (m_history.size() > 200) {
        m_history.resize(200);
    }
    m_active = next;
    return m_active;
}

} // namespace flashdeck::metrics
