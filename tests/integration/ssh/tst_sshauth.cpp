#include "backend/ssh/hostconnection.h"
#include "tests/support/sshdfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QDir>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck;
using namespace flashdeck::test;

/** The authentication chain against a real sshd: agent, keys, passphrases, password, kbd-int. */
class TestSshAuth : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void plainKey_authenticates();
    void agent_isTriedFirst();
    void encryptedKey_rightPassphrase_data();
    void encryptedKey_rightPassphrase();
    void encryptedKey_wrongPassphrase_failsAfterThreeTries();
    void keyNotAuthorised_neverAsksPassphrase();
    void noAcceptableMethod_isDistinct();
    void password_rightAndWrong();
    void keyboardInteractive_allPromptsInOneRequest();
    void defaultIdentity_inHome_isUsed();

private:
    /** Starts sshd offering only password or keyboard-interactive; empty, or why it cannot. */
    QString startPasswordServer(bool keyboardInteractive, ssh::SshTarget *target, QString *password);
    QString knownHosts() const { return m_home->path() + QStringLiteral("/known_hosts"); }
    std::unique_ptr<QTemporaryDir> m_home;
    std::unique_ptr<SshdFixture> m_sshd;
    std::unique_ptr<QProcess> m_agent;
};

void TestSshAuth::init()
{
    m_home = std::make_unique<QTemporaryDir>();
    isolateSshEnvironment(m_home->path());
}

void TestSshAuth::cleanup()
{
    m_sshd.reset();
    if (m_agent) {
        m_agent->kill();
        m_agent->waitForFinished();
        m_agent.reset();
    }
    qunsetenv("SSH_AUTH_SOCK");
}

void TestSshAuth::plainKey_authenticates()
{
    m_sshd = std::make_unique<SshdFixture>();
    QString error;
    QVERIFY2(m_sshd->start(&error), qPrintable(error));
    const QString key = m_sshd->addClientKey(QStringLiteral("id_plain"));
    ssh::HostConnection connection(targetFor(*m_sshd, knownHosts(), key));
    const auto state = connectAndWait(connection);
    QVERIFY2(state.phase == ssh::ConnectionPhase::Ready, qPrintable(state.error.message));
    QVERIFY2(state.authMethod.startsWith(QStringLiteral("publickey")), qPrintable(state.authMethod));
    const auto result = runAndWait(connection, "id -un");
    QVERIFY(result.succeeded());
    QCOMPARE(result.stdoutData.trimmed(), SshdFixture::currentUser().toUtf8());
}

void TestSshAuth::agent_isTriedFirst()
{
    m_sshd = std::make_unique<SshdFixture>();
    QString error;
    QVERIFY2(m_sshd->start(&error), qPrintable(error));
    const QString key = m_sshd->addClientKey(QStringLiteral("id_agent"), QStringLiteral("agent-only-passphrase"));

    const QString socket = m_home->path() + QStringLiteral("/agent.sock");
    m_agent = std::make_unique<QProcess>();
    m_agent->start(QStringLiteral("ssh-agent"), {QStringLiteral("-D"), QStringLiteral("-a"), socket});
    QVERIFY(m_agent->waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(socket), 10000);
    QString out;
    // ssh-add reads the passphrase from SSH_ASKPASS when it has no terminal.
    const QString askpass = m_home->path() + QStringLiteral("/askpass.sh");
    QFile script(askpass);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("#!/bin/sh\necho agent-only-passphrase\n");
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QCOMPARE(runProgram(QStringLiteral("setsid"), {QStringLiteral("-w"), QStringLiteral("ssh-add"), key}, &out, {},
                        {QStringLiteral("SSH_AUTH_SOCK=") + socket, QStringLiteral("SSH_ASKPASS=") + askpass,
                         QStringLiteral("SSH_ASKPASS_REQUIRE=force"), QStringLiteral("DISPLAY=:0")}),
             0);
    qputenv("SSH_AUTH_SOCK", socket.toUtf8());

    // No identity file configured and the key is encrypted: only the agent can succeed, and
    // it must do so without a passphrase prompt.
    ssh::HostConnection connection(targetFor(*m_sshd, knownHosts()));
    QSignalSpy asked(&connection, &ssh::HostConnection::passphraseNeeded);
    const auto state = connectAndWait(connection);
    QVERIFY2(state.phase == ssh::ConnectionPhase::Ready, qPrintable(state.error.message));
    QCOMPARE(state.authMethod, QStringLiteral("publickey (ssh-agent)"));
    QCOMPARE(asked.count(), 0);
}

