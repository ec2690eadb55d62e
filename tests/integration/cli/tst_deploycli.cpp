#include "backend/core/apppaths.h"
#include "backend/core/heldlock.h"
#include "backend/core/processtree.h"
#include "backend/deploy/deployplan.h"
#include "backend/deploy/deployrunner.h"
#include "backend/deploy/deploysession.h"
#include "backend/recipe/deployment.h"
#include "tests/integration/cli/clirun.h"
#include "tests/integration/cli/demoguard.h"
#include "tests/support/buildpaths.h"
#include "tests/support/testshard.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <signal.h>

/**
 * `flashdeck deploy` as a real process over real SSH against every simulated-host scenario
 * (started with `flashdeck demo start --scenario …`): which step passes, warns or fails, and
 * with what. Then a rerun, and a grep for the API key in everything written.
 */
class TestDeployCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void scenario_data() { scenarioRows(0); }
    void scenario();
    // The same table's other half: each is one data-driven function, and a shard runs a function
    // whole; together the 29 deployments were the suite's longest shard (past 900 s on a loaded
    // machine), in halves they are dealt to two shards.
    void scenarioSecondHalf_data() { scenarioRows(1); }
    void scenarioSecondHalf() { scenario(); }
    void modelFolder_data();
    void modelFolder();
    void rerun_reusesAndLeaksNothing_undeployCleansUp();
    void headless_chatAfterDeploy_readsTheKeyFromTheServer();
    void portTaken_deployOnAnother_everyCommandFollows();
    void pull_retriedLayer_countedOnceNeverBack();
    void runbook_reproducesTheDeploymentOverOpenSsh_data();
    void runbook_reproducesTheDeploymentOverOpenSsh();
    void interruptedPull_resumesWithoutStartingOver();
    void ctrlC_saysWhatIsLeft_andResumeFinishes();
    void firstStart_showsTheDownload_andAStallStops();
    void acceptLicense_recordedOnlyWhenTheHostIsReached();
    void anotherRunOfTheHost_refusedBeforeConnecting();
    void amdProfile_needsTheImageConfirmed_data();
    void amdProfile_needsTheImageConfirmed();
    void generatorCommand_amd_bothServicesRunIt_tp8RefusedBeforeThePull();
    void eightB300_twoServicesBehindTheRouter();
    void rerun_nvidiaSmiListsNoProcess_ownServersMemoryIsItsOwn();
    void qmul4_secondStartPrintsNothing_saysWhatTheFirstStartOfThesePinsPrinted();

private:
    /** The scenario table, every other row from the first (`half` 0) or the second (1). */
    static void scenarioRows(int half);
    using Run = CliRun;
    static Run run(const QString &config, QStringList args) { return runFlashdeck(config, std::move(args)); }
    static QMap<QString, QJsonObject> steps(const QByteArray &jsonLines) { return deploySteps(jsonLines); }
};

namespace { } // namespace

void TestDeployCli::firstStart_showsTheDownload_andAStallStops()
{
    // The weights arrive in the host's Hugging Face cache, then stop halfway (a hung proxy).
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    const Run demo = run(config.path(),
                         {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--scenario"),
                          QStringLiteral("download-stall"), QStringLiteral("--time-factor"), QStringLiteral("0.01")});
    QVERIFY2(demo.exitCode == 0, demo.err.constData());
    const Run deploy = run(config.path(),
                           {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
                            QStringLiteral("noncommercial"), QStringLiteral("--stall-timeout"), QStringLiteral("3"),
                            QStringLiteral("--json")});
    QCOMPARE(deploy.exitCode, 1);
    // {"progress":"ready","done":BYTES,"total":BYTES,"text":…}, the pull's shape: bytes that only grow.
    qint64 last = -1;
    int downloading = 0;
    for (const QByteArray &line : deploy.out.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.value(QLatin1String("progress")).toString() != QLatin1String("ready")) {
            continue;
        }
        const qint64 done = o.value(QLatin1String("done")).toInteger();
        QCOMPARE(o.value(QLatin1String("total")).toInteger(), qint64(252000000000));
        QVERIFY2(done >= last, line.constData());
        last = done;
        if (done > 0 &&
            o.value(QLatin1String("text")).toString().startsWith(QLatin1String("Downloading the weights: "))) {
            ++downloading;
        }
    }
    QVERIFY2(downloading >= 2 && last > 0 && last <= 126000000000, deploy.out.constData());
    const QJsonObject ready = steps(deploy.out).value(QStringLiteral("ready"));
    QCOMPARE(ready.value(QLatin1String("status")).toString(), QStringLiteral("fail"));
    const QString seen = ready.value(QLatin1String("seen")).toString();
    QVERIFY2(seen.startsWith(QLatin1String("no progress for 3 s: Downloading the weights: ")) &&
                 seen.contains(QLatin1String(" of 252.0 GB")),
             qPrintable(seen));
    QVERIFY2(ready.value(QLatin1String("fix")).toString().contains(QLatin1String("--resume")), qPrintable(seen));
    QVERIFY(ready.value(QLatin1String("why")).toString().contains(QLatin1String("stops after 3 s without any")));
    undeployDemo(config.path());
}

