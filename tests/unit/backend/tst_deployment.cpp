#include "backend/core/apppaths.h"
#include "backend/docker/ourcontainers.h"
#include "backend/fleet/deploymentrecords.h"
#include "backend/recipe/deployment.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <atomic>
#include <thread>
#include <vector>

using namespace flashdeck;
using docker::ContainerRole;
using docker::OurContainers;

/**
 * The deployment's types: the manifest read and written in one place (a round trip keeps every
 * field; a missing, damaged or wrongly typed manifest is a message, never an exception), the
 * deployment id, and Flashdeck's containers read out of dockerd's list.
 */
class TestDeployment : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void id_isHostDashProfile();
    void manifest_roundTrip();
    void manifest_qmul4Verdicts_keptPerPins_oldManifestHasNone();
    void manifest_absentOrDamaged_saysSo_data();
    void manifest_absentOrDamaged_saysSo();
    void manifest_wrongTypes_readAsNothing();
    void undeployed_markedKeepingTheRest_noManifestNoFile();
    void undeployed_parallelWithDeploys_neverTornNeverLost();
    void records_sayWhenAManifestChanges_notTheJournal();
    void containers_parse_data();
    void containers_parse();
    void containers_speakingServer_data();
    void containers_speakingServer();
};

void TestDeployment::id_isHostDashProfile()
{
    const recipe::DeploymentId id(QStringLiteral("gpu-b300"), QStringLiteral("b300x4-balanced"));
    QCOMPARE(id.toString(), QStringLiteral("gpu-b300-b300x4-balanced"));
    QCOMPARE(id.containerName(), QStringLiteral("flashdeck-gpu-b300-b300x4-balanced"));
    QVERIFY(recipe::DeploymentId().isEmpty());
    QCOMPARE(recipe::DeploymentId(QStringLiteral("h"), QString()).toString(), QString());
}

void TestDeployment::manifest_qmul4Verdicts_keptPerPins_oldManifestHasNone()
{
    // Issue 41: what a start printed for qmul4, per image digest and model revision.
    const recipe::KernelVerdict first{QStringLiteral("qmul4"), QStringLiteral("… nvfp4_to_fp8 backend=qmul4 in 12.3s"),
                                      QStringLiteral("2026-11-30T12:00:01Z"), QStringLiteral("sha256:aaa"),
                                      QStringLiteral("62cbc27f")};
    recipe::KernelVerdict again = first;
    again.seenAt = QStringLiteral("2026-12-02T08:00:00Z");
    // The same backend again: the first start stays the one named.
    QList<recipe::KernelVerdict> kept = recipe::Deployment::withVerdict({first}, again);
    QCOMPARE(kept, QList<recipe::KernelVerdict>{first});
    // Another backend for the same pins replaces it; other pins are kept beside it.
    recipe::KernelVerdict fallback = again;
    fallback.backend = QStringLiteral("fp16_fallback");
    recipe::KernelVerdict other = first;
    other.imageDigest = QStringLiteral("sha256:bbb");
    kept = recipe::Deployment::withVerdict(recipe::Deployment::withVerdict({first}, other), fallback);
    QCOMPARE(kept, (QList<recipe::KernelVerdict>{other, fallback}));
    for (int i = 0; i < 40; ++i) { // bounded
        recipe::KernelVerdict v = first;
        v.imageDigest = QStringLiteral("sha256:%1").arg(i);
        kept = recipe::Deployment::withVerdict(kept, v);
    }
    QCOMPARE(kept.size(), recipe::Deployment::kMaxKernelVerdicts);
    QCOMPARE(kept.last().imageDigest, QStringLiteral("sha256:39"));

    recipe::Deployment d;
    d.host = QStringLiteral("gpu-b300");
    d.profile = QStringLiteral("b300x4-balanced");
    d.qmul4Verdicts = {other, fallback};
    const Result<recipe::Deployment> back = recipe::Deployment::fromJson(d.toJson());
    QVERIFY2(back, qPrintable(back.message()));
    QCOMPARE(back.value().qmul4Verdicts, d.qmul4Verdicts);
    QCOMPARE(back.value().qmul4VerdictOf(QStringLiteral("sha256:aaa"), QStringLiteral("62cbc27f")), fallback);
    QVERIFY(!back.value().qmul4VerdictOf(QStringLiteral("sha256:aaa"), QStringLiteral("ffff")));
    QVERIFY(!back.value().qmul4VerdictOf(QString(), QString())); // no digest: nothing is known of the image
    // A manifest written before verdicts were kept reads, with none.
    const Result<recipe::Deployment> old =
        recipe::Deployment::fromJson(R"({"host":"h","profile":"b300x4-balanced","ok":true})");
    QVERIFY2(old, qPrintable(old.message()));
    QVERIFY(old.value().qmul4Verdicts.isEmpty());
}

