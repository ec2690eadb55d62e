#include "backend/core/processtree.h"
#include "tests/integration/cli/clirun.h"
#include "tests/integration/cli/demoguard.h"
#include "tests/support/buildpaths.h"
#include "tests/support/testshard.h"
#include "tests/support/tmpfsmount.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <signal.h>

/**
 * Fault injection against a whole deployment and a chat (issue 9): `flashdeck deploy` as a real
 * process over real SSH to the simulated host, with the host's SSH sessions killed, Flashdeck
 * itself SIGKILLed, or its disk filled at a chosen moment. Each fault must end in a clear
 * state, lose nothing (the journal reads whole, a resume finishes), and duplicate nothing (one
 * container, layers not fetched twice, the server not started twice). Every injected fault is
 * counted and listed at the end (docs/RELIABILITY.md). Runs with a real keyring
 * (tests/support/with-keyring), so the chat after a deployment finds its key.
 */
class TestFaultsCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void deploymentFault_data();
    void deploymentFault();
    void diskFullWhileWritingTheJournal_stopsClearly_resumeFinishes();
    void sshdKilledMidChat_partialKept_clearError();
    void containerCrash_statusSaysSo_resumeRestartsIt();
    void cleanupTestCase();

private:
    static CliRun run(const QString &config, QStringList args) { return runFlashdeck(config, std::move(args)); }
    static QMap<QString, QJsonObject> steps(const QByteArray &jsonLines) { return deploySteps(jsonLines); }
    /** `flashdeck deploy demo --json` with the licence accepted, running in `process`. */
    static void startDeploy(QProcess &process, const QString &config);
    /** `demo start`; returns the demo host's sshd pid (0 on failure). */
    /** The demo host of `scenario` at `timeFactor`; its sshd's pid (0: it did not start). */
    static qint64 startDemo(const QString &config, const QString &timeFactor,
                            const QString &scenario = QStringLiteral("b300x4"));
    /**
     * A host slow only where `moment` is: a slow link for "pull", a slow first start for
     * "ready" (the whole host slowed down made each of these tests take about 45 s).
     */
    static qint64 startDemoSlowAt(const QString &config, const QString &moment);
    /** Every line of the journal is a whole JSON object (a torn last line counts as a loss). */
    static bool journalReadsWhole(const QString &config, QString *why);
    void injected(const QString &what, const QString &outcome);

    QStringList m_faults;
};

void TestFaultsCli::startDeploy(QProcess &process, const QString &config)
{
    process.start(flashdeck::test::flashdeckBinary(),
                  {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
                   QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("120"),
                   QStringLiteral("--json"), QStringLiteral("--config-dir"), config});
}

qint64 TestFaultsCli::startDemoSlowAt(const QString &config, const QString &moment)
{
    return moment == QLatin1String("pull") ? startDemo(config, QStringLiteral("0.01"), QStringLiteral("slow-link"))
                                           : startDemo(config, QStringLiteral("0.03"), QStringLiteral("slow-start"));
}

qint64 TestFaultsCli::startDemo(const QString &config, const QString &timeFactor, const QString &scenario)
{
    const CliRun demo = run(config,
                            {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--scenario"), scenario,
                             QStringLiteral("--time-factor"), timeFactor, QStringLiteral("--json")});
    if (demo.exitCode != 0) {
        qWarning("demo start: %s", demo.err.constData());
        return 0;
    }
    return QJsonDocument::fromJson(demo.out)
        .object()[QLatin1String("hosts")]
        .toArray()
        .first()
        .toObject()[QLatin1String("sshd_pid")]
        .toInteger();
}

bool TestFaultsCli::journalReadsWhole(const QString &config, QString *why)
{
    QFile f(config + QStringLiteral("/data/deployments/demo/journal.jsonl"));
    if (!f.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral("no journal: ") + f.errorString();
        return false;
    }
    const QByteArray all = f.readAll();
    if (!all.endsWith('\n')) {
        *why = QStringLiteral("the journal ends in a torn line");
        return false;
    }
    int n = 0;
    for (const QByteArray &line : all.split('\n')) {
        if (line.isEmpty()) {
            continue;
        }
        ++n;
        if (!QJsonDocument::fromJson(line).isObject()) {
            *why = QStringLiteral("journal line %1 is not JSON").arg(n);
            return false;
        }
    }
    return n > 0;
}

void TestFaultsCli::injected(const QString &what, const QString &outcome)
{
    m_faults << QStringLiteral("%1 — %2").arg(what, outcome);
    qInfo("fault %lld injected: %s -> %s", qlonglong(m_faults.size()), qPrintable(what), qPrintable(outcome));
}

