#pragma once

#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace flashdeck::metrics {

/** What a host's monitor records over time (its TimeSeries, its chart history on disk). */
enum class Metric {
    GpuUtilisation,
    GpuMemoryUsed,
    GpuPower,
    GpuTemperature,
    KvUsage,
    KvUsedTokens,
    ServerRunning,
    ServerQueued,
    ServerThroughput,
    TtftP50,
    TtftP95,
    E2eP50,
    E2eP95,
    SpecAcceptLength,
};

/** How a metric is stored and how it reads: the stored unit, and the shown unit with its scale. */
struct MetricInfo
{
    /** Stored key: "kv.usage", or a per-GPU pattern "gpu.%1.util". A contract of the history files. */
    const char *key;
    /** The unit shown ("GiB", "%", "M tokens"); empty for a bare count. */
    const char *unit;
    /** Stored value × this = shown value (MiB → GiB, a 0–1 fraction → %). */
    double toShown;
    /** The shown range, when the metric has one (a percentage: 0–100); else min > max. */
    double min;
    double max;
    bool perGpu;

    bool hasRange() const { return min <= max; }
};

/**
 * The one place a metric's key, unit and range are spelt: the monitor records with it, the
 * Metrics page draws with it; neither parses names nor converts units on its own (issue 22).
 */
class MetricId
{
public:
    static const MetricInfo &info(Metric metric);
    /** The stored key: `gpu` is the GPU's index for per-GPU metrics (ignored otherwise). */
    static QString key(Metric metric, int gpu = -1);
    /** The per-GPU metrics, in chart order. */
    static QList<Metric> gpuMetrics();
    /** A stored key back to its GPU and metric ("gpu.3.power_w" → {3, GpuPower}); nullopt for others. */
    static std::optional<std::pair<int, Metric>> parseGpuKey(const QString &key);
};

} // namespace flashdeck::metrics