void TestDeployCli::acceptLicense_recordedOnlyWhenTheHostIsReached()
{
    // A host that does not answer: the plan never reaches the licence, so nothing is recorded.
    QTemporaryDir config;
    const Run add = run(config.path(),
                        {QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("ghost"),
                         QStringLiteral("--ssh"), QStringLiteral("root@127.0.0.1:1")});
    QVERIFY2(add.exitCode == 0, add.err.constData());
    const Run deploy = run(config.path(),
                           {QStringLiteral("deploy"), QStringLiteral("ghost"), QStringLiteral("--accept-license"),
                            QStringLiteral("noncommercial")});
    QVERIFY(deploy.exitCode != 0);
    QVERIFY2(!deploy.err.contains("Recorded:"), deploy.err.constData());
    const flashdeck::AppPaths paths(config.path());
    QFile acks(paths.acknowledgementsFile());
    QVERIFY2(!acks.exists() || (acks.open(QIODevice::ReadOnly) && !acks.readAll().contains("ghost")),
             qPrintable(paths.acknowledgementsFile()));

    // A host that answers: recorded when the licence step passes, and said.
    const DemoGuard guard{config.path()};
    const Run demo =
        run(config.path(),
            {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--time-factor"), QStringLiteral("0.01")});
    QVERIFY2(demo.exitCode == 0, demo.err.constData());
    const Run reached = run(config.path(),
                            {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
                             QStringLiteral("noncommercial")});
    QVERIFY2(reached.exitCode == 0, reached.err.constData());
    QVERIFY2(reached.err.contains("Recorded: "), reached.err.constData());
    QFile recorded(paths.acknowledgementsFile());
    QVERIFY(recorded.open(QIODevice::ReadOnly));
    QVERIFY(recorded.readAll().contains("\"host\": \"demo\""));
    undeployDemo(config.path());
}

void TestDeployCli::anotherRunOfTheHost_refusedBeforeConnecting()
{
    // A deploy of the host runs (a window, another terminal: here this process holds its lock, as
    // a run does): a second one is refused before it connects, and writes nothing of its own.
    QTemporaryDir config;
    const Run add = run(config.path(),
                        {QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("ghost"),
                         QStringLiteral("--ssh"), QStringLiteral("root@127.0.0.1:1")});
    QVERIFY2(add.exitCode == 0, add.err.constData());
    const flashdeck::AppPaths paths(config.path());
    const QString dir = flashdeck::recipe::Deployment::directory(paths, QStringLiteral("ghost"));
    QVERIFY(QDir().mkpath(dir));
    auto held = std::make_unique<flashdeck::HeldLock>(flashdeck::deploy::DeploySession::lockOf(dir));
    const flashdeck::Status claimed = held->acquire();
    QVERIFY2(claimed, qPrintable(claimed.message()));
    const Run refused = run(config.path(), {QStringLiteral("deploy"), QStringLiteral("ghost")});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains("A deployment of ghost runs already"), refused.err.constData());
    QVERIFY2(refused.err.contains("journal.jsonl"), refused.err.constData());
    QVERIFY(!QFile::exists(dir + QStringLiteral("/journal.jsonl")));
    // That run ends (or its process dies: the kernel drops the lock): this one goes to the host.
    held.reset();
    const Run tried = run(config.path(), {QStringLiteral("deploy"), QStringLiteral("ghost")});
    QVERIFY(tried.exitCode != 0); // nothing answers on port 1
    QVERIFY2(!tried.err.contains("runs already"), tried.err.constData());
}

void TestDeployCli::amdProfile_needsTheImageConfirmed_data()
{
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QStringList>("says");
    // The page gives no AMD image: the suggestion, where it comes from, and how to confirm it.
    QTest::newRow("no --image") << QStringList{}
                                << QStringList{
                                       QStringLiteral("Suggested: aigmkt/minimax-m3-sglang-rocm720-mi35x:latest"),
                                       QStringLiteral("SGLang's configuration generator"),
                                       QStringLiteral("SGLang Cookbook"), QStringLiteral("floating tag"),
                                       QStringLiteral("--image aigmkt/minimax-m3-sglang-rocm720-mi35x:latest")};
    QTest::newRow("a digest") << QStringList{QStringLiteral("--image"), QStringLiteral("aigmkt/x@sha256:00")}
                              << QStringList{QStringLiteral("names a digest")};
    QTest::newRow("upper case") << QStringList{QStringLiteral("--image"), QStringLiteral("Aigmkt/x:1")}
                                << QStringList{QStringLiteral("lower case")};
}

void TestDeployCli::amdProfile_needsTheImageConfirmed()
{
    QFETCH(QStringList, extra);
    QFETCH(QStringList, says);
    QTemporaryDir config;
    // Refused before any connection: the host needs no server.
    const Run add = run(config.path(),
                        {QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("amd"), QStringLiteral("--ssh"),
                         QStringLiteral("root@127.0.0.1:1")});
    QVERIFY2(add.exitCode == 0, add.err.constData());
    const Run deploy = run(config.path(),
                           QStringList{QStringLiteral("deploy"), QStringLiteral("amd"), QStringLiteral("--profile"),
                                       QStringLiteral("mi355x-x8-two-tp4-router"), QStringLiteral("--accept-license"),
                                       QStringLiteral("noncommercial")} +
                               extra);
    QCOMPARE(deploy.exitCode, 2); // a usage error: nothing was tried on the host
    for (const QString &s : says) {
        QVERIFY2(QString::fromUtf8(deploy.err).contains(s), deploy.err.constData());
    }
}

namespace {

/** `demo start --scenario` at a hundredth of the time: the host's JSON (empty, and `why`, when it failed). */
QJsonObject startDemoHost(const QString &config, const QString &scenario, QString *why)
{
    const CliRun demo =
        runFlashdeck(config,
                     {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--scenario"), scenario,
                      QStringLiteral("--time-factor"), QStringLiteral("0.01"), QStringLiteral("--json")});
    *why = QString::fromUtf8(demo.err);
    if (demo.exitCode != 0) {
        return {};
    }
    return QJsonDocument::fromJson(demo.out).object()[QLatin1String("hosts")].toArray().first().toObject();
}

/** What the simulated host's dockerd holds, asked over OpenSSH with the real docker CLI. */
QByteArray onDemoHost(const QJsonObject &host, const QString &command)
{
    QProcess ssh;
    ssh.start(QStringLiteral("ssh"),
              {QStringLiteral("-F"), QStringLiteral("/dev/null"), QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
               QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=yes"), QStringLiteral("-o"),
               QStringLiteral("UserKnownHostsFile=") + host[QLatin1String("known_hosts_file")].toString(),
               QStringLiteral("-i"), host[QLatin1String("identity_file")].toString(), QStringLiteral("-p"),
               QString::number(host[QLatin1String("port")].toInt()),
               host[QLatin1String("user")].toString() + QStringLiteral("@127.0.0.1"), command});
    ssh.waitForFinished(60000);
    return QByteArray(ssh.readAllStandardOutput() + ssh.readAllStandardError());
}

} // namespace

void TestDeployCli::generatorCommand_amd_bothServicesRunIt_tp8RefusedBeforeThePull()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    QString started;
    const QJsonObject host = startDemoHost(config.path(), QStringLiteral("mi355x-x8"), &started);
    QVERIFY2(!host.isEmpty(), qPrintable(started));
    const auto onHost = [&host](const QString &command) { return onDemoHost(host, command); };
    const QStringList base{QStringLiteral("deploy"),
                           QStringLiteral("demo"),
                           QStringLiteral("--profile"),
                           QStringLiteral("mi355x-x8-two-tp4-router"),
                           QStringLiteral("--accept-license"),
                           QStringLiteral("noncommercial"),
                           QStringLiteral("--image"),
                           QStringLiteral("aigmkt/minimax-m3-sglang-rocm720-mi35x:latest"),
                           QStringLiteral("--ready-timeout"),
                           QStringLiteral("60"),
                           QStringLiteral("--json")};
    const Run none = run(config.path(), base);
    const Run tp8 = run(
        config.path(),
        base + QStringList{QStringLiteral("--launch-command"), flashdeck::test::testData(u"/generator/mi355x-tp8.sh")});
    const QByteArray imagesBefore = onHost(QStringLiteral("docker images --format '{{.Repository}}'"));
    const Run deploy = run(
        config.path(),
        base + QStringList{QStringLiteral("--launch-command"), flashdeck::test::testData(u"/generator/mi355x-tp4.sh")});
    // Again without --profile: the host's recorded profile, not the page's 4 x B300 default.
    QStringList again = base;
    again.remove(again.indexOf(QStringLiteral("--profile")), 2);
    const Run rerun = run(
        config.path(),
        again +
            QStringList{QStringLiteral("--launch-command"), flashdeck::test::testData(u"/generator/mi355x-tp4.sh")});
    QByteArrayList cmds;
    for (const char *replica : {"0", "1"}) {
        cmds << onHost(QStringLiteral("docker inspect --format '{{json .Config.Cmd}} {{json .Config.Env}}' "
                                      "flashdeck-demo-mi355x-x8-two-tp4-router-") +
                       QLatin1String(replica));
    }
    const Run stop = run(config.path(), {QStringLiteral("demo"), QStringLiteral("stop")});
    QCOMPARE(stop.exitCode, 0);

    // Without a command: the page's words (no ids), exit 2, a JSON object under --json.
    QCOMPARE(none.exitCode, 2);
    const QJsonObject noneError =
        QJsonDocument::fromJson(none.out.trimmed()).object()[QLatin1String("error")].toObject();
    QCOMPARE(QJsonDocument::fromJson(none.out.trimmed()).object()[QLatin1String("exit_code")].toInt(), 2);
    QCOMPARE(noneError[QLatin1String("code")].toString(), QStringLiteral("generator-command-needed"));
    const QString said = noneError[QLatin1String("message")].toString();
    QVERIFY2(said.contains(QLatin1String("SGLang's configuration generator")) &&
                 said.contains(QLatin1String("GB-series, B200, H200 or AMD")) &&
                 said.contains(QLatin1String("--launch-command")) && !said.contains(QLatin1String("F12")),
             qPrintable(said));
    // TP 8 on ROCm: refused with the numbers, before anything was pulled.
    QCOMPARE(tp8.exitCode, 2);
    const QString tp8Said = QJsonDocument::fromJson(tp8.out.trimmed())
                                .object()[QLatin1String("error")]
                                .toObject()[QLatin1String("message")]
                                .toString();
    QVERIFY2(tp8Said.contains(QLatin1String("TP 8")) && tp8Said.contains(QLatin1String("32 GB image pull")) &&
                 tp8Said.contains(QLatin1String("252 GB weights download")),
             qPrintable(tp8Said));
    QVERIFY2(!imagesBefore.contains("aigmkt") && !imagesBefore.contains("lmsysorg"), imagesBefore.constData());
    // With the command: both services run its flags and no B300 flag; Flashdeck's own are set.
    QVERIFY2(deploy.exitCode == 0, QByteArray(deploy.out + deploy.err).constData());
    QVERIFY(deploy.out.contains("\"launch_command\"")); // the preview, before the plan
    QVERIFY2(rerun.exitCode == 0, QByteArray(rerun.out + rerun.err).constData());
    QVERIFY2(steps(rerun.out).value(QStringLiteral("launch"))[QLatin1String("seen")].toString().contains(
                 QLatin1String("not started again")),
             rerun.out.constData());
    for (const QByteArray &cmd : cmds) {
        for (const char *flag : {"\"--quantization\",\"mxfp8\"", "\"--dtype\",\"bfloat16\"", "\"--tp\",\"4\"",
                                 "\"--enable-metrics\"", "\"--revision\"", "SGLANG_USE_AITER=1"}) {
            QVERIFY2(cmd.contains(flag), cmd.constData());
        }
        QVERIFY2(!cmd.contains("DSPARK") && !cmd.contains("--tool-call-parser") && !cmd.contains("FMHA_SM100"),
                 cmd.constData());
    }
    QVERIFY2(cmds.at(0).contains("\"--port\",\"30000\"") && cmds.at(1).contains("\"--port\",\"30001\""),
             cmds.join('\n').constData());
    const QMap<QString, QJsonObject> s = steps(deploy.out);
    QCOMPARE(s.value(QStringLiteral("check.dspark"))[QLatin1String("status")].toString(), QStringLiteral("skipped"));
    QCOMPARE(s.value(QStringLiteral("verify.text"))[QLatin1String("status")].toString(), QStringLiteral("pass"));
    // The manifest keeps the command: the runbook and an upgrade run it again.
    const flashdeck::Result<flashdeck::recipe::Deployment> recorded =
        flashdeck::recipe::Deployment::read(flashdeck::AppPaths(config.path()), QStringLiteral("demo"));
    QVERIFY2(recorded, qPrintable(recorded.message()));
    QVERIFY(recorded.value().launchCommand.contains(QLatin1String("--quantization mxfp8")));
}

