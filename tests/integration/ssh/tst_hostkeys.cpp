#include "backend/ssh/hostconnection.h"
#include "backend/ssh/knownhosts.h"
#include "tests/support/sshdfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QFile>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck;
using namespace flashdeck::test;

/** Host-key trust against a real sshd: every ssh_session_is_known_server state we can provoke. */
class TestHostKeys : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void firstContact_unknown_acceptThenOkNextTime();
    void firstContact_rejected_failsAndWritesNothing();
    void changedKey_isRefused_knownHostsUnchanged();
    void keyOfOtherType_isRefused();
    void unwritableKnownHosts_acceptFails();
    void unreachablePort_saysUnreachable();
    void silentServer_timesOut();

private:
    std::unique_ptr<SshdFixture> m_sshd;
    std::unique_ptr<QTemporaryDir> m_home;
    QString m_key;
    QString knownHosts() const { return m_home->path() + QStringLiteral("/known_hosts"); }
};

void TestHostKeys::init()
{
    m_home = std::make_unique<QTemporaryDir>();
    isolateSshEnvironment(m_home->path());
    m_sshd = std::make_unique<SshdFixture>();
    QString error;
    if (!m_sshd->start(&error)) {
        QSKIP(qPrintable(error));
    }
    m_key = m_sshd->addClientKey(QStringLiteral("id_test"));
}

void TestHostKeys::firstContact_unknown_acceptThenOkNextTime()
{
    {
        ssh::HostConnection connection(targetFor(*m_sshd, knownHosts(), m_key));
        QSignalSpy asked(&connection, &ssh::HostConnection::hostKeyNeedsDecision);
        const auto state = connectAndWait(connection, true);
        QCOMPARE(state.phase, ssh::ConnectionPhase::Ready);
        QCOMPARE(asked.count(), 1);
        const auto info = asked.first().first().value<ssh::HostKeyInfo>();
        QVERIFY(info.state == ssh::KnownHostState::NotFound || info.state == ssh::KnownHostState::Unknown);
        QCOMPARE(info.keyType, QStringLiteral("ssh-ed25519"));
        QCOMPARE(info.fingerprint, m_sshd->hostKeyFingerprint());
        QCOMPARE(info.host, QStringLiteral("[127.0.0.1]:%1").arg(m_sshd->port()));
        QVERIFY(QFile::exists(knownHosts()));
    }
    ssh::HostConnection again(targetFor(*m_sshd, knownHosts(), m_key));
    QSignalSpy asked(&again, &ssh::HostConnection::hostKeyNeedsDecision);
    QSignalSpy verified(&again, &ssh::HostConnection::hostKeyVerified);
    QCOMPARE(connectAndWait(again, false).phase, ssh::ConnectionPhase::Ready);
    QCOMPARE(asked.count(), 0);
    QCOMPARE(verified.count(), 1);
    QCOMPARE(verified.first().first().value<ssh::HostKeyInfo>().state, ssh::KnownHostState::Ok);
}

void TestHostKeys::firstContact_rejected_failsAndWritesNothing()
{
    ssh::HostConnection connection(targetFor(*m_sshd, knownHosts(), m_key));
    const auto state = connectAndWait(connection, false);
    QCOMPARE(state.phase, ssh::ConnectionPhase::Failed);
    QCOMPARE(state.error.code, ssh::SshErrorCode::HostKeyUnknown);
    QVERIFY2(state.error.message.contains(m_sshd->hostKeyFingerprint()), qPrintable(state.error.message));
    QVERIFY(!QFile::exists(knownHosts()));
}

