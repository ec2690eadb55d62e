#include "fakehostdata.h"
#include "fakehttpserver.h"
#include "faketransport.h"

#include "backend/deploy/deployplan.h"
#include "backend/deploy/deployrunner.h"
#include "backend/deploy/journal.h"
#include "backend/recipe/recipe.h"
#include "backend/security/redactor.h"

#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck;
using flashdeck::testing::fakeHostData;
using flashdeck::testing::FakeHttpServer;
using flashdeck::testing::FakeTransport;

namespace {

/** How the host differs from a healthy 4 × B300 server with Docker and the NVIDIA runtime. */
enum class Host {
    Healthy,
    AmdGpusOnly, // an MI355X host given an NVIDIA profile
    NoGpuTool,
    DockerMissing, // dial-stdio cannot start: the tunnel does not open
    DockerDown, // the tunnel opens, nothing answers behind it; dial-stdio says why
    NoNvidiaRuntime,
    DiskSmall,
    PortTaken,
    PortOurs, // taken by this deployment's own running server
    LowMemory,
    AmdBusy, // an MI355X host another tenant's job (pid 52113) holds half of
    AmdRocmSmiOnly, // an MI355X host without amd-smi, the same job on it (rocm-smi --showpids)
};

} // namespace

Q_DECLARE_METATYPE(Host)
Q_DECLARE_METATYPE(flashdeck::recipe::StepStatus)

/**
 * The deploy runner's steps over a scripted host (no SSH, no simulator: milliseconds): for each
 * preflight step and the licence, a pass, a failure and, where the profile or the options make
 * it moot, a skip, with the words the operator reads. The steps after them (pin, pull, launch,
 * verify) need a Docker Engine and a server that act over time, and stay tested end to end
 * against the simulated host (tst_deploycli, tst_simscenarios).
 */
class TestRunnerSteps : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void step_data();
    void step();
    void commandsRunOncePerStep();
    void plan_stepsAreWhole();
    void records_carryThePlansTitleAndAWhy();

private:
    struct Outcome
    {
        QHash<QString, recipe::StepRecord> last;
        QList<recipe::StepRecord> all; // every record, in the order they came
        QStringList order;
        bool ok = false;
        QList<QByteArray> commands;
    };
    Outcome runPlan(Host host, const QString &profileId, deploy::DeployOptions options);
    std::optional<recipe::Recipe> m_recipe;
};

void TestRunnerSteps::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    auto recipes = recipe::Recipe::builtIn();
    QVERIFY2(recipes, qPrintable(recipes.message()));
    m_recipe = recipes.value().first();
}

