#include "backend/metrics/serversnapshot.h"

#include "backend/core/jsonread.h"
#include "backend/metrics/prometheustext.h"

#include <QMap>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace flashdeck::metrics {

namespace {

/** The group's speaking sample: per dp_rank, the lowest tp_rank then pp_rank. */
QMap<QByteArray, const PromSample *> byDpGroup(const PromScrape &scrape, QByteArrayView name)
{
    QMap<QByteArray, const PromSample *> groups;
    for (const PromSample *s : scrape.named(name)) {
        if (std::isnan(s->value)) {
            continue;
        }
        const QByteArray dp = s->label("dp_rank");
        const PromSample *&best = groups[dp];
        auto rank = [](const PromSample *x) {
            return std::pair(x->label("tp_rank").toInt(), x->label("pp_rank").toInt());
        };
        if (!best || rank(s) < rank(best)) {
            best = s;
        }
    }
    return groups;
}

std::optional<double> summed(const PromScrape &scrape, QByteArrayView name)
{
    const auto groups = byDpGroup(scrape, name);
    if (groups.isEmpty()) {
        return std::nullopt;
    }
    double total = 0;
    for (const PromSample *s : groups) {
        total += s->value;
    }
    return total;
}

std::optional<double> averaged(const PromScrape &scrape, QByteArrayView name)
{
    const auto groups = byDpGroup(scrape, name);
    if (groups.isEmpty()) {
        return std::nullopt;
    }
    return *summed(scrape, name) / double(groups.size());
}

std::optional<double> maxOf(const PromScrape &scrape, QByteArrayView name)
{
    std::optional<double> m;
    for (const PromSample *s : byDpGroup(scrape, name)) {
        m = m ? std::max(*m, s->value) : s->value;
    }
    return m;
}

/** Counters from the tokenizer add up over processes (each may carry its own pid label). */
std::optional<double> counter(const PromScrape &scrape, QByteArrayView name)
{
    std::optional<double> total;
    for (const PromSample *s : scrape.named(name)) {
        if (!std::isnan(s->value)) {
            total = total.value_or(0) + s->value;
        }
    }
    return total;
}

Histogram histogram(const PromScrape &scrape, const QByteArray &family)
{
    Histogram h;
    QMap<double, double> buckets;
    for (const PromSample *s : scrape.named(QByteArray(family + "_bucket"))) {
        const QByteArray le = s->label("le");
        bool ok = false;
        double bound = le.toDouble(&ok);
        if (le == "+Inf" || le == "Inf") {
            bound = std::numeric_limits<double>::infinity();
            ok = true;
        }
        if (ok && !std::isnan(s->value)) {
            buckets[bound] += s->value;
        }
    }
    for (auto it = buckets.cbegin(); it != buckets.cend(); ++it) {
        h.buckets.append({it.key(), it.value()});
    }
    h.sum = counter(scrape, QByteArray(family + "_sum")).value_or(0);
    h.count = counter(scrape, QByteArray(family + "_count")).value_or(0);
    return h;
}

std::optional<double> num(const nlohmann::json &j, const char *key)
{
    if (j.is_object() && j.contains(key) && j[key].is_number()) {
        return j[key].get<double>();
    }
    return std::nullopt;
}

void add(std::optional<double> &into, std::optional<double> v)
{
    if (v) {
        into = into.value_or(0) + *v;
    }
}

} // namespace

ServerSnapshot snapshotFromMetrics(const PromScrape &scrape, qint64 atMs)
{
    ServerSnapshot s;
    s.atMs = atMs;
    s.source = QStringLiteral("metrics");
    s.usedTokens = summed(scrape, "sglang:num_used_tokens");
    s.maxTokens = summed(scrape, "sglang:max_total_num_tokens");
    s.running = summed(scrape, "sglang:num_running_reqs");
    s.queued = summed(scrape, "sglang:num_queue_reqs");
    s.genThroughput = summed(scrape, "sglang:gen_throughput");
    s.cacheHitRate = averaged(scrape, "sglang:cache_hit_rate");
    s.specAcceptLength = averaged(scrape, "sglang:spec_accept_length");
    s.specAcceptRate = averaged(scrape, "sglang:spec_accept_rate");
    // KV use is per DP group: the pool as a whole is used/max; without the counts, the fullest group.
    s.tokenUsage = s.usedTokens && s.maxTokens && *s.maxTokens > 0 ? std::optional(*s.usedTokens / *s.maxTokens)
                                                                   : maxOf(scrape, "sglang:token_usage");
    s.requestsTotal = counter(scrape, "sglang:num_requests_total");
    s.abortedTotal = counter(scrape, "sglang:num_aborted_requests_total");
    s.ttft = histogram(scrape, "sglang:time_to_first_token_seconds");
    s.e2e = histogram(scrape, "sglang:e2e_request_latency_seconds");
    return s;
}

