#include "backend/ssh/hostconnection.h"
#include "backend/ssh/knownhosts.h"
#include "tests/support/sshdfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QFile>
#include <QProcess>
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
    void userConfig_cannotWeakenThePolicy_data();
    void userConfig_cannotWeakenThePolicy();
    void hashedEntry_isRecognised();
    void revokedKey_isRefused();
    void silentServer_timesOut();

private:
    std::unique_ptr<SshdFixture> m_sshd;
    std::unique_ptr<QTemporaryDir> m_home;
    QString m_key;
    QString knownHosts() const { return m_home->path() + QStringLiteral("/known_hosts"); }
    /** The server's public key as a known_hosts line for `[127.0.0.1]:port`. */
    QByteArray hostLine() const;
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

QByteArray TestHostKeys::hostLine() const
{
    QFile pub(m_sshd->dir() + QStringLiteral("/ssh_host_key.pub"));
    if (!pub.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QList<QByteArray> fields = pub.readAll().trimmed().split(' ');
    return "[127.0.0.1]:" + QByteArray::number(m_sshd->port()) + ' ' + fields.value(0) + ' ' + fields.value(1);
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

void TestHostKeys::userConfig_cannotWeakenThePolicy_data()
{
    // Table: what a user's ~/.ssh/config may say must not loosen Flashdeck's checks
    // (libssh applies StrictHostKeyChecking and UserKnownHostsFile from it when asked to read it).
    QTest::addColumn<QByteArray>("config");
    QTest::newRow("StrictHostKeyChecking no") << QByteArray("Host *\n  StrictHostKeyChecking no\n");
    QTest::newRow("accept-new") << QByteArray("Host *\n  StrictHostKeyChecking accept-new\n");
    QTest::newRow("known_hosts elsewhere") << QByteArray(
        "Host *\n  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n  GlobalKnownHostsFile /dev/null\n");
    QTest::newRow("for this host only") << QByteArray(
        "Host 127.0.0.1\n  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n");
}

void TestHostKeys::userConfig_cannotWeakenThePolicy()
{
    QFETCH(QByteArray, config);
    const QString configFile = m_home->path() + QStringLiteral("/ssh_config");
    QFile f(configFile);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(config);
    f.close();
    auto target = [&] {
        ssh::SshTarget t = targetFor(*m_sshd, knownHosts(), m_key);
        t.configFile = configFile;
        return t;
    };

    // Unknown host: still asked, and declining still refuses and writes nothing.
    {
        ssh::HostConnection connection(target());
        QSignalSpy asked(&connection, &ssh::HostConnection::hostKeyNeedsDecision);
        const auto state = connectAndWait(connection, false);
        QCOMPARE(state.phase, ssh::ConnectionPhase::Failed);
        QCOMPARE(state.error.code, ssh::SshErrorCode::HostKeyUnknown);
        QCOMPARE(asked.count(), 1);
        QVERIFY(!QFile::exists(knownHosts()));
    }
    // Accepted once, into Flashdeck's own file...
    {
        ssh::HostConnection connection(target());
        QCOMPARE(connectAndWait(connection, true).phase, ssh::ConnectionPhase::Ready);
    }
    QVERIFY(QFile::exists(knownHosts()));
    // ...then the key changes: a hard refusal, not a question.
    QVERIFY(m_sshd->replaceHostKey(QStringLiteral("ed25519")));
    QString error;
    QVERIFY2(m_sshd->restart(&error), qPrintable(error));
    ssh::HostConnection connection(target());
    QSignalSpy asked(&connection, &ssh::HostConnection::hostKeyNeedsDecision);
    const auto state = connectAndWait(connection, true);
    QCOMPARE(state.phase, ssh::ConnectionPhase::Failed);
    QCOMPARE(state.error.code, ssh::SshErrorCode::HostKeyChanged);
    QCOMPARE(asked.count(), 0);
}

void TestHostKeys::hashedEntry_isRecognised()
{
    // OpenSSH's HashKnownHosts writes |1|salt|hash entries; `ssh-keygen -H` converts a file.
    QFile file(knownHosts());
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(hostLine() + '\n');
    file.close();
    QProcess keygen;
    keygen.start(QStringLiteral("ssh-keygen"), {QStringLiteral("-H"), QStringLiteral("-f"), knownHosts()});
    QVERIFY(keygen.waitForFinished(30000));
    QCOMPARE(keygen.exitCode(), 0);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray hashed = file.readAll();
    file.close();
    QVERIFY2(hashed.startsWith("|1|") && !hashed.contains("127.0.0.1"), hashed.constData());

    ssh::HostConnection connection(targetFor(*m_sshd, knownHosts(), m_key));
    QSignalSpy asked(&connection, &ssh::HostConnection::hostKeyNeedsDecision);
    QCOMPARE(connectAndWait(connection, false).phase, ssh::ConnectionPhase::Ready);
    QCOMPARE(asked.count(), 0);
}

void TestHostKeys::revokedKey_isRefused()
{
    // sshd(8) §SSH_KNOWN_HOSTS FILE FORMAT: "@revoked" marks a key that must never be accepted,
    // even when another line trusts it.
    QFile file(knownHosts());
    QVERIFY(file.open(QIODevice::WriteOnly));
    const QByteArray line = hostLine();
    const QByteArray key = line.mid(line.indexOf(' ') + 1);
    file.write(line + '\n' + "@revoked * " + key + '\n');
    file.close();

    ssh::HostConnection connection(targetFor(*m_sshd, knownHosts(), m_key));
    QSignalSpy asked(&connection, &ssh::HostConnection::hostKeyNeedsDecision);
    const auto state = connectAndWait(connection, true);
    QCOMPARE(state.phase, ssh::ConnectionPhase::Failed);
    QCOMPARE(asked.count(), 0);
    QVERIFY2(state.error.message.contains(QStringLiteral("revoked")), qPrintable(state.error.message));
    QVERIFY2(state.error.message.contains(knownHosts() + QStringLiteral(":2")), qPrintable(state.error.message));
}

QTEST_GUILESS_MAIN(TestHostKeys)
#include "tst_hostkeys.moc"