void TestDeployCli::eightB300_twoServicesBehindTheRouter()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    QString started;
    const QJsonObject host = startDemoHost(config.path(), QStringLiteral("b300x8"), &started);
    QVERIFY2(!host.isEmpty(), qPrintable(started));
    const Run deploy = run(config.path(),
                           {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
                            QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("60"),
                            QStringLiteral("--json")});
    const QByteArray containers = onDemoHost(
        host,
        QStringLiteral("for c in $(docker ps -q --filter label=io.flashdeck.deployment=demo-b300x4-balanced); do "
                       "docker inspect --format '{{.Name}} {{json .Config.Cmd}} "
                       "{{json .HostConfig.DeviceRequests}}' $c; done"));
    const QByteArray smi = onDemoHost(host,
                                      QStringLiteral("nvidia-smi --query-gpu=index,memory.used "
                                                     "--format=csv,noheader,nounits"));
    // status sees both services through the one entry point: each one's KV pool, and their sum.
    QJsonObject server;
    for (int tries = 0; tries < 30 && server[QLatin1String("services")].toArray().size() < 2; ++tries) {
        const Run status =
            run(config.path(), {QStringLiteral("status"), QStringLiteral("demo"), QStringLiteral("--json")});
        server = QJsonDocument::fromJson(status.out).object()[QLatin1String("server")].toObject();
    }
    const Run stop = run(config.path(), {QStringLiteral("demo"), QStringLiteral("stop")});
    QCOMPARE(stop.exitCode, 0);

    QVERIFY2(deploy.exitCode == 0, QByteArray(deploy.out + deploy.err).constData());
    const QMap<QString, QJsonObject> s = steps(deploy.out);
    // Pre-flight says the layout in words, then every GPU serves: two services and the Router.
    const QString gpus = s.value(QStringLiteral("preflight.gpus"))[QLatin1String("seen")].toString();
    QVERIFY2(gpus.contains(QLatin1String("2 services of TP 4")) &&
                 gpus.contains(QLatin1String("GPUs 4-7 on port 30001")) && gpus.contains(QLatin1String("cache_aware")),
             qPrintable(gpus));
    QCOMPARE(s.value(QStringLiteral("verify.text"))[QLatin1String("status")].toString(), QStringLiteral("pass"));
    QVERIFY2(containers.contains("flashdeck-demo-b300x4-balanced-0 ") &&
                 containers.contains("flashdeck-demo-b300x4-balanced-1 ") &&
                 containers.contains("flashdeck-demo-b300x4-balanced-router "),
             containers.constData());
    QVERIFY2(containers.contains("\"--worker-urls\",\"http://127.0.0.1:30000\",\"http://127.0.0.1:30001\"") &&
                 containers.contains("\"--policy\",\"cache_aware\""),
             containers.constData());
    QVERIFY2(containers.contains("[\"4\",\"5\",\"6\",\"7\"]"), containers.constData());
    // Both services hold memory on their own GPUs: none of the eight idles.
    const QList<QByteArray> rows = smi.trimmed().split('\n');
    QCOMPARE(rows.size(), 8);
    for (const QByteArray &row : rows) {
        QVERIFY2(row.split(',').value(1).trimmed().toLongLong() > 100000, smi.constData());
    }
    // The manifest names all eight GPUs and the Router's port: status, chat and upgrades follow it.
    const flashdeck::Result<flashdeck::recipe::Deployment> recorded =
        flashdeck::recipe::Deployment::read(flashdeck::AppPaths(config.path()), QStringLiteral("demo"));
    QVERIFY2(recorded, qPrintable(recorded.message()));
    QCOMPARE(recorded.value().gpus, QStringLiteral("0,1,2,3,4,5,6,7"));
    QCOMPARE(recorded.value().port, quint16(30080));
    const QJsonArray services = server[QLatin1String("services")].toArray();
    QVERIFY2(services.size() == 2, QJsonDocument(server).toJson().constData());
    QCOMPARE(services.at(0).toObject()[QLatin1String("port")].toInt(), 30000);
    QCOMPARE(services.at(1).toObject()[QLatin1String("port")].toInt(), 30001);
    const double eachMax = services.at(0).toObject()[QLatin1String("max_tokens")].toDouble();
    QVERIFY(eachMax > 0);
    QCOMPARE(server[QLatin1String("max_tokens")].toDouble(),
             eachMax + services.at(1).toObject()[QLatin1String("max_tokens")].toDouble());
}

namespace {

/** `deploy demo` with the licence accepted, a minute to be ready, and the JSON contract on stdout. */
QStringList deployDemoJson()
{
    return {QStringLiteral("deploy"),
            QStringLiteral("demo"),
            QStringLiteral("--accept-license"),
            QStringLiteral("noncommercial"),
            QStringLiteral("--ready-timeout"),
            QStringLiteral("60"),
            QStringLiteral("--json")};
}

/** The simulated `hf download` / `modelscope download` of the registry's revision into `dir`. */
bool writeModel(const QString &dir, const QString &layout)
{
    QProcess write;
    write.start(flashdeck::test::simDaemon(),
                {QStringLiteral("--registry"), flashdeck::test::simRegistry(), QStringLiteral("--write-model"),
                 QStringLiteral("MiniMaxAI/MiniMax-M3.1-Flash"), dir, layout});
    return write.waitForFinished(60000) && write.exitCode() == 0;
}

} // namespace