void TestDeployment::manifest_roundTrip()
{
    QTemporaryDir dir;
    const AppPaths paths(dir.path());
    QVERIFY(paths.ensureExists());
    recipe::Deployment d;
    d.host = QStringLiteral("gpu-b300");
    d.profile = QStringLiteral("b300x4-balanced");
    d.recipe = QStringLiteral("minimax-m31-flash");
    d.image = QStringLiteral("lmsysorg/sglang:dev");
    d.gpus = QStringLiteral("0,1,2,3");
    d.imageDigest = QStringLiteral("sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500");
    d.modelSha = QStringLiteral("62cbc27f7e9e74309d8ecea398ffe088b6c4e0aa");
    d.hostHome = QStringLiteral("/home/op");
    d.launch = QStringLiteral("python3 -m sglang.launch_server --api-key [REDACTED]");
    d.modelSource = QStringLiteral("hub");
    d.modelDir = QStringLiteral("/home/op/.cache/huggingface");
    d.licenseAcknowledged = QStringLiteral("commercial");
    d.ok = true;
    d.finished = QStringLiteral("2026-12-01T20:00:00Z");
    recipe::StepRecord qmul4;
    qmul4.step = QStringLiteral("check.qmul4");
    qmul4.status = recipe::StepStatus::Warn;
    qmul4.seen = QStringLiteral("qmul4 fallback");
    d.steps.insert(qmul4.step, qmul4);
    QDir().mkpath(recipe::Deployment::directory(paths, d.host));
    QVERIFY(d.write(paths).isOk());
    QVERIFY(recipe::Deployment::exists(paths, d.host));

    const Result<recipe::Deployment> back = recipe::Deployment::read(paths, d.host);
    QVERIFY2(back, qPrintable(back.message()));
    const recipe::Deployment &r = back.value();
    QCOMPARE(r.id().toString(), QStringLiteral("gpu-b300-b300x4-balanced"));
    for (const auto &[a, b] : {std::pair{r.recipe, d.recipe},
                               {r.image, d.image},
                               {r.gpus, d.gpus},
                               {r.imageDigest, d.imageDigest},
                               {r.modelSha, d.modelSha},
                               {r.hostHome, d.hostHome},
                               {r.launch, d.launch},
                               {r.modelSource, d.modelSource},
                               {r.modelDir, d.modelDir},
                               {r.licenseAcknowledged, d.licenseAcknowledged},
                               {r.finished, d.finished}}) {
        QCOMPARE(a, b);
    }
    QVERIFY(r.ok);
    QCOMPARE(r.stepStatus(QStringLiteral("check.qmul4")), recipe::StepStatus::Warn);
    QCOMPARE(r.stepStatus(QStringLiteral("verify.text")), recipe::StepStatus::Pending);
    // The file keeps the field names scripts and older versions read.
    QFile f(recipe::Deployment::manifestFile(paths, d.host));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const auto j = nlohmann::json::parse(f.readAll().toStdString());
    for (const char *k : {"host", "profile", "image", "gpus", "recipe", "image_digest", "model_sha", "host_home",
                          "launch", "model_source", "model_dir", "steps", "license_acknowledged", "ok", "finished"}) {
        QVERIFY2(j.contains(k), k);
    }
    QCOMPARE(j["steps"]["check.qmul4"]["status"].get<std::string>(), std::string("warn"));
}

