#include "backend/metrics/metricid.h"

#include <QCoreApplication>
#include <QStringList>

#include <array>

namespace flashdeck::metrics {

namespace {

constexpr double kNoMin = 1;
constexpr double kNoMax = 0;

// In enum order. The keys are what the history files hold: never rename one.
const std::array<MetricInfo, 14> kInfo{{
    {"gpu.%1.util", "%", 1.0, 0, 100, true},
    {"gpu.%1.mem_used_mib", QT_TRANSLATE_NOOP("Metrics", "GiB"), 1.0 / 1024.0, kNoMin, kNoMax, true},
    {"gpu.%1.power_w", "W", 1.0, kNoMin, kNoMax, true},
    {"gpu.%1.temp_c", "°C", 1.0, kNoMin, kNoMax, true},
    {"kv.usage", "%", 100.0, 0, 100, false},
    {"kv.used_tokens", QT_TRANSLATE_NOOP("Metrics", "M tokens"), 1e-6, kNoMin, kNoMax, false},
    {"server.running", "", 1.0, kNoMin, kNoMax, false},
    {"server.queued", "", 1.0, kNoMin, kNoMax, false},
    {"server.throughput", QT_TRANSLATE_NOOP("Metrics", "tok/s"), 1.0, kNoMin, kNoMax, false},
    {"ttft.p50", "s", 1.0, kNoMin, kNoMax, false},
    {"ttft.p95", "s", 1.0, kNoMin, kNoMax, false},
    {"e2e.p50", "s", 1.0, kNoMin, kNoMax, false},
    {"e2e.p95", "s", 1.0, kNoMin, kNoMax, false},
    {"spec.accept_length", QT_TRANSLATE_NOOP("Metrics", "tokens"), 1.0, kNoMin, kNoMax, false},
}};

} // namespace

const MetricInfo &MetricId::info(Metric metric)
{
    return kInfo.at(static_cast<std::size_t>(metric));
}

QString MetricId::key(Metric metric, int gpu)
{
    const MetricInfo &i = info(metric);
    return i.perGpu ? QString::fromLatin1(i.key).arg(gpu) : QString::fromLatin1(i.key);
}

QList<Metric> MetricId::gpuMetrics()
{
    return {Metric::GpuUtilisation, Metric::GpuMemoryUsed, Metric::GpuPower, Metric::GpuTemperature};
}

std::optional<std::pair<int, Metric>> MetricId::parseGpuKey(const QString &key)
{
    const QStringList parts = key.split(QLatin1Char('.'));
    if (parts.size() != 3 || parts.at(0) != QLatin1String("gpu")) {
        return std::nullopt;
    }
    bool ok = false;
    const int index = parts.at(1).toInt(&ok);
    if (!ok || index < 0) {
        return std::nullopt;
    }
    for (const Metric m : gpuMetrics()) {
        if (QString::fromLatin1(info(m).key).section(QLatin1Char('.'), 2) == parts.at(2)) {
            return std::pair{index, m};
        }
    }
    return std::nullopt;
}

} // namespace flashdeck::metrics
