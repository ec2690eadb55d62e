#include "backend/prometheus/promhistory.h"

#include "backend/metrics/metricid.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace flashdeck::prom {

namespace {

using metrics::Metric;
using metrics::MetricId;

/** What a query's series become: a per-GPU metric named by `__name__`, or one server metric. */
struct Fill
{
    Metric metric;
    const char *expr; // with %1 for the host's matcher
};

// The server's figures as the SSH monitor computes them from /metrics: gauges summed over DP
// groups (the fullest pool for KV use), quantiles from the histograms' 5-minute rates.
const Fill kServer[] = {
    {Metric::KvUsage, "max(sglang:token_usage{%1})"},
    {Metric::KvUsedTokens, "sum(sglang:num_used_tokens{%1})"},
    {Metric::ServerRunning, "sum(sglang:num_running_reqs{%1})"},
    {Metric::ServerQueued, "sum(sglang:num_queue_reqs{%1})"},
    {Metric::ServerThroughput, "sum(sglang:gen_throughput{%1})"},
    {Metric::TtftP50, "histogram_quantile(0.5, sum by (le) (rate(sglang:time_to_first_token_seconds_bucket{%1}[5m])))"},
    {Metric::TtftP95,
     "histogram_quantile(0.95, sum by (le) (rate(sglang:time_to_first_token_seconds_bucket{%1}[5m])))"},
    {Metric::E2eP50, "histogram_quantile(0.5, sum by (le) (rate(sglang:e2e_request_latency_seconds_bucket{%1}[5m])))"},
    {Metric::E2eP95, "histogram_quantile(0.95, sum by (le) (rate(sglang:e2e_request_latency_seconds_bucket{%1}[5m])))"},
    {Metric::SpecAcceptLength, "avg(sglang:spec_accept_length{%1})"},
};

const char *const kGpuQuery = "{__name__=~\"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_FB_USED|DCGM_FI_DEV_POWER_USAGE|"
                              "DCGM_FI_DEV_GPU_TEMP|gpu_gfx_activity|gpu_used_vram|gpu_package_power|"
                              "gpu_junction_temperature\",%1}";

std::optional<Metric> gpuMetric(const QString &name)
{
    if (name == QLatin1String("DCGM_FI_DEV_GPU_UTIL") || name == QLatin1String("gpu_gfx_activity")) {
        return Metric::GpuUtilisation;
    }
    if (name == QLatin1String("DCGM_FI_DEV_FB_USED") || name == QLatin1String("gpu_used_vram")) {
        return Metric::GpuMemoryUsed;
    }
    if (name == QLatin1String("DCGM_FI_DEV_POWER_USAGE") || name == QLatin1String("gpu_package_power")) {
        return Metric::GpuPower;
    }
    if (name == QLatin1String("DCGM_FI_DEV_GPU_TEMP") || name == QLatin1String("gpu_junction_temperature")) {
        return Metric::GpuTemperature;
    }
    return std::nullopt;
}

} // namespace

PromHistory::PromHistory(PromClient &client, QString hostLabel, QStringList labelValues, QObject *parent)
    : QObject(parent)
    , m_client(&client)
    , m_hostLabel(std::move(hostLabel))
    , m_values(std::move(labelValues))
{ }

PromHistory::~PromHistory() = default;

QStringList PromHistory::queries(const QString &matcher)
{
    QStringList out{QString::fromLatin1(kGpuQuery).arg(matcher)};
    for (const Fill &f : kServer) {
        out.append(QString::fromLatin1(f.expr).arg(matcher));
    }
    return out;
}

const metrics::TimeSeries *PromHistory::series(const QString &key) const
{
    const auto it = m_series.find(key);
    return it == m_series.end() ? nullptr : it->second.get();
}

int PromHistory::seriesWithData() const
{
    int n = 0;
    for (const auto &[key, series] : m_series) {
        n += series && !series->isEmpty() ? 1 : 0;
    }
    return n;
}

QList<int> PromHistory::gpuIndexes() const
{
    QSet<int> seen;
    for (const auto &[key, s] : m_series) {
        if (key.startsWith(QLatin1String("gpu."))) {
            seen.insert(key.section(QLatin1Char('.'), 1, 1).toInt());
        }
    }
    QList<int> out(seen.cbegin(), seen.cend());
    std::sort(out.begin(), out.end());
    return out;
}

void PromHistory::load(qint64 windowMs)
{
    PromClient *client = m_client.data(); // read once (see PromFleetSource::refresh)
    if (m_waiting > 0 || !client || m_values.isEmpty()) {
        return;
    }
    QStringList escaped;
    for (const QString &v : std::as_const(m_values)) {
        // A regular expression of the host's label values, each taken literally (PromQL strings
        // escape backslashes and quotes; RE2 escapes the rest).
        QString re = QRegularExpression::escape(v);
        re.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('"'), QStringLiteral("\\\""));
        escaped.append(re);
    }
    const QString matcher = QStringLiteral("%1=~\"%2\"").arg(m_hostLabel, escaped.join(QLatin1Char('|')));
    const QDateTime end = QDateTime::currentDateTimeUtc();
    const QDateTime start = end.addMSecs(-std::clamp<qint64>(windowMs, 60000, 24LL * 3600 * 1000));
    // Some 700 points per line: as fine as a chart 1 200 px wide can show (24 h: one per 2 min,
    // well under Prometheus' 11 000 points a series), and not finer than 5 s.
    const int step = std::max<int>(5, int(start.secsTo(end) / 700));
    const QStringList all = queries(matcher);
    m_next.clear();
    m_error.clear();
    m_waiting = int(all.size());
    const quint64 round = ++m_round;
    const auto into = [this](const QString &key, const PromSeries &s) {
        auto &series = m_next[key];
        if (!series) {
            series = std::make_unique<metrics::TimeSeries>(int(s.points.size()) + 16);
        }
        for (const auto &[t, v] : s.points) {
            if (std::isfinite(v)) {
                series->append(qint64(t * 1000), v);
            }
        }
    };
    for (qsizetype i = 0; i < all.size(); ++i) {
        client->queryRange(all.at(i), start, end, step, [this, round, i, into](const Result<PromResult> &r) {
            if (round != m_round) {
                return;
            }
            if (!r) {
                m_error = r.message();
            } else if (i == 0) {
                for (const PromSeries &s : r.value().series) {
                    bool ok = false;
                    const int gpu =
                        (s.hasLabel(u"gpu") ? s.label(u"gpu") : s.label(QStringLiteral("gpu_id"))).toInt(&ok);
                    if (const auto m = gpuMetric(s.label(QStringLiteral("__name__"))); m && ok) {
                        into(MetricId::key(*m, gpu), s);
                    }
                }
            } else if (!r.value().series.isEmpty()) {
                into(MetricId::key(kServer[i - 1].metric), r.value().series.first());
            }
            if (--m_waiting == 0) {
                m_series = std::move(m_next);
                m_next.clear();
                Q_EMIT loaded();
            }
        });
    }
}

} // namespace flashdeck::prom