ServerSnapshot snapshotFromLoads(QByteArrayView text, qint64 atMs)
{
    ServerSnapshot s;
    s.atMs = atMs;
    const nlohmann::json j = jsonread::parse(text.begin(), text.end());
    const nlohmann::json loads = j.is_object() ? j.value("loads", nlohmann::json()) : nlohmann::json();
    if (!loads.is_array() || loads.empty()) {
        return s;
    }
    s.source = QStringLiteral("loads");
    int groups = 0;
    std::optional<double> hit;
    std::optional<double> accept;
    std::optional<double> acceptRate;
    for (const nlohmann::json &l : loads) {
        if (!l.is_object()) {
            continue; // a hostile or newer server's shape: skipped, never thrown (found by fuzz_prometheus)
        }
        ++groups;
        add(s.running, num(l, "num_running_reqs"));
        add(s.queued, num(l, "num_waiting_reqs"));
        add(s.usedTokens, num(l, "num_used_tokens"));
        add(s.maxTokens, num(l, "max_total_num_tokens"));
        add(s.genThroughput, num(l, "gen_throughput"));
        add(hit, num(l, "cache_hit_rate"));
        const auto spec = l.find("speculative");
        const nlohmann::json &specJson = spec != l.end() ? *spec : nlohmann::json::object();
        add(accept, num(specJson, "accept_length"));
        add(acceptRate, num(specJson, "accept_rate"));
    }
    auto mean = [groups](std::optional<double> v) { return v ? std::optional(*v / groups) : v; };
    s.cacheHitRate = mean(hit);
    s.specAcceptLength = mean(accept);
    s.specAcceptRate = mean(acceptRate);
    if (s.usedTokens && s.maxTokens && *s.maxTokens > 0) {
        s.tokenUsage = *s.usedTokens / *s.maxTokens;
    }
    return s;
}

std::optional<ServerSnapshot> snapshotFromDecodeLine(QByteArrayView line, qint64 atMs)
{
    const qsizetype at = line.indexOf(QByteArrayView("Decode batch"));
    if (at < 0) {
        return std::nullopt;
    }
    QByteArrayView rest = line.sliced(at + 12);
    if (rest.startsWith('.') || rest.startsWith(',')) {
        rest = rest.sliced(1);
    }
    ServerSnapshot s;
    s.atMs = atMs;
    s.source = QStringLiteral("log");
    std::optional<double> full;
    std::optional<double> fullUsage;
    for (const QByteArray &pair : rest.toByteArray().split(',')) {
        const qsizetype colon = pair.lastIndexOf(':');
        if (colon < 0) {
            continue;
        }
        const QByteArray key = pair.left(colon).trimmed();
        QByteArray text = pair.mid(colon + 1).trimmed();
        if (const qsizetype sp = text.indexOf(' '); sp > 0) {
            text.truncate(sp); // " [iter]" and the like after the number
        }
        bool ok = false;
        const double v = text.toDouble(&ok);
        if (!ok) {
            continue;
        }
        if (key == "#running-req") {
            s.running = v;
        } else if (key == "#token") {
            s.usedTokens = v;
        } else if (key == "#full token") {
            full = v;
        } else if (key == "token usage") {
            s.tokenUsage = v;
        } else if (key == "full token usage") {
            fullUsage = v;
        } else if (key == "gen throughput (token/s)") {
            s.genThroughput = v;
        } else if (key == "#queue-req") {
            s.queued = v;
        } else if (key == "accept len") {
            s.specAcceptLength = v;
        } else if (key == "accept rate") {
            s.specAcceptRate = v;
        }
    }
    if (!s.usedTokens) {
        s.usedTokens = full; // hybrid SWA models count the full-attention pool
    }
    if (!s.tokenUsage) {
        s.tokenUsage = fullUsage;
    }
    if (!s.running && !s.tokenUsage && !s.genThroughput) {
        return std::nullopt;
    }
    return s;
}

