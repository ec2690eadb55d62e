#include "backend/prometheus/promfleet.h"
#include "backend/prometheus/promresponse.h"
#include "backend/prometheus/promtargets.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace flashdeck;
using namespace flashdeck::prom;

/**
 * The Prometheus source without a Prometheus: its API's answers read (errors in its words),
 * series named by host as the operator maps them, the fleet assembled from answers, and the
 * file_sd targets. The real server is in tst_prometheus.
 */
class TestPromFleet : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void response_data();
    void response();
    void withoutPort_data();
    void withoutPort();
    void namer_mapsFirst_thenInventory_thenLabel();
    void assemble_aggregatesRanks_andFoldsDcgmFree();
    void targets_fileSd();
};

void TestPromFleet::response_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("http");
    QTest::addColumn<int>("series");
    QTest::addColumn<QString>("error");
    QTest::newRow("vector") << QByteArray(R"({"status":"success","data":{"resultType":"vector","result":[
        {"metric":{"__name__":"up","instance":"a:1"},"value":[1700000000.5,"1"]},
        {"metric":{"instance":"b:1"},"value":[1700000000.5,"NaN"]}]}})")
                            << 200 << 2 << QString();
    QTest::newRow("matrix") << QByteArray(R"({"status":"success","data":{"resultType":"matrix","result":[
        {"metric":{"gpu":"0"},"values":[[1,"1"],[2,"+Inf"],[3,"2.5e3"]]}]}})")
                            << 200 << 1 << QString();
    QTest::newRow("scalar") << QByteArray(R"({"status":"success","data":{"resultType":"scalar","result":[1,"4"]}})")
                            << 200 << 1 << QString();
    QTest::newRow("warnings kept") << QByteArray(R"({"status":"success","warnings":["partial"],
        "data":{"resultType":"vector","result":[]}})")
                                   << 200 << 0 << QString();
    QTest::newRow("its error") << QByteArray(R"({"status":"error","errorType":"timeout","error":"query timed out"})")
                               << 503 << 0
                               << QStringLiteral("Prometheus refused the query (timeout, HTTP 503): query timed out");
    QTest::newRow("not its API") << QByteArray("<html>502 Bad Gateway</html>") << 502 << 0
                                 << QStringLiteral("did not answer as Prometheus' API does (HTTP 502");
    QTest::newRow("a string result") << QByteArray(
                                            R"({"status":"success","data":{"resultType":"string","result":[1,"x"]}})")
                                     << 200 << 0 << QStringLiteral("answered a string where a vector was expected");
    QTest::newRow("hostile shapes") << QByteArray(R"({"status":"success","data":{"resultType":"vector","result":[
        1, {"metric":[]}, {"metric":{"a":1},"value":"x"}, {"metric":{"a":"b"},"value":[1,2]}]}})")
                                    << 200 << 0 << QString();
}

void TestPromFleet::response()
{
    QFETCH(QByteArray, body);
    QFETCH(int, http);
    QFETCH(int, series);
    QFETCH(QString, error);
    const Result<PromResult> r = parsePromResponse(body, http);
    if (!error.isEmpty()) {
        QVERIFY(!r);
        QVERIFY2(r.message().contains(error), qPrintable(r.message()));
        return;
    }
    QVERIFY2(r, qPrintable(r.message()));
    QCOMPARE(r.value().series.size(), series);
    if (QByteArray(QTest::currentDataTag()) == "matrix") {
        QCOMPARE(r.value().series.first().points.size(), 3);
        QVERIFY(std::isinf(r.value().series.first().points.at(1).second));
        QCOMPARE(r.value().series.first().value(), 2500.0);
    }
    if (QByteArray(QTest::currentDataTag()) == "warnings kept") {
        QCOMPARE(r.value().warnings, QStringList{QStringLiteral("partial")});
    }
}

void TestPromFleet::withoutPort_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("host");
    QTest::newRow("address:port") << QStringLiteral("10.0.0.5:9400") << QStringLiteral("10.0.0.5");
    QTest::newRow("name:port") << QStringLiteral("gpu-7.lab:30000") << QStringLiteral("gpu-7.lab");
    QTest::newRow("bare name") << QStringLiteral("gpu1") << QStringLiteral("gpu1");
    QTest::newRow("IPv6 with port") << QStringLiteral("[fd00::5]:9400") << QStringLiteral("fd00::5");
    QTest::newRow("bare IPv6") << QStringLiteral("fd00::5") << QStringLiteral("fd00::5");
    QTest::newRow("not a port") << QStringLiteral("gpu1:main") << QStringLiteral("gpu1:main");
}