void TestFaultsCli::cleanupTestCase()
{
    qInfo("%lld faults injected, all recovered with nothing lost or duplicated:", qlonglong(m_faults.size()));
    for (const QString &f : m_faults) {
        qInfo("  %s", qPrintable(f));
    }
}

void TestFaultsCli::deploymentFault_data()
{
    QTest::addColumn<QString>("moment"); // "pull": 3 layers unpacked; "ready": the server is starting
    QTest::addColumn<QString>("fault"); // "sshd": the host's SSH sessions killed; "sigkill": Flashdeck killed
    QTest::newRow("sshd killed mid-launch") << "ready"
                                            << "sshd";
    QTest::newRow("flashdeck SIGKILLed mid-pull") << "pull"
                                                  << "sigkill";
    QTest::newRow("flashdeck SIGKILLed mid-launch") << "ready"
                                                    << "sigkill";
}

void TestFaultsCli::deploymentFault()
{
    QFETCH(QString, moment);
    QFETCH(QString, fault);
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    const qint64 sshd = startDemoSlowAt(config.path(), moment);
    QVERIFY(sshd > 0);
    QProcess deploy;
    startDeploy(deploy, config.path());
    QByteArray out;
    const auto reached = [&] {
        if (moment == QLatin1String("ready")) {
            return steps(out).value(QStringLiteral("ready"))[QLatin1String("status")].toString() ==
                QLatin1String("running");
        }
        int layers = 0;
        for (const QByteArray &line : out.split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.contains(QLatin1String("progress"))) {
                layers = std::max(layers, o[QLatin1String("text")].toString().section(QLatin1Char(' '), 0, 0).toInt());
            }
        }
        return layers >= 3;
    };
    while (!reached()) {
        QVERIFY2(deploy.waitForReadyRead(120000), out.constData());
        out += deploy.readAllStandardOutput();
    }
    if (fault == QLatin1String("sshd")) {
        // The session processes of the host's sshd (the listener stays, as after a network cut).
        for (const qint64 pid : flashdeck::processDescendants(sshd)) {
            ::kill(pid_t(pid), SIGKILL);
        }
    } else {
        ::kill(pid_t(deploy.processId()), SIGKILL);
    }
    QVERIFY(deploy.waitForFinished(120000));
    out += deploy.readAllStandardOutput();
    const QByteArray err = deploy.readAllStandardError();

    QString outcome;
    if (fault == QLatin1String("sigkill")) {
        QCOMPARE(deploy.exitStatus(), QProcess::CrashExit);
        outcome = QStringLiteral("killed; ");
    } else if (deploy.exitCode() == 0) {
        // The transport reconnected and the readiness wait carried on: a clear, complete result.
        QCOMPARE(steps(out).value(QStringLiteral("ready"))[QLatin1String("status")].toString(), QStringLiteral("pass"));
        outcome = QStringLiteral("reconnected and finished; ");
    } else {
        QCOMPARE(deploy.exitCode(), 1);
        const QJsonObject ready = steps(out).value(QStringLiteral("ready"));
        QCOMPARE(ready[QLatin1String("status")].toString(), QStringLiteral("fail"));
        const QByteArray record = QJsonDocument(ready).toJson(QJsonDocument::Compact);
        QVERIFY2(!ready[QLatin1String("seen")].toString().isEmpty(), record.constData());
        QVERIFY2(ready[QLatin1String("fix")].toString().contains(QLatin1String("--resume")), record.constData());
        outcome = QStringLiteral("step failed: \"%1\"; ").arg(ready[QLatin1String("seen")].toString().left(80));
    }
    QString why;
    QVERIFY2(journalReadsWhole(config.path(), &why), qPrintable(why + QString::fromUtf8(err)));

    const CliRun resumed = resumeDemoDeploy(config.path());
    const CliRun undeploy = undeployDemo(config.path());
    QVERIFY2(resumed.exitCode == 0, resumed.out.constData());
    const QMap<QString, QJsonObject> again = steps(resumed.out);
    QCOMPARE(again.value(QStringLiteral("verify.text"))[QLatin1String("status")].toString(), QStringLiteral("pass"));
    if (moment == QLatin1String("pull")) {
        const QString pulled = again.value(QStringLiteral("pull"))[QLatin1String("seen")].toString();
        const int already = pulled.section(QLatin1Char('('), 1).section(QLatin1Char(' '), 0, 0).toInt();
        QVERIFY2(already >= 3, qPrintable(pulled)); // what was unpacked before the fault is not fetched again
        outcome += QStringLiteral("resumed, %1 layers not fetched again").arg(already);
    } else if (deploy.exitCode() != 0 || fault == QLatin1String("sigkill")) {
        const QString launch = again.value(QStringLiteral("launch"))[QLatin1String("seen")].toString();
        QVERIFY2(launch.contains(QLatin1String("already running (not started again)")), qPrintable(launch));
        outcome += QStringLiteral("resumed, server not started twice");
    } else {
        outcome += QStringLiteral("resume found it done");
    }
    // Exactly one server container, whatever happened.
    QCOMPARE(undeploy.out.trimmed(), oneDemoServerRemoved());
    injected(QString::fromUtf8(QTest::currentDataTag()), outcome);
}

