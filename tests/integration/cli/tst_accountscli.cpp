#include "tests/integration/cli/clirun.h"
#include "tests/support/buildpaths.h"
#include "tests/support/sshdfixture.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using flashdeck::test::SshdFixture;

/**
 * Operators as they are: not root, and with the login shell they like. Each account runs the
 * whole path as itself — the demo (its hosts in a user namespace), `hosts check`, `deploy`,
 * `status`, `logs`, `undeploy` — and its login shell (fish, tcsh) is the shell sshd runs every
 * command through, so a command that is not plain sh to it shows here.
 */
class TestAccountsCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void ordinaryUser_wholePath_data();
    void ordinaryUser_wholePath();

private:
    /** The binary and the simulated host, copied where any account may run them. */
    QTemporaryDir m_install{QDir::tempPath() + QStringLiteral("/fd-accounts-XXXXXX")};
    QString m_binary;
};

namespace {

bool copyTree(const QString &from, const QString &to)
{
    if (QFileInfo(from).isDir()) {
        QDir().mkpath(to);
        for (const QFileInfo &e : QDir(from).entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
            if (!copyTree(e.filePath(), to + QLatin1Char('/') + e.fileName())) {
                return false;
            }
        }
        return true;
    }
    return QFile::copy(from, to) && QFile::setPermissions(to, QFileInfo(from).permissions() | QFile::ReadOther);
}

} // namespace

void TestAccountsCli::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    // The build tree may sit below a directory only root can enter (a CI clone in mktemp -d):
    // the accounts run copies, laid out as the package lays them out.
    QVERIFY(m_install.isValid());
    QFile::setPermissions(m_install.path(),
                          QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup |
                              QFile::ReadOther | QFile::ExeOther);
    m_binary = m_install.path() + QStringLiteral("/flashdeck");
    const QString sim = m_install.path() + QStringLiteral("/simhost");
    QVERIFY(copyTree(flashdeck::test::flashdeckBinary(), m_binary));
    QVERIFY(copyTree(flashdeck::test::simBin(), sim + QStringLiteral("/bin")));
    QVERIFY(copyTree(flashdeck::test::simDaemon(), sim + QStringLiteral("/simhostd")));
    QVERIFY(copyTree(flashdeck::test::simNetns(), sim + QStringLiteral("/simhost-netns")));
    QVERIFY(copyTree(flashdeck::test::simRegistry(), sim + QStringLiteral("/registry.json")));
    QVERIFY(copyTree(flashdeck::test::simScenarios(), sim + QStringLiteral("/scenarios")));
}

void TestAccountsCli::ordinaryUser_wholePath_data()
{
    QTest::addColumn<QString>("shell");
    QTest::newRow("fish") << QStringLiteral("/usr/bin/fish");
    QTest::newRow("tcsh") << QStringLiteral("/bin/tcsh");
}

void TestAccountsCli::ordinaryUser_wholePath()
{
    QFETCH(QString, shell);
    QString user;
    QString error;
    QVERIFY2(SshdFixture::ensureShellAccount(shell, &user, &error), qPrintable(error));
    const QString home = QStringLiteral("/home/") + user;
    QTemporaryDir config(m_install.path() + QStringLiteral("/config-XXXXXX"));
    QVERIFY(config.isValid());
    QString out;
    QCOMPARE(flashdeck::test::runProgram(QStringLiteral("chown"), {user, config.path()}, &out), 0);

    // As the account, headless (no session bus, no keyring), with its own HOME.
    const auto as = [&](QStringList args, int timeoutMs = 180000) {
        args << QStringLiteral("--config-dir") << config.path();
        QProcess p;
        QProcessEnvironment env;
        env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("FLASHDECK_SIMHOST_DIR"), m_install.path() + QStringLiteral("/simhost"));
        // The account runs an instrumented binary: its leak report would be about Qt's exit, not us.
        env.insert(QStringLiteral("ASAN_OPTIONS"), QStringLiteral("detect_leaks=0"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("runuser"),
                QStringList{QStringLiteral("-u"), user, QStringLiteral("--"), QStringLiteral("env"),
                            QStringLiteral("HOME=") + home, QStringLiteral("USER=") + user,
                            QStringLiteral("LOGNAME=") + user, m_binary} +
                    args);
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished();
        }
        return CliRun{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                      p.readAllStandardError()};
    };
    struct Stop
    {
        std::function<void()> run;
        ~Stop() { run(); }
    } stop{[&] {
        as({QStringLiteral("undeploy"), QStringLiteral("demo")});
        as({QStringLiteral("demo"), QStringLiteral("stop")});
    }};

    const CliRun demo =
        as({QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--time-factor"), QStringLiteral("0.01")});
    QVERIFY2(demo.exitCode == 0, QByteArray(demo.out + demo.err).constData());
    const CliRun check = as({QStringLiteral("hosts"), QStringLiteral("check"), QStringLiteral("demo")});
    QVERIFY2(check.exitCode == 0 && check.out.contains("uname -a: Linux"),
             QByteArray(check.out + check.err).constData());

    const CliRun deploy = as({QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
                              QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("60"),
                              QStringLiteral("--json")});
    QByteArray failed; // the failed step and what the binary said, not the whole transcript
    for (const QByteArray &line : deploy.out.split('\n')) {
        if (line.contains("\"status\":\"fail\"")) {
            failed += line + '\n';
        }
    }
    QVERIFY2(deploy.exitCode == 0, QByteArray(failed + deploy.err).constData());
    const QMap<QString, QJsonObject> steps = deploySteps(deploy.out);
    QCOMPARE(steps.value(QStringLiteral("preflight.gpus")).value(QLatin1String("status")).toString(),
             QStringLiteral("pass"));
    QCOMPARE(steps.value(QStringLiteral("verify.text")).value(QLatin1String("status")).toString(),
             QStringLiteral("pass"));

    const CliRun status = as({QStringLiteral("status"), QStringLiteral("demo"), QStringLiteral("--json")});
    QVERIFY2(status.exitCode == 0, QByteArray(status.out + status.err).constData());
    QJsonObject s;
    for (const QByteArray &line : status.out.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.value(QLatin1String("host")).toString() == QLatin1String("demo")) {
            s = o;
        }
    }
    QVERIFY2(s.value(QLatin1String("gpu_error")).toString().isEmpty(), status.out.constData());
    QCOMPARE(s.value(QLatin1String("gpus")).toArray().size(), 4);
    QCOMPARE(s.value(QLatin1String("server")).toObject().value(QLatin1String("health")).toString(),
             QStringLiteral("ok"));

    const CliRun logs = as({QStringLiteral("logs"), QStringLiteral("demo"), QStringLiteral("--tail"),
                            QStringLiteral("200"), QStringLiteral("--highlights-only")});
    QVERIFY2(logs.exitCode == 0, QByteArray(logs.out + logs.err).constData());
    QVERIFY2(logs.out.contains("qmul4"), logs.out.constData());
}

QTEST_GUILESS_MAIN(TestAccountsCli)
#include "tst_accountscli.moc"