void TestPromFleet::withoutPort()
{
    QFETCH(QString, value);
    QFETCH(QString, host);
    QCOMPARE(HostNamer::withoutPort(value), host);
}

void TestPromFleet::namer_mapsFirst_thenInventory_thenLabel()
{
    PromConfig c;
    c.hostNames.insert(QStringLiteral("10.0.0.9"), QStringLiteral("spare"));
    const HostNamer namer(
        c,
        {{QStringLiteral("gpu1"), QStringLiteral("10.0.0.5")}, {QStringLiteral("GPU2"), QStringLiteral("gpu2.lab")}});
    const auto series = [](const QString &instance) {
        PromSeries s;
        s.labels.append({QStringLiteral("instance"), instance});
        return s;
    };
    QCOMPARE(namer.nameOf(series(QStringLiteral("10.0.0.9:9400"))), QStringLiteral("spare"));
    QCOMPARE(namer.nameOf(series(QStringLiteral("10.0.0.5:30000"))), QStringLiteral("gpu1"));
    QCOMPARE(namer.nameOf(series(QStringLiteral("GPU2.lab:9400"))), QStringLiteral("GPU2")); // addresses ignore case
    QCOMPARE(namer.nameOf(series(QStringLiteral("10.0.0.77:9400"))), QStringLiteral("10.0.0.77"));
    QVERIFY(!namer.inInventory(QStringLiteral("10.0.0.77")));
    QCOMPARE(namer.nameOf(PromSeries{}), QString()); // no host label: not anybody's
}

