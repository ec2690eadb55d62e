#include "backend/core/apppaths.h"
#include "backend/recipe/deployment.h"
#include "tests/integration/cli/clirun.h"
#include "tests/integration/cli/demoguard.h"
#include "tests/support/buildpaths.h"
#include "tests/support/testshard.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

/**
 * Pins held across hosts and upgrades with automatic rollback, as real processes over real SSH
 * against simulated hosts whose registry serves three builds of the image's tag (an earlier one,
 * the current one and a broken nightly that dies importing its kernels) and two model commits.
 */
class TestUpgradeCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void explicitPins_deployExactlyThose_andUnknownOnesFailThePin();
    void lock_reproducedOnASecondHost_andDriftFlagged();
    void upgrade_ok_thenABrokenBuildRolledBack_andPruneSparesWhatRuns();
    void interruptedUpgrade_refusedUntilResumed_thenFinishes();
    void rolling_goesHostByHost_andStopsAtTheFirstRollback();
    void runbook_upgradesAndRollsBackWithoutFlashdeck();
};

namespace {

// tests/simhost/registry.json: the tag's earlier build, its current one, and a broken nightly.
const QString kEarlier = QStringLiteral("sha256:f2980cb6934c079e09e1da073703389ba9cdc94781c5ba26b7db32d9ceb4820b");
const QString kCurrent = QStringLiteral("sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500");
const QString kBroken = QStringLiteral("sha256:9a78aa361832cfa3e538dcb349269f08bd26b8e0c895d47e7c1f9bc67d8148c1");
// The model's commits: an earlier one, and the one `main` names.
const QString kEarlierCommit = QStringLiteral("c66bf306fb58d9596ad65805d9f749548dd05e58");
const QString kMainCommit = QStringLiteral("62cbc27f7e9e74309d8ecea398ffe088b6c4e0aa");

CliRun run(const QString &config, const QStringList &args, int timeoutMs = 240000)
{
    return runFlashdeck(config, args, timeoutMs);
}

CliRun startDemo(const QString &config, int hosts)
{
    return run(config,
               {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--time-factor"),
                QStringLiteral("0.01"), QStringLiteral("--hosts"), QString::number(hosts)});
}

QStringList deploy(const QString &host, const QStringList &extra = {})
{
    return QStringList{QStringLiteral("deploy"),
                       host,
                       QStringLiteral("--accept-license"),
                       QStringLiteral("noncommercial"),
                       QStringLiteral("--ready-timeout"),
                       QStringLiteral("120"),
                       QStringLiteral("--json")} +
        extra;
}

QStringList upgrade(const QStringList &hostsAndPins)
{
    return QStringList{QStringLiteral("upgrade")} + hostsAndPins +
        QStringList{QStringLiteral("--ready-timeout"), QStringLiteral("120"), QStringLiteral("--json")};
}

/** A demo of `hosts` hosts whose `demo` is deployed with `extra`; empty when it worked, else what failed. */
QByteArray deployedDemo(const QString &config, int hosts, const QStringList &extra)
{
    const CliRun demo = startDemo(config, hosts);
    if (demo.exitCode != 0) {
        return "demo start: " + demo.err;
    }
    const CliRun first = run(config, deploy(QStringLiteral("demo"), extra));
    return first.exitCode == 0 ? QByteArray() : "deploy: " + first.out;
}

QJsonObject pinsOf(const QString &config, const QString &host)
{
    const CliRun r = run(config, {QStringLiteral("pins"), host, QStringLiteral("--json")});
    return QJsonDocument::fromJson(r.out).object();
}

/** Every JSON line of `out` (steps, phases, progress, the summary). */
QList<QJsonObject> lines(const QByteArray &out)
{
    QList<QJsonObject> all;
    for (const QByteArray &l : out.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(l).object();
        if (!o.isEmpty()) {
            all.append(o);
        }
    }
    return all;
}

/** The summary's rows by host: {"host","from","to","result"}. */
QMap<QString, QJsonObject> summary(const QByteArray &out)
{
    QMap<QString, QJsonObject> rows;
    for (const QJsonObject &o : lines(out)) {
        for (const QJsonValue &row : o.value(QLatin1String("summary")).toArray()) {
            rows.insert(row[QLatin1String("host")].toString(), row.toObject());
        }
    }
    return rows;
}

/** The last record of `step` in `phase` for `host`. */
QJsonObject step(const QByteArray &out, const QString &host, const QString &phase, const QString &id)
{
    QJsonObject last;
    for (const QJsonObject &o : lines(out)) {
        if (o.value(QLatin1String("step")).toString() == id && o.value(QLatin1String("host")).toString() == host &&
            o.value(QLatin1String("phase")).toString() == phase) {
            last = o;
        }
    }
    return last;
}

QString status(const QJsonObject &record)
{
    return record.value(QLatin1String("status")).toString();
}

} // namespace

