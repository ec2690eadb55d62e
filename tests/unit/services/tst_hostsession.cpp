#include "faketransport.h"

#include "backend/docker/dockerendpoint.h"
#include "backend/fleet/hostsession.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace flashdeck;
using flashdeck::testing::FakeTransport;

/**
 * The host session over a scripted transport: what the window and the CLI see of a host (its
 * state, its login's prompts and their answers, its one Docker endpoint, its operation) without
 * SSH. The prompts are refused while nobody asked for the host, and reach whoever listens once
 * the operator did.
 */
class TestHostSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void state_followsTheTransport();
    void prompts_refusedUntilTheOperatorAsks();
    void prompts_reachTheOperator_andTheirAnswersTheTransport_data();
    void prompts_reachTheOperator_andTheirAnswersTheTransport();
    void connectWithOperator_connectsOnlyAHostThatIsNotUp();
    void oneDockerEndpoint_noOperationYet();
};

namespace {

fleet::HostEntry entry()
{
    fleet::HostEntry e;
    e.name = QStringLiteral("gpu-fake");
    e.address = QStringLiteral("fake-host");
    return e;
}

/** A session over a fake transport; `fake` points at the transport the session owns. */
std::unique_ptr<fleet::HostSession> sessionOverFake(FakeTransport **fake)
{
    auto transport = std::make_unique<FakeTransport>();
    *fake = transport.get();
    return std::make_unique<fleet::HostSession>(entry(), std::move(transport));
}

} // namespace

void TestHostSession::state_followsTheTransport()
{
    FakeTransport *fake = nullptr;
    const std::unique_ptr<fleet::HostSession> session = sessionOverFake(&fake);
    QCOMPARE(session->state().phase, ssh::ConnectionPhase::Ready);
    QSignalSpy changed(session.get(), &fleet::HostSession::stateChanged);
    fake->setPhase(ssh::ConnectionPhase::Reconnecting);
    QVERIFY(changed.wait());
    QCOMPARE(changed.last().at(0).value<ssh::ConnectionState>().phase, ssh::ConnectionPhase::Reconnecting);
    QCOMPARE(session->state().phase, ssh::ConnectionPhase::Reconnecting);
}

void TestHostSession::prompts_refusedUntilTheOperatorAsks()
{
    FakeTransport *fake = nullptr;
    const std::unique_ptr<fleet::HostSession> session = sessionOverFake(&fake);
    QSignalSpy asked(session.get(), &fleet::HostSession::passphraseNeeded);
    QSignalSpy hostKey(session.get(), &fleet::HostSession::hostKeyNeedsDecision);
    Q_EMIT fake->passphraseNeeded({QStringLiteral("/home/op/.ssh/id_ed25519"), 1, {}});
    Q_EMIT fake->hostKeyNeedsDecision({});
    Q_EMIT fake->passwordNeeded({QStringLiteral("op"), QStringLiteral("fake-host"), 1, {}});
    Q_EMIT fake->keyboardInteractiveNeeded({});
    // Nobody is there to answer: each is declined at once and nothing reaches a listener.
    QCOMPARE(asked.count(), 0);
    QCOMPARE(hostKey.count(), 0);
    QCOMPARE(fake->answers(),
             (QStringList{QStringLiteral("passphrase: declined"), QStringLiteral("host key: refuse"),
                          QStringLiteral("password: declined"), QStringLiteral("keyboard-interactive: declined")}));
}

void TestHostSession::prompts_reachTheOperator_andTheirAnswersTheTransport_data()
{
    QTest::addColumn<QString>("prompt");
    QTest::addColumn<QString>("answered");
    QTest::newRow("passphrase") << "passphrase"
                                << "passphrase: secret words";
    QTest::newRow("password") << "password"
                              << "password: pw";
    QTest::newRow("host key") << "hostkey"
                              << "host key: accept";
    QTest::newRow("keyboard-interactive") << "kbdint"
                                          << "keyboard-interactive: 123456";
}

void TestHostSession::prompts_reachTheOperator_andTheirAnswersTheTransport()
{
    QFETCH(QString, prompt);
    QFETCH(QString, answered);
    FakeTransport *fake = nullptr;
    const std::unique_ptr<fleet::HostSession> session = sessionOverFake(&fake);
    session->connectWithOperator();
    fleet::HostSession *s = session.get();
    // The operator's dialog: answers what the session asks.
    connect(s, &fleet::HostSession::passphraseNeeded, s, [s] { s->answerPassphrase(QStringLiteral("secret words")); });
    connect(s, &fleet::HostSession::passwordNeeded, s, [s] { s->answerPassword(QStringLiteral("pw")); });
    connect(s, &fleet::HostSession::hostKeyNeedsDecision, s, [s] { s->answerHostKey(true); });
    connect(s, &fleet::HostSession::keyboardInteractiveNeeded, s,
            [s] { s->answerKeyboardInteractive(QStringList{QStringLiteral("123456")}); });
    if (prompt == QLatin1String("passphrase")) {
        Q_EMIT fake->passphraseNeeded({QStringLiteral("/home/op/.ssh/id_ed25519"), 1, {}});
    } else if (prompt == QLatin1String("password")) {
        Q_EMIT fake->passwordNeeded({QStringLiteral("op"), QStringLiteral("fake-host"), 1, {}});
    } else if (prompt == QLatin1String("hostkey")) {
        Q_EMIT fake->hostKeyNeedsDecision({});
    } else {
        Q_EMIT fake->keyboardInteractiveNeeded({});
    }
    QCOMPARE(fake->answers(), QStringList{answered});
}

void TestHostSession::connectWithOperator_connectsOnlyAHostThatIsNotUp()
{
    FakeTransport *fake = nullptr;
    const std::unique_ptr<fleet::HostSession> session = sessionOverFake(&fake);
    session->connectWithOperator(); // up already: its commands and tunnels run on it, never dropped
    QCOMPARE(fake->connects(), 0);
    fake->setPhase(ssh::ConnectionPhase::Failed);
    QTRY_COMPARE(session->state().phase, ssh::ConnectionPhase::Failed);
    QSignalSpy changed(session.get(), &fleet::HostSession::stateChanged);
    session->connectWithOperator();
    QCOMPARE(fake->connects(), 1);
    QVERIFY(changed.wait());
    QCOMPARE(session->state().phase, ssh::ConnectionPhase::Ready);
}

void TestHostSession::oneDockerEndpoint_noOperationYet()
{
    FakeTransport *fake = nullptr;
    const std::unique_ptr<fleet::HostSession> session = sessionOverFake(&fake);
    // Everything given the session's transport reaches the same endpoint as the session's own.
    QCOMPARE(&session->docker(), &docker::DockerEndpoint::of(*fake));
    QCOMPARE(&session->docker(), &session->docker());
    QVERIFY(!session->operationRunning());
    QVERIFY(!session->deploy());
    QVERIFY(!session->upgrade());
}

QTEST_GUILESS_MAIN(TestHostSession)
#include "tst_hostsession.moc"
