#include "../cli/clirun.h"
#include "fakeexporters.h"
#include "fakehttpserver.h"
#include "prometheusfixture.h"

#include "backend/core/apppaths.h"
#include "backend/core/settings.h"
#include "backend/fleet/inventory.h"
#include "backend/prometheus/promclient.h"
#include "backend/prometheus/promfleetsource.h"
#include "backend/recipe/deployment.h"
#include "backend/ssh/hostconnection.h"
#include "tests/support/sshdfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace flashdeck;
using flashdeck::testing::FakeHttpServer;
using namespace flashdeck::testing::exporters;
using flashdeck::test::SshdFixture;
using flashdeck::testing::PrometheusFixture;

namespace {

QString job(const QString &name, quint16 port, const QString &host)
{
    return QStringLiteral("  - job_name: %1\n    static_configs:\n      - targets: [\"127.0.0.1:%2\"]\n"
                          "        labels: {host: %3}\n")
        .arg(name)
        .arg(port)
        .arg(host);
}

/** A port nothing listens on: bound, noted, released. */
/**
 * A status run, with this thread's event loop serving meanwhile: the fake exporters live here, and
 * a test blocked on the process left Prometheus' 1 s scrapes unanswered, so their series went stale
 * under the very query the run made (the run then saw some hosts without GPUs, or not at all).
 */
CliRun runServing(const QString &config, const QStringList &args)
{
    return runFlashdeck(config, args, 180000, Session::Inherited, Wait::Serving);
}

quint16 closedPort()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost);
    return s.serverPort();
}

} // namespace

/**
 * The fleet through the operator's Prometheus: Debian's real Prometheus scraping dcgm-, AMD- and
 * SGLang-shaped exporters; the source, the CLI's status with its fallback to SSH, the client's
 * failures in Prometheus' or the proxy's words, and the rules and targets Flashdeck hands over.
 */
class TestPrometheus : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void source_readsEveryHost_withAHandfulOfQueries();
    void cli_statusFromPrometheus_mixesSsh_andFallsBack();
    void client_failures_data();
    void client_failures();
    void source_partialAnswers_keptAndSaid();
    void rules_acceptedByPromtool();
    void targets_loadedByPrometheus();
    void throughBastion_overItsSshSession();

private:
    void writeInventory(const AppPaths &paths);

    FakeHttpServer m_dcgm1;
    FakeHttpServer m_sglang1;
    FakeHttpServer m_amd2;
    FakeHttpServer m_dcgm3;
    PrometheusFixture m_prometheus;
    int m_scrapes = 0;
};

void TestPrometheus::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_dcgm1.on("GET", "/metrics", exposition(dcgmText(QStringLiteral("gpu1"), 8, 180000)));
    m_sglang1.on("GET", "/metrics",
                 [this](const FakeHttpServer::Request &) { return exposition(sglangText(++m_scrapes)); });
    m_amd2.on("GET", "/metrics", exposition(amdText(8)));
    m_dcgm3.on("GET", "/metrics", exposition(dcgmText(QStringLiteral("gpu3"), 4, 1000)));
    QString error;
    QVERIFY2(m_prometheus.start(job(QStringLiteral("dcgm"), m_dcgm1.port(), QStringLiteral("gpu1")) +
                                    job(QStringLiteral("sglang"), m_sglang1.port(), QStringLiteral("gpu1")) +
                                    job(QStringLiteral("amd"), m_amd2.port(), QStringLiteral("gpu2")) +
                                    // gpu2's server is down: its scrape fails.
                                    job(QStringLiteral("sglang-amd"), closedPort(), QStringLiteral("gpu2")) +
                                    job(QStringLiteral("dcgm3"), m_dcgm3.port(), QStringLiteral("gpu3")),
                                &error),
             qPrintable(error));
    // Until rate() has two points of the counters and every target was scraped.
    QVERIFY2(m_prometheus.waitForSeries(QStringLiteral("rate(sglang:num_requests_total[5m]) > 0"), 1, 60000, &error),
             qPrintable(error));
    QVERIFY2(m_prometheus.waitForSeries(QStringLiteral("up"), 5, 60000, &error), qPrintable(error));
}