void TestUpgradeCli::explicitPins_deployExactlyThose_andUnknownOnesFailThePin()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    const CliRun demo = startDemo(config.path(), 1);
    QVERIFY2(demo.exitCode == 0, demo.err.constData());

    // An unknown digest: neither the host nor the registry has it, in dockerd's words.
    const QString unknown = QStringLiteral("sha256:") + QString(64, QLatin1Char('e'));
    const CliRun noDigest =
        run(config.path(), deploy(QStringLiteral("demo"), {QStringLiteral("--image-digest"), unknown}));
    QCOMPARE(noDigest.exitCode, 1);
    const QJsonObject pinImage = deploySteps(noDigest.out).value(QStringLiteral("pin.image"));
    QCOMPARE(status(pinImage), QStringLiteral("fail"));
    QVERIFY2(pinImage[QLatin1String("seen")].toString().contains(QLatin1String("not found")), noDigest.out.constData());
    QVERIFY(!deploySteps(noDigest.out).contains(QStringLiteral("pull")));

    // A commit the Hub does not have.
    const CliRun noCommit =
        run(config.path(),
            deploy(QStringLiteral("demo"), {QStringLiteral("--model-revision"), QString(40, QLatin1Char('d'))}));
    QCOMPARE(noCommit.exitCode, 1);
    const QJsonObject pinModel = deploySteps(noCommit.out).value(QStringLiteral("pin.model"));
    QCOMPARE(status(pinModel), QStringLiteral("fail"));
    QVERIFY2(pinModel[QLatin1String("seen")].toString().contains(QLatin1String("the Hub has no revision dddd")),
             noCommit.out.constData());

    // The earlier build and commit, exactly: recorded as the pins, and what the container runs.
    const CliRun ok =
        run(config.path(),
            deploy(QStringLiteral("demo"),
                   {QStringLiteral("--image-digest"), kEarlier, QStringLiteral("--model-revision"), kEarlierCommit}));
    QVERIFY2(ok.exitCode == 0, ok.out.constData());
    QVERIFY(deploySteps(ok.out).value(QStringLiteral("launch"))[QLatin1String("command")].toString().contains(
        QStringLiteral(":dev-minimax-m31-flash@") + kEarlier));
    const QJsonObject pins = pinsOf(config.path(), QStringLiteral("demo"));
    QCOMPARE(pins[QLatin1String("image_digest")].toString(), kEarlier);
    QCOMPARE(pins[QLatin1String("model_revision")].toString(), kEarlierCommit);

    // A plain deploy now would run the tag's current build: it refuses to call the running
    // server of other pins its own, and points at upgrade.
    const CliRun plain = run(config.path(), deploy(QStringLiteral("demo")));
    QCOMPARE(plain.exitCode, 1);
    const QJsonObject launch = deploySteps(plain.out).value(QStringLiteral("launch"));
    QCOMPARE(status(launch), QStringLiteral("fail"));
    QVERIFY2(launch[QLatin1String("fix")].toString().contains(QLatin1String("flashdeck upgrade")),
             plain.out.constData());
    QCOMPARE(pinsOf(config.path(), QStringLiteral("demo"))[QLatin1String("image_digest")].toString(), kEarlier);
    undeployDemo(config.path());
}