TestRunnerSteps::Outcome TestRunnerSteps::runPlan(Host host, const QString &profileId, deploy::DeployOptions options)
{
    Outcome outcome;
    const recipe::RecipeProfile *profile = m_recipe->profile(profileId);
    if (profile == nullptr) {
        qFatal("no profile %s", qPrintable(profileId));
    }
    FakeTransport fake;
    FakeHttpServer dockerd;
    FakeTransport::Answer smi;
    smi.out = fakeHostData("nvidia-smi-q-x-b300x4.xml");
    if (host != Host::AmdGpusOnly && host != Host::NoGpuTool) {
        fake.answer("nvidia-smi -q -x", smi);
        fake.answer("nvidia-smi -L",
                    FakeTransport::Answer{fakeHostData("nvidia-smi-L-b300x4.txt"), {}, 0, {}, {}, false});
    }
    const bool busy = host == Host::AmdBusy || host == Host::AmdRocmSmiOnly;
    if (host == Host::AmdRocmSmiOnly) { // amd-smi: command not found (nothing scripted for it)
        fake.answer("rocm-smi --showproductname --json",
                    FakeTransport::Answer{fakeHostData("rocm-smi-names-mi355x-x8.json"), {}, 0, {}, {}, false});
        fake.answer("rocm-smi --showmeminfo vram --showpids --json",
                    FakeTransport::Answer{fakeHostData("rocm-smi-pids-mi355x-busy.json"), {}, 0, {}, {}, false});
    } else if (host == Host::AmdGpusOnly || profile->vendor == probe::GpuVendor::Amd) {
        fake.answer("amd-smi static --asic --json",
                    FakeTransport::Answer{fakeHostData("amd-smi-static-mi355x-x8.json"), {}, 0, {}, {}, false});
        fake.answer("amd-smi metric --json",
                    FakeTransport::Answer{
                        fakeHostData(busy ? "amd-smi-metric-mi355x-busy.json" : "amd-smi-metric-mi355x-x8.json"),
                        {},
                        0,
                        {},
                        {},
                        false});
        fake.answer("amd-smi process --json",
                    FakeTransport::Answer{
                        fakeHostData(busy ? "amd-smi-process-mi355x-busy.json" : "amd-smi-process-mi355x-x8.json"),
                        {},
                        0,
                        {},
                        {},
                        false});
    }
    const QByteArray avail = host == Host::DiskSmall ? "21474836480" : "3840000000000";
    fake.answer("df -B1",
                FakeTransport::Answer{"/root\n        Avail Mounted on\n" + avail + " /\n", {}, 0, {}, {}, false});
    fake.answer("ss -Hltn",
                FakeTransport::Answer{host == Host::PortTaken || host == Host::PortOurs
                                          ? QByteArray("LISTEN 0      4096         127.0.0.1:30000      0.0.0.0:*\n")
                                          : QByteArray(),
                                      {},
                                      0,
                                      {},
                                      {},
                                      false});
    fake.answer("cat /proc/meminfo",
                FakeTransport::Answer{host == Host::LowMemory
                                          ? "MemTotal:       65536000 kB\nMemAvailable:   60000000 kB\n"
                                          : "MemTotal:     2113929216 kB\nMemAvailable: 2000000000 kB\n",
                                      {},
                                      0,
                                      {},
                                      {},
                                      false});
    fake.answer("ps -eo", FakeTransport::Answer{"1 0\n", {}, 0, {}, {}, false});
    if (host == Host::DockerDown) {
        // A port where nothing listens: the tunnel "opens" and the first request finds it closed.
        fake.route("docker system dial-stdio", [] {
            QTcpServer probe;
            probe.listen(QHostAddress::LocalHost, 0);
            return probe.serverPort(); // closed again when this returns
        }());
        fake.answer("docker system dial-stdio </dev/null",
                    FakeTransport::Answer{{},
                                          "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the "
                                          "docker daemon running?\n",
                                          1,
                                          {},
                                          {},
                                          false});
    } else if (host == Host::DockerMissing) {
        fake.refuse("docker system dial-stdio", QStringLiteral("docker: command not found"));
    } else {
        fake.route("docker system dial-stdio", dockerd.port());
    }
    dockerd.actAsDockerd();
    FakeHttpServer::Response info;
    info.body = host == Host::NoNvidiaRuntime ? R"({"ServerVersion":"27.5.1","Runtimes":{"runc":{}}})"
                                              : R"({"ServerVersion":"27.5.1","Runtimes":{"nvidia":{},"runc":{}}})";
    dockerd.on("GET", "/info", info);
    FakeHttpServer::Response none;
    none.body = "[]";
    dockerd.on("GET", "/containers/json", none);
    if (host == Host::PortOurs) {
        FakeHttpServer::Response ours;
        ours.body = R"([{"Id":"c0ffee","Names":["/flashdeck-fake-b300x4-balanced-0"],"State":"running",)"
                    R"("Labels":{"io.flashdeck.deployment":"fake-b300x4-balanced"}}])";
        dockerd.on("GET", "/containers/json?filters=", [ours, none](const FakeHttpServer::Request &r) {
            return r.target.contains("running") ? ours : none;
        });
    }

    QTemporaryDir dir;
    security::Redactor redactor;
    deploy::Journal journal(dir.filePath(QStringLiteral("journal.jsonl")), redactor);
    options.deploymentId = QStringLiteral("fake-") + profileId;
    deploy::DeployRunner runner(fake, *m_recipe, *profile, options, journal, redactor);
    connect(&runner, &deploy::DeployRunner::stepChanged, this, [&outcome](const recipe::StepRecord &r) {
        if (!outcome.last.contains(r.step)) {
            outcome.order.append(r.step);
        }
        outcome.last.insert(r.step, r);
        outcome.all.append(r);
    });
    QSignalSpy finished(&runner, &deploy::DeployRunner::finished);
    runner.start();
    // The plan stops at its first failure; pin.image, with no registry behind the fake, is the latest.
    if (!finished.wait(20000)) {
        qWarning("the plan did not finish");
    } else {
        outcome.ok = finished.first().first().toBool();
    }
    outcome.commands = fake.commands();
    return outcome;
}