void TestPrometheus::writeInventory(const AppPaths &paths)
{
    QVERIFY(paths.ensureExists());
    fleet::Inventory inventory(paths.inventoryFile());
    for (const auto &[name, address] : {std::pair{"gpu1", "10.9.9.1"}, std::pair{"gpu2", "10.9.9.2"}}) {
        fleet::HostEntry h;
        h.name = QString::fromLatin1(name);
        h.address = QString::fromLatin1(address);
        h.user = QStringLiteral("ops");
        QVERIFY(inventory.add(h).isOk());
    }
    // A host Prometheus does not know: watched over SSH, where nothing answers.
    fleet::HostEntry sshOnly;
    sshOnly.name = QStringLiteral("sshonly");
    sshOnly.address = QStringLiteral("127.0.0.1");
    sshOnly.port = closedPort();
    sshOnly.user = QStringLiteral("ops");
    QVERIFY(inventory.add(sshOnly).isOk());
    QVERIFY(inventory.save().isOk());
}

void TestPrometheus::source_readsEveryHost_withAHandfulOfQueries()
{
    QTemporaryDir root;
    const AppPaths paths(root.path());
    writeInventory(paths);
    prom::PromConfig config;
    config.source = prom::FleetSource::Prometheus;
    config.url = m_prometheus.url();
    config.hostLabel = QStringLiteral("host");
    prom::PromFleetSource source(config, {}, paths, metrics::AlertThresholds{});
    source.setInventory(
        {{QStringLiteral("gpu1"), QStringLiteral("10.9.9.1")}, {QStringLiteral("gpu2"), QStringLiteral("10.9.9.2")}});
    QSignalSpy refreshed(&source, &prom::PromFleetSource::refreshed);
    source.refresh();
    QVERIFY(refreshed.wait(30000));
    QVERIFY2(source.error().isEmpty(), qPrintable(source.error()));
    QCOMPARE(source.hosts().size(), 3);

    const metrics::HostStatus *gpu1 = source.host(QStringLiteral("gpu1"));
    QVERIFY(gpu1);
    QCOMPARE(gpu1->source, QStringLiteral("prometheus"));
    QVERIFY(gpu1->inInventory);
    QCOMPARE(gpu1->gpus.size(), 8);
    QCOMPARE(gpu1->gpus.at(3).name, QStringLiteral("NVIDIA B300"));
    QCOMPARE(gpu1->gpus.at(3).utilizationGpu, std::optional<int>(83));
    QCOMPARE(gpu1->gpus.at(3).memoryUsedMiB, std::optional<qint64>(180000));
    QCOMPARE(gpu1->gpus.at(3).memoryTotalMiB, std::optional<qint64>(275040)); // used + free
    QCOMPARE(gpu1->gpus.at(3).powerW, std::optional<double>(812.5));
    QCOMPARE(metrics::serverHealthName(gpu1->health), QStringLiteral("ok"));
    QVERIFY(gpu1->server);
    // DP groups add up: 2 × 24 running, 2 × 20 queued, the pool half full.
    QCOMPARE(gpu1->server->running, std::optional<double>(48));
    QCOMPARE(gpu1->server->queued, std::optional<double>(40));
    QCOMPARE(gpu1->server->tokenUsage, std::optional<double>(0.5));
    QVERIFY(gpu1->rates.ttftP95 && *gpu1->rates.ttftP95 > 0.5 && *gpu1->rates.ttftP95 <= 1.0);
    QVERIFY(gpu1->rates.requestsPerSecond && *gpu1->rates.requestsPerSecond > 0);
    QVERIFY(gpu1->rates.errorRate && qAbs(*gpu1->rates.errorRate - 0.1) < 1e-6);
    QStringList ids;
    for (const metrics::Alert &a : gpu1->alerts) {
        ids.append(a.id);
    }
    // Queue 40 ≥ 32 and 10 % aborted ≥ 5 %, as the SSH monitor would say.
    QVERIFY2(ids.contains(QStringLiteral("queue-high")) && ids.contains(QStringLiteral("error-rate-high")),
             qPrintable(ids.join(QLatin1Char(' '))));

    const metrics::HostStatus *gpu2 = source.host(QStringLiteral("gpu2"));
    QVERIFY(gpu2);
    QCOMPARE(gpu2->gpus.size(), 8);
    QCOMPARE(gpu2->gpus.first().name, QStringLiteral("AMD Instinct MI355X"));
    QCOMPARE(gpu2->gpus.first().memoryTotalMiB, std::optional<qint64>(294896));
    QCOMPARE(metrics::serverHealthName(gpu2->health), QStringLiteral("down"));
    QVERIFY(std::any_of(gpu2->alerts.cbegin(), gpu2->alerts.cend(),
                        [](const metrics::Alert &a) { return a.id == QLatin1String("server-down"); }));
    const QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(gpu2->toJson().dump())).object();
    QCOMPARE(json[QLatin1String("source")].toString(), QStringLiteral("prometheus"));
    QVERIFY(json[QLatin1String("container")].isNull()); // what the source lacks is null, not invented

    const metrics::HostStatus *gpu3 = source.host(QStringLiteral("gpu3"));
    QVERIFY(gpu3);
    QVERIFY(!gpu3->inInventory);
    QCOMPARE(gpu3->gpus.size(), 4);

    // The fleet's size does not change what a refresh costs Prometheus: the same queries each time.
    const double before = m_prometheus.instantQueriesAnswered();
    source.refresh();
    QVERIFY(refreshed.wait(30000));
    QCOMPARE(m_prometheus.instantQueriesAnswered() - before, double(prom::fleetQueries(config.hostLabel).size()));
}

