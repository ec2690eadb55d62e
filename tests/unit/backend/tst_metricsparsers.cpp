#include "backend/metrics/metricid.h"
#include "backend/metrics/prometheustext.h"
#include "backend/metrics/serversnapshot.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace flashdeck::metrics;

/**
 * The server-metrics parsers on the real formats of ../shared/reference/sglang-facts.md: §5
 * (Prometheus text, its docs example and a v0.5.x label set), §11 (Decode batch lines, every
 * variant quoted there) and `/v1/loads`.
 */
class TestMetricsParsers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void metricIds_keyUnitAndScale_data();
    void metricIds_keyUnitAndScale();
    void prometheus_data();
    void prometheus();
    void prometheus_malformedLinesAreSkippedAndNamed();
    void prometheus_histogramAndLabels();
    void prometheus_sharedValuesStayApart();
    void snapshot_aggregatesRanks();
    void snapshot_fromLoads();
    void services_addUpBehindTheRouter_data();
    void services_addUpBehindTheRouter();
    void decodeLine_data();
    void decodeLine();
    void quantile_data();
    void quantile();
    void rates_histogramDeltasAndCounterResets();
};

void TestMetricsParsers::prometheus_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<double>("value");
    QTest::addColumn<QByteArray>("labelKey");
    QTest::addColumn<QByteArray>("labelValue");

    // sglang-facts §5: the SGLang docs' example.
    QTest::newRow("docs example") << QByteArray("# HELP sglang:token_usage The token usage\n# TYPE sglang:token_usage "
                                                "gauge\nsglang:token_usage{model_name=\"meta-llama/"
                                                "Llama-3.1-8B-Instruct\"} 0.28\n")
                                  << QByteArray("sglang:token_usage") << 0.28 << QByteArray("model_name")
                                  << QByteArray("meta-llama/Llama-3.1-8B-Instruct");
    QTest::newRow("float with exponent") << QByteArray("sglang:num_used_tokens{model_name=\"m\"} 8.128902e+06\n")
                                         << QByteArray("sglang:num_used_tokens") << 8128902.0
                                         << QByteArray("model_name") << QByteArray("m");
    // sglang-facts §5: a real v0.5.x label set (sgl-project/sglang issue #13485).
    QTest::newRow("v0.5 label set") << QByteArray("sglang:token_usage{engine_type=\"unified\",model_name=\"Qwen-32B\","
                                                  "pp_rank=\"0\",tp_rank=\"0\"} 0.0\n")
                                    << QByteArray("sglang:token_usage") << 0.0 << QByteArray("tp_rank")
                                    << QByteArray("0");
    QTest::newRow("escapes in a label value")
        << QByteArray("m{path=\"C:\\\\dir\\\\\\\"x\\\"\\nnext\"} 1\n") << QByteArray("m") << 1.0 << QByteArray("path")
        << QByteArray("C:\\dir\\\"x\"\nnext");
    QTest::newRow("trailing comma, blanks, CRLF")
        << QByteArray("m { a = \"1\" , } \t 2.5 \r\n") << QByteArray("m") << 2.5 << QByteArray("a") << QByteArray("1");
    QTest::newRow("timestamp") << QByteArray("m{a=\"x\"} 3 1764504000000\n") << QByteArray("m") << 3.0
                               << QByteArray("a") << QByteArray("x");
    QTest::newRow("no labels, +Inf") << QByteArray("m +Inf\n") << QByteArray("m")
                                     << std::numeric_limits<double>::infinity() << QByteArray() << QByteArray();
    QTest::newRow("-Inf") << QByteArray("m -Inf") << QByteArray("m") << -std::numeric_limits<double>::infinity()
                          << QByteArray() << QByteArray();
}

void TestMetricsParsers::prometheus()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, name);
    QFETCH(double, value);
    QFETCH(QByteArray, labelKey);
    QFETCH(QByteArray, labelValue);
    const PromScrape s = parsePrometheusText(text);
    QVERIFY2(s.warnings.isEmpty(), qPrintable(s.warnings.join(QLatin1Char('\n'))));
    QCOMPARE(s.samples.size(), 1);
    QCOMPARE(s.samples[0].name, name);
    QCOMPARE(s.samples[0].value, value);
    QCOMPARE(s.samples[0].label(labelKey), labelValue);
    if (QTest::currentDataTag() == QByteArrayLiteral("timestamp")) {
        QCOMPARE(s.samples[0].timestampMs.value_or(0), 1764504000000);
    }
    if (text.contains("# TYPE")) {
        QCOMPARE(s.types.value("sglang:token_usage"), QByteArray("gauge"));
    }
}

