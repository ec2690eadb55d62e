#include "backend/prometheus/promfleet.h"

#include "backend/metrics/prometheustext.h"
#include "backend/metrics/serversnapshot.h"

#include <QCoreApplication>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>

namespace flashdeck::prom {

namespace {

// NVIDIA's dcgm-exporter (MiB, %, °C, W; labels gpu, modelName, UUID, Hostname) and AMD's
// Device Metrics Exporter (gpu_id, card_model, hostname; VRAM in MiB as amd-smi counts it):
// https://docs.nvidia.com/datacenter/dcgm/latest/reference/dcgm-exporter-metrics.html,
// https://github.com/ROCm/device-metrics-exporter (docs/configuration/metricslist.md).
const char *const kGpuSeries = "DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_FB_USED|DCGM_FI_DEV_FB_FREE|DCGM_FI_DEV_GPU_TEMP|"
                               "DCGM_FI_DEV_POWER_USAGE|gpu_gfx_activity|gpu_used_vram|gpu_total_vram|"
                               "gpu_junction_temperature|gpu_package_power";
// The scheduler's gauges that the status and the alerts read (sglang-facts §5).
const char *const kServerGauges = "sglang:(token_usage|num_used_tokens|max_total_num_tokens|num_running_reqs|"
                                  "num_queue_reqs|gen_throughput|cache_hit_rate|spec_accept_length|spec_accept_rate)";

/** One GPU while its series come in: DCGM gives used and free, not total. */
struct GpuParts
{
    probe::GpuSample sample;
    std::optional<qint64> freeMiB;
};

std::optional<double> finite(double v)
{
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

void addGpuSeries(GpuParts &parts, const QString &name, const PromSeries &s)
{
    probe::GpuSample &g = parts.sample;
    if (g.name.isEmpty()) {
        g.name = s.hasLabel(u"modelName") ? s.label(u"modelName") : s.label(u"card_model");
        g.uuid = s.label(QStringLiteral("UUID"));
    }
    const std::optional<double> v = finite(s.value());
    if (!v) {
        return;
    }
    if (name == QLatin1String("DCGM_FI_DEV_GPU_UTIL") || name == QLatin1String("gpu_gfx_activity")) {
        g.utilizationGpu = int(std::lround(*v));
    } else if (name == QLatin1String("DCGM_FI_DEV_FB_USED") || name == QLatin1String("gpu_used_vram")) {
        g.memoryUsedMiB = qint64(std::llround(*v));
    } else if (name == QLatin1String("gpu_total_vram")) {
        g.memoryTotalMiB = qint64(std::llround(*v));
    } else if (name == QLatin1String("DCGM_FI_DEV_FB_FREE")) {
        parts.freeMiB = qint64(std::llround(*v));
    } else if (name == QLatin1String("DCGM_FI_DEV_GPU_TEMP") || name == QLatin1String("gpu_junction_temperature")) {
        g.temperatureC = *v;
    } else if (name == QLatin1String("DCGM_FI_DEV_POWER_USAGE") || name == QLatin1String("gpu_package_power")) {
        g.powerW = *v;
    }
}

/** A histogram's bucket rates by `le`, ascending, summed over the host's servers: what histogramQuantile() reads. */
QList<std::pair<double, double>> buckets(const QList<const PromSeries *> &series)
{
    std::map<double, double> byBound;
    for (const PromSeries *s : series) {
        bool ok = false;
        const QString le = s->label(QStringLiteral("le"));
        const double bound = le == QLatin1String("+Inf") ? std::numeric_limits<double>::infinity() : le.toDouble(&ok);
        if ((ok || std::isinf(bound)) && std::isfinite(s->value())) {
            byBound[bound] += s->value();
        }
    }
    return {byBound.begin(), byBound.end()};
}

/** Everything the answers say about one host. */
struct HostParts
{
    std::map<int, GpuParts> gpus;
    metrics::PromScrape server;
    QList<const PromSeries *> ttft;
    QList<const PromSeries *> e2e;
    std::optional<double> requests;
    std::optional<double> aborted;
    int targetsUp = 0;
    int targetsDown = 0;
    std::optional<bool> serverUp;
    std::optional<qint64> diskFree;
};

} // namespace

QList<FleetQueryText> fleetQueries(const QString &hostLabel)
{
    const QString by = QStringLiteral("sum by (%1, le) (rate(%2[5m]))");
    const QString rate = QStringLiteral("sum by (%1) (rate(%2[5m]))");
    // Aggregated `by` only the labels read here: an exporter's other labels (UUID, PCI bus,
    // driver, model path, pid…) would be most of the answer's bytes for nothing — 500 hosts' GPU
    // series are some 4 MB of JSON with them. `max by (__name__, …)` keeps each series' name.
    return {
        {FleetQuery::Gpus,
         QStringLiteral("max by (__name__, %1, gpu, gpu_id, modelName, card_model) "
                        "({__name__=~\"%2\"})")
             .arg(hostLabel, QLatin1String(kGpuSeries))},
        {FleetQuery::Server,
         QStringLiteral("max by (__name__, %1, dp_rank, tp_rank, pp_rank) ({__name__=~\"%2\"})")
             .arg(hostLabel, QLatin1String(kServerGauges))},
        {FleetQuery::Ttft, by.arg(hostLabel, QStringLiteral("sglang:time_to_first_token_seconds_bucket"))},
        {FleetQuery::E2e, by.arg(hostLabel, QStringLiteral("sglang:e2e_request_latency_seconds_bucket"))},
        {FleetQuery::Requests, rate.arg(hostLabel, QStringLiteral("sglang:num_requests_total"))},
        {FleetQuery::Aborted, rate.arg(hostLabel, QStringLiteral("sglang:num_aborted_requests_total"))},
        {FleetQuery::Up, QStringLiteral("up")},
        // node_exporter: the root filesystem, where Docker keeps images unless moved.
        {FleetQuery::Disk,
         QStringLiteral("min by (%1) (node_filesystem_avail_bytes{mountpoint=\"/\"})").arg(hostLabel)},
    };
}

HostNamer::HostNamer(const PromConfig &config, const QList<KnownHost> &inventory)
    : m_label(config.hostLabel)
    , m_map(config.hostNames)
{
    for (const KnownHost &h : inventory) {
        m_inventory.insert(h.name);
        m_byAddress.insert(h.name.toLower(), h.name);
        if (!h.address.isEmpty()) {
            m_byAddress.insert(h.address.toLower(), h.name);
        }
    }
}

QString HostNamer::withoutPort(const QString &value)
{
    if (value.startsWith(QLatin1Char('['))) {
        const qsizetype close = value.indexOf(QLatin1Char(']'));
        return close > 0 ? value.mid(1, close - 1) : value;
    }
    const qsizetype colon = value.lastIndexOf(QLatin1Char(':'));
    if (colon > 0 && value.indexOf(QLatin1Char(':')) == colon) { // one colon: host:port, not bare IPv6
        bool ok = false;
        value.mid(colon + 1).toUShort(&ok);
        if (ok) {
            return value.left(colon);
        }
    }
    return value;
}

QString HostNamer::nameOf(const PromSeries &series) const
{
    const QString value = series.label(m_label);
    if (value.isEmpty()) {
        return {};
    }
    const QString bare = withoutPort(value);
    if (const auto it = m_map.constFind(value); it != m_map.cend()) {
        return it.value();
    }
    if (const auto it = m_map.constFind(bare); it != m_map.cend()) {
        return it.value();
    }
    return m_byAddress.value(bare.toLower(), bare);
}

namespace {

using SeriesTaker = std::function<void(HostParts &, const PromSeries &)>;

/** Hands each series of one answer to `take` with its host's parts; series naming no host are skipped. */
void forEachSeries(const QHash<FleetQuery, PromResult> &answers, const HostNamer &namer,
                   std::map<QString, HostParts> &hosts, FleetQuery q, const SeriesTaker &take)
{
    const auto it = answers.constFind(q);
    if (it == answers.cend()) {
        return;
    }
    for (const PromSeries &s : it->series) {
        const QString host = namer.nameOf(s);
        if (!host.isEmpty()) {
            take(hosts[host], s);
        }
    }
}

void takeGpu(HostParts &h, const PromSeries &s)
{
    bool ok = false;
    const QString index = s.hasLabel(u"gpu") ? s.label(u"gpu") : s.label(u"gpu_id");
    const int i = index.toInt(&ok);
    if (ok && i >= 0) {
        GpuParts &g = h.gpus[i];
        g.sample.index = i;
        addGpuSeries(g, s.label(QStringLiteral("__name__")), s);
    }
}

void takeServer(HostParts &h, const PromSeries &s)
{
    metrics::PromSample sample;
    sample.name = s.label(QStringLiteral("__name__")).toUtf8();
    for (const auto &[key, value] : s.labels) {
        if (key != QLatin1String("__name__")) {
            sample.labels.append({key.toUtf8(), value.toUtf8()});
        }
    }
    sample.value = s.value();
    h.server.samples.append(std::move(sample));
}

void addFinite(std::optional<double> &into, double v)
{
    if (std::isfinite(v)) {
        into = into.value_or(0) + v;
    }
}

void takeUp(HostParts &h, const PromSeries &s)
{
    const bool up = s.value() >= 1;
    (up ? h.targetsUp : h.targetsDown) += 1;
    // The server's own scrape job: its `up` is the server's health (0: Prometheus cannot reach it).
    if (s.label(QStringLiteral("job")).contains(QLatin1String("sglang"), Qt::CaseInsensitive)) {
        h.serverUp = h.serverUp.value_or(true) && up;
    }
}

void takeDisk(HostParts &h, const PromSeries &s)
{
    if (const auto v = finite(s.value())) {
        h.diskFree = std::min(h.diskFree.value_or(qint64(*v)), qint64(*v));
    }
}

/** Every answer's series, grouped by the host they name. */
std::map<QString, HostParts> collectHosts(const QHash<FleetQuery, PromResult> &answers, const HostNamer &namer)
{
    std::map<QString, HostParts> hosts;
    const auto each = [&](FleetQuery q, const SeriesTaker &take) { forEachSeries(answers, namer, hosts, q, take); };
    each(FleetQuery::Gpus, takeGpu);
    each(FleetQuery::Server, takeServer);
    each(FleetQuery::Ttft, [](HostParts &h, const PromSeries &s) { h.ttft.append(&s); });
    each(FleetQuery::E2e, [](HostParts &h, const PromSeries &s) { h.e2e.append(&s); });
    each(FleetQuery::Requests, [](HostParts &h, const PromSeries &s) { addFinite(h.requests, s.value()); });
    each(FleetQuery::Aborted, [](HostParts &h, const PromSeries &s) { addFinite(h.aborted, s.value()); });
    each(FleetQuery::Up, takeUp);
    each(FleetQuery::Disk, takeDisk);
    return hosts;
}

/** The GPUs by index, each with its total from used + free where the exporter gives no total. */
void fillGpus(metrics::HostStatus &s, HostParts &h, qint64 atMs)
{
    for (auto &[index, g] : h.gpus) {
        if (!g.sample.memoryTotalMiB && g.sample.memoryUsedMiB && g.freeMiB) {
            g.sample.memoryTotalMiB = *g.sample.memoryUsedMiB + *g.freeMiB;
        }
        s.gpus.append(g.sample);
    }
    s.gpusAtMs = s.gpus.isEmpty() ? 0 : atMs;
}

void fillRates(metrics::HostStatus &s, const HostParts &h)
{
    const QList<std::pair<double, double>> ttft = buckets(h.ttft);
    const QList<std::pair<double, double>> e2e = buckets(h.e2e);
    s.rates.ttftP50 = metrics::histogramQuantile(0.5, ttft);
    s.rates.ttftP95 = metrics::histogramQuantile(0.95, ttft);
    s.rates.e2eP50 = metrics::histogramQuantile(0.5, e2e);
    s.rates.e2eP95 = metrics::histogramQuantile(0.95, e2e);
    s.rates.requestsPerSecond = h.requests;
    s.rates.abortsPerSecond = h.aborted;
    if (h.requests && *h.requests > 0) {
        s.rates.errorRate = h.aborted.value_or(0) / *h.requests;
    }
}

/** One host's status from its parts. */
metrics::HostStatus hostStatus(const QString &name, HostParts &h, bool inInventory, qint64 atMs)
{
    metrics::HostStatus s;
    s.host = name;
    s.source = QStringLiteral("prometheus");
    s.inInventory = inInventory;
    s.updatedMs = atMs;
    s.state = h.targetsDown > 0 && h.targetsUp == 0 ? metrics::HostState::Unscraped : metrics::HostState::Up;
    if (s.state == metrics::HostState::Unscraped) {
        s.error = QCoreApplication::translate(
                      "Prometheus",
                      "Prometheus cannot scrape this host's exporters (up is 0 for %1 of its targets): the "
                      "exporters are down or blocked, which says nothing of the host itself. Check them, or "
                      "read the host over SSH.")
                      .arg(h.targetsDown);
    }
    fillGpus(s, h, atMs);
    if (!h.server.samples.isEmpty()) {
        metrics::ServerSnapshot snap = metrics::snapshotFromMetrics(h.server, atMs);
        snap.source = QStringLiteral("prometheus");
        s.server = snap;
    }
    fillRates(s, h);
    s.health = h.serverUp ? (*h.serverUp ? metrics::ServerHealth::Ok : metrics::ServerHealth::Down)
        : s.server        ? metrics::ServerHealth::Ok
                          : metrics::ServerHealth::Unknown;
    s.diskFreeBytes = h.diskFree;
    return s;
}

} // namespace

QList<metrics::HostStatus> assembleFleet(const QHash<FleetQuery, PromResult> &answers, const HostNamer &namer,
                                         qint64 atMs)
{
    std::map<QString, HostParts> hosts = collectHosts(answers, namer);
    QList<metrics::HostStatus> out;
    out.reserve(qsizetype(hosts.size()));
    for (auto &[name, h] : hosts) {
        // A GPU server is what has GPU or SGLang series: every other target Prometheus scrapes
        // (itself, Grafana, a database's exporter) has an `up` and maybe a disk, and is not listed
        // unless the inventory names it.
        const bool gpuServer = !h.gpus.empty() || !h.server.samples.isEmpty() || !h.ttft.isEmpty() || h.requests;
        // A target whose every scrape fails (up == 0) may be one: Prometheus cannot tell, so it
        // is listed, not dropped.
        if (!gpuServer && !namer.inInventory(name) && h.targetsDown == 0) {
            continue;
        }
        out.append(hostStatus(name, h, namer.inInventory(name), atMs));
    }
    return out;
}

} // namespace flashdeck::prom