void TestPrometheus::cli_statusFromPrometheus_mixesSsh_andFallsBack()
{
    QTemporaryDir root;
    const AppPaths paths(root.path());
    writeInventory(paths);
    {
        Settings settings(paths);
        prom::PromConfig config = prom::PromConfig::fromSettings(settings);
        config.hostLabel = QStringLiteral("host");
        config.writeTo(settings);
    }
    const auto byHost = [](const QByteArray &lines) { return statusByHost(lines); };
    const QStringList args{QStringLiteral("status"), QStringLiteral("--prometheus-url"), m_prometheus.url().toString(),
                           QStringLiteral("--json"), QStringLiteral("--timeout"),        QStringLiteral("20")};
    CliRun run = runServing(root.path(), args);
    QVERIFY2(run.exitCode == 1,
             QByteArray(run.out.right(1500) + run.err).constData()); // not every host is up: sshonly does not answer
    QMap<QString, QJsonObject> hosts = byHost(run.out);
    QCOMPARE(hosts.keys(),
             (QStringList{QStringLiteral("gpu1"), QStringLiteral("gpu2"), QStringLiteral("gpu3"),
                          QStringLiteral("sshonly")}));
    QCOMPARE(hosts[QStringLiteral("gpu1")][QLatin1String("source")].toString(), QStringLiteral("prometheus"));
    QCOMPARE(hosts[QStringLiteral("gpu1")][QLatin1String("gpus")].toArray().size(), 8);
    QCOMPARE(hosts[QStringLiteral("gpu1")][QLatin1String("server")].toObject()[QLatin1String("running")].toDouble(),
             48.0);
    QCOMPARE(hosts[QStringLiteral("gpu3")][QLatin1String("in_inventory")].toBool(), false);
    QCOMPARE(hosts[QStringLiteral("sshonly")][QLatin1String("source")].toString(), QStringLiteral("ssh"));
    QVERIFY(hosts[QStringLiteral("sshonly")][QLatin1String("state")].toString() != QLatin1String("up"));

    // The human table names where the figures came from, and the host only Prometheus knows.
    run = runServing(root.path(), args.mid(0, 3) + QStringList{QStringLiteral("--timeout"), QStringLiteral("20")});
    QVERIFY2(run.out.contains(QByteArray("Source: Prometheus at " + m_prometheus.url().toString().toUtf8() +
                                         " for 3 host(s), SSH for 1.")),
             run.out.constData());
    QVERIFY2(run.out.contains("gpu3: known to Prometheus, not in the inventory"), run.out.constData());

    // A source that is down: said, and every inventory host is watched over SSH instead.
    PrometheusFixture gone;
    QString error;
    QVERIFY2(gone.start({}, &error), qPrintable(error));
    const QString goneUrl = gone.url().toString();
    gone.stop();
    run = runServing(root.path(),
                     {QStringLiteral("status"), QStringLiteral("--prometheus-url"), goneUrl, QStringLiteral("--json"),
                      QStringLiteral("--timeout"), QStringLiteral("5")});
    QVERIFY2(run.err.contains(
                 QString(QStringLiteral("Prometheus at ") + goneUrl + QStringLiteral(" did not answer: ")).toUtf8()) &&
                 run.err.contains("Watching the inventory's hosts over SSH instead."),
             run.err.constData());
    hosts = byHost(run.out);
    QCOMPARE(hosts.keys(), (QStringList{QStringLiteral("gpu1"), QStringLiteral("gpu2"), QStringLiteral("sshonly")}));
    QCOMPARE(hosts[QStringLiteral("gpu1")][QLatin1String("source")].toString(), QStringLiteral("ssh"));
}