void TestDeployment::manifest_absentOrDamaged_saysSo_data()
{
    QTest::addColumn<QByteArray>("content"); // null: no file
    QTest::addColumn<QString>("says");
    QTest::newRow("absent") << QByteArray() << QStringLiteral("Flashdeck has not deployed to gpu-x.");
    QTest::newRow("not json") << QByteArray("{\"profile\":") << QStringLiteral("is damaged (not a JSON object)");
    QTest::newRow("an array") << QByteArray("[1,2]") << QStringLiteral("is damaged (not a JSON object)");
    QTest::newRow("no profile") << QByteArray(R"({"host":"gpu-x"})") << QStringLiteral("is damaged (no profile)");
    QTest::newRow("profile not a string") << QByteArray(R"({"profile":5})") << QStringLiteral("(no profile)");
}

void TestDeployment::manifest_absentOrDamaged_saysSo()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, says);
    QTemporaryDir dir;
    const AppPaths paths(dir.path());
    QVERIFY(paths.ensureExists());
    if (!content.isNull()) {
        QDir().mkpath(recipe::Deployment::directory(paths, QStringLiteral("gpu-x")));
        QFile f(recipe::Deployment::manifestFile(paths, QStringLiteral("gpu-x")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
    }
    const Result<recipe::Deployment> d = recipe::Deployment::read(paths, QStringLiteral("gpu-x"));
    QVERIFY(!d);
    QVERIFY2(d.message().contains(says), qPrintable(d.message()));
}

void TestDeployment::manifest_wrongTypes_readAsNothing()
{
    const Result<recipe::Deployment> d = recipe::Deployment::fromJson(
        R"({"profile":"p","ok":"yes","image_digest":7,"steps":[],"gpus":null,"launch":{"a":1}})");
    QVERIFY2(d, qPrintable(d.message()));
    QVERIFY(!d.value().ok);
    QVERIFY(d.value().imageDigest.isEmpty());
    QVERIFY(d.value().steps.isEmpty());
    const Result<recipe::Deployment> e =
        recipe::Deployment::fromJson(R"({"profile":"p","steps":{"check.qmul4":{"status":[]},"x":3}})");
    QVERIFY(e);
    QCOMPARE(e.value().stepStatus(QStringLiteral("check.qmul4")), recipe::StepStatus::Unknown);
    QCOMPARE(e.value().steps.size(), 1);
}

void TestDeployment::containers_parse_data()
{
    QTest::addColumn<QByteArray>("list");
    QTest::addColumn<QStringList>("names"); // name:role:deployment of each one read
    QTest::newRow("server, router, gpu check")
        << QByteArray(R"([
{"Id":"a","Names":["/flashdeck-h-p-0"],"State":"running","Status":"Up 3 minutes","Labels":{"io.flashdeck.deployment":"h-p","io.flashdeck.role":"server"}},
{"Id":"b","Names":["/flashdeck-h-p-router"],"State":"running","Labels":{"io.flashdeck.deployment":"h-p","io.flashdeck.role":"router"}},
{"Id":"c","Names":["/flashdeck-h-p-gpucheck"],"State":"exited","Labels":{"io.flashdeck.deployment":"h-p"}}])")
        << QStringList{QStringLiteral("flashdeck-h-p-0:server:h-p"), QStringLiteral("flashdeck-h-p-router:router:h-p"),
                       QStringLiteral("flashdeck-h-p-gpucheck:gpucheck:h-p")};
    QTest::newRow("not ours, null labels, no names") << QByteArray(R"([
{"Id":"x","Names":["/someone-elses"],"Labels":{"maintainer":"x"}},
{"Id":"y","Names":["/bare"],"Labels":null},
{"Id":"z","Labels":{"io.flashdeck.deployment":"h-q"}},
{"Id":"w","Names":"/not-a-list","Labels":{"io.flashdeck.deployment":5}},
7, null])") << QStringList{QStringLiteral(":server:h-q")};
    QTest::newRow("an old router without its role label")
        << QByteArray(R"([{"Id":"r","Names":["/flashdeck-h-p-router"],"Labels":{"io.flashdeck.deployment":"h-p"}}])")
        << QStringList{QStringLiteral("flashdeck-h-p-router:router:h-p")};
    QTest::newRow("not a list") << QByteArray(R"({"message":"page not found"})") << QStringList{};
}