void TestSshAuth::encryptedKey_rightPassphrase_data()
{
    QTest::addColumn<QString>("type");
    QTest::newRow("ed25519 (openssh format)") << QStringLiteral("ed25519");
    QTest::newRow("ecdsa") << QStringLiteral("ecdsa");
    QTest::newRow("rsa") << QStringLiteral("rsa");
}

void TestSshAuth::encryptedKey_rightPassphrase()
{
    QFETCH(QString, type);
    m_sshd = std::make_unique<SshdFixture>();
    QString error;
    QVERIFY2(m_sshd->start(&error), qPrintable(error));
    const QString pass = QStringLiteral("correct horse ✓ battery");
    const QString key = m_sshd->addClientKey(QStringLiteral("id_enc"), pass, type);
    ssh::HostConnection connection(targetFor(*m_sshd, knownHosts(), key));
    QSignalSpy asked(&connection, &ssh::HostConnection::passphraseNeeded);
    const auto state = connectAndWait(connection, true, pass);
    QVERIFY2(state.phase == ssh::ConnectionPhase::Ready, qPrintable(state.error.message));
    QCOMPARE(asked.count(), 1);
    const auto request = asked.first().first().value<ssh::PassphraseRequest>();
    QCOMPARE(request.identityFile, key);
    QCOMPARE(request.attempt, 1);
}

void TestSshAuth::encryptedKey_wrongPassphrase_failsAfterThreeTries()
{
    m_sshd = std::make_unique<SshdFixture>();
    QString error;
    QVERIFY2(m_sshd->start(&error), qPrintable(error));
    const QString key = m_sshd->addClientKey(QStringLiteral("id_enc"), QStringLiteral("the-right-one"));
    ssh::HostConnection connection(targetFor(*m_sshd, knownHosts(), key));
    QSignalSpy asked(&connection, &ssh::HostConnection::passphraseNeeded);
    const auto state = connectAndWait(connection, true, QStringLiteral("the-wrong-one"));
    QCOMPARE(state.phase, ssh::ConnectionPhase::Failed);
    QCOMPARE(state.error.code, ssh::SshErrorCode::AuthDenied);
    QCOMPARE(asked.count(), 3);
    const auto last = asked.last().first().value<ssh::PassphraseRequest>();
    QCOMPARE(last.attempt, 3);
    QCOMPARE(last.previousError, QStringLiteral("Wrong passphrase."));
    QVERIFY2(state.error.message.contains(QStringLiteral("wrong passphrase")), qPrintable(state.error.message));
    QVERIFY(!state.error.message.contains(QStringLiteral("the-wrong-one")));
}

void TestSshAuth::keyNotAuthorised_neverAsksPassphrase()
{
    m_sshd = std::make_unique<SshdFixture>();
    QString error;
    QVERIFY2(m_sshd->start(&error), qPrintable(error));
    const QString key = m_sshd->addClientKey(QStringLiteral("id_enc"), QStringLiteral("pw-for-a-refused-key"));
    QFile::resize(m_sshd->dir() + QStringLiteral("/authorized_keys"), 0); // nothing authorised
    ssh::HostConnection connection(targetFor(*m_sshd, knownHosts(), key));
    QSignalSpy asked(&connection, &ssh::HostConnection::passphraseNeeded);
    const auto state = connectAndWait(connection, true, QStringLiteral("pw-for-a-refused-key"));
    QCOMPARE(state.phase, ssh::ConnectionPhase::Failed);
    QCOMPARE(state.error.code, ssh::SshErrorCode::AuthDenied);
    QCOMPARE(asked.count(), 0);
    QVERIFY2(state.error.message.contains(QStringLiteral("id_enc")), qPrintable(state.error.message));
}

void TestSshAuth::noAcceptableMethod_isDistinct()
{
    SshdFixture::Options options;
    options.extraConfig = {QStringLiteral("PubkeyAuthentication no")};
    m_sshd = std::make_unique<SshdFixture>(options);
    QString error;
    QVERIFY2(m_sshd->start(&error), qPrintable(error));
    ssh::HostConnection connection(targetFor(*m_sshd, knownHosts()));
    const auto state = connectAndWait(connection);
    QCOMPARE(state.phase, ssh::ConnectionPhase::Failed);
    QCOMPARE(state.error.code, ssh::SshErrorCode::AuthNoMethod);
    QVERIFY2(state.error.message.contains(QStringLiteral("no authentication method")), qPrintable(state.error.message));
}