void TestUpgradeCli::lock_reproducedOnASecondHost_andDriftFlagged()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    const QByteArray failed = deployedDemo(config.path(), 2, {QStringLiteral("--model-revision"), kEarlierCommit});
    QVERIFY2(failed.isEmpty(), failed.constData());
    const QString lock = config.filePath(QStringLiteral("fleet.pins.json"));
    const CliRun locked =
        run(config.path(),
            {QStringLiteral("pins"), QStringLiteral("lock"), QStringLiteral("demo"), QStringLiteral("--output"), lock});
    QVERIFY2(locked.exitCode == 0, locked.err.constData());

    // The second host, a day later: the lock, not what the tag and `main` name today.
    const CliRun second = run(config.path(), deploy(QStringLiteral("demo-2"), {QStringLiteral("--pins"), lock}));
    QVERIFY2(second.exitCode == 0, second.out.constData());
    const QJsonObject a = pinsOf(config.path(), QStringLiteral("demo"));
    const QJsonObject b = pinsOf(config.path(), QStringLiteral("demo-2"));
    for (const char *key : {"image", "image_digest", "model_revision", "profile"}) {
        QCOMPARE(b[QLatin1String(key)], a[QLatin1String(key)]);
    }
    QCOMPARE(b[QLatin1String("model_revision")].toString(), kEarlierCommit);

    // Both as the lock: no drift. Then one moves: flagged, naming what differs; the other not.
    const auto drift = [&config, &lock] {
        QMap<QString, QString> byHost;
        const CliRun s = run(config.path(),
                             {QStringLiteral("status"), QStringLiteral("demo"), QStringLiteral("demo-2"),
                              QStringLiteral("--json"), QStringLiteral("--pins"), lock});
        for (const QJsonObject &o : lines(s.out)) {
            QString message;
            for (const QJsonValue &alert : o[QLatin1String("alerts")].toArray()) {
                if (alert[QLatin1String("id")].toString() == QLatin1String("pins-drift")) {
                    message = alert[QLatin1String("message")].toString();
                }
            }
            byHost.insert(o[QLatin1String("host")].toString(), message);
        }
        return byHost;
    };
    QMap<QString, QString> before = drift();
    QCOMPARE(before.size(), 2);
    QVERIFY2(before.value(QStringLiteral("demo")).isEmpty() && before.value(QStringLiteral("demo-2")).isEmpty(),
             qPrintable(before.values().join(QLatin1Char('\n'))));
    const CliRun moved =
        run(config.path(), upgrade({QStringLiteral("demo"), QStringLiteral("--model-revision"), kMainCommit}));
    QVERIFY2(moved.exitCode == 0, moved.out.constData());
    const QMap<QString, QString> after = drift();
    QVERIFY2(after.value(QStringLiteral("demo"))
                 .contains(QLatin1String("model revision 62cbc27f7e9e where the pins "
                                         "say c66bf306fb58")),
             qPrintable(after.value(QStringLiteral("demo"))));
    QVERIFY(after.value(QStringLiteral("demo-2")).isEmpty());
    // A pins file that is not one: a usage error that names it.
    QFile bad(config.filePath(QStringLiteral("bad.json")));
    QVERIFY(bad.open(QIODevice::WriteOnly) && bad.write("{\"image_digest\": \"latest\"}") > 0);
    bad.close();
    const CliRun refused = run(config.path(), {QStringLiteral("status"), QStringLiteral("--pins"), bad.fileName()});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("bad.json is not one 'flashdeck pins lock' writes"), refused.err.constData());
    run(config.path(), {QStringLiteral("undeploy"), QStringLiteral("demo-2")});
    undeployDemo(config.path());
}