void TestRunnerSteps::step_data()
{
    QTest::addColumn<Host>("host");
    QTest::addColumn<QString>("profile");
    QTest::addColumn<int>("hicache");
    QTest::addColumn<QString>("license");
    QTest::addColumn<QString>("step");
    QTest::addColumn<recipe::StepStatus>("status");
    QTest::addColumn<QString>("seen"); // a part of what the operator reads
    QTest::addColumn<QString>("fix");

    const QString b300 = QStringLiteral("b300x4-balanced");
    const QString mi = QStringLiteral("mi355x-x8-two-tp4-router");
    const QString nc = QStringLiteral("noncommercial");
    QTest::newRow("ssh passes") << Host::Healthy << b300 << 0 << nc << "preflight.ssh" << recipe::StepStatus::Pass
                                << "connected"
                                << "";
    QTest::newRow("gpus pass") << Host::Healthy << b300 << 0 << nc << "preflight.gpus" << recipe::StepStatus::Pass
                               << "B300"
                               << "";
    QTest::newRow("gpus: an AMD host for an NVIDIA profile")
        << Host::AmdGpusOnly << b300 << 0 << nc << "preflight.gpus" << recipe::StepStatus::Fail
        << "the profile needs 4 × B300; the host has 8 × AMD Instinct MI355X"
        << "Choose a profile for this host's GPUs: mi355x";
    QTest::newRow("gpus pass on ROCm, by name")
        << Host::Healthy << mi << 0 << nc << "preflight.gpus" << recipe::StepStatus::Pass << "8 × AMD Instinct MI355X"
        << "";
    QTest::newRow("gpus: no GPU tool at all")
        << Host::NoGpuTool << b300 << 0 << nc << "preflight.gpus" << recipe::StepStatus::Fail << "command not found"
        << "Install the NVIDIA driver on the host";
    QTest::newRow("driver passes") << Host::Healthy << b300 << 0 << nc << "preflight.driver" << recipe::StepStatus::Pass
                                   << "595"
                                   << "";
    QTest::newRow("driver: skipped on ROCm")
        << Host::Healthy << mi << 0 << nc << "preflight.driver" << recipe::StepStatus::Skipped << "ROCm host"
        << "";
    QTest::newRow("docker passes, with the nvidia runtime")
        << Host::Healthy << b300 << 0 << nc << "preflight.docker" << recipe::StepStatus::Pass
        << "Docker 27.5.1, API 1.47, nvidia runtime"
        << "";
    QTest::newRow("docker: no nvidia runtime")
        << Host::NoNvidiaRuntime << b300 << 0 << nc << "preflight.docker" << recipe::StepStatus::Fail << "Docker 27.5.1"
        << "Install the NVIDIA Container Toolkit";
    QTest::newRow("docker: dial-stdio cannot start") << Host::DockerMissing << b300 << 0 << nc << "preflight.docker"
                                                     << recipe::StepStatus::Fail << "docker: command not found"
                                                     << "Install Docker Engine on the host";
    QTest::newRow("docker: the daemon is down, in dial-stdio's words")
        << Host::DockerDown << b300 << 0 << nc << "preflight.docker" << recipe::StepStatus::Fail
        << "Cannot connect to the Docker daemon"
        << "daemon is not running";
    QTest::newRow("gpu memory passes (idle GPUs)") << Host::Healthy << b300 << 0 << nc << "preflight.gpumemory"
                                                   << recipe::StepStatus::Pass << "the server takes free"
                                                   << "";
    QTest::newRow("gpu memory passes on ROCm (idle GPUs)") << Host::Healthy << mi << 0 << nc << "preflight.gpumemory"
                                                           << recipe::StepStatus::Pass << "the server takes free"
                                                           << "";
    QTest::newRow("gpu memory: another job on the ROCm GPUs, named (amd-smi process)")
        << Host::AmdBusy << mi << 0 << nc << "preflight.gpumemory" << recipe::StepStatus::Fail
        << "pid 52113 (python3) holds"
        << "The other processes are not Flashdeck's";
    QTest::newRow("gpu memory: another job on the ROCm GPUs, named (rocm-smi --showpids)")
        << Host::AmdRocmSmiOnly << mi << 0 << nc << "preflight.gpumemory" << recipe::StepStatus::Fail
        << "pid 52113 (python3) holds 1151.9 GiB on GPUs rocm-smi does not name (8 of them)"
        << "The other processes are not Flashdeck's";
    QTest::newRow("disk passes") << Host::Healthy << b300 << 0 << nc << "preflight.disk" << recipe::StepStatus::Pass
                                 << "3840.0 GB free on /"
                                 << "";
    QTest::newRow("disk: 21.5 GB free") << Host::DiskSmall << b300 << 0 << nc << "preflight.disk"
                                        << recipe::StepStatus::Fail << "21.5 GB free on /"
                                        << "or point the Hugging Face cache";
    QTest::newRow("port passes") << Host::Healthy << b300 << 0 << nc << "preflight.port" << recipe::StepStatus::Pass
                                 << "all free"
                                 << "";
    QTest::newRow("port: taken by another program")
        << Host::PortTaken << b300 << 0 << nc << "preflight.port" << recipe::StepStatus::Fail << "in use: 30000"
        << "--port 30001";
    QTest::newRow("port: held by this deployment's own server")
        << Host::PortOurs << b300 << 0 << nc << "preflight.port" << recipe::StepStatus::Pass
        << "in use by this deployment's running server"
        << "";
    QTest::newRow("memory: skipped without HiCache")
        << Host::Healthy << b300 << 0 << nc << "preflight.memory" << recipe::StepStatus::Skipped << "HiCache is off"
        << "";
    QTest::newRow("memory passes with HiCache")
        << Host::Healthy << b300 << 64 << nc << "preflight.memory" << recipe::StepStatus::Pass << "2048.0 GB available"
        << "";
    QTest::newRow("memory: too little for HiCache")
        << Host::LowMemory << b300 << 64 << nc << "preflight.memory" << recipe::StepStatus::Fail << "61.4 GB available"
        << "Lower --hicache-size";
    QTest::newRow("weights: skipped from the Hub")
        << Host::Healthy << b300 << 0 << nc << "preflight.weights" << recipe::StepStatus::Skipped
        << "from the Hub at the pinned revision"
        << "";
    QTest::newRow("licence passes") << Host::Healthy << b300 << 0 << nc << "license" << recipe::StepStatus::Pass
                                    << "acknowledged for noncommercial use"
                                    << "";
    QTest::newRow("licence: not acknowledged") << Host::Healthy << b300 << 0 << ""
                                               << "license" << recipe::StepStatus::Fail << "no acknowledgement"
                                               << "--accept-license";
}