void TestPromFleet::assemble_aggregatesRanks_andFoldsDcgmFree()
{
    const auto s = [](std::initializer_list<std::pair<QString, QString>> labels, double v) {
        PromSeries out;
        for (const auto &[k, val] : labels) {
            out.labels.append({k, val});
        }
        out.points.append({1.0, v});
        return out;
    };
    const QString i = QStringLiteral("instance");
    const QString n = QStringLiteral("__name__");
    QHash<FleetQuery, PromResult> answers;
    answers[FleetQuery::Gpus].series = {
        s({{n, QStringLiteral("DCGM_FI_DEV_FB_USED")},
           {i, QStringLiteral("10.0.0.5:9400")},
           {QStringLiteral("gpu"), QStringLiteral("1")},
           {QStringLiteral("modelName"), QStringLiteral("NVIDIA H200")}},
          100000),
        s({{n, QStringLiteral("DCGM_FI_DEV_FB_FREE")},
           {i, QStringLiteral("10.0.0.5:9400")},
           {QStringLiteral("gpu"), QStringLiteral("1")}},
          43000),
        s({{n, QStringLiteral("DCGM_FI_DEV_GPU_UTIL")},
           {i, QStringLiteral("10.0.0.5:9400")},
           {QStringLiteral("gpu"), QStringLiteral("0")}},
          55),
    };
    answers[FleetQuery::Server].series = {
        s({{n, QStringLiteral("sglang:num_running_reqs")},
           {i, QStringLiteral("10.0.0.5:30000")},
           {QStringLiteral("dp_rank"), QStringLiteral("0")},
           {QStringLiteral("tp_rank"), QStringLiteral("0")}},
          3),
        s({{n, QStringLiteral("sglang:num_running_reqs")},
           {i, QStringLiteral("10.0.0.5:30000")},
           {QStringLiteral("dp_rank"), QStringLiteral("1")},
           {QStringLiteral("tp_rank"), QStringLiteral("0")}},
          4),
    };
    answers[FleetQuery::Up].series = {
        s({{n, QStringLiteral("up")},
           {i, QStringLiteral("10.0.0.5:30000")},
           {QStringLiteral("job"), QStringLiteral("sglang")}},
          1),
        s({{n, QStringLiteral("up")},
           {i, QStringLiteral("10.0.0.6:9400")},
           {QStringLiteral("job"), QStringLiteral("dcgm")}},
          0),
        // A target nothing else is known of, whose scrape fails: it may be a GPU server.
        s({{n, QStringLiteral("up")},
           {i, QStringLiteral("10.0.0.9:9400")},
           {QStringLiteral("job"), QStringLiteral("dcgm")}},
          0),
        // Prometheus itself: a target, not a GPU server.
        s({{n, QStringLiteral("up")},
           {i, QStringLiteral("localhost:9090")},
           {QStringLiteral("job"), QStringLiteral("prometheus")}},
          1),
    };
    const HostNamer namer(
        PromConfig{},
        {{QStringLiteral("gpu1"), QStringLiteral("10.0.0.5")}, {QStringLiteral("gpu6"), QStringLiteral("10.0.0.6")}});
    const QList<metrics::HostStatus> fleet = assembleFleet(answers, namer, 1000);
    QCOMPARE(fleet.size(), 3);
    const metrics::HostStatus &gpu1 = fleet.at(1); // sorted; localhost is not a GPU server
    QCOMPARE(gpu1.host, QStringLiteral("gpu1"));
    QCOMPARE(gpu1.gpus.size(), 2);
    QCOMPARE(gpu1.gpus.at(1).memoryTotalMiB, std::optional<qint64>(143000));
    QCOMPARE(gpu1.gpus.at(1).name, QStringLiteral("NVIDIA H200"));
    QVERIFY(!gpu1.gpus.at(0).memoryTotalMiB); // used without free: unknown, not invented
    QCOMPARE(gpu1.server->running, std::optional<double>(7));
    QCOMPARE(metrics::serverHealthName(gpu1.health), QStringLiteral("ok"));
    // An inventory host whose only exporter is down: listed, its exporters unscraped (not the
    // host unreachable: SSH may reach it), with why, and a warning about the exporters.
    const metrics::HostStatus &other = fleet.at(2);
    QCOMPARE(other.host, QStringLiteral("gpu6"));
    QCOMPARE(metrics::hostStateName(other.state), QStringLiteral("unscraped"));
    QVERIFY(other.error.contains(QLatin1String("up is 0")));
    QVERIFY(other.error.contains(QLatin1String("says nothing of the host itself")));
    const QList<metrics::Alert> alerts = metrics::evaluateAlerts(other, metrics::AlertThresholds());
    QCOMPARE(alerts.size(), 1);
    QCOMPARE(alerts.first().id, QStringLiteral("exporters-down"));
    QCOMPARE(alerts.first().severity, QStringLiteral("warning"));
    // The target no inventory host names, whose only series is up == 0: listed, not dropped.
    QCOMPARE(fleet.at(0).host, QStringLiteral("10.0.0.9"));
    QCOMPARE(metrics::hostStateName(fleet.at(0).state), QStringLiteral("unscraped"));
}

void TestPromFleet::targets_fileSd()
{
    recipe::Deployment d;
    d.host = QStringLiteral("gpu1");
    d.profile = QStringLiteral("b300x4-balanced");
    d.port = 30001;
    d.imageDigest = QStringLiteral("sha256:abc");
    const QByteArray network =
        fileSdTargets({{QStringLiteral("gpu1"), QStringLiteral("fd00::5"), d}}, ScrapeFrom::Network);
    const QJsonArray groups = QJsonDocument::fromJson(network).array();
    QCOMPARE(groups.size(), 1);
    QCOMPARE(groups.first()[QLatin1String("targets")].toArray().first().toString(), QStringLiteral("[fd00::5]:30001"));
    const QJsonObject labels = groups.first()[QLatin1String("labels")].toObject();
    QCOMPARE(labels[QLatin1String("flashdeck_deployment")].toString(), QStringLiteral("gpu1-b300x4-balanced"));
    QCOMPARE(labels[QLatin1String("flashdeck_image_digest")].toString(), QStringLiteral("sha256:abc"));
    QVERIFY(!labels.contains(QLatin1String("flashdeck_model_revision"))); // empty: left out
    const QByteArray onHost =
        fileSdTargets({{QStringLiteral("gpu1"), QStringLiteral("fd00::5"), d}}, ScrapeFrom::OnHost);
    QVERIFY(onHost.contains("\"127.0.0.1:30001\""));
}

QTEST_APPLESS_MAIN(TestPromFleet)
#include "tst_promfleet.moc"
