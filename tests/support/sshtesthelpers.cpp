#include "tests/support/sshtesthelpers.h"

#include "tests/support/sshdfixture.h"

#include <QEventLoop>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>
#include <QTimer>

namespace flashdeck::test {

void isolateSshEnvironment(const QString &home)
{
    qputenv("HOME", home.toUtf8());
    qunsetenv("SSH_AUTH_SOCK");
}

quint16 freeLocalPort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

ssh::SshTarget targetFor(const SshdFixture &sshd, const QString &knownHostsFile, const QString &identity)
{
    ssh::SshTarget t;
    t.host = QStringLiteral("127.0.0.1");
    t.port = sshd.port();
    t.user = SshdFixture::currentUser();
    t.knownHostsFile = knownHostsFile;
    t.identityFile = identity;
    t.configFile = QStringLiteral("none");
    t.connectTimeoutMs = 10000;
    t.reconnectBaseMs = 100;
    t.reconnectCapMs = 1000;
    return t;
}

ssh::ConnectionState connectAndWait(ssh::HostConnection &connection, bool acceptHostKey, const QString &secret,
                                    int timeoutMs)
{
    QObject context;
    QObject::connect(
        &connection, &ssh::HostConnection::hostKeyNeedsDecision, &context,
        [&connection, acceptHostKey](const ssh::HostKeyInfo &) { connection.answerHostKey(acceptHostKey); });
    QObject::connect(&connection, &ssh::HostConnection::passphraseNeeded, &context,
                     [&connection, secret](const ssh::PassphraseRequest &) {
                         connection.answerPassphrase(secret.isEmpty() ? std::nullopt : std::optional<QString>(secret));
                     });
    QObject::connect(&connection, &ssh::HostConnection::passwordNeeded, &context,
                     [&connection, secret](const ssh::PasswordRequest &) {
                         connection.answerPassword(secret.isEmpty() ? std::nullopt : std::optional<QString>(secret));
                     });
    QObject::connect(&connection, &ssh::HostConnection::keyboardInteractiveNeeded, &context,
                     [&connection, secret](const ssh::KbdIntChallenge &c) {
                         if (secret.isEmpty()) {
                             connection.answerKeyboardInteractive(std::nullopt);
                             return;
                         }
                         QStringList answers;
                         for (qsizetype i = 0; i < c.prompts.size(); ++i) {
                             answers.append(secret);
                         }
                         connection.answerKeyboardInteractive(answers);
                     });
    connection.connectToHost();
    (void)QTest::qWaitFor(
        [&connection] {
            const auto phase = connection.state().phase;
            return phase == ssh::ConnectionPhase::Ready || phase == ssh::ConnectionPhase::Failed;
        },
        timeoutMs);
    return connection.state();
}

ssh::CommandResult runAndWait(ssh::HostConnection &connection, const ssh::RemoteCommand &command, int timeoutMs)
{
    QSignalSpy finished(&connection, &ssh::HostConnection::commandFinished);
    const quint64 id = connection.run(command);
    ssh::CommandResult result;
    result.error = {ssh::SshErrorCode::TimedOut, QStringLiteral("test timed out waiting"), {}};
    (void)QTest::qWaitFor(
        [&] {
            for (const QList<QVariant> &args : finished) {
                if (args.at(0).toULongLong() == id) {
                    result = args.at(1).value<ssh::CommandResult>();
                    return true;
                }
            }
            return false;
        },
        timeoutMs);
    return result;
}

ssh::CommandResult runAndWait(ssh::HostConnection &connection, const QByteArray &commandLine, int timeoutMs)
{
    ssh::RemoteCommand command;
    command.commandLine = commandLine;
    command.capture = true;
    return runAndWait(connection, command, timeoutMs);
}

bool waitForCommandLine(ssh::HostConnection &connection, quint64 id, const QByteArray &needle, int timeoutMs,
                        QByteArray *seen)
{
    bool found = false;
    QByteArray log;
    QEventLoop loop;
    const auto check = [&](const QList<QByteArray> &lines) {
        for (const QByteArray &line : lines) {
            log += line + '\n';
            found = found || line.contains(needle);
        }
    };
    const QMetaObject::Connection output =
        QObject::connect(&connection, &ssh::HostConnection::commandOutput, &loop,
                         [&](quint64 got, const QList<QByteArray> &out, const QList<QByteArray> &err) {
                             if (got == id) {
                                 check(out);
                                 check(err);
                                 if (found) {
                                     loop.quit();
                                 }
                             }
                         });
    const QMetaObject::Connection finished = QObject::connect(&connection, &ssh::HostConnection::commandFinished, &loop,
                                                              [&](quint64 got, const ssh::CommandResult &) {
                                                                  if (got == id) {
                                                                      loop.quit(); // it ended without saying so
                                                                  }
                                                              });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit); // a bound, not a sync point
    loop.exec();
    QObject::disconnect(output);
    QObject::disconnect(finished);
    if (seen) {
        *seen = log;
    }
    return found;
}

} // namespace flashdeck::test

#include "backend/applog/logging.h"
#include "backend/security/redactor.h"

namespace flashdeck::test {

void enableTestLogging()
{
    const QString spec = qEnvironmentVariable("FLASHDECK_LOG");
    if (spec.isEmpty()) {
        return;
    }
    static security::Redactor redactor;
    applog::LogOptions options;
    options.toStderr = true;
    options.levels = spec;
    static applog::Logging logging(redactor, options);
}

} // namespace flashdeck::test
