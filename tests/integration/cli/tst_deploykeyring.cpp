#include "tests/integration/cli/clirun.h"
#include "tests/support/buildpaths.h"

#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

/**
 * The API key of a deployment in a real system keyring (GNOME keyring over a private D-Bus
 * session: tests/support/with-keyring): `flashdeck deploy` stores the key it generated, a
 * rerun uses the same one, `undeploy` forgets it, and no file Flashdeck wrote holds it.
 */
class TestDeployKeyring : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void keyLivesInTheKeyring();
    void deployAndChat_leaveNoSecretAnywhere();

private:
    static int flashdeck(const QString &config, QStringList args, QByteArray *out = nullptr)
    {
        args << QStringLiteral("--config-dir") << config;
        QProcess p;
        p.start(flashdeck::test::flashdeckBinary(), args);
        if (!p.waitForFinished(180000)) {
            p.kill();
            p.waitForFinished();
            return -1;
        }
        if (out) {
            *out = p.readAllStandardOutput() + p.readAllStandardError();
        }
        return p.exitCode();
    }
    /** What the keyring holds for the deployment (secret-tool, the Secret Service's own CLI). */
    static QByteArray keyringEntry()
    {
        QProcess p;
        p.start(QStringLiteral("secret-tool"),
                {QStringLiteral("lookup"), QStringLiteral("server"), QStringLiteral("Flashdeck"),
                 QStringLiteral("user"), QStringLiteral("api-key/demo-b300x4-balanced")});
        p.waitForFinished(30000);
        return p.exitCode() == 0 ? p.readAllStandardOutput() : QByteArray();
    }
    /** Asks the demo host's own 127.0.0.1:30000 (inside its network namespace). */
    /**
     * `secret`, and the base64 every encoding of a longer text holding it contains, whichever
     * of the three byte alignments it starts at (the characters of the whole 3-byte groups).
     */
    static QList<QByteArray> plainAndBase64(const QByteArray &secret)
    {
        QList<QByteArray> forms{secret};
        for (int shift = 0; shift < 3; ++shift) {
            const QByteArray encoded = QByteArray(QByteArray(shift, 'x') + secret).toBase64();
            const qsizetype first = (shift + 2) / 3; // the first group wholly inside the secret
            const qsizetype last = (shift + secret.size()) / 3; // one past the last whole group
            forms.append(encoded.mid(first * 4, (last - first) * 4));
        }
        return forms;
    }
    static int httpStatusWith(const QString &config, const QByteArray &key)
    {
        QProcess p;
        p.start(QStringLiteral("nsenter"),
                {QStringLiteral("--net=/proc/%1/ns/net").arg(demoNamespacePid(config)), QStringLiteral("curl"),
                 QStringLiteral("-s"), QStringLiteral("-o"), QStringLiteral("/dev/null"), QStringLiteral("-w"),
                 QStringLiteral("%{http_code}"), QStringLiteral("-K"), QStringLiteral("-"),
                 QStringLiteral("http://127.0.0.1:30000/v1/models")});
        p.write("header = \"Authorization: Bearer " + key + "\"\n"); // the key on stdin, not in argv
        p.closeWriteChannel();
        p.waitForFinished(30000);
        return p.readAllStandardOutput().toInt();
    }
};