void TestUpgradeCli::upgrade_ok_thenABrokenBuildRolledBack_andPruneSparesWhatRuns()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    const QByteArray failed = deployedDemo(config.path(), 1, {QStringLiteral("--image-digest"), kEarlier});
    QVERIFY2(failed.isEmpty(), failed.constData());

    // Upgrade: the new build pulled while the old server serves, then swapped, every step again.
    const CliRun up = run(config.path(), upgrade({QStringLiteral("demo"), QStringLiteral("--image-digest"), kCurrent}));
    QVERIFY2(up.exitCode == 0, up.out.constData());
    QVERIFY(lines(up.out).contains(QJsonObject{{QStringLiteral("phase"), QStringLiteral("upgrade")},
                                               {QStringLiteral("host"), QStringLiteral("demo")}}));
    const QString host = QStringLiteral("demo");
    const QString phase = QStringLiteral("upgrade");
    QVERIFY2(step(up.out, host, phase, QStringLiteral("launch"))[QLatin1String("seen")].toString().contains(
                 QLatin1String("stopped and removed the server of the earlier pins")),
             up.out.constData());
    for (const char *id : {"pin.image", "pull", "ready", "verify.text", "verify.thinking", "verify.image"}) {
        QCOMPARE(status(step(up.out, host, phase, QString::fromLatin1(id))), QStringLiteral("pass"));
    }
    QCOMPARE(summary(up.out).value(host)[QLatin1String("result")].toString(), QStringLiteral("upgraded"));
    QCOMPARE(pinsOf(config.path(), host)[QLatin1String("image_digest")].toString(), kCurrent);
    const flashdeck::AppPaths paths(config.path());
    QVERIFY(!QFile::exists(flashdeck::recipe::Deployment::directory(paths, host) + QStringLiteral("/upgrade.json")));

    // A broken nightly: its server dies at start; the old build runs again and is verified again.
    const CliRun broken = run(config.path(), upgrade({host, QStringLiteral("--image-digest"), kBroken}));
    QCOMPARE(broken.exitCode, 1);
    const QJsonObject ready = step(broken.out, host, phase, QStringLiteral("ready"));
    QCOMPARE(status(ready), QStringLiteral("fail"));
    QVERIFY2(ready[QLatin1String("seen")].toString().startsWith(QLatin1String("ImportError: cannot import name")),
             broken.out.constData());
    QVERIFY(lines(broken.out)
                .contains(QJsonObject{{QStringLiteral("phase"), QStringLiteral("rollback")},
                                      {QStringLiteral("host"), host}}));
    const QString rollback = QStringLiteral("rollback");
    QVERIFY2(step(broken.out, host, rollback, QStringLiteral("pin.image"))[QLatin1String("seen")].toString().contains(
                 QLatin1String("on the host already")),
             broken.out.constData());
    QCOMPARE(status(step(broken.out, host, rollback, QStringLiteral("pull"))), QStringLiteral("pass"));
    for (const char *id : {"ready", "check.qmul4", "verify.text", "verify.thinking", "verify.image"}) {
        QCOMPARE(status(step(broken.out, host, rollback, QString::fromLatin1(id))), QStringLiteral("pass"));
    }
    const QJsonObject row = summary(broken.out).value(host);
    QCOMPARE(row[QLatin1String("result")].toString(), QStringLiteral("rolled-back"));
    QCOMPARE(row[QLatin1String("to")][QLatin1String("image_digest")].toString(), kBroken);
    QCOMPARE(pinsOf(config.path(), host)[QLatin1String("image_digest")].toString(), kCurrent);
    // The journal keeps both plans, each record with its phase.
    QFile journal(flashdeck::recipe::Deployment::directory(paths, host) + QStringLiteral("/journal.jsonl"));
    QVERIFY(journal.open(QIODevice::ReadOnly));
    const QByteArray kept = journal.readAll();
    QVERIFY(kept.contains("\"phase\":\"upgrade\"") && kept.contains("\"phase\":\"rollback\""));
    // The human form says what failed and that the host is back.
    const CliRun words = run(config.path(),
                             {QStringLiteral("upgrade"), host, QStringLiteral("--image-digest"), kBroken,
                              QStringLiteral("--ready-timeout"), QStringLiteral("120")});
    QCOMPARE(words.exitCode, 1);
    QVERIFY2(words.out.contains("the upgrade failed at ready (ImportError: cannot import name") &&
                 words.out.contains("the host is back on its old pins sha256:819722d1da25"),
             words.out.constData());

    // Prune: the two builds nothing runs go, the running one stays.
    const CliRun pruned = run(config.path(), {QStringLiteral("prune"), host, QStringLiteral("--json")});
    QVERIFY2(pruned.exitCode == 0, pruned.err.constData());
    const QJsonObject p = QJsonDocument::fromJson(pruned.out).object();
    QStringList removed;
    for (const QJsonValue &r : p[QLatin1String("removed")].toArray()) {
        removed.append(r[QLatin1String("image")].toString());
        QVERIFY(r[QLatin1String("bytes")].toInteger() > 30000000000);
    }
    removed.sort();
    QCOMPARE(
        removed,
        (QStringList{QStringLiteral("lmsysorg/sglang@") + kBroken, QStringLiteral("lmsysorg/sglang@") + kEarlier}));
    QVERIFY(p[QLatin1String("freed_bytes")].toInteger() > 60000000000);
    const QJsonArray kept2 = p[QLatin1String("kept")].toArray();
    QCOMPARE(kept2.size(), 1);
    QCOMPARE(kept2.first()[QLatin1String("image")].toString(), QStringLiteral("lmsysorg/sglang@") + kCurrent);
    // What is gone is gone: a second prune frees nothing, and the server still answers.
    const CliRun again = run(config.path(), {QStringLiteral("prune"), host});
    QVERIFY2(again.exitCode == 0 && again.out.contains("Freed 0.0 GB on demo."), again.out.constData());
    const CliRun chat =
        run(config.path(), {QStringLiteral("chat"), host, QStringLiteral("--prompt"), QStringLiteral("Say hello.")});
    QVERIFY2(chat.exitCode == 0, chat.err.constData());
    undeployDemo(config.path());
}