void TestFaultsCli::diskFullWhileWritingTheJournal_stopsClearly_resumeFinishes()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    QVERIFY(startDemoSlowAt(config.path(), QStringLiteral("pull")) > 0);
    // The deployments folder on a 1 MiB file system of its own, filled once the pull starts.
    flashdeck::test::TmpfsMount disk(config.path() + QStringLiteral("/data/deployments"), 1024);
    QVERIFY2(disk.isMounted(), qPrintable(disk.error()));
    QProcess deploy;
    startDeploy(deploy, config.path());
    QByteArray out;
    while (!steps(out).contains(QStringLiteral("pull"))) {
        QVERIFY2(deploy.waitForReadyRead(120000), out.constData());
        out += deploy.readAllStandardOutput();
    }
    QVERIFY(disk.fill() > 0);
    QVERIFY(deploy.waitForFinished(120000));
    out += deploy.readAllStandardOutput();
    QCOMPARE(deploy.exitStatus(), QProcess::NormalExit);
    QCOMPARE(deploy.exitCode(), 1);
    // The step that could not be recorded fails and says why, where and what to do.
    QJsonObject failed;
    for (const QJsonObject &s : steps(out)) {
        if (s[QLatin1String("status")].toString() == QLatin1String("fail")) {
            failed = s;
        }
    }
    const QString seen = failed[QLatin1String("seen")].toString();
    QVERIFY2(seen.contains(QLatin1String("No space left on device")),
             QJsonDocument(failed).toJson(QJsonDocument::Compact).constData());
    QVERIFY2(seen.contains(QLatin1String("journal.jsonl")), qPrintable(seen));
    QVERIFY2(failed[QLatin1String("fix")].toString().contains(QLatin1String("--resume")), qPrintable(seen));
    QString why;
    QVERIFY2(journalReadsWhole(config.path(), &why), qPrintable(why));
    // The manifest is either not written or whole — never an empty file over a good one.
    QFile manifest(config.path() + QStringLiteral("/data/deployments/demo/manifest.json"));
    if (manifest.open(QIODevice::ReadOnly)) {
        QVERIFY(QJsonDocument::fromJson(manifest.readAll()).isObject());
        manifest.close();
    }

    disk.unfill(); // the operator frees space
    const CliRun resumed = resumeDemoDeploy(config.path());
    const CliRun undeploy = undeployDemo(config.path());
    QVERIFY2(resumed.exitCode == 0, resumed.out.constData());
    QVERIFY2(journalReadsWhole(config.path(), &why), qPrintable(why));
    QCOMPARE(undeploy.out.trimmed(), oneDemoServerRemoved());
    injected(
        QStringLiteral("disk full while writing the journal (at %1)").arg(failed[QLatin1String("step")].toString()),
        QStringLiteral("step failed with ENOSPC and the path, journal whole; resumed after freeing space"));
}