void TestDeployCli::scenarioRows(int half)
{
    int row = 0;
    const auto mine = [&row, half] { return row++ % 2 == half; };
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QString>("readyTimeout");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("step"); // the step whose status is checked
    QTest::addColumn<QString>("status");
    QTest::addColumn<QString>("mentions"); // in seen or fix
    QTest::addColumn<QStringList>("extra"); // more deploy arguments

    const QString balanced = QStringLiteral("b300x4-balanced");
    if (mine()) {
        QTest::newRow("b300x4") << "b300x4" << balanced << "60" << 0 << "verify.image"
                                << "pass"
                                << "content" << QStringList{};
    }
    if (mine()) {
        QTest::newRow("b300x4-old-driver") << "b300x4-old-driver" << balanced << "60" << 1 << "preflight.driver"
                                           << "fail"
                                           << "13.4" << QStringList{};
    }
    if (mine()) {
        QTest::newRow("low-disk") << "low-disk" << balanced << "60" << 1 << "preflight.disk"
                                  << "fail"
                                  << "180.0 GB free" << QStringList{};
    }
    if (mine()) {
        QTest::newRow("port-taken") << "port-taken" << balanced << "60" << 1 << "preflight.port"
                                    << "fail"
                                    << "in use: 30000" << QStringList{};
    }
    if (mine()) {
        QTest::newRow("missing-shard") << "missing-shard" << balanced << "60" << 1 << "ready"
                                       << "fail"
                                       << "re-download" << QStringList{};
    }
    if (mine()) {
        QTest::newRow("oom") << "oom" << balanced << "60" << 1 << "ready"
                             << "fail"
                             << "mem-fraction-static" << QStringList{};
    }
    if (mine()) {
        QTest::newRow("never-ready") << "never-ready" << balanced << "4" << 1 << "ready"
                                     << "fail"
                                     << "not ready after 4 s" << QStringList{};
    }
    if (mine()) {
        QTest::newRow("slow-start") << "slow-start" << balanced << "120" << 0 << "ready"
                                    << "pass"
                                    << "/health 200" << QStringList{};
    }
    if (mine()) {
        QTest::newRow("qmul4-fallback") << "qmul4-fallback" << balanced << "60" << 0 << "check.qmul4"
                                        << "warn"
                                        << "fp16_fallback" << QStringList{};
    }
    // The toolkit in the image, not the driver: an image built with CUDA 13.0 on a 13.4 driver.
    if (mine()) {
        QTest::newRow("image with CUDA 13.0")
            << "b300x4" << balanced << "60" << 0 << "check.qmul4"
            << "warn"
            << "CUDA Toolkit older than 13.4 in its image"
            << QStringList{QStringLiteral("--image"), QStringLiteral("lmsysorg/sglang:dev-minimax-m31-flash-cu130")};
    }
    // A reasoning model that spends 2048 tokens thinking: said, then asked with thinking off.
    if (mine()) {
        QTest::newRow("long-thinker") << "long-thinker" << balanced << "60" << 0 << "verify.text"
                                      << "pass"
                                      << "the answer ended at the 2048-token limit while thinking" << QStringList{};
    }
    // The server's own words for a refused picture, not "HTTP 400".
    if (mine()) {
        QTest::newRow("vision-refuses") << "vision-refuses" << balanced << "60" << 1 << "verify.image"
                                        << "fail"
                                        << "HTTP 400: height:224 or width:224 must be larger than factor:448"
                                        << QStringList{};
    }
    // Issue 41: no line is no guess at why, and no advice to clear the kernel cache.
    if (mine()) {
        QTest::newRow("qmul4-cached") << "qmul4-cached" << balanced << "60" << 0 << "check.qmul4"
                                      << "unknown"
                                      << "not printed by this start" << QStringList{};
    }
    if (mine()) {
        QTest::newRow("no-dspark") << "no-dspark" << balanced << "60" << 0 << "check.dspark"
                                   << "warn"
                                   << "no DSpark" << QStringList{};
    }
    if (mine()) {
        QTest::newRow("hicache too big") << "b300x4" << balanced << "60" << 1 << "preflight.memory"
                                         << "fail"
                                         << "at most 524 GB per rank"
                                         << QStringList{QStringLiteral("--hicache-gb"), QStringLiteral("600")};
    }
    if (mine()) {
        QTest::newRow("hicache fits") << "b300x4" << balanced << "60" << 0 << "launch"
                                      << "pass"
                                      << "started"
                                      << QStringList{QStringLiteral("--hicache-gb"), QStringLiteral("100")};
    }
    if (mine()) {
        QTest::newRow("mi355x-x8") << "mi355x-x8"
                                   << "mi355x-x8-two-tp4-router"
                                   << "60" << 0 << "launch"
                                   << "warn"
                                   << "not verified upstream"
                                   << QStringList{QStringLiteral("--image"),
                                                  QStringLiteral("aigmkt/minimax-m3-sglang-rocm720-mi35x:latest"),
                                                  QStringLiteral("--launch-command"),
                                                  flashdeck::test::testData(u"/generator/mi355x-tp4.sh")};
    }
    // No verified command for 8 × H200: the generator's docker run, through every check.
    if (mine()) {
        QTest::newRow("h200x8, the generator's command")
            << "h200x8"
            << "h200"
            << "60" << 0 << "verify.image"
            << "pass"
            << "content"
            << QStringList{QStringLiteral("--launch-command"),
                           flashdeck::test::testData(u"/generator/h200x8-docker.sh")};
    }
    if (mine()) {
        QTest::newRow("h200x8, not verified upstream")
            << "h200x8"
            << "h200"
            << "60" << 0 << "launch"
            << "warn"
            << "not verified upstream"
            << QStringList{QStringLiteral("--launch-command"),
                           flashdeck::test::testData(u"/generator/h200x8-docker.sh")};
    }
    // Two H200s cannot hold the weights at 0.8: refused in numbers before anything is pulled.
    if (mine()) {
        QTest::newRow("h200x8, a TP 2 command on two: the weights do not fit")
            << "h200x8"
            << "h200"
            << "60" << 1 << "preflight.gpumemory"
            << "fail"
            << "the weights (252.0 GB) do not fit a service's static memory (TP 2 × 150.8 GB"
            << QStringList{QStringLiteral("--gpus"), QStringLiteral("0,1"), QStringLiteral("--launch-command"),
                           flashdeck::test::testData(u"/generator/h200x2-tp2.sh")};
    }
    // Another tenant's job on the MI355X GPUs: amd-smi process names it, as nvidia-smi does on NVIDIA.
    if (mine()) {
        QTest::newRow("mi355x-busy") << "mi355x-busy"
                                     << "mi355x-x8-two-tp4-router"
                                     << "60" << 1 << "preflight.gpumemory"
                                     << "fail"
                                     << "pid 52113 (python3) holds 144.0 GiB"
                                     << QStringList{QStringLiteral("--image"),
                                                    QStringLiteral("aigmkt/minimax-m3-sglang-rocm720-mi35x:latest"),
                                                    QStringLiteral("--launch-command"),
                                                    flashdeck::test::testData(u"/generator/mi355x-tp4.sh")};
    }
    // A B300 profile on an AMD host: what the host has and which profile fits, never the NVIDIA driver.
    if (mine()) {
        QTest::newRow("B300 profile, AMD host") << "mi355x-x8" << balanced << "60" << 1 << "preflight.gpus"
                                                << "fail"
                                                << "the profile needs 4 × B300; the host has 8 × AMD Instinct MI355X "
                                                   "Choose a profile for this host's GPUs: mi355x-x8-two-tp4-router"
                                                << QStringList{};
    }
    if (mine()) {
        QTest::newRow("h200x2") << "h200x2" << balanced << "60" << 1 << "preflight.gpus"
                                << "fail"
                                << "2 × NVIDIA H200" << QStringList{};
    }
    // dockerd's own words reach the operator: the body of its error status, not "HTTP 500".
    if (mine()) {
        QTest::newRow("pull-refused") << "pull-refused" << balanced << "60" << 1 << "pull"
                                      << "fail"
                                      << "dockerd: Get \"https://registry-1.docker.io/v2/\": dial tcp: lookup"
                                      << QStringList{};
    }
    // A login user outside the docker group: what dial-stdio printed, and how to fix it.
    if (mine()) {
        QTest::newRow("docker-denied") << "docker-denied" << balanced << "60" << 1 << "preflight.docker"
                                       << "fail"
                                       << "connect: permission denied (exit 1)" << QStringList{};
    }
    // Another tenant's job holds half of every GPU: stopped before the pull, the job named.
    if (mine()) {
        QTest::newRow("gpus-busy") << "gpus-busy" << balanced << "60" << 1 << "preflight.gpumemory"
                                   << "fail"
                                   << "GPU 0: 143.4 GiB free of 286.8 GiB, the server needs" << QStringList{};
    }
    if (mine()) {
        QTest::newRow("gpus-busy, the process") << "gpus-busy" << balanced << "60" << 1 << "preflight.gpumemory"
                                                << "fail"
                                                << "pid 41207 (python3) holds 143.4 GiB" << QStringList{};
    }
    if (mine()) {
        QTest::newRow("docker-denied, the fix") << "docker-denied" << balanced << "60" << 1 << "preflight.docker"
                                                << "fail"
                                                << "usermod -aG docker" << QStringList{};
    }
}

void TestDeployCli::scenario()
{
    QFETCH(QString, scenario);
    QFETCH(QString, profile);
    QFETCH(QString, readyTimeout);
    QFETCH(int, exitCode);
    QFETCH(QString, step);
    QFETCH(QString, status);
    QFETCH(QString, mentions);
    QFETCH(QStringList, extra);
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    const Run demo = run(config.path(),
                         {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--scenario"), scenario,
                          QStringLiteral("--time-factor"), QStringLiteral("0.01")});
    QVERIFY2(demo.exitCode == 0, demo.err.constData());
    const Run deploy = run(config.path(),
                           QStringList{QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--profile"),
                                       profile, QStringLiteral("--accept-license"), QStringLiteral("noncommercial"),
                                       QStringLiteral("--ready-timeout"), readyTimeout, QStringLiteral("--json")} +
                               extra);
    const Run stop = run(config.path(), {QStringLiteral("demo"), QStringLiteral("stop")});
    QCOMPARE(stop.exitCode, 0);
    QVERIFY2(deploy.exitCode == exitCode, QByteArray(deploy.out + deploy.err).constData());
    const QMap<QString, QJsonObject> s = steps(deploy.out);
    QVERIFY2(s.contains(step), deploy.out.constData());
    const QJsonObject r = s.value(step);
    QCOMPARE(r[QLatin1String("status")].toString(), status);
    const QString text = r[QLatin1String("seen")].toString() + QLatin1Char(' ') + r[QLatin1String("fix")].toString();
    QVERIFY2(text.contains(mentions), qPrintable(text));
    for (const QString &key :
         {QStringLiteral("step"), QStringLiteral("status"), QStringLiteral("title"), QStringLiteral("expected"),
          QStringLiteral("seen"), QStringLiteral("fix"), QStringLiteral("command")}) {
        QVERIFY(r.contains(key)); // the CLI's JSON contract
    }
    if (exitCode == 1) { // the plan stopped at the failed step: nothing after it ran
        const QStringList plan = flashdeck::deploy::DeployPlan::ids();
        for (qsizetype i = plan.indexOf(step) + 1; i < plan.size(); ++i) {
            QVERIFY2(!s.contains(plan.at(i)), qPrintable(plan.at(i)));
        }
    }
    if (status == QLatin1String("fail") && step.startsWith(QLatin1String("preflight."))) {
        QVERIFY2(!s.contains(QStringLiteral("pull")), "pre-flight stops before anything is downloaded");
    }
    if (scenario == QLatin1String("b300x4") &&
        s.value(QStringLiteral("ready")).value(QLatin1String("status")).toString() == QLatin1String("pass")) {
        // The first start's milestones, as the Ready step saw them: the weights, the shards, the
        // HTTP server up and warming up.
        QStringList said;
        for (const QByteArray &line : deploy.out.split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.value(QLatin1String("progress")).toString() == QLatin1String("ready")) {
                said << o.value(QLatin1String("text")).toString();
            }
        }
        for (const char *milestone : {"Downloading the weights", "Loading the weights into the GPUs: 100 %",
                                      "HTTP server up on http://0.0.0.0:30000; warming up"}) {
            QVERIFY2(!said.filter(QLatin1String(milestone)).isEmpty(), qPrintable(said.join(QLatin1Char('\n'))));
        }
    }
    // Users read words, not our ids: no fact id or "host contract §" in any step of any scenario.
    static const QRegularExpression ids(QStringLiteral(R"(\bF\d\d\b|[Hh]ost contract|§)"));
    for (const QJsonObject &record : s) {
        for (const char *field : {"title", "why", "expected", "seen", "fix"}) {
            const QString said = record.value(QLatin1String(field)).toString();
            QVERIFY2(!ids.match(said).hasMatch(), qPrintable(said));
        }
    }
    if (status == QLatin1String("fail")) { // a failure says what was expected, not ""
        QVERIFY2(!r[QLatin1String("expected")].toString().isEmpty(), QJsonDocument(r).toJson().constData());
    }
}