void TestUpgradeCli::interruptedUpgrade_refusedUntilResumed_thenFinishes()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    const QByteArray failed = deployedDemo(config.path(), 1, {QStringLiteral("--image-digest"), kEarlier});
    QVERIFY2(failed.isEmpty(), failed.constData());

    // Killed (no chance to clean up) once the new image's pull has begun.
    QProcess p;
    p.start(flashdeck::test::flashdeckBinary(),
            upgrade({QStringLiteral("demo"), QStringLiteral("--image-digest"), kCurrent}) +
                QStringList{QStringLiteral("--config-dir"), config.path()});
    QByteArray seen;
    QTRY_VERIFY2_WITH_TIMEOUT((seen += p.readAllStandardOutput()).contains("\"step\":\"pull\""), seen.constData(),
                              120000);
    p.kill();
    QVERIFY(p.waitForFinished(10000));
    const flashdeck::AppPaths paths(config.path());
    const QString plan =
        flashdeck::recipe::Deployment::directory(paths, QStringLiteral("demo")) + QStringLiteral("/upgrade.json");
    QVERIFY(QFile::exists(plan));

    // Another upgrade is refused until this one is finished.
    const CliRun other =
        run(config.path(), upgrade({QStringLiteral("demo"), QStringLiteral("--image-digest"), kBroken}));
    QCOMPARE(other.exitCode, 1);
    QVERIFY2(other.err.contains("was interrupted in its upgrade") && other.err.contains("--resume"),
             other.err.constData());
    const CliRun resumed =
        run(config.path(),
            {QStringLiteral("upgrade"), QStringLiteral("demo"), QStringLiteral("--resume"), QStringLiteral("--json")});
    QVERIFY2(resumed.exitCode == 0, resumed.out.constData());
    QCOMPARE(summary(resumed.out).value(QStringLiteral("demo"))[QLatin1String("result")].toString(),
             QStringLiteral("upgraded"));
    QCOMPARE(pinsOf(config.path(), QStringLiteral("demo"))[QLatin1String("image_digest")].toString(), kCurrent);
    QVERIFY(!QFile::exists(plan));
    const CliRun nothing =
        run(config.path(), {QStringLiteral("upgrade"), QStringLiteral("demo"), QStringLiteral("--resume")});
    QCOMPARE(nothing.exitCode, 1);
    QVERIFY2(nothing.err.contains("No interrupted upgrade on demo"), nothing.err.constData());
    undeployDemo(config.path());
}

void TestUpgradeCli::rolling_goesHostByHost_andStopsAtTheFirstRollback()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    const CliRun demo = startDemo(config.path(), 3);
    QVERIFY2(demo.exitCode == 0, demo.err.constData());
    const QStringList hosts{QStringLiteral("demo"), QStringLiteral("demo-2"), QStringLiteral("demo-3")};
    for (const QString &h : hosts) {
        const CliRun d = run(config.path(), deploy(h, {QStringLiteral("--image-digest"), kEarlier}));
        QVERIFY2(d.exitCode == 0, d.out.constData());
    }
    // Two at a time: all three upgraded.
    const CliRun ok = run(config.path(),
                          upgrade(hosts +
                                  QStringList{QStringLiteral("--image-digest"), kCurrent,
                                              QStringLiteral("--max-unavailable"), QStringLiteral("2")}));
    QVERIFY2(ok.exitCode == 0, ok.out.constData());
    QMap<QString, QJsonObject> rows = summary(ok.out);
    QCOMPARE(rows.size(), 3);
    for (const QString &h : hosts) {
        QCOMPARE(rows.value(h)[QLatin1String("result")].toString(), QStringLiteral("upgraded"));
        QCOMPARE(pinsOf(config.path(), h)[QLatin1String("image_digest")].toString(), kCurrent);
    }
    // One at a time to the broken build: the first rolls back and the others are not touched.
    const CliRun stopped = run(config.path(), upgrade(hosts + QStringList{QStringLiteral("--image-digest"), kBroken}));
    QCOMPARE(stopped.exitCode, 1);
    rows = summary(stopped.out);
    QCOMPARE(rows.value(QStringLiteral("demo"))[QLatin1String("result")].toString(), QStringLiteral("rolled-back"));
    QCOMPARE(rows.value(QStringLiteral("demo-2"))[QLatin1String("result")].toString(), QStringLiteral("not started"));
    QCOMPARE(rows.value(QStringLiteral("demo-3"))[QLatin1String("result")].toString(), QStringLiteral("not started"));
    for (const QString &h : hosts) {
        QCOMPARE(pinsOf(config.path(), h)[QLatin1String("image_digest")].toString(), kCurrent);
    }
    for (const QByteArray &line : stopped.out.split('\n')) {
        QVERIFY2(!line.contains("\"host\":\"demo-2\"") || line.startsWith("{\"summary\""), line.constData());
    }
    // The human form ends with the table.
    const CliRun table = run(config.path(),
                             {QStringLiteral("upgrade"), QStringLiteral("demo-2"), QStringLiteral("demo-3"),
                              QStringLiteral("--image-digest"), kCurrent});
    QVERIFY2(table.exitCode == 0, table.out.constData());
    QVERIFY2(table.out.contains("HOST") && table.out.contains("RESULT") && table.out.contains("already on these pins"),
             table.out.constData());
    for (const QString &h : hosts.mid(1)) {
        run(config.path(), {QStringLiteral("undeploy"), h});
    }
    undeployDemo(config.path());
}

