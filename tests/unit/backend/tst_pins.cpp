#include "backend/deploy/pulledimages.h"
#include "backend/deploy/upgradeplan.h"
#include "backend/metrics/hoststatus.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/pins.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace flashdeck;

Q_DECLARE_METATYPE(flashdeck::recipe::Pins)

/** Pins files, what differs between two sets of pins, the upgrade's plan file and prune's record. */
class TestPins : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fromJson_data();
    void fromJson();
    void differences_data();
    void differences();
    void drift_raisedOnlyForADeploymentThatDiffers();
    void upgradePlan_roundTrip_andDamagedNamed();
    void pulledImages_recordForget_andDamagedNamed();
};

namespace {

const char *const kDigest = "sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500";
const char *const kOther = "sha256:f2980cb6934c079e09e1da073703389ba9cdc94781c5ba26b7db32d9ceb4820b";
const char *const kCommit = "62cbc27f7e9e74309d8ecea398ffe088b6c4e0aa";
const char *const kEarlier = "c66bf306fb58d9596ad65805d9f749548dd05e58";

recipe::Pins pins(const char *digest, const char *commit, const char *profile = "b300x4-balanced")
{
    recipe::Pins p;
    p.host = QStringLiteral("gpu1");
    p.image = QStringLiteral("lmsysorg/sglang:dev-minimax-m31-flash");
    p.imageDigest = QString::fromLatin1(digest);
    p.modelRevision = QString::fromLatin1(commit);
    p.profile = QString::fromLatin1(profile);
    return p;
}

} // namespace

void TestPins::fromJson_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error"); // empty: accepted
    const QByteArray ok = QByteArray(R"({"image_digest":")") + kDigest + R"(","model_revision":")" + kCommit + "\"}";
    QTest::newRow("lock") << ok << QString();
    QTest::newRow("short digest") << QByteArray(R"({"image_digest":"sha256:819722d1","model_revision":"x"})")
                                  << QStringLiteral("\"image_digest\" is not a sha256 digest");
    QTest::newRow("upper case") << QByteArray(ok).replace("sha256:8197", "sha256:A197")
                                << QStringLiteral("\"image_digest\" is not a sha256 digest");
    QTest::newRow("branch") << QByteArray(ok).replace(kCommit, "main")
                            << QStringLiteral("\"model_revision\" is not a 40-character commit id");
    QTest::newRow("not an object") << QByteArray("[]") << QStringLiteral("not a JSON object");
}

void TestPins::fromJson()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    const Result<recipe::Pins> p = recipe::Pins::fromJson(nlohmann::json::parse(json.toStdString()));
    QCOMPARE(bool(p), error.isEmpty());
    if (!p) {
        QCOMPARE(p.message(), error);
    }
}

void TestPins::differences_data()
{
    QTest::addColumn<recipe::Pins>("runs");
    QTest::addColumn<recipe::Pins>("wanted");
    QTest::addColumn<QStringList>("differs");
    QTest::newRow("same") << pins(kDigest, kCommit) << pins(kDigest, kCommit) << QStringList{};
    QTest::newRow("image") << pins(kOther, kCommit) << pins(kDigest, kCommit)
                           << QStringList{QStringLiteral("image digest sha256:f2980cb6934c where the pins say "
                                                         "sha256:819722d1da25")};
    QTest::newRow("both") << pins(kOther, kEarlier) << pins(kDigest, kCommit)
                          << QStringList{QStringLiteral("image digest sha256:f2980cb6934c where the pins say "
                                                        "sha256:819722d1da25"),
                                         QStringLiteral("model revision c66bf306fb58 where the pins say 62cbc27f7e9e")};
    QTest::newRow("profile") << pins(kDigest, kCommit, "b300x4-low-latency") << pins(kDigest, kCommit)
                             << QStringList{QStringLiteral("profile b300x4-low-latency where the pins say "
                                                           "b300x4-balanced")};
    // Another host's name and another launch line (its home folder) are not drift.
    recipe::Pins elsewhere = pins(kDigest, kCommit);
    elsewhere.host = QStringLiteral("gpu7");
    elsewhere.launchSha256 = QStringLiteral("00");
    QTest::newRow("another host") << elsewhere << pins(kDigest, kCommit) << QStringList{};
}

void TestPins::differences()
{
    QFETCH(recipe::Pins, runs);
    QFETCH(recipe::Pins, wanted);
    QFETCH(QStringList, differs);
    QCOMPARE(runs.differencesFrom(wanted), differs);
}