void TestRunnerSteps::step()
{
    QFETCH(Host, host);
    QFETCH(QString, profile);
    QFETCH(int, hicache);
    QFETCH(QString, license);
    QFETCH(QString, step);
    QFETCH(recipe::StepStatus, status);
    QFETCH(QString, seen);
    QFETCH(QString, fix);

    deploy::DeployOptions options;
    options.licenseAcknowledged = license;
    options.hicacheGbPerRank = hicache;
    const Outcome o = runPlan(host, profile, options);
    QVERIFY2(o.last.contains(step),
             qPrintable(QStringLiteral("never reached; the plan went: %1").arg(o.order.join(QStringLiteral(", ")))));
    const recipe::StepRecord r = o.last.value(step);
    const QByteArray said =
        QStringLiteral("%1 — seen: %2 — fix: %3").arg(recipe::stepStatusName(r.status), r.seen, r.fix).toUtf8();
    QVERIFY2(r.status == status, said.constData());
    QVERIFY2(r.seen.contains(seen), said.constData());
    QVERIFY2(r.fix.contains(fix), said.constData());
    if (status != recipe::StepStatus::Fail) {
        QVERIFY2(r.fix.isEmpty(), said.constData()); // nothing to do about a step that passed
    } else {
        QVERIFY(!o.ok);
        QCOMPARE(o.order.last(), step); // a failure stops the plan there
        QVERIFY2(!r.fix.isEmpty(), "a failure says what to do");
    }
}