void TestMetricsParsers::prometheus_malformedLinesAreSkippedAndNamed()
{
    const PromScrape s = parsePrometheusText("good 1\n"
                                             "bad{a=\"unterminated} 2\n"
                                             "9starts_with_digit 3\n"
                                             "no_value\n"
                                             "word_value{a=\"b\"} lots\n"
                                             "trailing 1 2 3\n"
                                             "nan_ok NaN\n"
                                             "# TYPE broken\n"
                                             "good2{x=\"y\"} 4\n");
    QCOMPARE(s.samples.size(), 3);
    QCOMPARE(s.samples[0].name, QByteArray("good"));
    QVERIFY(std::isnan(s.samples[1].value));
    QCOMPARE(s.samples[2].value, 4.0);
    QCOMPARE(s.warnings.size(), 6);
    QVERIFY2(s.warnings[0].startsWith(QLatin1String("line 2: a malformed label set")), qPrintable(s.warnings[0]));
    QVERIFY(s.warnings[3].contains(QLatin1String("line 5: no number")));
}

void TestMetricsParsers::prometheus_histogramAndLabels()
{
    const PromScrape s =
        parsePrometheusText("# TYPE sglang:time_to_first_token_seconds histogram\n"
                            "sglang:time_to_first_token_seconds_bucket{le=\"0.1\",model_name=\"m\"} 2.0\n"
                            "sglang:time_to_first_token_seconds_bucket{le=\"0.5\",model_name=\"m\"} 7.0\n"
                            "sglang:time_to_first_token_seconds_bucket{le=\"+Inf\",model_name=\"m\"} 10.0\n"
                            "sglang:time_to_first_token_seconds_sum{model_name=\"m\"} 4.2\n"
                            "sglang:time_to_first_token_seconds_count{model_name=\"m\"} 10.0\n");
    QVERIFY(s.warnings.isEmpty());
    QCOMPARE(s.types.value("sglang:time_to_first_token_seconds"), QByteArray("histogram"));
    const ServerSnapshot snap = snapshotFromMetrics(s, 1000);
    QCOMPARE(snap.ttft.buckets.size(), 3);
    QCOMPARE(snap.ttft.buckets[1].first, 0.5);
    QCOMPARE(snap.ttft.buckets[2].second, 10.0);
    QVERIFY(std::isinf(snap.ttft.buckets[2].first));
    QCOMPARE(snap.ttft.count, 10.0);
    QVERIFY(!snap.running); // not in this scrape: not invented
    QVERIFY(!snap.tokenUsage);
}

void TestMetricsParsers::prometheus_sharedValuesStayApart()
{
    // Repeated names and values are shared between samples; an escaped one must not leak into
    // the plain value that shares its prefix.
    const PromScrape s = parsePrometheusText("m{a=\"x\\\"y\"} 1\nm{a=\"x\"} 2\nm{a=\"x\\\"y\"} 3\n");
    QCOMPARE(s.samples.size(), 3);
    QCOMPARE(s.samples[0].label("a"), QByteArray("x\"y"));
    QCOMPARE(s.samples[1].label("a"), QByteArray("x"));
    QCOMPARE(s.samples[2].label("a"), QByteArray("x\"y"));
}

