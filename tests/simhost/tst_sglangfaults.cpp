#include "tests/simhost/simhostfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace flashdeck;
using namespace flashdeck::test;

/** Fault scenarios of the SGLang simulator, each launched over real SSH. */
class TestSglangFaults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { m_host.stop(); }
    void faultScenario_changesTheLog_data();
    void faultScenario_changesTheLog();
    void neverReady_healthStays503_whileModelsAnswers();
    void portTaken_failsWithTheRealMessage();

private:
    /** Launches sglang-sim on a free port; waits for Uvicorn (or exit). Returns the port. */
    quint16 launch(quint64 *id);
    bool logContains(const QByteArray &text) const
    {
        return std::any_of(m_log.begin(), m_log.end(), [&text](const QByteArray &l) { return l.contains(text); });
    }
    int get(quint16 localPort, const QString &path);

    SimHostFixture m_host;
    QNetworkAccessManager m_nam;
    QList<QByteArray> m_log;
    quint64 m_current = 0;
};

void TestSglangFaults::initTestCase()
{
    QString error;
    if (!m_host.start(QStringLiteral("b300x4"), &error)) {
        QSKIP(qPrintable(error));
    }
    connect(&m_host.connection(), &ssh::HostConnection::commandOutput, this,
            [this](quint64 id, const QList<QByteArray> &out, const QList<QByteArray> &err) {
                if (id == m_current) {
                    m_log += out;
                    m_log += err;
                }
            });
}

quint16 TestSglangFaults::launch(quint64 *id)
{
    const quint16 port = freeLocalPort();
    m_log.clear();
    ssh::RemoteCommand cmd;
    cmd.commandLine = "FLASHDECK_SIM_TIME_FACTOR=0.01 sglang-sim --tp 4 --port " + QByteArray::number(port) +
        " --speculative-algorithm DSPARK --reasoning-parser minimax-m3";
    m_current = *id = m_host.connection().run(cmd);
    return port;
}

int TestSglangFaults::get(quint16 localPort, const QString &path)
{
    QNetworkReply *reply =
        m_nam.get(QNetworkRequest(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(localPort).arg(path))));
    QSignalSpy done(reply, &QNetworkReply::finished);
    done.wait(20000);
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    reply->deleteLater();
    return status;
}

void TestSglangFaults::faultScenario_changesTheLog_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QByteArray>("present");
    QTest::addColumn<QByteArray>("absent");
    QTest::newRow("healthy") << QStringLiteral("b300x4") << QByteArray("nvfp4_to_fp8 backend=qmul4")
                             << QByteArray("fp16_fallback");
    QTest::newRow("qmul4-fallback") << QStringLiteral("qmul4-fallback")
                                    << QByteArray("nvfp4_to_fp8 backend=fp16_fallback") << QByteArray("backend=qmul4");
    QTest::newRow("qmul4-cached") << QStringLiteral("qmul4-cached") << QByteArray("KV Cache is allocated")
                                  << QByteArray("nvfp4_to_fp8");
    QTest::newRow("no-dspark") << QStringLiteral("no-dspark") << QByteArray("ready to roll") << QByteArray("DSpark");
    // qmul4 is an sm100 kernel: a Hopper start prints no nvfp4_to_fp8 line at all.
    QTest::newRow("h200x8") << QStringLiteral("h200x8") << QByteArray("KV Cache is allocated")
                            << QByteArray("nvfp4_to_fp8");
}

void TestSglangFaults::faultScenario_changesTheLog()
{
    QFETCH(QString, scenario);
    QFETCH(QByteArray, present);
    QFETCH(QByteArray, absent);
    QVERIFY(m_host.useScenario(scenario));
    quint64 id = 0;
    launch(&id);
    QTRY_VERIFY_WITH_TIMEOUT(logContains("The server is fired up and ready to roll!"), 20000);
    QVERIFY2(logContains(present), present.constData());
    QVERIFY2(!logContains(absent), absent.constData());
    m_host.connection().cancel(id);
}

void TestSglangFaults::neverReady_healthStays503_whileModelsAnswers()
{
    QVERIFY(m_host.useScenario(QStringLiteral("never-ready")));
    quint64 id = 0;
    const quint16 port = launch(&id);
    QTRY_VERIFY_WITH_TIMEOUT(logContains("Uvicorn running"), 20000);
    QSignalSpy tunnel(&m_host.connection(), &ssh::HostConnection::tunnelReady);
    const quint64 tunnelId = m_host.connection().openPortTunnel(QStringLiteral("127.0.0.1"), port);
    QVERIFY(tunnel.wait(10000));
    const quint16 local = static_cast<quint16>(tunnel.first().at(1).toUInt());
    QCOMPARE(get(local, QStringLiteral("/health")), 503);
    QCOMPARE(get(local, QStringLiteral("/v1/models")), 200); // answers before ready: never a readiness signal
    QVERIFY(!logContains("ready to roll"));
    m_host.connection().closeTunnel(tunnelId);
    m_host.connection().cancel(id);
}

void TestSglangFaults::portTaken_failsWithTheRealMessage()
{
    QVERIFY(m_host.useScenario(QStringLiteral("b300x4")));
    // Another process on the host already listens on the port (the host's own loopback: a port
    // taken on this machine's says nothing about the host's).
    const quint16 port = freeLocalPort();
    ssh::RemoteCommand squatter;
    squatter.commandLine = "FLASHDECK_SIM_TIME_FACTOR=0.01 exec sglang-sim --port " + QByteArray::number(port);
    const quint64 squatterId = m_host.connection().run(squatter);
    QByteArray seen;
    QVERIFY2(waitForCommandLine(m_host.connection(), squatterId, "Uvicorn running", 20000, &seen), seen.constData());

    QSignalSpy finished(&m_host.connection(), &ssh::HostConnection::commandFinished);
    m_log.clear();
    ssh::RemoteCommand cmd;
    cmd.commandLine = "FLASHDECK_SIM_TIME_FACTOR=0.01 sglang-sim --port " + QByteArray::number(port);
    m_current = m_host.connection().run(cmd);
    QTRY_VERIFY_WITH_TIMEOUT(
        std::any_of(finished.begin(), finished.end(),
                    [this](const QList<QVariant> &a) { return a.at(0).toULongLong() == m_current; }),
        20000);
    QVERIFY(logContains("address already in use"));
    m_host.connection().cancel(squatterId);
}

QTEST_GUILESS_MAIN(TestSglangFaults)
#include "tst_sglangfaults.moc"