void TestDeployCli::modelFolder_data()
{
    QTest::addColumn<QString>("layout"); // what the simulated download wrote: hf or modelscope
    QTest::addColumn<QString>("damage");
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("step");
    QTest::addColumn<QString>("status");
    QTest::addColumn<QString>("mentions");

    const QString weights = QStringLiteral("preflight.weights");
    const QStringList modelscope{QStringLiteral("--model-source"), QStringLiteral("modelscope")};
    QTest::newRow("offline folder (F27)") << "hf"
                                          << "" << QStringList{} << 0 << "verify.image"
                                          << "pass"
                                          << "";
    QTest::newRow("offline, a shard cut short (F29)")
        << "hf"
        << "truncate model-00031-of-00048.safetensors" << QStringList{} << 1 << weights << "fail"
        << "model-00031-of-00048.safetensors is truncated";
    QTest::newRow("offline, no dspark/ (F18)") << "hf"
                                               << "remove dspark" << QStringList{} << 1 << weights << "fail"
                                               << "no DSpark draft";
    QTest::newRow("offline, no such folder") << "hf"
                                             << "remove all" << QStringList{} << 1 << weights << "fail"
                                             << "there is no folder there";
    QTest::newRow("modelscope, verified by sha256 (F28)")
        << "modelscope"
        << "" << modelscope + QStringList{QStringLiteral("--verify-checksums")} << 0 << "pin.model"
        << "pass"
        << "match the pinned revision by name, size and sha256";
    QTest::newRow("modelscope, a file of another size") << "modelscope"
                                                        << "grow tokenizer.json" << modelscope << 1 << "pin.model"
                                                        << "fail"
                                                        << "differ in size from the pinned revision: tokenizer.json";
    QTest::newRow("modelscope, same size other bytes")
        << "modelscope"
        << "flip model-00007-of-00048.safetensors" << modelscope + QStringList{QStringLiteral("--verify-checksums")}
        << 1 << "pin.model"
        << "fail"
        << "differ in content (sha256) from the pinned revision: model-00007-of-00048.safetensors";
}

void TestDeployCli::modelFolder()
{
    QFETCH(QString, layout);
    QFETCH(QString, damage);
    QFETCH(QStringList, extra);
    QFETCH(int, exitCode);
    QFETCH(QString, step);
    QFETCH(QString, status);
    QFETCH(QString, mentions);

    // The simulated `hf download` / `modelscope download` of the registry's revision.
    QTemporaryDir models;
    const QString dir = models.filePath(QStringLiteral("MiniMax-M3.1-Flash"));
    QVERIFY(writeModel(dir, layout));
    const QStringList d = damage.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (!d.isEmpty()) {
        const QString file = dir + QLatin1Char('/') + d[1];
        if (d[0] == QLatin1String("truncate")) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadWrite) && f.resize(f.size() / 2));
        } else if (d[0] == QLatin1String("remove")) {
            QVERIFY(QDir(d[1] == QLatin1String("all") ? dir : file).removeRecursively());
        } else if (d[0] == QLatin1String("grow")) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::Append) && f.write("\n") == 1);
        } else if (d[0] == QLatin1String("flip")) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadWrite) && f.seek(f.size() - 1));
            const char c = f.peek(1).at(0);
            QVERIFY(f.write(QByteArray(1, char(c ^ 1))) == 1);
        }
    }

    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    const Run demo =
        run(config.path(),
            {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--time-factor"), QStringLiteral("0.01")});
    QVERIFY2(demo.exitCode == 0, demo.err.constData());
    const Run deploy =
        run(config.path(),
            QStringList{QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
                        QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("60"),
                        QStringLiteral("--json"), QStringLiteral("--model-dir"), dir} +
                extra);
    const Run stop = run(config.path(), {QStringLiteral("demo"), QStringLiteral("stop")});
    QCOMPARE(stop.exitCode, 0);
    QVERIFY2(deploy.exitCode == exitCode, QByteArray(deploy.out + deploy.err).constData());
    const QMap<QString, QJsonObject> s = steps(deploy.out);
    QVERIFY2(s.contains(step), deploy.out.constData());
    const QJsonObject r = s.value(step);
    QVERIFY2(r[QLatin1String("status")].toString() == status, QJsonDocument(r).toJson().constData());
    const QString text = r[QLatin1String("seen")].toString() + QLatin1Char(' ') + r[QLatin1String("fix")].toString();
    QVERIFY2(text.contains(mentions), qPrintable(text));
    if (exitCode == 0) {
        // The server loaded the mounted folder, offline, and found the draft in it (F27, F18).
        const QString launch = s.value(QStringLiteral("launch"))[QLatin1String("command")].toString();
        QVERIFY2(launch.contains(QLatin1String("HF_HUB_OFFLINE=1")), qPrintable(launch));
        QVERIFY2(launch.contains(dir + QStringLiteral(":/models/MiniMax-M3.1-Flash:ro")), qPrintable(launch));
        QVERIFY2(launch.contains(QLatin1String("--model-path /models/MiniMax-M3.1-Flash")), qPrintable(launch));
        QCOMPARE(s.value(QStringLiteral("preflight.weights"))[QLatin1String("status")].toString(),
                 QStringLiteral("pass"));
        QCOMPARE(s.value(QStringLiteral("check.dspark"))[QLatin1String("status")].toString(), QStringLiteral("pass"));
        QCOMPARE(s.value(QStringLiteral("verify.text"))[QLatin1String("status")].toString(), QStringLiteral("pass"));
        if (layout == QLatin1String("hf")) {
            QVERIFY(s.value(QStringLiteral("pin.model"))[QLatin1String("seen")].toString().contains(
                QLatin1String("62cbc27f7e9e74309d8ecea398ffe088b6c4e0aa")));
        }
    } else {
        QVERIFY(!s.contains(QStringLiteral("launch"))); // nothing started on a folder that failed its check
    }
}

void TestDeployCli::pull_retriedLayer_countedOnceNeverBack()
{
    // dockerd retries a broken layer and resumes it, reporting the rest as a smaller total: the
    // bytes never go back, the retry is shown, and no layer is called done before it is.
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    QVERIFY(run(config.path(),
                {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--scenario"),
                 QStringLiteral("pull-retry"), QStringLiteral("--time-factor"), QStringLiteral("0.01")})
                .exitCode == 0);
    const Run deploy = run(config.path(),
                           {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
                            QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("60"),
                            QStringLiteral("--json")});
    run(config.path(), {QStringLiteral("undeploy"), QStringLiteral("demo")});
    QVERIFY2(deploy.exitCode == 0, QByteArray(deploy.out + deploy.err).constData());
    qint64 lastDone = 0;
    bool sawRetrying = false;
    QString lastText;
    int lastPercent = -1;
    bool sawEstimate = false;
    for (const QByteArray &line : deploy.out.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.value(QLatin1String("progress")).toString() != QLatin1String("pull")) {
            continue;
        }
        const qint64 done = o.value(QLatin1String("done")).toInteger();
        QVERIFY2(done >= lastDone, line.constData()); // never back
        QVERIFY(done <= o.value(QLatin1String("total")).toInteger());
        // The percent never goes back either, though the total is an estimate until dockerd has
        // sized every layer (three at a time), and reaches 100 only with every layer there.
        const int percent = o.value(QLatin1String("percent")).toInt(-2);
        QVERIFY2(percent >= lastPercent && percent <= 100, line.constData());
        sawEstimate = sawEstimate || !o.value(QLatin1String("total_known")).toBool(true);
        if (percent == 100) {
            QVERIFY2(o.value(QLatin1String("total_known")).toBool(), line.constData());
        }
        lastPercent = percent;
        lastDone = done;
        lastText = o.value(QLatin1String("text")).toString();
        sawRetrying = sawRetrying || lastText.contains(QLatin1String("retrying 1"));
        // While a layer is being retried, it is not counted among the done ones.
        if (lastText.contains(QLatin1String("retrying"))) {
            QVERIFY2(!lastText.startsWith(lastText.section(QLatin1Char(' '), 2, 2) + QLatin1Char(' ')),
                     qPrintable(lastText));
        }
    }
    QVERIFY2(sawRetrying, deploy.out.constData());
    QVERIFY2(sawEstimate, deploy.out.constData());
    QCOMPARE(lastPercent, 100);
    QVERIFY2(lastText.endsWith(QLatin1String(", 1 retry")), qPrintable(lastText));
    const QString first = lastText.section(QLatin1Char(' '), 0, 0);
    QCOMPARE(first, lastText.section(QLatin1Char(' '), 2, 2)); // "14 of 14 layers, 1 retry"
}