void TestMetricsParsers::snapshot_aggregatesRanks()
{
    // Two DP groups; every TP rank exports (--enable-metrics-for-all-schedulers) and repeats its
    // group's numbers. Tokens and requests add over groups, once each.
    QByteArray text;
    for (const char *dp : {"0", "1"}) {
        for (const char *tp : {"0", "1", "2", "3"}) {
            const QByteArray l = QByteArray("{model_name=\"m\",dp_rank=\"") + dp + "\",tp_rank=\"" + tp + "\"}";
            const bool first = QByteArray(dp) == "0";
            text += "sglang:num_used_tokens" + l + (first ? " 1000\n" : " 3000\n");
            text += "sglang:max_total_num_tokens" + l + " 10000\n";
            text += "sglang:token_usage" + l + (first ? " 0.1\n" : " 0.3\n");
            text += "sglang:num_running_reqs" + l + (first ? " 2\n" : " 5\n");
            text += "sglang:num_queue_reqs" + l + " 1\n";
            text += "sglang:gen_throughput" + l + " 100.5\n";
            text += "sglang:cache_hit_rate" + l + (first ? " 0.2\n" : " 0.4\n");
            text += "sglang:spec_accept_length" + l + (first ? " 3.0\n" : " 3.2\n");
        }
    }
    text += "sglang:num_requests_total{model_name=\"m\",pid=\"11\"} "
            "40\nsglang:num_requests_total{model_name=\"m\",pid=\"12\"} 2\n";
    const ServerSnapshot s = snapshotFromMetrics(parsePrometheusText(text), 5);
    QCOMPARE(s.source, QStringLiteral("metrics"));
    QCOMPARE(*s.usedTokens, 4000.0);
    QCOMPARE(*s.maxTokens, 20000.0);
    QCOMPARE(*s.tokenUsage, 0.2); // the pool as a whole
    QCOMPARE(*s.running, 7.0);
    QCOMPARE(*s.queued, 2.0);
    QCOMPARE(*s.genThroughput, 201.0);
    QVERIFY(qFuzzyCompare(*s.cacheHitRate, 0.3));
    QVERIFY(qFuzzyCompare(*s.specAcceptLength, 3.1));
    QCOMPARE(*s.requestsTotal, 42.0);
    QVERIFY(!s.abortedTotal);
}

void TestMetricsParsers::snapshot_fromLoads()
{
    const QByteArray loads = R"({"timestamp":1764504000,"loads":[
        {"dp_rank":0,"num_running_reqs":3,"num_waiting_reqs":1,"num_used_tokens":500,"max_total_num_tokens":10400000,
         "token_usage":0.00005,"gen_throughput":1635.11,"cache_hit_rate":0.5,"speculative":{"accept_length":3.08,"accept_rate":0.41}}]})";
    const ServerSnapshot s = snapshotFromLoads(loads, 7);
    QCOMPARE(s.source, QStringLiteral("loads"));
    QCOMPARE(*s.running, 3.0);
    QCOMPARE(*s.queued, 1.0);
    QCOMPARE(*s.maxTokens, 10400000.0);
    QCOMPARE(*s.specAcceptLength, 3.08);
    QVERIFY(qFuzzyCompare(*s.tokenUsage, 500.0 / 10400000.0));
    QVERIFY(snapshotFromLoads("<html>404</html>", 7).source.isEmpty());
    QVERIFY(snapshotFromLoads(R"({"loads":[]})", 7).source.isEmpty());
}

void TestMetricsParsers::decodeLine_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<double>("running");
    QTest::addColumn<double>("usage");
    QTest::addColumn<double>("throughput");
    QTest::addColumn<double>("queued");
    QTest::addColumn<double>("accept"); // -1: absent

    // Every variant sglang-facts §11 quotes, verbatim.
    QTest::newRow("2026") << QByteArray(
                                 "[2026-11-30 10:00:00 TP0] Decode batch, #running-req: 32, #token: 11179, token "
                                 "usage: 0.08, cuda graph: True, gen throughput (token/s): 1635.11, #queue-req: 0")
                          << 32.0 << 0.08 << 1635.11 << 0.0 << -1.0;
    QTest::newRow("DSpark, hybrid SWA")
        << QByteArray(
               "Decode batch, #running-req: 1, #full token: 0, full token usage: 0.00, #swa token: 0, swa token "
               "usage: 0.00, accept len: 3.08, accept rate: 0.41, cuda graph: True, gen throughput (token/s): 3.12, "
               "#queue-req: 0")
        << 1.0 << 0.0 << 3.12 << 0.0 << 3.08;
    QTest::newRow("early 2025") << QByteArray("Decode batch. #running-req: 8, #token: 62531, token usage: 0.12, gen "
                                              "throughput (token/s): 186.64, #queue-req: 0")
                                << 8.0 << 0.12 << 186.64 << 0.0 << -1.0;
    QTest::newRow("with [iter] suffix") << QByteArray(
                                               "Decode batch, #running-req: 2, #token: 10, token usage: 0.01, cuda "
                                               "graph: True, gen throughput (token/s): 50.00, #queue-req: 4 [17]")
                                        << 2.0 << 0.01 << 50.0 << 4.0 << -1.0;
}

