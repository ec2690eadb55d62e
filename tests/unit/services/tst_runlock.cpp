#include "faketransport.h"

#include "backend/core/heldlock.h"
#include "backend/deploy/deploysession.h"
#include "backend/deploy/upgradeplan.h"
#include "backend/deploy/upgradesession.h"
#include "backend/recipe/recipe.h"
#include "backend/security/redactor.h"
#include "backend/security/secretstore.h"

#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck;
using flashdeck::testing::FakeTransport;

/**
 * One run of a host at a time, whichever process starts it: a deployment holds the host's
 * deploy.lock (the window's or a terminal's; here this test's own HeldLock stands for it), and
 * another deployment or an upgrade of the host is refused before anything is written or run.
 */
class TestRunLock : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void deployAndUpgrade_refusedWhileADeploymentRuns_nothingWritten();
};

void TestRunLock::deployAndUpgrade_refusedWhileADeploymentRuns_nothingWritten()
{
    QTemporaryDir dir;
    const auto recipes = recipe::Recipe::builtIn();
    QVERIFY2(recipes, qPrintable(recipes.message()));
    const recipe::Recipe recipe = recipes.value().first();
    const recipe::RecipeProfile *profile = recipe.profile(QStringLiteral("b300x4-balanced"));
    QVERIFY(profile);
    security::SecretStore secrets(QStringLiteral("FlashdeckTestRunLock"));
    security::Redactor redactor;
    FakeTransport host(QStringLiteral("gpu1"));

    HeldLock running(deploy::DeploySession::lockOf(dir.path()));
    QVERIFY(running.acquire());

    // An upgrade: refused before its plan is written, so no stale plan asks for --resume later.
    deploy::UpgradePlan plan;
    plan.to.imageDigest = QStringLiteral("sha256:") + QString(64, QLatin1Char('b'));
    deploy::UpgradeSession upgrade(dir.path(), QStringLiteral("gpu1"), recipe, *profile, deploy::DeployOptions{}, plan,
                                   secrets, redactor);
    QSignalSpy upgradeFinished(&upgrade, &deploy::UpgradeSession::finished);
    const Status upgradeStarted = upgrade.start(host);
    QVERIFY(!upgradeStarted);
    QVERIFY2(upgradeStarted.message().contains(QLatin1String("A deployment of gpu1 runs already")),
             qPrintable(upgradeStarted.message()));
    QVERIFY(!upgrade.running());
    QVERIFY(!QFile::exists(deploy::UpgradePlan::fileOf(dir.path())));
    QVERIFY(!HeldLock::isHeld(deploy::UpgradePlan::lockOf(dir.path()))); // no planned outage announced
    QCOMPARE(upgradeFinished.count(), 0);

    // Another deployment: refused the same way, with no journal line.
    deploy::DeploySession second(dir.path(), QStringLiteral("gpu1"), recipe, *profile, deploy::DeployOptions{}, secrets,
                                 redactor);
    const Status claimed = second.claim();
    QVERIFY(!claimed);
    QVERIFY2(claimed.message().contains(QLatin1String("journal.jsonl")), qPrintable(claimed.message()));
    QVERIFY(!second.start(host));
    QVERIFY(!second.running());
    QFile journal(dir.path() + QStringLiteral("/journal.jsonl"));
    QVERIFY(!journal.exists() || journal.size() == 0);

    // That run ends (its process exits, or it finishes): this one takes the host.
    running.release();
    QVERIFY(second.claim());
    QVERIFY(HeldLock::isHeld(deploy::DeploySession::lockOf(dir.path())));
}

QTEST_GUILESS_MAIN(TestRunLock)
#include "tst_runlock.moc"
