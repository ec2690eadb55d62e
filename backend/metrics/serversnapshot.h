#pragma once

#include <QByteArrayView>
#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace flashdeck::metrics {

struct PromScrape;

/** A cumulative histogram summed over its label sets: (upper bound `le`, count) ascending. */
struct Histogram
{
    QList<std::pair<double, double>> buckets;
    double sum = 0;
    double count = 0;
    bool present() const { return !buckets.isEmpty(); }
};

/**
 * What one look at an SGLang server says, from whichever source it has: `/metrics` (with
 * --enable-metrics), `/v1/loads`, or a `Decode batch` log line (sglang-facts §5, §11). A field
 * the source does not give stays empty: never invented.
 */
struct ServerSnapshot
{
    qint64 atMs = 0;
    QString source; // "metrics", "loads" or "log"
    std::optional<double> tokenUsage; // KV pool 0..1
    std::optional<double> usedTokens;
    std::optional<double> maxTokens;
    std::optional<double> running;
    std::optional<double> queued;
    std::optional<double> genThroughput; // tokens/s
    std::optional<double> cacheHitRate;
    std::optional<double> specAcceptLength;
    std::optional<double> specAcceptRate;
    std::optional<double> requestsTotal; // counters, for rates between two snapshots
    std::optional<double> abortedTotal;
    Histogram ttft; // sglang:time_to_first_token_seconds
    Histogram e2e; // sglang:e2e_request_latency_seconds
};

/**
 * Scheduler gauges aggregated over ranks: within a DP group the lowest tp/pp rank speaks
 * (with --enable-metrics-for-all-schedulers every TP rank repeats the group's numbers);
 * tokens, requests and throughput add up over DP groups; rates and lengths average.
 */
ServerSnapshot snapshotFromMetrics(const PromScrape &scrape, qint64 atMs);
/** `GET /v1/loads` (`{"loads": [{dp_rank, num_running_reqs, …}]}`); empty `source` if unreadable. */
ServerSnapshot snapshotFromLoads(QByteArrayView json, qint64 atMs);
/** A `Decode batch` line in any of its real formats (2025, 2026, hybrid SWA, DSpark). */
std::optional<ServerSnapshot> snapshotFromDecodeLine(QByteArrayView line, qint64 atMs);

/** One SGLang service of a deployment with several (behind the Router): its port and its look. */
struct ServiceSnapshot
{
    quint16 port = 0;
    ServerSnapshot snapshot;
};

/**
 * The services of one entry point as one server: tokens, requests and throughput add up; the KV
 * usage is their used over their capacity; rates and lengths average. A field none of them gave
 * stays unknown. Latency histograms are the first service's (they do not add).
 */
ServerSnapshot sumOfServices(const QList<ServiceSnapshot> &services);

/** What two snapshots of the same server say about the time between them. */
struct ServerRates
{
    std::optional<double> requestsPerSecond;
    std::optional<double> abortsPerSecond;
    std::optional<double> errorRate; // aborted / requests in the interval
    std::optional<double> ttftP50;
    std::optional<double> ttftP95;
    std::optional<double> e2eP50;
    std::optional<double> e2eP95;
};

/** Counter resets (a restarted server) count from zero, as Prometheus' rate() does. */
ServerRates ratesBetween(const ServerSnapshot &before, const ServerSnapshot &after);

/**
 * The q-quantile of a cumulative histogram, interpolated linearly inside its bucket as
 * Prometheus' histogram_quantile does; empty with no observations. In the +Inf bucket, the
 * highest finite bound.
 */
std::optional<double> histogramQuantile(double q, const QList<std::pair<double, double>> &cumulative);

} // namespace flashdeck::metrics