void TestMetricsParsers::decodeLine()
{
    QFETCH(QByteArray, line);
    QFETCH(double, running);
    QFETCH(double, usage);
    QFETCH(double, throughput);
    QFETCH(double, queued);
    QFETCH(double, accept);
    const std::optional<ServerSnapshot> s = snapshotFromDecodeLine(line, 1);
    QVERIFY(s);
    QCOMPARE(s->source, QStringLiteral("log"));
    QCOMPARE(*s->running, running);
    QCOMPARE(*s->tokenUsage, usage);
    QCOMPARE(*s->genThroughput, throughput);
    QCOMPARE(*s->queued, queued);
    QCOMPARE(s->specAcceptLength.has_value(), accept >= 0);
    if (accept >= 0) {
        QCOMPARE(*s->specAcceptLength, accept);
    }
    QVERIFY(!snapshotFromDecodeLine("Prefill batch, #new-seq: 1, #new-token: 256", 1));
}

void TestMetricsParsers::quantile_data()
{
    QTest::addColumn<double>("q");
    QTest::addColumn<double>("expected");
    // Buckets: ≤0.1: 2, ≤0.5: 7, ≤1: 9, +Inf: 10.
    QTest::newRow("median inside (0.1, 0.5]") << 0.5 << 0.1 + 0.4 * (5.0 - 2.0) / 5.0;
    QTest::newRow("p90 inside (0.5, 1]") << 0.9 << 1.0;
    QTest::newRow("p95 in +Inf: the highest finite bound") << 0.95 << 1.0;
    QTest::newRow("p10 in the first bucket, from 0") << 0.1 << 0.05;
}

void TestMetricsParsers::quantile()
{
    QFETCH(double, q);
    QFETCH(double, expected);
    const QList<std::pair<double, double>> b{
        {0.1, 2}, {0.5, 7}, {1.0, 9}, {std::numeric_limits<double>::infinity(), 10}};
    QVERIFY(qFuzzyCompare(*histogramQuantile(q, b), expected));
    QVERIFY(!histogramQuantile(q, {{0.1, 0}, {std::numeric_limits<double>::infinity(), 0}}));
}

void TestMetricsParsers::rates_histogramDeltasAndCounterResets()
{
    ServerSnapshot a;
    a.atMs = 0;
    a.requestsTotal = 100;
    a.abortedTotal = 1;
    a.ttft.buckets = {{0.1, 50}, {1.0, 100}, {std::numeric_limits<double>::infinity(), 100}};
    a.ttft.count = 100;
    ServerSnapshot b = a;
    b.atMs = 2000;
    b.requestsTotal = 120;
    b.abortedTotal = 3;
    // 20 new requests, all slow (between 0.1 and 1 s): the interval's p50 is there, not 0.1.
    b.ttft.buckets = {{0.1, 50}, {1.0, 120}, {std::numeric_limits<double>::infinity(), 120}};
    b.ttft.count = 120;
    ServerRates r = ratesBetween(a, b);
    QCOMPARE(*r.requestsPerSecond, 10.0);
    QCOMPARE(*r.abortsPerSecond, 1.0);
    QCOMPARE(*r.errorRate, 0.1);
    QVERIFY(qFuzzyCompare(*r.ttftP50, 0.1 + 0.9 * 0.5));
    QVERIFY(!r.e2eP50); // no such histogram: no number

    ServerSnapshot restarted;
    restarted.atMs = 4000;
    restarted.requestsTotal = 5; // the server restarted: counters began again
    restarted.abortedTotal = 0;
    r = ratesBetween(b, restarted);
    QCOMPARE(*r.requestsPerSecond, 2.5);
    QCOMPARE(*r.errorRate, 0.0);
}

void TestMetricsParsers::metricIds_keyUnitAndScale_data()
{
    QTest::addColumn<int>("metric");
    QTest::addColumn<int>("gpu");
    QTest::addColumn<QString>("key"); // what the history files hold: never renamed
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("stored");
    QTest::addColumn<double>("shown");
    QTest::newRow("GPU memory: MiB stored, GiB shown") << int(Metric::GpuMemoryUsed) << 3 << "gpu.3.mem_used_mib"
                                                       << "GiB" << 2048.0 << 2.0;
    QTest::newRow("GPU utilisation") << int(Metric::GpuUtilisation) << 0 << "gpu.0.util"
                                     << "%" << 87.0 << 87.0;
    QTest::newRow("KV use: a fraction stored, % shown") << int(Metric::KvUsage) << -1 << "kv.usage"
                                                        << "%" << 0.25 << 25.0;
    QTest::newRow("KV tokens: M tokens shown") << int(Metric::KvUsedTokens) << -1 << "kv.used_tokens"
                                               << "M tokens" << 10400000.0 << 10.4;
    QTest::newRow("TTFT") << int(Metric::TtftP95) << -1 << "ttft.p95"
                          << "s" << 0.5 << 0.5;
}