void TestPrometheus::client_failures_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("said");
    QTest::newRow("bad token") << 401 << QByteArray("Unauthorized")
                               << QStringLiteral("refused the credentials (HTTP 401): check the token");
    QTest::newRow("query refused")
        << 400 << QByteArray(R"({"status":"error","errorType":"bad_data","error":"1:1: parse error: unexpected"})")
        << QStringLiteral("Prometheus refused the query (bad_data, HTTP 400): 1:1: parse error: unexpected");
    QTest::newRow("overloaded")
        << 503 << QByteArray(R"({"status":"error","errorType":"unavailable","error":"too many queries"})")
        << QStringLiteral("Prometheus refused the query (unavailable, HTTP 503): too many queries");
    QTest::newRow("a proxy's page") << 200 << QByteArray("<html><body>Sign in</body></html>")
                                    << QStringLiteral(
                                           "did not answer as Prometheus' API does (HTTP 200, “<html><body>Sign in");
    QTest::newRow("too large") << 200 << QByteArray(4 * 1024 * 1024, 'x') << QStringLiteral("answered more than");
    // Headers, then nothing: the request's own time limit ends it (status -1: held open).
    QTest::newRow("too slow") << -1 << QByteArray("{\"status\":")
                              << QStringLiteral("did not answer: no answer in time");
}

void TestPrometheus::client_failures()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QString, said);
    FakeHttpServer proxy;
    FakeHttpServer::Response r;
    r.status = status < 0 ? 200 : status;
    r.holdOpen = status < 0;
    r.body = body;
    proxy.on("GET", "/prom/api/v1/query", r);
    prom::PromConfig config;
    config.url = QUrl(QStringLiteral("http://127.0.0.1:%1/prom").arg(proxy.port()));
    config.auth = prom::PromAuth::Bearer;
    config.timeoutMs = 1000;
    prom::PromClient client(config, QStringLiteral("s3cret-token"));
    client.setMaxAnswerBytes(1024 * 1024);
    std::optional<Result<prom::PromResult>> answer;
    client.query(QStringLiteral("up"), [&answer](const Result<prom::PromResult> &a) { answer = a; });
    QTRY_VERIFY_WITH_TIMEOUT(answer.has_value(), 30000);
    QVERIFY(!*answer);
    QVERIFY2(answer->message().contains(said), qPrintable(answer->message()));
    QVERIFY(!answer->message().contains(QLatin1String("s3cret"))); // the token is never repeated
    // The path prefix of a Prometheus behind a proxy is kept; the token goes as a bearer header.
    QCOMPARE(proxy.requests().size(), 1);
    QVERIFY(proxy.requests().first().target.startsWith("/prom/api/v1/query?query=up"));
}