void TestFaultsCli::sshdKilledMidChat_partialKept_clearError()
{
    QVERIFY2(!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"),
             "run this test through tests/support/with-keyring (ctest does)");
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    const qint64 sshd = startDemo(config.path(), QStringLiteral("0.1"));
    QVERIFY(sshd > 0);
    // Tokens every 50 ms, so the cut lands mid-answer.
    const QString scenarioPath = config.path() + QStringLiteral("/data/demo/demo/sim/scenario.json");
    QFile scenario(scenarioPath);
    QVERIFY2(scenario.open(QIODevice::ReadOnly), qPrintable(scenarioPath));
    QJsonObject sc = QJsonDocument::fromJson(scenario.readAll()).object();
    scenario.close();
    QJsonObject faults = sc[QLatin1String("faults")].toObject();
    faults[QLatin1String("token_seconds")] = 0.05;
    sc[QLatin1String("faults")] = faults;
    QVERIFY(scenario.open(QIODevice::WriteOnly | QIODevice::Truncate));
    scenario.write(QJsonDocument(sc).toJson());
    scenario.close();
    const CliRun deployed =
        run(config.path(),
            {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
             QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("120")});
    QVERIFY2(deployed.exitCode == 0, deployed.out.constData());

    const QList<qint64> before = flashdeck::processDescendants(sshd);
    QProcess chat;
    chat.start(flashdeck::test::flashdeckBinary(),
               {QStringLiteral("chat"), QStringLiteral("demo"), QStringLiteral("--prompt"),
                QStringLiteral("Tell me a long story."), QStringLiteral("--json"), QStringLiteral("--config-dir"),
                config.path()});
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += chat.readAllStandardOutput()).contains("\"type\":\"content\""), 60000);
    // Only the chat's own SSH session (the server runs in a container, not under sshd).
    int killed = 0;
    for (const qint64 pid : flashdeck::processDescendants(sshd)) {
        if (!before.contains(pid)) {
            killed += ::kill(pid_t(pid), SIGKILL) == 0 ? 1 : 0;
        }
    }
    QVERIFY(killed > 0);
    QVERIFY(chat.waitForFinished(60000));
    out += chat.readAllStandardOutput();
    run(config.path(), {QStringLiteral("undeploy"), QStringLiteral("demo")});
    QCOMPARE(chat.exitStatus(), QProcess::NormalExit);
    QCOMPARE(chat.exitCode(), 1);
    QString content;
    QJsonObject error;
    for (const QByteArray &l : out.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(l).object();
        if (o[QLatin1String("type")].toString() == QLatin1String("content")) {
            content += o[QLatin1String("text")].toString();
        } else if (o[QLatin1String("type")].toString() == QLatin1String("error")) {
            error = o;
        }
    }
    QVERIFY(!content.isEmpty()); // the partial answer was delivered and kept
    const QString message = error[QLatin1String("message")].toString();
    QVERIFY2(message.contains(QLatin1String("partial answer is kept")), out.constData());
    injected(QStringLiteral("sshd session killed mid-chat (%1 processes)").arg(killed),
             QStringLiteral("%1 characters kept, error: \"%2\"").arg(content.size()).arg(message.left(80)));
}

void TestFaultsCli::containerCrash_statusSaysSo_resumeRestartsIt()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    QVERIFY(startDemo(config.path(), QStringLiteral("0.1")) > 0);
    const CliRun deployed =
        run(config.path(),
            {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
             QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("120")});
    QVERIFY2(deployed.exitCode == 0, deployed.out.constData());
    // The server process in the container dies (an OOM kill, a segfault).
    QCOMPARE(killDemoServer(config.path()), 0); // it found the server
    // The fleet status says what happened: the container exited with 137, a critical alert.
    QJsonObject status;
    for (int i = 0; i < 60; ++i) {
        const CliRun s =
            run(config.path(), {QStringLiteral("status"), QStringLiteral("demo"), QStringLiteral("--json")});
        status = QJsonDocument::fromJson(s.out).object();
        if (status[QLatin1String("container")].toObject()[QLatin1String("state")].toString() ==
            QLatin1String("exited")) {
            break;
        }
    }
    const QJsonObject container = status[QLatin1String("container")].toObject();
    QCOMPARE(container[QLatin1String("state")].toString(), QStringLiteral("exited"));
    QVERIFY2(container[QLatin1String("status")].toString().contains(QLatin1String("Exited (137)")),
             qPrintable(container[QLatin1String("status")].toString()));
    QVERIFY(status[QLatin1String("server")].toObject()[QLatin1String("health")].toString() != QLatin1String("ok"));
    bool alerted = false;
    for (const QJsonValue &a : status[QLatin1String("alerts")].toArray()) {
        alerted = alerted ||
            (a.toObject()[QLatin1String("id")].toString() == QLatin1String("container-down") &&
             a.toObject()[QLatin1String("severity")].toString() == QLatin1String("critical"));
    }
    QVERIFY2(alerted, QJsonDocument(status).toJson().constData());
    // --resume brings it back: the same container started again, the checks read the new run.
    const CliRun resumed = resumeDemoDeploy(config.path());
    const CliRun after =
        run(config.path(), {QStringLiteral("status"), QStringLiteral("demo"), QStringLiteral("--json")});
    const CliRun undeploy = undeployDemo(config.path());
    QVERIFY2(resumed.exitCode == 0, resumed.out.constData());
    QCOMPARE(steps(resumed.out).value(QStringLiteral("ready"))[QLatin1String("status")].toString(),
             QStringLiteral("pass"));
    const QJsonObject back = QJsonDocument::fromJson(after.out).object();
    QCOMPARE(back[QLatin1String("container")].toObject()[QLatin1String("state")].toString(), QStringLiteral("running"));
    QCOMPARE(undeploy.out.trimmed(), oneDemoServerRemoved());
    injected(QStringLiteral("the server container crashed (SIGKILL)"),
             QStringLiteral("status: %1, critical alert; --resume restarted it, one container")
                 .arg(container[QLatin1String("status")].toString()));
}

FLASHDECK_TEST_SHARDED_MAIN(TestFaultsCli)
#include "tst_faultscli.moc"