void TestPins::drift_raisedOnlyForADeploymentThatDiffers()
{
    metrics::AlertThresholds t;
    t.pins = pins(kDigest, kCommit);
    t.pinsFile = QStringLiteral("/srv/fleet.pins.json");
    metrics::HostStatus s;
    s.host = QStringLiteral("gpu1");
    s.state = metrics::HostState::Up;
    const auto drift = [&] {
        for (const metrics::Alert &a : metrics::evaluateAlerts(s, t)) {
            if (a.id == QLatin1String("pins-drift")) {
                return a.message;
            }
        }
        return QString();
    };
    QVERIFY(drift().isEmpty()); // never deployed: runs nothing, drifts from nothing
    s.pins = pins(kDigest, kCommit);
    QVERIFY(drift().isEmpty());
    s.pins = pins(kOther, kCommit);
    QCOMPARE(drift(),
             QStringLiteral("Runs other pins than fleet.pins.json: image digest sha256:f2980cb6934c where the "
                            "pins say sha256:819722d1da25"));
    // Undeployed (from a terminal, say): it runs nothing again, so nothing drifts.
    recipe::Deployment undeployed;
    undeployed.host = QStringLiteral("gpu1");
    undeployed.profile = QStringLiteral("b300x4-balanced");
    undeployed.imageDigest = QString::fromLatin1(kOther);
    undeployed.modelSha = QString::fromLatin1(kCommit);
    undeployed.undeployed = QStringLiteral("2026-12-06T02:26:18Z");
    s.applyDeployment(undeployed);
    QVERIFY(!s.pins && s.imageDigest.isEmpty());
    QVERIFY(drift().isEmpty());
    t.pins.reset(); // no pins file: nothing is judged
    QVERIFY(drift().isEmpty());
}

void TestPins::upgradePlan_roundTrip_andDamagedNamed()
{
    QTemporaryDir dir;
    const QString file = deploy::UpgradePlan::fileOf(dir.path());
    const Result<std::optional<deploy::UpgradePlan>> none = deploy::UpgradePlan::read(file);
    QVERIFY(none && !none.value());
    deploy::UpgradePlan plan;
    plan.from = pins(kOther, kCommit);
    plan.to = pins(kDigest, kCommit);
    plan.phase = deploy::UpgradePhase::Rollback;
    plan.failedStep = QStringLiteral("ready");
    plan.failedSeen = QStringLiteral("ImportError: cannot import name 'x'");
    QVERIFY(plan.write(file));
    const Result<std::optional<deploy::UpgradePlan>> back = deploy::UpgradePlan::read(file);
    QVERIFY(back && back.value());
    QCOMPARE(back.value()->phase, deploy::UpgradePhase::Rollback);
    QCOMPARE(back.value()->from.imageDigest, plan.from.imageDigest);
    QCOMPARE(back.value()->to.imageDigest, plan.to.imageDigest);
    QCOMPARE(back.value()->failedSeen, plan.failedSeen);
    QCOMPARE(back.value()->summary(),
             QStringLiteral("sha256:f2980cb6934c / 62cbc27f7e9e → sha256:819722d1da25 / "
                            "62cbc27f7e9e"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write("{\"from\": {}") > 0);
    f.close();
    const Result<std::optional<deploy::UpgradePlan>> damaged = deploy::UpgradePlan::read(file);
    QVERIFY(!damaged);
    QVERIFY2(damaged.message().contains(file) && damaged.message().contains(QLatin1String("flashdeck status")),
             qPrintable(damaged.message()));
}

void TestPins::pulledImages_recordForget_andDamagedNamed()
{
    QTemporaryDir dir;
    deploy::PulledImages record(deploy::PulledImages::fileOf(dir.path()));
    QVERIFY(record.read() && record.read().value().isEmpty());
    const QString a = QStringLiteral("lmsysorg/sglang@") + QLatin1String(kDigest);
    const QString b = QStringLiteral("lmsysorg/sglang@") + QLatin1String(kOther);
    QVERIFY(record.record({a, 31600000000, QStringLiteral("2026-12-02T00:00:00Z")}));
    QVERIFY(record.record({b, 31400000000, QStringLiteral("2026-12-02T01:00:00Z")}));
    QVERIFY(record.record({a, 31600000001, QStringLiteral("2026-12-02T02:00:00Z")})); // refreshed, not doubled
    QCOMPARE(record.read().value().size(), 2);
    QCOMPARE(record.read().value().last().bytes, qint64(31600000001));
    QVERIFY(record.forget(b));
    QCOMPARE(record.read().value().size(), 1);
    QCOMPARE(record.read().value().first().reference, a);
    QFile f(deploy::PulledImages::fileOf(dir.path()));
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write("[1, 2]") > 0);
    f.close();
    QVERIFY(!record.read());
    QVERIFY(record.read().message().contains(deploy::PulledImages::fileOf(dir.path())));
    QVERIFY(!record.record({a, 1, QString()})); // never overwrites what it could not read
}

QTEST_GUILESS_MAIN(TestPins)
#include "tst_pins.moc"