void TestUpgradeCli::runbook_upgradesAndRollsBackWithoutFlashdeck()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    const CliRun demo = run(config.path(),
                            {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--time-factor"),
                             QStringLiteral("0.01"), QStringLiteral("--json")});
    QVERIFY2(demo.exitCode == 0, demo.err.constData());
    const QJsonObject host =
        QJsonDocument::fromJson(demo.out).object()[QLatin1String("hosts")].toArray().first().toObject();
    const CliRun first =
        run(config.path(), deploy(QStringLiteral("demo"), {QStringLiteral("--image-digest"), kEarlier}));
    QVERIFY2(first.exitCode == 0, first.out.constData());
    const QString script = config.filePath(QStringLiteral("runbook.sh"));
    const CliRun written =
        run(config.path(), {QStringLiteral("runbook"), QStringLiteral("demo"), QStringLiteral("--output"), script});
    QVERIFY2(written.exitCode == 0, written.err.constData());
    // Run on the host by OpenSSH, as an operator would, the key in the environment only.
    const auto onHost = [&host, &script](const QStringList &args) {
        QProcess ssh;
        ssh.start(QStringLiteral("ssh"),
                  {QStringLiteral("-F"), QStringLiteral("/dev/null"), QStringLiteral("-o"),
                   QStringLiteral("BatchMode=yes"), QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=yes"),
                   QStringLiteral("-o"),
                   QStringLiteral("UserKnownHostsFile=") + host[QLatin1String("known_hosts_file")].toString(),
                   QStringLiteral("-i"), host[QLatin1String("identity_file")].toString(), QStringLiteral("-p"),
                   QString::number(host[QLatin1String("port")].toInt()),
                   host[QLatin1String("user")].toString() + QStringLiteral("@127.0.0.1"),
                   QStringLiteral("FLASHDECK_API_KEY=sk-fd-runbook-upgrade-key-0123456789abcdefghijkl sh %1 %2")
                       .arg(script, args.join(QLatin1Char(' ')))});
        const bool done = ssh.waitForFinished(240000);
        return std::make_pair(done ? ssh.exitCode() : -1,
                              QByteArray(ssh.readAllStandardOutput() + ssh.readAllStandardError()));
    };
    const auto deployed = [](const QString &digest) {
        return QByteArray("Deployed: lmsysorg/sglang@" + digest.toUtf8());
    };
    const auto [upOk, upOut] = onHost({QStringLiteral("upgrade"), kCurrent});
    QVERIFY2(upOk == 0, upOut.constData());
    QVERIFY2(upOut.contains(deployed(kCurrent)), upOut.constData());
    const auto [brokenRc, brokenOut] = onHost({QStringLiteral("upgrade"), kBroken});
    QCOMPARE(brokenRc, 1);
    QVERIFY2(brokenOut.contains("FAIL: the server exited") &&
                 brokenOut.contains(QByteArray("== rollback to lmsysorg/sglang@" + kEarlier.toUtf8())) &&
                 brokenOut.contains(deployed(kEarlier)) &&
                 brokenOut.contains("the host runs the old pins again, verified"),
             brokenOut.constData());
    const auto [usageRc, usageOut] = onHost({QStringLiteral("upgrade")});
    QCOMPARE(usageRc, 2);
    QVERIFY2(usageOut.contains("usage: sh"), usageOut.constData());
    undeployDemo(config.path());
}

FLASHDECK_TEST_SHARDED_MAIN(TestUpgradeCli)
#include "tst_upgradecli.moc"