void TestDeployment::containers_parse()
{
    QFETCH(QByteArray, list);
    QFETCH(QStringList, names);
    QStringList seen;
    for (const docker::OurContainer &c : OurContainers::parse(nlohmann::json::parse(list.toStdString()))) {
        const char *role = c.role == ContainerRole::Server ? "server"
            : c.role == ContainerRole::Router              ? "router"
                                                           : "gpucheck";
        seen.append(c.name + QLatin1Char(':') + QLatin1String(role) + QLatin1Char(':') + c.deployment);
    }
    QCOMPARE(seen, names);
}

void TestDeployment::containers_speakingServer_data()
{
    QTest::addColumn<QByteArray>("list");
    QTest::addColumn<QString>("speaker"); // empty: none
    const QByteArray two = R"([
{"Id":"1","Names":["/flashdeck-h-p-1"],"State":"running","Labels":{"io.flashdeck.deployment":"h-p"}},
{"Id":"0","Names":["/flashdeck-h-p-0"],"State":"running","Labels":{"io.flashdeck.deployment":"h-p"}}])";
    QTest::newRow("the first replica") << two << QStringLiteral("0");
    QTest::newRow("running before stopped") << QByteArray(R"([
{"Id":"0","Names":["/flashdeck-h-p-0"],"State":"exited","Labels":{"io.flashdeck.deployment":"h-p"}},
{"Id":"1","Names":["/flashdeck-h-p-1"],"State":"running","Labels":{"io.flashdeck.deployment":"h-p"}}])")
                                            << QStringLiteral("1");
    QTest::newRow("never the router or the check") << QByteArray(R"([
{"Id":"r","Names":["/flashdeck-h-p-router"],"State":"running","Labels":{"io.flashdeck.deployment":"h-p","io.flashdeck.role":"router"}},
{"Id":"g","Names":["/flashdeck-h-p-gpucheck"],"State":"running","Labels":{"io.flashdeck.deployment":"h-p"}}])")
                                                   << QString();
    QTest::newRow("another host's deployment") << QByteArray(R"([
{"Id":"o","Names":["/flashdeck-other-p-0"],"State":"running","Labels":{"io.flashdeck.deployment":"other-p"}}])")
                                               << QString();
}

void TestDeployment::containers_speakingServer()
{
    QFETCH(QByteArray, list);
    QFETCH(QString, speaker);
    const auto s = OurContainers::speakingServer(OurContainers::parse(nlohmann::json::parse(list.toStdString())),
                                                 {QStringLiteral("h-p")});
    QCOMPARE(s ? s->id : QString(), speaker);
}

void TestDeployment::undeployed_markedKeepingTheRest_noManifestNoFile()
{
    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    // No deployment: nothing to mark, and no empty manifest left behind.
    QVERIFY(
        recipe::Deployment::recordUndeployed(paths, QStringLiteral("gpu1"), QDateTime::currentDateTimeUtc()).isOk());
    QVERIFY(!recipe::Deployment::exists(paths, QStringLiteral("gpu1")));

    recipe::Deployment d;
    d.host = QStringLiteral("gpu1");
    d.profile = QStringLiteral("b300x4-balanced");
    d.imageDigest = QStringLiteral("sha256:abc");
    d.launchCommand = QStringLiteral("sglang serve --tp 4");
    d.ok = true;
    QVERIFY(d.write(paths).isOk());
    QVERIFY(!recipe::Deployment::read(paths, d.host).value().isUndeployed());
    const QDateTime when = QDateTime::fromString(QStringLiteral("2026-12-05T10:00:00Z"), Qt::ISODate);
    QVERIFY(recipe::Deployment::recordUndeployed(paths, d.host, when).isOk());
    const Result<recipe::Deployment> after = recipe::Deployment::read(paths, d.host);
    QVERIFY2(after, qPrintable(after.message()));
    QCOMPARE(after.value().undeployed, QStringLiteral("2026-12-05T10:00:00Z"));
    QVERIFY(after.value().isUndeployed());
    QCOMPARE(after.value().imageDigest, d.imageDigest); // the rest is kept: what ran, for the runbook and pins
    QCOMPARE(after.value().launchCommand, d.launchCommand);
    // A new deployment's manifest starts without it.
    QVERIFY(d.write(paths).isOk());
    QVERIFY(!recipe::Deployment::read(paths, d.host).value().isUndeployed());
}