void TestPrometheus::source_partialAnswers_keptAndSaid()
{
    // A Prometheus that answers `up` and refuses the rest (an overloaded one, a query limit):
    // what came back is shown, and what did not is said.
    FakeHttpServer partial;
    FakeHttpServer::Response refused;
    refused.status = 422;
    refused.body =
        R"({"status":"error","errorType":"execution","error":"query processing would load too many samples"})";
    partial.on("GET", "/api/v1/query", refused);
    FakeHttpServer::Response up;
    up.body = R"({"status":"success","data":{"resultType":"vector","result":[
        {"metric":{"__name__":"up","instance":"10.9.9.1:9400","job":"dcgm"},"value":[1700000000,"1"]}]}})";
    partial.on("GET", "/api/v1/query?query=up&", up);
    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    prom::PromConfig config;
    config.source = prom::FleetSource::Prometheus;
    config.url = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(partial.port()));
    prom::PromFleetSource source(config, {}, paths, metrics::AlertThresholds{});
    source.setInventory({{QStringLiteral("gpu1"), QStringLiteral("10.9.9.1")}});
    QSignalSpy refreshed(&source, &prom::PromFleetSource::refreshed);
    source.refresh();
    QVERIFY(refreshed.wait(30000));
    QVERIFY2(source.error().isEmpty(), qPrintable(source.error()));
    QCOMPARE(source.hosts().size(), 1);
    QCOMPARE(metrics::hostStateName(source.host(QStringLiteral("gpu1"))->state), QStringLiteral("up"));
    QVERIFY(source.host(QStringLiteral("gpu1"))->gpus.isEmpty()); // not answered: unknown, not zero
    QVERIFY2(!source.warnings().isEmpty() &&
                 source.warnings().first().startsWith(
                     QLatin1String("partial: Prometheus refused the query (execution, HTTP 422): query processing")),
             qPrintable(source.warnings().join(QLatin1Char('\n'))));
}

