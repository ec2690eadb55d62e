#include "backend/deploy/deployrunner.h"
#include "backend/deploy/journal.h"
#include "backend/recipe/recipe.h"
#include "backend/security/redactor.h"
#include "backend/ssh/hostconnection.h"
#include "tests/simhost/simhostfixture.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck;
using flashdeck::test::SimHostFixture;

/**
 * The deploy runner on a connection other components use too, as in the window, where the
 * monitor, the log follower and the Playground open their tunnels on the host's one SSH
 * connection: every tunnel's report reaches every listener, and the runner must take its own.
 */
class TestDeployRunner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void competingTunnels_theRunnerTakesItsOwn();
};

void TestDeployRunner::competingTunnels_theRunnerTakesItsOwn()
{
    SimHostFixture sim;
    QString error;
    QVERIFY2(sim.start(QStringLiteral("b300x4"), &error), qPrintable(error));
    const auto recipes = recipe::Recipe::builtIn();
    QVERIFY(recipes);
    const recipe::Recipe &recipe = recipes.value().first();
    const recipe::RecipeProfile *profile = recipe.profile(QStringLiteral("b300x4-balanced"));
    QTemporaryDir dir;
    security::Redactor redactor;
    deploy::Journal journal(dir.filePath(QStringLiteral("journal.jsonl")), redactor);
    deploy::DeployOptions options;
    options.deploymentId = QStringLiteral("competing-b300x4-balanced");
    options.licenseAcknowledged = QStringLiteral("noncommercial");
    options.licenseRecord = QStringLiteral("test");
    deploy::DeployRunner runner(sim.connection(), recipe, *profile, options, journal, redactor);

    // As each step that opens a tunnel begins, others open theirs first, to a port where nothing
    // listens: their reports come before the runner's. Taking one of them fails the step.
    int competing = 0;
    QHash<QString, recipe::StepRecord> last;
    connect(&runner, &deploy::DeployRunner::stepChanged, this, [&](const recipe::StepRecord &r) {
        last.insert(r.step, r);
        if (r.status == recipe::StepStatus::Running &&
            (r.step == QLatin1String("preflight.docker") || r.step == QLatin1String("ready"))) {
            for (int i = 0; i < 3; ++i) {
                sim.connection().openPortTunnel(QStringLiteral("127.0.0.1"), 9);
                ++competing;
            }
        }
    });
    QSignalSpy finished(&runner, &deploy::DeployRunner::finished);
    runner.start();
    QVERIFY(finished.wait(180000));
    QCOMPARE(competing, 6);
    for (const char *step : {"preflight.docker", "ready", "verify.text"}) {
        const recipe::StepRecord r = last.value(QLatin1String(step));
        QVERIFY2(r.status == recipe::StepStatus::Pass,
                 qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(step), r.seen)));
    }
    QCOMPARE(finished.first().first().toBool(), true);
    // Nothing left behind on the host for the next test.
    QProcess rm;
    rm.start(QStringLiteral("docker"),
             {QStringLiteral("-H"), QStringLiteral("tcp://127.0.0.1:%1").arg(sim.dockerPort()), QStringLiteral("rm"),
              QStringLiteral("-f"), QStringLiteral("flashdeck-competing-b300x4-balanced-0")});
    QVERIFY(rm.waitForFinished(30000));
}

QTEST_GUILESS_MAIN(TestDeployRunner)
#include "tst_deployrunner.moc"