QString TestSshAuth::startPasswordServer(bool keyboardInteractive, ssh::SshTarget *target, QString *password)
{
    QString user;
    QString error;
    if (!SshdFixture::ensurePasswordAccount(&user, password, &error)) {
        return error;
    }
    SshdFixture::Options options;
    options.password = !keyboardInteractive;
    options.keyboardInteractive = keyboardInteractive;
    m_sshd = std::make_unique<SshdFixture>(options);
    if (!m_sshd->start(&error)) {
        return error; // a skip, which `make test` counts as a failure
    }
    *target = targetFor(*m_sshd, knownHosts());
    target->user = user;
    return {};
}

void TestSshAuth::password_rightAndWrong()
{
    ssh::SshTarget target;
    QString password;
    if (const QString why = startPasswordServer(false, &target, &password); !why.isEmpty()) {
        QSKIP(qPrintable(why));
    }
    {
        ssh::HostConnection connection(target);
        QSignalSpy asked(&connection, &ssh::HostConnection::passwordNeeded);
        const auto state = connectAndWait(connection, true, QStringLiteral("not-the-password"));
        QCOMPARE(state.phase, ssh::ConnectionPhase::Failed);
        QCOMPARE(state.error.code, ssh::SshErrorCode::AuthDenied);
        QCOMPARE(asked.count(), 3);
        QCOMPARE(asked.at(1).first().value<ssh::PasswordRequest>().previousError,
                 QStringLiteral("Incorrect user name or password."));
    }
    ssh::HostConnection connection(target);
    const auto state = connectAndWait(connection, true, password);
    QVERIFY2(state.phase == ssh::ConnectionPhase::Ready, qPrintable(state.error.message + m_sshd->sshdLog()));
    QCOMPARE(state.authMethod, QStringLiteral("password"));
    QCOMPARE(runAndWait(connection, "id -un").stdoutData.trimmed(), target.user.toUtf8());
}

void TestSshAuth::keyboardInteractive_allPromptsInOneRequest()
{
    ssh::SshTarget target;
    QString password;
    if (const QString why = startPasswordServer(true, &target, &password); !why.isEmpty()) {
        QSKIP(qPrintable(why));
    }
    ssh::HostConnection connection(target);
    QSignalSpy asked(&connection, &ssh::HostConnection::keyboardInteractiveNeeded);
    const auto state = connectAndWait(connection, true, password);
    QVERIFY2(state.phase == ssh::ConnectionPhase::Ready, qPrintable(state.error.message + m_sshd->sshdLog()));
    QCOMPARE(state.authMethod, QStringLiteral("keyboard-interactive"));
    QVERIFY(asked.count() >= 1);
    const auto challenge = asked.first().first().value<ssh::KbdIntChallenge>();
    QVERIFY(!challenge.prompts.isEmpty());
    QVERIFY2(challenge.prompts.first().text.contains(QStringLiteral("assword")),
             qPrintable(challenge.prompts.first().text));
    QVERIFY(!challenge.prompts.first().echo);
}

void TestSshAuth::defaultIdentity_inHome_isUsed()
{
    m_sshd = std::make_unique<SshdFixture>();
    QString error;
    QVERIFY2(m_sshd->start(&error), qPrintable(error));
    const QString key = m_sshd->addClientKey(QStringLiteral("id_default"));
    QVERIFY(QDir().mkpath(m_home->path() + QStringLiteral("/.ssh")));
    QVERIFY(QFile::copy(key, m_home->path() + QStringLiteral("/.ssh/id_ed25519")));
    ssh::HostConnection connection(targetFor(*m_sshd, knownHosts()));
    const auto state = connectAndWait(connection);
    QVERIFY2(state.phase == ssh::ConnectionPhase::Ready, qPrintable(state.error.message));
    QCOMPARE(state.authMethod, QStringLiteral("publickey (~/.ssh/id_ed25519)"));
}

QTEST_GUILESS_MAIN(TestSshAuth)
#include "tst_sshauth.moc"