void TestDeployCli::headless_chatAfterDeploy_readsTheKeyFromTheServer()
{
    // A machine without a keyring (an SSH session, a headless server): deploy in one process,
    // chat, load-test and read the status in others. Nothing holds the key between them but the
    // running server's own arguments, which Flashdeck reads over the host's Docker.
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    QVERIFY(runFlashdeck(config.path(),
                         {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--time-factor"),
                          QStringLiteral("0.01")},
                         180000, Session::Headless)
                .exitCode == 0);
    const CliRun deployed =
        runFlashdeck(config.path(),
                     {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
                      QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("60")},
                     180000, Session::Headless);
    QVERIFY2(deployed.exitCode == 0, QByteArray(deployed.out + deployed.err).constData());

    const CliRun chat = runFlashdeck(config.path(),
                                     {QStringLiteral("chat"), QStringLiteral("demo"), QStringLiteral("--prompt"),
                                      QStringLiteral("hi"), QStringLiteral("--max-tokens"), QStringLiteral("400")},
                                     180000, Session::Headless);
    QVERIFY2(chat.exitCode == 0, QByteArray(chat.out + chat.err).constData());
    QVERIFY(!chat.out.trimmed().isEmpty());
    const CliRun load = runFlashdeck(
        config.path(),
        {QStringLiteral("loadtest"), QStringLiteral("demo"), QStringLiteral("--concurrency"), QStringLiteral("2"),
         QStringLiteral("--prompt-tokens"), QStringLiteral("16"), QStringLiteral("--output-tokens"),
         QStringLiteral("16"), QStringLiteral("--duration"), QStringLiteral("2"), QStringLiteral("--json")},
        180000, Session::Headless);
    QVERIFY2(load.exitCode == 0, QByteArray(load.out + load.err).constData());

    // The server died (an OOM kill): no running container to read the key from. Say so.
    QCOMPARE(killDemoServer(config.path()), 0);
    CliRun refused;
    QTRY_VERIFY_WITH_TIMEOUT((refused = runFlashdeck(config.path(),
                                                     {QStringLiteral("chat"), QStringLiteral("demo"),
                                                      QStringLiteral("--prompt"), QStringLiteral("hi")},
                                                     180000, Session::Headless),
                              refused.err.contains("is not running")),
                             30000);
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains("no keyring"), refused.err.constData());
    QVERIFY2(refused.err.contains("SGLANG_API_KEY"), refused.err.constData());
    QVERIFY(undeployDemo(config.path()).exitCode == 0);
}

void TestDeployCli::portTaken_deployOnAnother_everyCommandFollows()
{
    // Port 30000 is taken on the host: the fix offers a free one, a deploy with --port serves
    // there, the manifest records it, and chat, status and the runbook use it without being told.
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    QVERIFY(runFlashdeck(config.path(),
                         {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--scenario"),
                          QStringLiteral("port-taken"), QStringLiteral("--time-factor"), QStringLiteral("0.01")},
                         180000, Session::Headless)
                .exitCode == 0);
    const QStringList deploy = deployDemoJson();
    const CliRun taken = runFlashdeck(config.path(), deploy, 180000, Session::Headless);
    QCOMPARE(taken.exitCode, 1);
    const QJsonObject port = steps(taken.out).value(QStringLiteral("preflight.port"));
    QVERIFY2(port[QLatin1String("fix")].toString().contains(QLatin1String("--port 30001")),
             qPrintable(port[QLatin1String("fix")].toString()));
    QCOMPARE(runFlashdeck(config.path(), deploy + QStringList{QStringLiteral("--port"), QStringLiteral("0")}, 180000,
                          Session::Headless)
                 .exitCode,
             2); // a usage error, said before anything runs

    const CliRun deployed =
        runFlashdeck(config.path(), deploy + QStringList{QStringLiteral("--port"), QStringLiteral("30001")}, 180000,
                     Session::Headless);
    QVERIFY2(deployed.exitCode == 0, QByteArray(deployed.out + deployed.err).constData());
    const flashdeck::AppPaths paths(config.path());
    const flashdeck::Result<flashdeck::recipe::Deployment> d =
        flashdeck::recipe::Deployment::read(paths, QStringLiteral("demo"));
    QVERIFY2(d, qPrintable(d.message()));
    QCOMPARE(d.value().port, quint16(30001));

    const CliRun chat = runFlashdeck(config.path(),
                                     {QStringLiteral("chat"), QStringLiteral("demo"), QStringLiteral("--prompt"),
                                      QStringLiteral("hi"), QStringLiteral("--max-tokens"), QStringLiteral("400")},
                                     180000, Session::Headless);
    QVERIFY2(chat.exitCode == 0, QByteArray(chat.out + chat.err).constData());
    QVERIFY(!chat.out.trimmed().isEmpty());
    const CliRun runbook =
        runFlashdeck(config.path(), {QStringLiteral("runbook"), QStringLiteral("demo")}, 180000, Session::Headless);
    QVERIFY2(runbook.exitCode == 0, runbook.err.constData());
    QVERIFY2(runbook.out.contains("30001"), runbook.out.constData());
    QTRY_VERIFY_WITH_TIMEOUT(
        runFlashdeck(config.path(), {QStringLiteral("status"), QStringLiteral("--json")}, 60000, Session::Headless)
            .out.contains("\"health\":\"ok\""),
        60000);
    QVERIFY(undeployDemo(config.path()).exitCode == 0);
}

void TestDeployCli::rerun_nvidiaSmiListsNoProcess_ownServersMemoryIsItsOwn()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    QString started;
    QVERIFY2(!startDemoHost(config.path(), QStringLiteral("b300x4-no-pids"), &started).isEmpty(), qPrintable(started));
    const Run first = run(config.path(), deployDemoJson());
    const Run again = run(config.path(), deployDemoJson());
    const Run stop = run(config.path(), {QStringLiteral("demo"), QStringLiteral("stop")});
    QCOMPARE(stop.exitCode, 0);
    QVERIFY2(first.exitCode == 0, QByteArray(first.out + first.err).constData());
    // The rerun finds 90 % of every GPU in use and no process named for it: its own server's.
    QVERIFY2(again.exitCode == 0, QByteArray(again.out + again.err).constData());
    const QJsonObject memory = steps(again.out).value(QStringLiteral("preflight.gpumemory"));
    QCOMPARE(memory[QLatin1String("status")].toString(), QStringLiteral("pass"));
    QVERIFY2(memory[QLatin1String("seen")].toString().contains(
                 QLatin1String("the memory in use on GPU 0, 1, 2, 3 is this deployment's own running server's")),
             qPrintable(memory[QLatin1String("seen")].toString()));
}

void TestDeployCli::qmul4_secondStartPrintsNothing_saysWhatTheFirstStartOfThesePinsPrinted()
{
    // Issue 41: the first start prints the qmul4 line and fills the host's kernel cache; the
    // second start of the same image and revision prints nothing. The deployment says what the
    // first one printed, and when: informative (skipped), never a pass, never a guess.
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    QString started;
    QVERIFY2(!startDemoHost(config.path(), QStringLiteral("qmul4-once"), &started).isEmpty(), qPrintable(started));
    const Run first = run(config.path(), deployDemoJson());
    QVERIFY2(first.exitCode == 0, QByteArray(first.out + first.err).constData());
    const QJsonObject firstCheck = steps(first.out).value(QStringLiteral("check.qmul4"));
    QCOMPARE(firstCheck[QLatin1String("status")].toString(), QStringLiteral("pass"));
    const flashdeck::AppPaths paths(config.path());
    const flashdeck::Result<flashdeck::recipe::Deployment> before =
        flashdeck::recipe::Deployment::read(paths, QStringLiteral("demo"));
    QVERIFY2(before, qPrintable(before.message()));
    QCOMPARE(before.value().qmul4Verdicts.size(), 1);
    const flashdeck::recipe::KernelVerdict verdict = before.value().qmul4Verdicts.first();
    QCOMPARE(verdict.backend, QStringLiteral("qmul4"));
    QVERIFY(verdict.of(before.value().imageDigest, before.value().modelSha));
    QVERIFY2(verdict.line.contains(QLatin1String("nvfp4_to_fp8 backend=qmul4")), qPrintable(verdict.line));

    // A new start of the same pins: the container goes, the deployment is run again.
    QCOMPARE(undeployDemo(config.path()).out.trimmed(), oneDemoServerRemoved());
    const Run second = run(config.path(), deployDemoJson());
    const Run runbook = run(config.path(), {QStringLiteral("runbook"), QStringLiteral("demo")});
    undeployDemo(config.path());
    QVERIFY2(second.exitCode == 0, QByteArray(second.out + second.err).constData());
    const QMap<QString, QJsonObject> s = steps(second.out);
    QVERIFY(s.value(QStringLiteral("launch"))[QLatin1String("seen")].toString().contains(QLatin1String("started")));
    const QJsonObject check = s.value(QStringLiteral("check.qmul4"));
    QCOMPARE(check[QLatin1String("status")].toString(), QStringLiteral("skipped"));
    const QString date = QDateTime::fromString(verdict.seenAt, Qt::ISODate).date().toString(Qt::ISODate);
    const QString seen = check[QLatin1String("seen")].toString();
    QVERIFY2(seen.contains(QStringLiteral("qmul4 seen on %1 at the first start of this image and revision").arg(date)),
             qPrintable(seen));
    const QString said = seen + QLatin1Char(' ') + check[QLatin1String("fix")].toString();
    QVERIFY2(!said.contains(QLatin1String("minfer")) && !said.contains(QLatin1String("cache")), qPrintable(said));
    // Kept for the next start, with the first start's date; the runbook says it too.
    const flashdeck::Result<flashdeck::recipe::Deployment> after =
        flashdeck::recipe::Deployment::read(paths, QStringLiteral("demo"));
    QVERIFY2(after, qPrintable(after.message()));
    QCOMPARE(after.value().qmul4Verdicts, before.value().qmul4Verdicts);
    QVERIFY2(runbook.exitCode == 0, runbook.err.constData());
    QVERIFY2(runbook.out.contains(
                 QStringLiteral("qmul4 seen on %1 at the first start of this image and revision").arg(date).toUtf8()),
             runbook.out.constData());
    QVERIFY2(!runbook.out.contains("clear ~/.cache/minfer"), runbook.out.constData());
}

