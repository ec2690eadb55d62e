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
        QCOMPARE(m.status().state, QStringLiteral("up"));
        QVERIFY(m.status().diskFreeBytes.has_value());
        QVERIFY(m.status().containerKnown); // Docker answered: no Flashdeck container there
        QVERIFY(!m.status().container);
        QVERIFY(m.series(QStringLiteral("gpu.0.util")));
    }
    HostMonitor &watched = *monitors.front();
    QTRY_COMPARE_WITH_TIMEOUT(watched.status().health, QStringLiteral("ok"), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(watched.status().server.has_value(), 10000);
    QCOMPARE(watched.status().server->source, QStringLiteral("metrics"));

    // A burst of streamed chats: running tops at 2, the rest queue. (Two clients: one keeps at
    // most six connections to a server.)
    QNetworkAccessManager http[2];
    http[0].setProxy(QNetworkProxy::NoProxy);
    http[1].setProxy(QNetworkProxy::NoProxy);
    QList<QNetworkReply *> chats;
    for (int i = 0; i < 10; ++i) {
        QNetworkRequest r(QUrl(QStringLiteral("http://127.0.0.1:%1/v1/chat/completions").arg(port)));
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
    QTRY_VERIFY_WITH_TIMEOUT(h200.status().state != QLatin1String("up"), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(
        std::any_of(h200.status().alerts.cbegin(), h200.status().alerts.cend(),
                    [](const metrics::Alert &a) { return a.id == QLatin1String("host-unreachable"); }),
        10000);
    const TimeSeries *util = h200.series(QStringLiteral("gpu.0.util"));
    const auto points = util->points(0, std::numeric_limits<qint64>::max());
    QVERIFY(std::isnan(points.last().v)); // a gap, never the last value carried on
    // The others carry on.
    QCOMPARE(monitors[1]->status().state, QStringLiteral("up"));

    b300.connection().cancel(server);
    for (auto &m : monitors) {
        m->stop();
    }
}

QTEST_GUILESS_MAIN(TestHostMonitor)
#include "tst_hostmonitor.moc"
