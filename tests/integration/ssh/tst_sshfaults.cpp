#include "backend/ssh/hostconnection.h"
#include "tests/support/sshdfixture.h"
#include "tests/support/sshtesthelpers.h"
#include "tests/support/stallproxy.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck;
using namespace flashdeck::test;

/**
 * Faults of the link itself (issue 9): a connection that goes silent without closing must be
 * noticed by keepalives within 60 s with the default settings, fail what ran on it with a
 * clear message, and come back by itself; an idle but live link must never be taken for dead.
 */
class TestSshFaults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void liveButIdle_isNeverTakenForDead();
    void silentDrop_detectedWithin60s_commandFailsClearly_thenReconnects();

private:
    std::unique_ptr<QTemporaryDir> m_home;
    std::unique_ptr<SshdFixture> m_sshd;
    QString m_key;
};

void TestSshFaults::initTestCase()
{
    m_home = std::make_unique<QTemporaryDir>();
    isolateSshEnvironment(m_home->path());
    m_sshd = std::make_unique<SshdFixture>();
    QString error;
    QVERIFY2(m_sshd->start(&error), qPrintable(error));
    m_key = m_sshd->addClientKey(QStringLiteral("id_faults"));
}

void TestSshFaults::cleanupTestCase()
{
    m_sshd.reset();
}

void TestSshFaults::liveButIdle_isNeverTakenForDead()
{
    // Short intervals, so many keepalive rounds pass while a command prints nothing for 3 s:
    // each must be answered and counted as such (the reply is the only packet in the interval).
    ssh::SshTarget target = targetFor(*m_sshd, m_home->path() + QStringLiteral("/known_hosts"), m_key);
    target.keepaliveIntervalMs = 100;
    target.keepaliveCountMax = 2;
    ssh::HostConnection conn(target);
    QCOMPARE(connectAndWait(conn).phase, ssh::ConnectionPhase::Ready);
    QSignalSpy states(&conn, &ssh::HostConnection::stateChanged);
    const ssh::CommandResult r = runAndWait(conn, "sleep 3; echo still-here");
    QVERIFY2(r.succeeded(), qPrintable(r.error.message));
    QCOMPARE(r.stdoutData, QByteArray("still-here\n"));
    QCOMPARE(states.count(), 0); // never left Ready
}

void TestSshFaults::silentDrop_detectedWithin60s_commandFailsClearly_thenReconnects()
{
    StallProxy proxy(m_sshd->port());
    QVERIFY(proxy.listen());
    // The defaults operators get (12 s interval, 3 unanswered): at most 48 s of silence.
    ssh::SshTarget target = targetFor(*m_sshd, m_home->path() + QStringLiteral("/known_hosts"), m_key);
    target.port = proxy.port();
    QVERIFY(target.keepaliveIntervalMs * (target.keepaliveCountMax + 1) <= 48000);
    ssh::HostConnection conn(target);
    QCOMPARE(connectAndWait(conn).phase, ssh::ConnectionPhase::Ready);

    QSignalSpy finished(&conn, &ssh::HostConnection::commandFinished);
    const quint64 id = conn.run("echo started; sleep 600");
    QSignalSpy output(&conn, &ssh::HostConnection::commandOutput);
    QVERIFY(output.wait(30000)); // the command runs
    QVERIFY(!output.first().at(0).isNull() && output.first().at(0).toULongLong() == id);

    QSignalSpy states(&conn, &ssh::HostConnection::stateChanged);
    QElapsedTimer sinceDrop;
    proxy.stall();
    sinceDrop.start();
    QTRY_VERIFY_WITH_TIMEOUT(!states.isEmpty(), 70000);
    const qint64 detectedMs = sinceDrop.elapsed();
    const auto lost = states.first().at(0).value<ssh::ConnectionState>();
    qInfo("silent drop detected after %lld ms (bound 60000 ms)", detectedMs);
    QCOMPARE(lost.phase, ssh::ConnectionPhase::Reconnecting);
    QCOMPARE(lost.error.code, ssh::SshErrorCode::ConnectionLost);
    QVERIFY2(lost.error.message.contains(QLatin1String("stopped answering")), qPrintable(lost.error.message));
    QVERIFY2(detectedMs <= 60000, qPrintable(QString::number(detectedMs)));
    QVERIFY(proxy.bytesDropped() > 0); // keepalives went out and vanished

    // The command that ran on the dead link is reported once, as lost, not as finished.
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const auto result = finished.first().at(1).value<ssh::CommandResult>();
    QCOMPARE(finished.first().at(0).toULongLong(), id);
    QCOMPARE(result.error.code, ssh::SshErrorCode::ConnectionLost);
    QVERIFY(!result.exitCode.has_value());

    // The network is back (new connections pass): the connection comes back by itself.
    QTRY_VERIFY_WITH_TIMEOUT(conn.state().phase == ssh::ConnectionPhase::Ready, 60000);
    QCOMPARE(proxy.connectionsAccepted(), 2);
    const ssh::CommandResult again = runAndWait(conn, "echo back");
    QVERIFY2(again.succeeded(), qPrintable(again.error.message));
    QCOMPARE(again.stdoutData, QByteArray("back\n"));
    QCOMPARE(finished.count(), 2); // nothing reported twice
}

QTEST_GUILESS_MAIN(TestSshFaults)
#include "tst_sshfaults.moc"