void TestDeployCli::rerun_reusesAndLeaksNothing_undeployCleansUp()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    QVERIFY(
        run(config.path(),
            {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--time-factor"), QStringLiteral("0.01")})
            .exitCode == 0);
    const QStringList deployArgs = deployDemoJson();
    const Run first = run(config.path(), deployArgs);
    // F40: the acknowledgement names who, when, the host and the exact text shown (its hash);
    // a changed text is no acknowledgement at all.
    const Run license =
        run(config.path(), {QStringLiteral("license"), QStringLiteral("demo"), QStringLiteral("--json")});
    QString ackPath;
    for (QDirIterator files(config.path(), {QStringLiteral("acknowledgements.json")}, QDir::Files,
                            QDirIterator::Subdirectories);
         files.hasNext();) {
        ackPath = files.next();
    }
    QVERIFY(!ackPath.isEmpty());
    {
        QFile f(ackPath);
        QVERIFY(f.open(QIODevice::ReadWrite));
        const QByteArray hash =
            QJsonDocument::fromJson(license.out).object()[QLatin1String("summary_sha256")].toString().toLatin1();
        QByteArray text = f.readAll();
        QVERIFY(text.contains(hash));
        text.replace(hash, QByteArray(64, '0')); // as if the summary shown had been another
        QVERIFY(f.resize(0) && f.write(text) > 0);
    }
    const Run changed =
        run(config.path(), {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--json")});
    const Run licenseChanged = run(config.path(), {QStringLiteral("license"), QStringLiteral("demo")});
    Run again = run(config.path(), deployArgs + QStringList{QStringLiteral("--resume")});
    // undeploy removes Flashdeck's own container, and only that; a second time there is nothing.
    const Run undeploy = undeployDemo(config.path());
    const Run undeployAgain = undeployDemo(config.path());
    // Undeployed, the image runs nowhere: prune may take it (it kept it "because the deployment runs it").
    const Run prune =
        run(config.path(),
            {QStringLiteral("prune"), QStringLiteral("demo"), QStringLiteral("--dry-run"), QStringLiteral("--json")});
    const Run stop = run(config.path(), {QStringLiteral("demo"), QStringLiteral("stop")});
    QCOMPARE(undeploy.exitCode, 0);
    QVERIFY2(prune.exitCode == 0, prune.err.constData());
    {
        const QJsonObject pruned = QJsonDocument::fromJson(prune.out).object();
        QCOMPARE(pruned[QLatin1String("removed")].toArray().size(), 1);
        QVERIFY2(pruned[QLatin1String("kept")].toArray().isEmpty(), prune.out.constData());
        // The manifest says when: every window and command reading it follows.
        QString manifest;
        for (QDirIterator files(config.path(), {QStringLiteral("manifest.json")}, QDir::Files,
                                QDirIterator::Subdirectories);
             files.hasNext();) {
            const QString path = files.next();
            manifest = path.endsWith(QLatin1String("/deployments/demo/manifest.json")) ? path : manifest;
        }
        QFile f(manifest);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(manifest));
        const QString when = QJsonDocument::fromJson(f.readAll()).object()[QLatin1String("undeployed")].toString();
        QVERIFY2(QDateTime::fromString(when, Qt::ISODate).isValid(), qPrintable(when));
    }
    QCOMPARE(undeploy.out.trimmed(), oneDemoServerRemoved());
    QCOMPARE(undeployAgain.out.trimmed(), QByteArray(R"({"host":"demo","ok":true,"removed":[]})"));
    QCOMPARE(first.exitCode, 0);
    QCOMPARE(again.exitCode, 0);
    QCOMPARE(stop.exitCode, 0);
    QVERIFY2(license.exitCode == 0, license.err.constData());
    const QJsonObject ack = QJsonDocument::fromJson(license.out).object()[QLatin1String("acknowledgement")].toObject();
    QCOMPARE(ack[QLatin1String("use")].toString(), QStringLiteral("noncommercial"));
    QCOMPARE(ack[QLatin1String("via")].toString(), QStringLiteral("cli"));
    QVERIFY(!ack[QLatin1String("user")].toString().isEmpty());
    QVERIFY(QDateTime::fromString(ack[QLatin1String("at")].toString(), Qt::ISODate).isValid());
    const QJsonObject firstLicense = steps(first.out).value(QStringLiteral("license"));
    QVERIFY2(firstLicense[QLatin1String("seen")].toString().contains(
                 QLatin1String("summary sha256 ") +
                 QJsonDocument::fromJson(license.out).object()[QLatin1String("summary_sha256")].toString()),
             qPrintable(firstLicense[QLatin1String("seen")].toString()));
    QCOMPARE(changed.exitCode, 1);
    QCOMPARE(steps(changed.out).value(QStringLiteral("license"))[QLatin1String("status")].toString(),
             QStringLiteral("fail"));
    QCOMPARE(licenseChanged.exitCode, 1);
    QVERIFY(licenseChanged.out.contains("demo: no acknowledgement of this text yet."));
    const QMap<QString, QJsonObject> s = steps(again.out);
    QVERIFY(
        s.value(QStringLiteral("pull"))[QLatin1String("seen")].toString().contains(QLatin1String("not pulled again")));
    QVERIFY(s.value(QStringLiteral("launch"))[QLatin1String("seen")].toString().contains(
        QLatin1String("not started again")));
    QCOMPARE(s.value(QStringLiteral("verify.text"))[QLatin1String("status")].toString(), QStringLiteral("pass"));

    // No API key (sk-fd-…) in the output, the journal, the manifest or the log.
    QVERIFY(!first.out.contains("sk-fd-"));
    QVERIFY(!again.out.contains("sk-fd-"));
    QDirIterator it(config.path(), QDir::Files, QDirIterator::Subdirectories);
    int checked = 0;
    while (it.hasNext()) {
        const QString path = it.next();
        if (path.contains(QLatin1String("/data/demo/"))) {
            continue; // the simulated host's own files (its sshd, keys and containers' state)
        }
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(!f.readAll().contains("sk-fd-"), qPrintable(path));
        ++checked;
    }
    QVERIFY(checked >= 3); // journal, manifest, licence acknowledgement (and the log)
}

void TestDeployCli::runbook_reproducesTheDeploymentOverOpenSsh_data()
{
    QTest::addColumn<bool>("offline");
    QTest::addColumn<QStringList>("choice"); // deploy's --image / --gpus
    QTest::addColumn<QByteArrayList>("scriptHas");
    QTest::newRow("from the Hub") << false << QStringList{} << QByteArrayList{"device=0,1,2,3"};
    QTest::newRow("from an offline folder (F27)") << true << QStringList{} << QByteArrayList{};
    // What the operator chose is what the runbook runs: other GPUs, another image.
    QTest::newRow("GPUs and image chosen")
        << false
        << QStringList{QStringLiteral("--gpus"), QStringLiteral("3,2,1,0"), QStringLiteral("--image"),
                       QStringLiteral("lmsysorg/sglang:dev-minimax-m31-flash-cu130")}
        << QByteArrayList{"device=3,2,1,0", "lmsysorg/sglang:dev-minimax-m31-flash-cu130@sha256:"};
}

void TestDeployCli::runbook_reproducesTheDeploymentOverOpenSsh()
{
    QFETCH(bool, offline);
    QFETCH(QStringList, choice);
    QFETCH(QByteArrayList, scriptHas);
    QTemporaryDir models;
    QStringList extra = choice;
    if (offline) {
        const QString dir = models.filePath(QStringLiteral("weights"));
        QVERIFY(writeModel(dir, QStringLiteral("hf")));
        extra << QStringLiteral("--model-dir") << dir;
    }
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    const Run demo = run(config.path(),
                         {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--time-factor"),
                          QStringLiteral("0.01"), QStringLiteral("--json")});
    QCOMPARE(demo.exitCode, 0);
    const QJsonObject host =
        QJsonDocument::fromJson(demo.out).object()[QLatin1String("hosts")].toArray().first().toObject();
    const Run deploy =
        run(config.path(),
            QStringList{QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
                        QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("60")} +
                extra);
    const QString script = config.filePath(QStringLiteral("runbook.sh"));
    const Run runbook =
        run(config.path(), {QStringLiteral("runbook"), QStringLiteral("demo"), QStringLiteral("--output"), script});
    const Run undeploy = run(config.path(), {QStringLiteral("undeploy"), QStringLiteral("demo")});

    // Checked as a shell script, then run by OpenSSH on the host with the key on stdin only.
    QProcess syntax;
    syntax.start(QStringLiteral("sh"), {QStringLiteral("-n"), script});
    syntax.waitForFinished();
    QProcess lint;
    lint.start(QStringLiteral("shellcheck"), {script});
    lint.waitForFinished();
    QFile file(script);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    const QByteArray key = "sk-fd-runbook-test-key-0123456789abcdefghijklmnopq";
    QProcess ssh;
    ssh.start(QStringLiteral("ssh"),
              {QStringLiteral("-F"), QStringLiteral("/dev/null"), QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
               QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=yes"), QStringLiteral("-o"),
               QStringLiteral("UserKnownHostsFile=") + host[QLatin1String("known_hosts_file")].toString(),
               QStringLiteral("-i"), host[QLatin1String("identity_file")].toString(), QStringLiteral("-p"),
               QString::number(host[QLatin1String("port")].toInt()),
               host[QLatin1String("user")].toString() + QStringLiteral("@127.0.0.1"), QStringLiteral("sh -s")});
    ssh.write("FLASHDECK_API_KEY=" + key + "; export FLASHDECK_API_KEY\n" + text);
    ssh.closeWriteChannel();
    const bool finished = ssh.waitForFinished(180000);
    const QByteArray out = ssh.readAllStandardOutput() + ssh.readAllStandardError();
    const Run stop = run(config.path(), {QStringLiteral("demo"), QStringLiteral("stop")});

    QCOMPARE(deploy.exitCode, 0);
    QVERIFY2(runbook.exitCode == 0, runbook.err.constData());
    QCOMPARE(undeploy.exitCode, 0);
    QCOMPARE(syntax.exitCode(), 0);
    QVERIFY2(lint.exitCode() == 0, lint.readAllStandardOutput().constData());
    QVERIFY(!text.contains("sk-fd-")); // the key is never in the script
    QVERIFY(text.contains("--api-key \"$FLASHDECK_API_KEY\""));
    for (const QByteArray &has : scriptHas) {
        QVERIFY2(text.contains(has), has.constData());
    }
    QVERIFY(finished);
    QVERIFY2(ssh.exitCode() == 0, out.constData());
    // The image it chose: the cu130 build falls back (its CUDA Toolkit is 13.0).
    QVERIFY(out.contains(choice.isEmpty() ? "nvfp4_to_fp8 backend=qmul4" : "nvfp4_to_fp8 backend=fp16_fallback"));
    QVERIFY(out.contains("Deployed: lmsysorg/sglang@sha256:"));
    if (offline) {
        QVERIFY2(text.contains("HF_HUB_OFFLINE=1") && text.contains("MODEL_DIR="), text.constData());
        QVERIFY2(out.contains("holds revision 62cbc27f7e9e74309d8ecea398ffe088b6c4e0aa"), out.constData());
    }
    QCOMPARE(stop.exitCode, 0);
}

void TestDeployCli::interruptedPull_resumesWithoutStartingOver()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    // A slow link, so the pull is still running when the connection goes; the rest of the
    // host at the tests' pace (the whole host slowed down took 44 s).
    const Run demo =
        run(config.path(),
            {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--scenario"), QStringLiteral("slow-link"),
             QStringLiteral("--time-factor"), QStringLiteral("0.01"), QStringLiteral("--json")});
    QCOMPARE(demo.exitCode, 0);
    const qint64 sshd = QJsonDocument::fromJson(demo.out)
                            .object()[QLatin1String("hosts")]
                            .toArray()
                            .first()
                            .toObject()[QLatin1String("sshd_pid")]
                            .toInteger();
    const QStringList deployArgs{QStringLiteral("deploy"),
                                 QStringLiteral("demo"),
                                 QStringLiteral("--accept-license"),
                                 QStringLiteral("noncommercial"),
                                 QStringLiteral("--ready-timeout"),
                                 QStringLiteral("120"),
                                 QStringLiteral("--json"),
                                 QStringLiteral("--config-dir"),
                                 config.path()};
    QProcess deploy;
    deploy.start(flashdeck::test::flashdeckBinary(), deployArgs);
    // Wait for the first unpacked layers, then drop the SSH connection (the session processes of
    // the host's sshd; the listener stays, as after a network cut).
    QByteArray out;
    int layersDone = 0;
    while (layersDone < 3) {
        QVERIFY2(deploy.waitForReadyRead(60000), out.constData());
        out += deploy.readAllStandardOutput();
        for (const QByteArray &line : out.split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.contains(QLatin1String("progress"))) {
                layersDone =
                    std::max(layersDone, o[QLatin1String("text")].toString().section(QLatin1Char(' '), 0, 0).toInt());
            }
        }
    }
    for (const qint64 pid : flashdeck::processDescendants(sshd)) {
        ::kill(pid_t(pid), SIGKILL);
    }
    QVERIFY(deploy.waitForFinished(60000));
    out += deploy.readAllStandardOutput();
    const Run resumed = resumeDemoDeploy(config.path());
    const Run undeploy = undeployDemo(config.path());
    run(config.path(), {QStringLiteral("demo"), QStringLiteral("stop")});

    QCOMPARE(deploy.exitCode(), 1);
    const QJsonObject cut = steps(out).value(QStringLiteral("pull"));
    QCOMPARE(cut[QLatin1String("status")].toString(), QStringLiteral("fail"));
    QVERIFY2(cut[QLatin1String("seen")].toString().contains(QLatin1String("cut off")),
             qPrintable(cut[QLatin1String("seen")].toString()));
    QVERIFY2(resumed.exitCode == 0, resumed.out.constData());
    const QString pulled = steps(resumed.out).value(QStringLiteral("pull"))[QLatin1String("seen")].toString();
    const int already = pulled.section(QLatin1Char('('), 1).section(QLatin1Char(' '), 0, 0).toInt();
    QVERIFY2(already >= 3, qPrintable(pulled)); // what was unpacked before the cut was not fetched again
    QVERIFY(!steps(out).contains(QStringLiteral("launch")));
    QCOMPARE(undeploy.out.trimmed(),
             oneDemoServerRemoved()); // one container
}