std::optional<double> histogramQuantile(double q, const QList<std::pair<double, double>> &cumulative)
{
    if (cumulative.isEmpty() || q < 0 || q > 1) {
        return std::nullopt;
    }
    const double total = cumulative.last().second;
    if (total <= 0) {
        return std::nullopt;
    }
    const double rank = q * total;
    double lowerBound = 0;
    double lowerCount = 0;
    for (const auto &[le, count] : cumulative) {
        if (count >= rank) {
            if (std::isinf(le)) {
                return lowerBound; // above the highest finite bucket: its bound is all we know
            }
            const double inBucket = count - lowerCount;
            return inBucket <= 0 ? le : lowerBound + (le - lowerBound) * (rank - lowerCount) / inBucket;
        }
        lowerBound = le;
        lowerCount = count;
    }
    return lowerBound;
}

ServerRates ratesBetween(const ServerSnapshot &before, const ServerSnapshot &after)
{
    ServerRates r;
    const double seconds = double(after.atMs - before.atMs) / 1000.0;
    if (seconds <= 0) {
        return r;
    }
    auto delta = [](std::optional<double> a, std::optional<double> b) -> std::optional<double> {
        if (!a || !b) {
            return std::nullopt;
        }
        return *b >= *a ? *b - *a : *b; // a reset: the server restarted and counts from zero
    };
    const std::optional<double> requests = delta(before.requestsTotal, after.requestsTotal);
    const std::optional<double> aborts = delta(before.abortedTotal, after.abortedTotal);
    if (requests) {
        r.requestsPerSecond = *requests / seconds;
    }
    if (aborts) {
        r.abortsPerSecond = *aborts / seconds;
    }
    if (requests && aborts && *requests > 0) {
        r.errorRate = *aborts / *requests;
    }
    auto quantiles = [](const Histogram &a, const Histogram &b, std::optional<double> &p50,
                        std::optional<double> &p95) {
        if (!b.present()) {
            return;
        }
        QList<std::pair<double, double>> d = b.buckets;
        const bool reset = a.count > b.count || a.buckets.size() != b.buckets.size();
        if (!reset) {
            for (qsizetype i = 0; i < d.size(); ++i) {
                d[i].second -= a.buckets[i].second;
            }
        }
        p50 = histogramQuantile(0.5, d);
        p95 = histogramQuantile(0.95, d);
    };
    quantiles(before.ttft, after.ttft, r.ttftP50, r.ttftP95);
    quantiles(before.e2e, after.e2e, r.e2eP50, r.e2eP95);
    return r;
}

ServerSnapshot sumOfServices(const QList<ServiceSnapshot> &services)
{
    if (services.isEmpty()) {
        return {};
    }
    ServerSnapshot out = services.first().snapshot;
    if (services.size() == 1) {
        return out;
    }
    const auto add = [&services](std::optional<double> ServerSnapshot::*field) {
        std::optional<double> total;
        for (const ServiceSnapshot &s : services) {
            if (const std::optional<double> v = s.snapshot.*field) {
                total = total.value_or(0) + *v;
            }
        }
        return total;
    };
    const auto mean = [&services](std::optional<double> ServerSnapshot::*field) {
        double total = 0;
        int n = 0;
        for (const ServiceSnapshot &s : services) {
            if (const std::optional<double> v = s.snapshot.*field) {
                total += *v;
                ++n;
            }
        }
        return n > 0 ? std::optional<double>(total / n) : std::nullopt;
    };
    for (const ServiceSnapshot &s : services) {
        out.atMs = std::max(out.atMs, s.snapshot.atMs);
    }
    out.usedTokens = add(&ServerSnapshot::usedTokens);
    out.maxTokens = add(&ServerSnapshot::maxTokens);
    out.running = add(&ServerSnapshot::running);
    out.queued = add(&ServerSnapshot::queued);
    out.genThroughput = add(&ServerSnapshot::genThroughput);
    out.requestsTotal = add(&ServerSnapshot::requestsTotal);
    out.abortedTotal = add(&ServerSnapshot::abortedTotal);
    out.cacheHitRate = mean(&ServerSnapshot::cacheHitRate);
    out.specAcceptLength = mean(&ServerSnapshot::specAcceptLength);
    out.specAcceptRate = mean(&ServerSnapshot::specAcceptRate);
    out.tokenUsage = out.usedTokens && out.maxTokens && *out.maxTokens > 0
        ? std::optional(*out.usedTokens / *out.maxTokens)
        : mean(&ServerSnapshot::tokenUsage);
    return out;
}

} // namespace flashdeck::metrics