void TestMetricsParsers::metricIds_keyUnitAndScale()
{
    QFETCH(int, metric);
    QFETCH(int, gpu);
    QFETCH(QString, key);
    QFETCH(QString, unit);
    QFETCH(double, stored);
    QFETCH(double, shown);
    const auto m = static_cast<Metric>(metric);
    QCOMPARE(MetricId::key(m, gpu), key);
    QCOMPARE(QString::fromUtf8(MetricId::info(m).unit), unit);
    QVERIFY(qFuzzyCompare(stored * MetricId::info(m).toShown, shown));
    const auto parsed = MetricId::parseGpuKey(key);
    QCOMPARE(parsed.has_value(), MetricId::info(m).perGpu);
    if (parsed) {
        QCOMPARE(parsed->first, gpu);
        QCOMPARE(int(parsed->second), metric);
    }
    QVERIFY(!MetricId::parseGpuKey(QStringLiteral("gpu.x.util")));
    QVERIFY(!MetricId::parseGpuKey(QStringLiteral("gpu.1.fan_rpm")));
}

void TestMetricsParsers::services_addUpBehindTheRouter_data()
{
    QTest::addColumn<QList<ServiceSnapshot>>("services");
    QTest::addColumn<double>("used");
    QTest::addColumn<double>("max");
    QTest::addColumn<double>("usage");
    QTest::addColumn<double>("queued");
    QTest::addColumn<double>("acceptLength");
    const auto look = [](quint16 port, double used, double max, std::optional<double> queued, double accept) {
        ServiceSnapshot s;
        s.port = port;
        s.snapshot.atMs = 1000 + port;
        s.snapshot.usedTokens = used;
        s.snapshot.maxTokens = max;
        s.snapshot.tokenUsage = used / max;
        s.snapshot.queued = queued;
        s.snapshot.specAcceptLength = accept;
        return s;
    };
    QTest::newRow("one service: itself") << QList<ServiceSnapshot>{look(30000, 1e6, 1e7, 3, 3.0)} << 1e6 << 1e7 << 0.1
                                         << 3.0 << 3.0;
    // Two services of an 8 × B300 node: 1M of 10.4M and 4.2M of 10.4M in use.
    QTest::newRow("two: tokens add, usage is used over capacity, lengths average")
        << QList<ServiceSnapshot>{look(30000, 1e6, 10.4e6, 2, 3.0), look(30001, 4.2e6, 10.4e6, 5, 3.4)} << 5.2e6
        << 20.8e6 << 0.25 << 7.0 << 3.2;
    QTest::newRow("a service that gives no queue adds nothing to it")
        << QList<ServiceSnapshot>{look(30000, 1e6, 1e7, std::nullopt, 3.0), look(30001, 1e6, 1e7, 4, 3.0)} << 2e6 << 2e7
        << 0.1 << 4.0 << 3.0;
}

void TestMetricsParsers::services_addUpBehindTheRouter()
{
    QFETCH(QList<ServiceSnapshot>, services);
    const ServerSnapshot s = sumOfServices(services);
    QFETCH(double, used);
    QFETCH(double, max);
    QFETCH(double, usage);
    QFETCH(double, queued);
    QFETCH(double, acceptLength);
    QCOMPARE(*s.usedTokens, used);
    QCOMPARE(*s.maxTokens, max);
    QVERIFY(std::abs(*s.tokenUsage - usage) < 1e-9);
    QCOMPARE(*s.queued, queued);
    QVERIFY(std::abs(*s.specAcceptLength - acceptLength) < 1e-9);
    QVERIFY(!s.running); // none of them said: unknown, never 0
    QCOMPARE(s.atMs, services.last().snapshot.atMs);
}

QTEST_GUILESS_MAIN(TestMetricsParsers)
#include "tst_metricsparsers.moc"