void TestHostKeys::changedKey_isRefused_knownHostsUnchanged()
{
    {
        ssh::HostConnection first(targetFor(*m_sshd, knownHosts(), m_key));
        QCOMPARE(connectAndWait(first, true).phase, ssh::ConnectionPhase::Ready);
    }
    QFile file(knownHosts());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray before = file.readAll();
    file.close();
    const QString oldFingerprint = m_sshd->hostKeyFingerprint();

    QVERIFY(m_sshd->replaceHostKey(QStringLiteral("ed25519")));
    QString error;
    QVERIFY2(m_sshd->restart(&error), qPrintable(error));
    QVERIFY(m_sshd->hostKeyFingerprint() != oldFingerprint);

    ssh::HostConnection connection(targetFor(*m_sshd, knownHosts(), m_key));
    QSignalSpy asked(&connection, &ssh::HostConnection::hostKeyNeedsDecision);
    const auto state = connectAndWait(connection, true); // would accept if asked: it must not ask
    QCOMPARE(state.phase, ssh::ConnectionPhase::Failed);
    QCOMPARE(state.error.code, ssh::SshErrorCode::HostKeyChanged);
    QCOMPARE(asked.count(), 0);
    const QString &msg = state.error.message;
    QVERIFY2(msg.contains(m_sshd->hostKeyFingerprint()), qPrintable(msg));
    QVERIFY2(msg.contains(knownHosts() + QStringLiteral(":1")), qPrintable(msg));
    QVERIFY2(msg.contains(QStringLiteral("ssh-keygen -f")), qPrintable(msg));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), before);
}

void TestHostKeys::keyOfOtherType_isRefused()
{
    {
        ssh::HostConnection first(targetFor(*m_sshd, knownHosts(), m_key));
        QCOMPARE(connectAndWait(first, true).phase, ssh::ConnectionPhase::Ready);
    }
    QVERIFY(m_sshd->replaceHostKey(QStringLiteral("ecdsa")));
    QString error;
    QVERIFY2(m_sshd->restart(&error), qPrintable(error));

    ssh::HostConnection connection(targetFor(*m_sshd, knownHosts(), m_key));
    QSignalSpy asked(&connection, &ssh::HostConnection::hostKeyNeedsDecision);
    const auto state = connectAndWait(connection, true);
    QCOMPARE(state.phase, ssh::ConnectionPhase::Failed);
    QCOMPARE(state.error.code, ssh::SshErrorCode::HostKeyOther);
    QCOMPARE(asked.count(), 0);
    QVERIFY2(state.error.message.contains(QStringLiteral("ssh-ed25519")), qPrintable(state.error.message));
    QVERIFY2(state.error.message.contains(QStringLiteral("ecdsa")), qPrintable(state.error.message));
}

void TestHostKeys::unwritableKnownHosts_acceptFails()
{
    // A folder where the known_hosts file must go: nobody, root included, can write it.
    QVERIFY(QDir().mkpath(knownHosts()));
    ssh::HostConnection connection(targetFor(*m_sshd, knownHosts(), m_key));
    const auto state = connectAndWait(connection, true);
    QCOMPARE(state.phase, ssh::ConnectionPhase::Failed);
    QVERIFY2(state.error.code == ssh::SshErrorCode::HostKeyError, qPrintable(state.error.message));
}

void TestHostKeys::unreachablePort_saysUnreachable()
{
    auto target = targetFor(*m_sshd, knownHosts(), m_key);
    m_sshd->stop();
    ssh::HostConnection connection(target);
    const auto state = connectAndWait(connection, true);
    QCOMPARE(state.phase, ssh::ConnectionPhase::Failed);
    QVERIFY2(state.error.code == ssh::SshErrorCode::Unreachable, qPrintable(state.error.detail));
}

void TestHostKeys::silentServer_timesOut()
{
    // The kernel completes the TCP handshake for a listening socket nobody accepts from, so
    // no SSH banner ever comes.
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    silent.pauseAccepting();
    auto target = targetFor(*m_sshd, knownHosts(), m_key);
    target.port = silent.serverPort();
    target.connectTimeoutMs = 700;
    ssh::HostConnection connection(target);
    const auto state = connectAndWait(connection, true);
    QCOMPARE(state.phase, ssh::ConnectionPhase::Failed);
    QVERIFY2(state.error.code == ssh::SshErrorCode::TimedOut, qPrintable(state.error.detail));
}

QTEST_GUILESS_MAIN(TestHostKeys)
#include "tst_hostkeys.moc"