void TestPrometheus::rules_acceptedByPromtool()
{
    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    const QString file = root.filePath(QStringLiteral("flashdeck.rules.yml"));
    CliRun run = runFlashdeck(root.path(),
                              {QStringLiteral("prometheus"), QStringLiteral("rules"), QStringLiteral("--output"), file,
                               QStringLiteral("--host-label"), QStringLiteral("Hostname")});
    QCOMPARE(run.exitCode, 0);
    const QString refused = PrometheusFixture::checkRules(file);
    QVERIFY2(refused.isEmpty(), qPrintable(refused));
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray rules = f.readAll();
    for (const char *alert : {"FlashdeckGpuMemoryHigh", "FlashdeckQueueHigh", "FlashdeckTtftP95High",
                              "FlashdeckErrorRateHigh", "FlashdeckServerDown", "FlashdeckDiskLow"}) {
        QVERIFY2(rules.contains(alert), alert);
    }
    QVERIFY(rules.contains("sum by (Hostname) (sglang:num_queue_reqs) >= 32"));
    // A label that Prometheus would refuse never reaches the file.
    run = runFlashdeck(root.path(),
                       {QStringLiteral("prometheus"), QStringLiteral("rules"), QStringLiteral("--host-label"),
                        QStringLiteral("9host")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains("is not a Prometheus label name"));
}

void TestPrometheus::targets_loadedByPrometheus()
{
    QTemporaryDir root;
    const AppPaths paths(root.path());
    writeInventory(paths);
    // On the loopback host, at a port where nothing listens: Prometheus scrapes nothing outside.
    recipe::Deployment d;
    d.host = QStringLiteral("sshonly");
    d.profile = QStringLiteral("b300x4-balanced");
    d.image = QStringLiteral("lmsysorg/sglang:dev-minimax-m31-flash");
    d.imageDigest = QStringLiteral("sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500");
    d.modelSha = QStringLiteral("62cbc27f7e9e74309d8ecea398ffe088b6c4e0aa");
    d.port = closedPort();
    d.ok = true;
    QVERIFY(QDir().mkpath(recipe::Deployment::directory(paths, d.host)));
    const Status written = d.write(paths);
    QVERIFY2(written.isOk(), qPrintable(written.message()));
    const QString file = root.filePath(QStringLiteral("flashdeck.targets.json"));
    const CliRun run = runFlashdeck(
        root.path(), {QStringLiteral("prometheus"), QStringLiteral("targets"), QStringLiteral("--output"), file});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.contains("listen on each host's loopback only") &&
                 run.err.contains("/metrics without the API key"),
             run.err.constData());

    // Prometheus itself reads the file: one target, with the deployment's labels.
    PrometheusFixture reader;
    QString error;
    QVERIFY2(
        reader.start(QStringLiteral("  - job_name: sglang\n    file_sd_configs:\n      - files: [\"%1\"]\n").arg(file),
                     &error),
        qPrintable(error));
    QVERIFY2(
        reader.waitForSeries(QStringLiteral("up{job=\"sglang\",host=\"sshonly\",flashdeck_model_revision="
                                            "\"62cbc27f7e9e74309d8ecea398ffe088b6c4e0aa\",instance=\"127.0.0.1:%1\"}")
                                 .arg(d.port),
                             1, 60000, &error),
        qPrintable(error));
}

void TestPrometheus::throughBastion_overItsSshSession()
{
    // A Prometheus only a bastion reaches: the queries go through a tunnel of the bastion's SSH
    // session (a real sshd here), to the address as the bastion sees it.
    QTemporaryDir home;
    test::isolateSshEnvironment(home.path());
    SshdFixture sshd;
    QString error;
    QVERIFY2(sshd.start(&error), qPrintable(error));
    const QString key = sshd.addClientKey(QStringLiteral("id_bastion"));
    ssh::HostConnection bastion(test::targetFor(sshd, home.filePath(QStringLiteral("known_hosts")), key));
    QCOMPARE(test::connectAndWait(bastion, true).phase, ssh::ConnectionPhase::Ready);
    QSignalSpy tunnels(&bastion, &ssh::HostConnection::tunnelReady);

    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    prom::PromConfig config;
    config.source = prom::FleetSource::Prometheus;
    config.url = m_prometheus.url();
    config.hostLabel = QStringLiteral("host");
    config.throughHost = QStringLiteral("bastion");
    prom::PromFleetSource source(config, {}, paths, metrics::AlertThresholds{});
    source.setThroughHost(&bastion);
    QSignalSpy refreshed(&source, &prom::PromFleetSource::refreshed);
    source.refresh();
    QVERIFY(refreshed.wait(30000));
    QVERIFY2(source.error().isEmpty(), qPrintable(source.error()));
    QCOMPARE(tunnels.size(), 1);
    QVERIFY(source.host(QStringLiteral("gpu1")));
    QCOMPARE(source.host(QStringLiteral("gpu1"))->gpus.size(), 8);
    // The next refresh reuses the tunnel.
    source.refresh();
    QVERIFY(refreshed.wait(30000));
    QCOMPARE(tunnels.size(), 1);

    // The bastion's session gone: said, with the bastion's name.
    sshd.stop();
    QTRY_VERIFY_WITH_TIMEOUT(bastion.state().phase != ssh::ConnectionPhase::Ready, 30000);
    source.refresh();
    QVERIFY(refreshed.wait(60000));
    QVERIFY2(!source.error().isEmpty(), "a refresh through a dead bastion must fail");
}

QTEST_MAIN(TestPrometheus)
#include "tst_prometheus.moc"