void TestDeployCli::ctrlC_saysWhatIsLeft_andResumeFinishes()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    // A long first start (weights and kernels 8 × slower), so Ready still waits when Ctrl+C
    // comes; the pull and the rest at the tests' pace (the whole host slowed down took 41 s).
    const Run demo = run(config.path(),
                         {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--scenario"),
                          QStringLiteral("slow-start"), QStringLiteral("--time-factor"), QStringLiteral("0.03")});
    QCOMPARE(demo.exitCode, 0);
    QProcess deploy;
    deploy.start(flashdeck::test::flashdeckBinary(),
                 {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
                  QStringLiteral("noncommercial"), QStringLiteral("--json"), QStringLiteral("--config-dir"),
                  config.path()});
    // Ctrl+C once the server container is started and the runner waits for it to be ready.
    QByteArray out;
    while (!steps(out).contains(QStringLiteral("ready"))) {
        QVERIFY2(deploy.waitForReadyRead(120000), out.constData());
        out += deploy.readAllStandardOutput();
    }
    ::kill(pid_t(deploy.processId()), SIGINT);
    QVERIFY(deploy.waitForFinished(60000));
    out += deploy.readAllStandardOutput();
    const Run resumed =
        run(config.path(),
            {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--resume"), QStringLiteral("--json")});
    const Run undeploy = undeployDemo(config.path());
    run(config.path(), {QStringLiteral("demo"), QStringLiteral("stop")});

    QCOMPARE(deploy.exitStatus(), QProcess::NormalExit);
    QCOMPARE(deploy.exitCode(), 1);
    const QJsonObject cancelled = steps(out).value(QStringLiteral("ready"));
    QCOMPARE(cancelled[QLatin1String("status")].toString(), QStringLiteral("fail"));
    const QString seen = cancelled[QLatin1String("seen")].toString();
    QVERIFY2(seen.contains(QLatin1String("cancelled by the operator")), qPrintable(seen));
    QVERIFY2(seen.contains(QLatin1String("container flashdeck-demo-b300x4-balanced-0 (running)")), qPrintable(seen));
    QVERIFY(!seen.contains(QLatin1String("gpucheck"))); // the throwaway check container is gone
    QVERIFY(cancelled[QLatin1String("fix")].toString().contains(QLatin1String("--resume")));
    QVERIFY2(resumed.exitCode == 0, resumed.out.constData());
    QVERIFY(steps(resumed.out)
                .value(QStringLiteral("launch"))[QLatin1String("seen")]
                .toString()
                .contains(QLatin1String("already running (not started again)")));
    QCOMPARE(undeploy.out.trimmed(), oneDemoServerRemoved());
}

FLASHDECK_TEST_SHARDED_MAIN(TestDeployCli)
#include "tst_deploycli.moc"