void TestDeployment::undeployed_parallelWithDeploys_neverTornNeverLost()
{
    // The window's deploy, a terminal's deploy and a terminal's undeploy may write one manifest
    // at once: each under its lock, so the file is always whole, and an undeploy that came last
    // is never overwritten by an older read of the manifest (a read-modify-write under the lock).
    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    recipe::Deployment d;
    d.host = QStringLiteral("gpu1");
    d.profile = QStringLiteral("b300x4-balanced");
    QVERIFY(d.write(paths).isOk());
    std::atomic<int> failures{0};
    std::vector<std::thread> writers;
    for (int i = 0; i < 16; ++i) {
        writers.emplace_back([&paths, &failures, i] {
            for (int round = 0; round < 10; ++round) {
                recipe::Deployment mine;
                mine.host = QStringLiteral("gpu1");
                mine.profile = QStringLiteral("b300x4-balanced");
                mine.imageDigest = QStringLiteral("sha256:%1").arg(i * 100 + round);
                const bool ok = i % 2 == 0
                    ? mine.write(paths).isOk()
                    : recipe::Deployment::recordUndeployed(paths, mine.host, QDateTime::currentDateTimeUtc()).isOk();
                failures += ok ? 0 : 1;
            }
        });
    }
    for (std::thread &t : writers) {
        t.join();
    }
    QCOMPARE(failures.load(), 0);
    const Result<recipe::Deployment> after = recipe::Deployment::read(paths, QStringLiteral("gpu1"));
    QVERIFY2(after, qPrintable(after.message()));
    QVERIFY(after.value().imageDigest.startsWith(QLatin1String("sha256:"))); // whole, and one writer's
    // Last, an undeploy: it keeps the last deploy's fields and says when.
    QVERIFY(
        recipe::Deployment::recordUndeployed(paths, QStringLiteral("gpu1"), QDateTime::currentDateTimeUtc()).isOk());
    const Result<recipe::Deployment> last = recipe::Deployment::read(paths, QStringLiteral("gpu1"));
    QVERIFY(last && last.value().isUndeployed() && last.value().imageDigest == after.value().imageDigest);
}

void TestDeployment::records_sayWhenAManifestChanges_notTheJournal()
{
    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    fleet::DeploymentRecords records(paths);
    QSignalSpy changed(&records, &fleet::DeploymentRecords::changed);
    records.setHosts({QStringLiteral("gpu1"), QStringLiteral("gpu2")});
    recipe::Deployment d;
    d.host = QStringLiteral("gpu2");
    d.profile = QStringLiteral("b300x4-balanced");
    QVERIFY(d.write(paths).isOk()); // a terminal's first deploy, in a folder the watcher made
    QTRY_COMPARE(changed.size(), 1);
    QCOMPARE(changed.takeFirst().at(0).toString(), QStringLiteral("gpu2"));

    // The journal's appends are not a new record; an undeploy is.
    QFile journal(recipe::Deployment::directory(paths, QStringLiteral("gpu2")) + QStringLiteral("/journal.jsonl"));
    QVERIFY(journal.open(QIODevice::Append));
    QVERIFY(journal.write("{}\n") == 3);
    journal.close();
    QVERIFY(
        recipe::Deployment::recordUndeployed(paths, QStringLiteral("gpu2"), QDateTime::currentDateTimeUtc()).isOk());
    QTRY_COMPARE(changed.size(), 1);
    QCOMPARE(changed.takeFirst().at(0).toString(), QStringLiteral("gpu2"));

    // A host let go is not reported.
    records.setHosts({QStringLiteral("gpu1")});
    QVERIFY(d.write(paths).isOk());
    d.host = QStringLiteral("gpu1");
    QVERIFY(d.write(paths).isOk());
    QTRY_COMPARE(changed.size(), 1);
    QCOMPARE(changed.takeFirst().at(0).toString(), QStringLiteral("gpu1"));
}

QTEST_GUILESS_MAIN(TestDeployment)
#include "tst_deployment.moc"
