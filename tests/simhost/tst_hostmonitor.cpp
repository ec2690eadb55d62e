#include "backend/deploy/apikeyrecovery.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/dockerendpoint.h"
#include "backend/logs/logrules.h"
#include "backend/logs/sharedlog.h"
#include "backend/metrics/hostmonitor.h"
#include "backend/metrics/timeseries.h"
#include "tests/simhost/simhostfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>

using namespace flashdeck;
using namespace flashdeck::test;
using flashdeck::metrics::HostMonitor;
using flashdeck::metrics::TimeSeries;

namespace {

double maxOf(const TimeSeries *s)
{
    return s && s->max() ? *s->max() : -1;
}

} // namespace

/**
 * Four simulated hosts watched at once over real SSH (b300x4, mi355x-x8, h200x2,
 * b300x4-old-driver): each one's GPUs; on the B300 host a real SGLang simulator under chat
 * load, whose KV use and queue must rise and fall in the store while the queue alert fires
 * and clears; and a host that goes away leaves a gap and an alert, then comes back.
 */
class TestHostMonitor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void fourHosts_loadRisesAndFalls_alertsFireAndClear();
    void noMetricsNoKey_numbersComeFromTheLog();
    void history_survivesARestartOfFlashdeck();
};

void TestHostMonitor::fourHosts_loadRisesAndFalls_alertsFireAndClear()
{
    const QStringList scenarios{QStringLiteral("b300x4"), QStringLiteral("mi355x-x8"), QStringLiteral("h200x2"),
                                QStringLiteral("b300x4-old-driver")};
    const QList<int> gpuCounts{4, 8, 2, 4};
    qRegisterMetaType<QList<probe::GpuSample>>();
    std::vector<std::unique_ptr<SimHostFixture>> hosts;
    for (const QString &s : scenarios) {
        hosts.push_back(std::make_unique<SimHostFixture>());
        QString error;
        QVERIFY2(hosts.back()->start(s, &error), qPrintable(error));
    }
    // The B300 host serves: at most 2 requests at once, so a burst of 10 queues (scenario fault).
    SimHostFixture &b300 = *hosts.front();
    {
        QFile f(b300.simDir() + QStringLiteral("/scenario.json"));
        QVERIFY(f.open(QIODevice::ReadWrite));
        nlohmann::json sc = nlohmann::json::parse(f.readAll().toStdString());
        sc["faults"]["max_running"] = 2;
        sc["faults"]["request_seconds"] = 1.5;
        QVERIFY(f.resize(0) && f.write(QByteArray::fromStdString(sc.dump())) > 0);
    }
    const quint16 port = freeLocalPort();
    ssh::RemoteCommand launch;
    launch.commandLine = "FLASHDECK_SIM_TIME_FACTOR=0.05 sglang-sim --model-path MiniMaxAI/MiniMax-M3.1-Flash --tp 4 "
                         "--host 127.0.0.1 --port " +
        QByteArray::number(port) + " --reasoning-parser minimax-m3 --enable-metrics";
    const quint64 server = b300.connection().run(launch);

    std::vector<std::unique_ptr<HostMonitor>> monitors;
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        metrics::MonitorConfig config;
        config.gpuPeriodMs = 250;
        config.serverPeriodMs = 250;
        config.dockerPeriodMs = 1000;
        config.thresholds.queueDepth = 3;
        if (i == 0) {
            config.serverPort = port;
        }
        monitors.push_back(std::make_unique<HostMonitor>(scenarios[int(i)], hosts[i]->connection(), config));
        monitors.back()->start();
    }
    for (std::size_t i = 0; i < monitors.size(); ++i) {
        const HostMonitor &m = *monitors[i];
        QTRY_VERIFY2_WITH_TIMEOUT(m.status().gpus.size() == gpuCounts[int(i)] && m.settled(),
                                  qPrintable(scenarios[int(i)]), 30000);
        QCOMPARE(metrics::hostStateName(m.status().state), QStringLiteral("up"));
        QVERIFY(m.status().diskFreeBytes.has_value());
        QVERIFY(m.status().containerKnown); // Docker answered: no Flashdeck container there
        QVERIFY(!m.status().container);
        QVERIFY(m.series(QStringLiteral("gpu.0.util")));
        // Every GPU by name in status --json: AMD's come from amd-smi static (metric names none).
        const nlohmann::json gpus = m.status().toJson().at("gpus");
        for (const nlohmann::json &g : gpus) {
            QVERIFY2(g.at("name").is_string() && !g.at("name").get<std::string>().empty(),
                     qPrintable(scenarios[int(i)]));
        }
        if (scenarios[int(i)] == QLatin1String("mi355x-x8")) {
            QCOMPARE(QString::fromStdString(gpus.at(7).at("name").get<std::string>()),
                     QStringLiteral("AMD Instinct MI355X"));
        }
    }
    HostMonitor &watched = *monitors.front();
    QTRY_COMPARE_WITH_TIMEOUT(metrics::serverHealthName(watched.status().health), QStringLiteral("ok"), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(watched.status().server.has_value(), 10000);
    QCOMPARE(watched.status().server->source, QStringLiteral("metrics"));

    // A burst of streamed chats: running tops at 2, the rest queue. (Two clients: one keeps at
    // most six connections to a server.)
    // The server listens on the host's own loopback; the test reaches it through the host's relay.
    const quint16 relayed = b300.relay(port);
    QVERIFY(relayed != 0);
    QNetworkAccessManager http[2];
    http[0].setProxy(QNetworkProxy::NoProxy);
    http[1].setProxy(QNetworkProxy::NoProxy);
    QList<QNetworkReply *> chats;
    for (int i = 0; i < 10; ++i) {
        QNetworkRequest r(QUrl(QStringLiteral("http://127.0.0.1:%1/v1/chat/completions").arg(relayed)));
        r.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        chats.append(
            http[i % 2].post(r, R"({"messages":[{"role":"user","content":"Tell me about GPUs."}],"stream":true})"));
    }
    QTRY_VERIFY_WITH_TIMEOUT(maxOf(watched.series(QStringLiteral("server.queued"))) >= 3, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(watched.status().alerts.cbegin(), watched.status().alerts.cend(),
                                         [](const metrics::Alert &a) { return a.id == QLatin1String("queue-high"); }),
                             30000);
    QVERIFY(maxOf(watched.series(QStringLiteral("kv.used_tokens"))) >= 1024); // two requests' KV at once
    QCOMPARE(maxOf(watched.series(QStringLiteral("server.running"))), 2.0);
    QTRY_VERIFY_WITH_TIMEOUT(
        std::all_of(chats.cbegin(), chats.cend(), [](QNetworkReply *r) { return r->isFinished(); }), 60000);
    for (QNetworkReply *r : chats) {
        QCOMPARE(r->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        r->deleteLater();
    }
    // …and falls back: the queue empties, the KV is released, the alert clears into the history.
    QTRY_VERIFY_WITH_TIMEOUT(watched.series(QStringLiteral("server.queued"))->last()->v == 0 &&
                                 watched.series(QStringLiteral("kv.used_tokens"))->last()->v == 0,
                             30000);
    QTRY_VERIFY_WITH_TIMEOUT(watched.status().alerts.isEmpty(), 30000);
    QVERIFY(!watched.alerts().history().isEmpty());
    QCOMPARE(watched.alerts().history().first().id, QStringLiteral("queue-high"));
    QVERIFY(watched.alerts().history().first().lastMs >= watched.alerts().history().first().sinceMs);
    QTRY_VERIFY_WITH_TIMEOUT(watched.status().rates.ttftP95.has_value(), 30000); // from the histogram's deltas
    QVERIFY(*watched.status().rates.ttftP95 > 0);

    // The H200 host goes away (its sshd dies): unreachable, an alert, and a gap in its series.
    HostMonitor &h200 = *monitors[2];
    hosts[2]->sshd().stop();
    QTRY_VERIFY_WITH_TIMEOUT(metrics::hostStateName(h200.status().state) != QLatin1String("up"), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(
        std::any_of(h200.status().alerts.cbegin(), h200.status().alerts.cend(),
                    [](const metrics::Alert &a) { return a.id == QLatin1String("host-unreachable"); }),
        10000);
    const TimeSeries *util = h200.series(QStringLiteral("gpu.0.util"));
    const auto points = util->points(0, std::numeric_limits<qint64>::max());
    QVERIFY(std::isnan(points.last().v)); // a gap, never the last value carried on
    // The others carry on.
    QCOMPARE(metrics::hostStateName(monitors[1]->status().state), QStringLiteral("up"));

    b300.connection().cancel(server);
    for (auto &m : monitors) {
        m->stop();
    }
}

void TestHostMonitor::noMetricsNoKey_numbersComeFromTheLog()
{
    // A server started without --enable-metrics, whose API key Flashdeck does not hold: /metrics
    // is 404, /v1/loads 401. The numbers then come from its log's Decode batch lines (issue 7).
    SimHostFixture host;
    QString error;
    QVERIFY2(host.start(QStringLiteral("b300x4"), &error), qPrintable(error));
    {
        QFile f(host.simDir() + QStringLiteral("/scenario.json"));
        QVERIFY(f.open(QIODevice::ReadWrite));
        nlohmann::json sc = nlohmann::json::parse(f.readAll().toStdString());
        sc["faults"]["max_running"] = 2;
        sc["faults"]["request_seconds"] = 3;
        QVERIFY(f.resize(0) && f.write(QByteArray::fromStdString(sc.dump())) > 0);
    }
    QSignalSpy tunnel(&host.connection(), &ssh::HostConnection::tunnelReady);
    host.connection().openStdioTunnel("docker system dial-stdio");
    QVERIFY(tunnel.wait(30000));
    // The test's own client (through a port tunnel of its own): gone before the host is counted.
    auto dockerd = std::make_unique<docker::DockerClient>(tunnel.first().at(1).value<quint16>());
    docker::DockerClient &docker = *dockerd;
    const QString image =
        QStringLiteral("lmsysorg/sglang@sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500");
    QNetworkReply *pull =
        docker.stream("POST", QStringLiteral("/images/create?fromImage=%1").arg(docker::DockerClient::q(image)));
    QSignalSpy pulled(pull, &QNetworkReply::finished);
    QVERIFY(pulled.wait(60000));
    pull->deleteLater();
    const quint16 port = freeLocalPort();
    const QByteArray key = "sk-not-given-to-the-monitor-0123456789";
    const nlohmann::json body = {
        {"Image", image.toStdString()},
        {"Cmd",
         {"python3", "-m", "sglang.launch_server", "--model-path", "MiniMaxAI/MiniMax-M3.1-Flash", "--tp", "4",
          "--host", "127.0.0.1", "--port", std::to_string(port), "--api-key", key.toStdString()}},
        {"Env", {"FMHA_SM100_ALLOW_JIT=1", "FLASHDECK_SIM_TIME_FACTOR=0.05"}},
        {"HostConfig", {{"NetworkMode", "host"}}},
        {"Labels", {{"io.flashdeck.deployment", "lab-b300x4-balanced"}}}};
    std::optional<docker::DockerResponse> created;
    docker.call("POST", QStringLiteral("/containers/create?name=flashdeck-lab-b300x4-balanced-0"),
                QByteArray::fromStdString(body.dump()), [&created](const docker::DockerResponse &r) { created = r; });
    QTRY_VERIFY_WITH_TIMEOUT(created.has_value(), 30000);
    QVERIFY2(created->status == 201, qPrintable(created->message()));
    std::optional<docker::DockerResponse> started;
    docker.call(
        "POST",
        QStringLiteral("/containers/%1/start").arg(QString::fromStdString(created->json()["Id"].get<std::string>())),
        {}, [&started](const docker::DockerResponse &r) { started = r; });
    QTRY_VERIFY_WITH_TIMEOUT(started.has_value(), 30000);
    QCOMPARE(started->status, 204);
    dockerd.reset();

    metrics::MonitorConfig config;
    config.serverPeriodMs = 250;
    config.dockerPeriodMs = 1000;
    config.serverPort = port; // no API key in the config
    // The host's one log stream, as its session holds it: a page reads it already; the monitor's
    // fallback reads the same stream, not a `docker logs` of its own.
    const Result<logs::LogRules> rules = logs::LogRules::builtIn();
    QVERIFY2(rules, qPrintable(rules.message()));
    logs::SharedLog log(host.connection(), rules.value(), QStringLiteral("lab"));
    QObject logsPage;
    qsizetype pageLines = 0;
    log.subscribe(&logsPage, 100, [&pageLines](const QList<logs::LogRecord> &r) { pageLines += r.size(); });
    config.log = &log;
    HostMonitor monitor(QStringLiteral("lab"), host.connection(), config);
    monitor.start();
    QTRY_COMPARE_WITH_TIMEOUT(metrics::serverHealthName(monitor.status().health), QStringLiteral("ok"), 90000);

    const quint16 relayed = host.relay(port);
    QVERIFY(relayed != 0);
    QNetworkAccessManager http;
    http.setProxy(QNetworkProxy::NoProxy);
    QList<QNetworkReply *> chats;
    for (int i = 0; i < 4; ++i) {
        QNetworkRequest r(QUrl(QStringLiteral("http://127.0.0.1:%1/v1/chat/completions").arg(relayed)));
        r.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        r.setRawHeader("Authorization", "Bearer " + key);
        chats.append(http.post(r, R"({"messages":[{"role":"user","content":"Tell me about GPUs."}],"stream":true})"));
    }
    QTRY_VERIFY_WITH_TIMEOUT(monitor.status().server && monitor.status().server->source == QLatin1String("log") &&
                                 maxOf(monitor.series(QStringLiteral("server.running"))) >= 1,
                             60000);
    QVERIFY(maxOf(monitor.series(QStringLiteral("server.throughput"))) > 0);
    QCOMPARE(log.readers(), 2); // the page and the monitor, on one follower
    QVERIFY(pageLines > 0);
    QTRY_VERIFY_WITH_TIMEOUT(
        std::all_of(chats.cbegin(), chats.cend(), [](QNetworkReply *r) { return r->isFinished(); }), 60000);
    qDeleteAll(chats);

    // What the status, the Fleet page and the Playground do without a keyring: read the key the
    // running server was started with, over the host's Docker; and say why when they cannot.
    const auto recover = [&host](const QString &deployment) {
        deploy::ApiKeyRecovery recovery(host.connection(), deployment);
        std::optional<Result<QString>> found;
        QObject::connect(&recovery, &deploy::ApiKeyRecovery::finished, &recovery,
                         [&found](const Result<QString> &k) { found = k; });
        recovery.start();
        (void)QTest::qWaitFor([&found] { return found.has_value(); }, 30000);
        return found.value_or(Status::failure(QStringLiteral("no answer")));
    };
    const Result<QString> recovered = recover(QStringLiteral("lab-b300x4-balanced"));
    QVERIFY2(recovered, qPrintable(recovered.message()));
    QCOMPARE(recovered.value(), QString::fromUtf8(key));
    const Result<QString> gone = recover(QStringLiteral("lab-b300x4-low-latency"));
    QVERIFY(!gone);
    QVERIFY2(gone.message().contains(QLatin1String("is not on the host any more")), qPrintable(gone.message()));

    // One Docker endpoint for the host: every Engine API call of the process (the monitor's
    // container list each second, the log's lookups, both key recoveries) went over one
    // kept-alive dial-stdio, and the host follows the server's log once. On the host: that call
    // link and the follow, nothing else (HTTP/1.1 cannot carry a call beside a never-ending body).
    QCOMPARE(docker::DockerEndpoint::of(host.connection()).callConnectionsOpened(), 1);
    // The chats' links close as soon as their sessions end; under a loaded CI machine (two builds
    // beside the suite) one took just over 30 s to be seen closed on the host, so the bound is 60 s.
    QTRY_COMPARE_WITH_TIMEOUT(host.engineCount("connections"), 2, 60000);
    QCOMPARE(host.engineCount("log_follows"), 1);
    monitor.stop();
    QCOMPARE(log.readers(), 1); // the monitor left; the page's stream goes on
    QVERIFY(log.follower() != nullptr);
}

void TestHostMonitor::history_survivesARestartOfFlashdeck()
{
    SimHostFixture host;
    QString error;
    QVERIFY2(host.start(QStringLiteral("h200x2"), &error), qPrintable(error));
    QTemporaryDir data;
    metrics::MonitorConfig config;
    config.gpuPeriodMs = 250;
    config.archiveFile = data.path() + QStringLiteral("/metrics/h200.fdts");
    const QString name = QStringLiteral("gpu.1.mem_used_mib");
    const qint64 all = std::numeric_limits<qint64>::max();
    QList<TimeSeries::Point> before;
    {
        HostMonitor monitor(QStringLiteral("h200"), host.connection(), config);
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.series(name) && monitor.series(name)->points(0, all).size() >= 3, 30000);
        monitor.stop(); // as when the window closes: written then
        before = monitor.series(name)->points(0, all);
    }
    QVERIFY(QFile::exists(config.archiveFile));
    // Flashdeck starts again: the charts have their past before the first new sample, then a gap.
    HostMonitor again(QStringLiteral("h200"), host.connection(), config);
    const TimeSeries *restored = again.series(name);
    QVERIFY(restored);
    const auto after = restored->points(0, all);
    QCOMPARE(after.size(), before.size() + 1);
    for (int i = 0; i < before.size(); ++i) {
        QCOMPARE(after[i].tMs, before[i].tMs);
        QCOMPARE(after[i].v, before[i].v);
    }
    QVERIFY(std::isnan(after.last().v));
    QVERIFY(again.status().historyError.isEmpty());
    again.start();
    QTRY_VERIFY_WITH_TIMEOUT(restored->points(0, all).size() >= after.size() + 2, 30000);
    QVERIFY(!std::isnan(restored->points(0, all).last().v)); // new samples follow the gap
    again.stop();

    // A damaged file: said on the status, moved aside, and the charts start fresh.
    QFile f(config.archiveFile);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write("garbage") == 7);
    f.close();
    HostMonitor damaged(QStringLiteral("h200"), host.connection(), config);
    QVERIFY(damaged.seriesNames().isEmpty());
    QVERIFY2(damaged.status().historyError.contains(QStringLiteral("damaged")),
             qPrintable(damaged.status().historyError));
    QVERIFY(QFile::exists(config.archiveFile + QStringLiteral(".damaged")));
}

QTEST_GUILESS_MAIN(TestHostMonitor)
#include "tst_hostmonitor.moc"