void TestRunnerSteps::commandsRunOncePerStep()
{
    // The whole preflight on a healthy host, then pin.image finds no registry behind the fake.
    deploy::DeployOptions options;
    options.licenseAcknowledged = QStringLiteral("noncommercial");
    const Outcome o = runPlan(Host::Healthy, QStringLiteral("b300x4-balanced"), options);
    QCOMPARE(o.order.mid(0, 11), deploy::DeployPlan::ids().mid(0, 11));
    QCOMPARE(o.last.value(QStringLiteral("pin.image")).status, recipe::StepStatus::Fail);
    QCOMPARE(o.commands.count("ss -Hltn"), 1);
    QCOMPARE(o.commands.count("cat /proc/meminfo"), 0); // HiCache is off: not asked
}

void TestRunnerSteps::plan_stepsAreWhole()
{
    // The plan's step objects: one id each, and a phase and a title to show before anything ran.
    QSet<QString> seen;
    for (const deploy::PlanStep &step : deploy::DeployPlan::steps()) {
        QVERIFY2(!seen.contains(step.stepId()), step.id);
        seen.insert(step.stepId());
        QVERIFY2(!step.titleText().isEmpty() && !step.groupText().isEmpty(), step.id);
        QVERIFY(step.run);
        QCOMPARE(deploy::DeployPlan::find(step.stepId()), &step);
        QCOMPARE(deploy::DeployPlan::title(step.stepId(), QStringLiteral("other")), step.titleText());
    }
    QCOMPARE(deploy::DeployPlan::ids().size(), deploy::DeployPlan::steps().size());
    QCOMPARE(deploy::DeployPlan::find(u"upgrade.drain"), nullptr); // a newer plan's step
    QCOMPARE(deploy::DeployPlan::title(QStringLiteral("upgrade.drain"), QStringLiteral("Drain")),
             QStringLiteral("Drain"));
}

void TestRunnerSteps::records_carryThePlansTitleAndAWhy()
{
    // Every record, running and ended, skipped or not, has its step's one title (the journal's
    // and the CLI's are the window's) and says why the step is there.
    deploy::DeployOptions options;
    options.licenseAcknowledged = QStringLiteral("noncommercial");
    options.hicacheGbPerRank = 8; // preflight.memory runs
    const QList<recipe::StepRecord> records = runPlan(Host::Healthy, QStringLiteral("b300x4-balanced"), options).all;
    QVERIFY(records.size() >= 20); // preflight, licence and pin.image, each running then ended
    for (const recipe::StepRecord &r : records) {
        const QByteArray what = (r.step + QLatin1Char(' ') + recipe::stepStatusName(r.status)).toUtf8();
        QVERIFY2(deploy::DeployPlan::find(r.step), what.constData());
        QCOMPARE(r.title, deploy::DeployPlan::find(r.step)->titleText());
        QVERIFY2(!r.why.isEmpty(), what.constData());
    }
}

QTEST_GUILESS_MAIN(TestRunnerSteps)
#include "tst_runnersteps.moc"