void TestDeployKeyring::keyLivesInTheKeyring()
{
    QVERIFY2(!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"),
             "run this test through tests/support/with-keyring (ctest does)");
    QTemporaryDir config;
    QByteArray out;
    QCOMPARE(flashdeck(config.path(),
                       {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--time-factor"),
                        QStringLiteral("0.01")},
                       &out),
             0);
    const int deployed =
        flashdeck(config.path(),
                  {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
                   QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("60")},
                  &out);
    const QByteArray key = keyringEntry();
    const int withKey = httpStatusWith(config.path(), key);
    const int withOther = httpStatusWith(config.path(), "sk-fd-not-the-key-0123456789abcdefghijklmnopqrstuvw");
    QByteArray rerunOut;
    const int rerun = flashdeck(
        config.path(), {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--resume")}, &rerunOut);
    const QByteArray keyAfterRerun = keyringEntry();
    const int undeployed = flashdeck(config.path(), {QStringLiteral("undeploy"), QStringLiteral("demo")});
    const QByteArray keyAfterUndeploy = keyringEntry();
    flashdeck(config.path(), {QStringLiteral("demo"), QStringLiteral("stop")});

    QVERIFY2(deployed == 0, out.constData());
    QVERIFY(!out.contains("No system keyring")); // it had one
    QVERIFY2(key.startsWith("sk-fd-") && key.size() >= 49, key.constData()); // 32 random bytes, base64url
    QCOMPARE(withKey, 200);
    QCOMPARE(withOther, 401);
    QVERIFY2(rerun == 0, rerunOut.constData());
    QCOMPARE(keyAfterRerun, key); // the same server, the same key
    QCOMPARE(undeployed, 0);
    QVERIFY(keyAfterUndeploy.isEmpty());
    for (QDirIterator it(config.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();) {
        QFile f(it.next());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(!f.readAll().contains(key), qPrintable(f.fileName()));
    }
}

void TestDeployKeyring::deployAndChat_leaveNoSecretAnywhere()
{
    // Issue 9: a full deployment and a chat with a known key, every subsystem logging at debug;
    // then every file Flashdeck wrote, every log line and every process list seen while it ran
    // are searched for the key and the prompt (tst_chatcli checks the answer's absence from the
    // log). The one process allowed to show the
    // key is the SGLang server itself (`--api-key` in its own argv, docs/SECURITY.md).
    QVERIFY2(!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"),
             "run this test through tests/support/with-keyring (ctest does)");
    QTemporaryDir config;
    QTemporaryDir scratch;
    const QString psLog = scratch.path() + QStringLiteral("/ps.log");
    // The process list, sampled every 20 ms for the whole run (procps' ps, full argv).
    QProcess sampler;
    sampler.start(
        QStringLiteral("/bin/sh"),
        {QStringLiteral("-c"), QStringLiteral("while :; do ps -eo args= >> '%1'; sleep 0.02; done").arg(psLog)});
    QVERIFY(sampler.waitForStarted());
    qputenv("FLASHDECK_LOG", "debug");
    QByteArray out;
    QCOMPARE(flashdeck(config.path(),
                       {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--time-factor"),
                        QStringLiteral("0.01")},
                       &out),
             0);
    QByteArray deployOut;
    const int deployed =
        flashdeck(config.path(),
                  {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
                   QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("60"),
                   QStringLiteral("--log-stderr")},
                  &deployOut);
    const QByteArray key = keyringEntry();
    const QByteArray prompt = "the-private-question-5e9b about the payroll";
    QByteArray chatOut;
    const int chatted =
        flashdeck(config.path(),
                  {QStringLiteral("chat"), QStringLiteral("demo"), QStringLiteral("--prompt"),
                   QString::fromUtf8(prompt), QStringLiteral("--no-thinking"), QStringLiteral("--log-stderr")},
                  &chatOut);
    flashdeck(config.path(), {QStringLiteral("undeploy"), QStringLiteral("demo")});
    flashdeck(config.path(), {QStringLiteral("demo"), QStringLiteral("stop")});
    qunsetenv("FLASHDECK_LOG");
    sampler.kill();
    sampler.waitForFinished();

    QVERIFY2(deployed == 0, deployOut.constData());
    QVERIFY2(chatted == 0, chatOut.constData());
    QVERIFY2(key.startsWith("sk-fd-"), key.constData());
    QVERIFY2(deployOut.contains("ssh"), "the debug log did not run"); // stderr carries the log
    const QList<QByteArray> secrets{key, prompt};
    for (const QByteArray &secret : secrets) {
        QVERIFY2(!deployOut.contains(secret), "the deployment's output or log holds a secret");
    }
    // Every file under the configuration: settings, inventory, journals, logs, demo state.
    int files = 0;
    for (QDirIterator it(config.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();) {
        QFile f(it.next());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        for (const QByteArray &secret : secrets) {
            QVERIFY2(!bytes.contains(secret), qPrintable(f.fileName()));
            qDebug("searched %s", qPrintable(f.fileName()));
        }
        ++files;
    }
    QVERIFY2(files >= 3, qPrintable(QString::number(files))); // at least the inventory, the journal and the log
    // Every process seen, but the SGLang server's own command line.
    QFile ps(psLog);
    QVERIFY(ps.open(QIODevice::ReadOnly));
    int lines = 0;
    int serverLines = 0;
    int wrappedLines = 0; // our commands as the host's process list shows them
    while (!ps.atEnd()) {
        const QByteArray line = ps.readLine();
        ++lines;
        if (line.startsWith(flashdeck::test::flashdeckBinary().toUtf8())) {
            continue; // the command this test typed: `--prompt` is the user's own argv, not ours
        }
        if (line.contains("sglang-sim")) {
            serverLines += line.contains(key) ? 1 : 0;
            continue;
        }
        wrappedLines += line.contains("base64 -d") ? 1 : 0;
        // Commands reach the host base64-encoded (loginShellSafe): a secret in one would show
        // in `ps` only in that form, so look for it at each of its three alignments too.
        for (const QByteArray &form : plainAndBase64(key) + plainAndBase64("the-private-question-5e9b")) {
            QVERIFY2(!line.contains(form), line.constData());
        }
    }
    QVERIFY(lines > 100);
    QVERIFY2(serverLines > 0, "the sampler never saw the server: the process check proved nothing");
    QVERIFY2(wrappedLines > 0, "the sampler never saw one of our encoded commands: the base64 check proved nothing");
}

QTEST_GUILESS_MAIN(TestDeployKeyring)
#include "tst_deploykeyring.moc"
