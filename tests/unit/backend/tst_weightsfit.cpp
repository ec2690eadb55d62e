#include "backend/deploy/weightsfit.h"
#include "backend/recipe/importedlaunch.h"
#include "backend/recipe/profilechoice.h"
#include "backend/recipe/recipe.h"

#include <QTest>

using namespace flashdeck;

/**
 * Feasibility before the pull: each service holds all the weights (about 252 GB) inside
 * --mem-fraction-static of its GPUs; what is left is its KV pool. GPU totals as nvidia-smi gives
 * them (B300: 293 660 MiB; H200: 143 771 MiB, from the real H200 capture).
 */
class TestWeightsFit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fitsOrSaysWhy_data();
    void fitsOrSaysWhy();
};

void TestWeightsFit::fitsOrSaysWhy_data()
{
    QTest::addColumn<QString>("profile"); // a recipe profile, or "h200:N" (the generator's one service on N)
    QTest::addColumn<int>("hostGpus");
    QTest::addColumn<qint64>("mibEach");
    QTest::addColumn<double>("fraction"); // 0: the profile's
    QTest::addColumn<bool>("fits");
    QTest::addColumn<QString>("says");
    QTest::newRow("4 × B300 at 0.8: room for the KV pool")
        << QStringLiteral("b300x4-balanced") << 4 << qint64(293660) << 0.0 << true
        << QStringLiteral("TP 4 × 307.9 GB × --mem-fraction-static 0.8 = 985.4 GB) holds the weights (252.0 GB) and "
                          "leaves about 733.4 GB");
    QTest::newRow("8 × B300, two services: each holds the weights")
        << QStringLiteral("b300x4-balanced@8") << 8 << qint64(293660) << 0.0 << true
        << QStringLiteral("leaves about 733.4 GB");
    QTest::newRow("8 × H200 at 0.75: fits")
        << QStringLiteral("h200:8") << 8 << qint64(143771) << 0.75 << true << QStringLiteral("leaves about");
    QTest::newRow("2 × H200 at 0.8: the weights alone do not fit")
        << QStringLiteral("h200:2") << 2 << qint64(143771) << 0.8 << false
        << QStringLiteral("the weights (252.0 GB) do not fit a service's static memory (TP 2 × 150.8 GB × "
                          "--mem-fraction-static 0.8 = 241.2 GB)");
    QTest::newRow("no totals: nothing claimed")
        << QStringLiteral("b300x4-balanced") << 4 << qint64(0) << 0.0 << true << QString();
}

void TestWeightsFit::fitsOrSaysWhy()
{
    QFETCH(QString, profile);
    QFETCH(int, hostGpus);
    QFETCH(qint64, mibEach);
    QFETCH(double, fraction);
    QFETCH(bool, fits);
    QFETCH(QString, says);
    const auto recipes = recipe::Recipe::builtIn();
    QVERIFY2(recipes, qPrintable(recipes.message()));
    const recipe::Recipe &recipe = recipes.value().first();
    recipe::RecipeProfile p;
    if (profile.startsWith(QLatin1String("h200:"))) {
        p = recipe::ImportedLaunch::layout(*recipe.profile(QStringLiteral("h200")), profile.mid(5).toInt(), QString());
    } else {
        const QStringList parts = profile.split(QLatin1Char('@'));
        p = *recipe.profile(parts.first());
        if (parts.size() == 2) {
            p = recipe::ProfileChoice::overGpus(p, {0, 1, 2, 3, 4, 5, 6, 7});
            QCOMPARE(p.replicas.size(), 2);
        }
    }
    if (fraction > 0) {
        p.memFractionStatic = fraction;
    }
    probe::NvidiaDriver driver;
    for (int i = 0; i < hostGpus; ++i) {
        probe::NvidiaGpu g;
        g.index = i;
        g.memoryTotalMiB = mibEach;
        driver.gpus.append(g);
    }
    const deploy::checks::WeightsFit fit = deploy::checks::weightsFit(p, driver, recipe.weightsBytes);
    QCOMPARE(fit.fits, fits);
    if (says.isEmpty()) {
        QVERIFY2(fit.words.isEmpty(), qPrintable(fit.words));
    } else {
        QVERIFY2(fit.words.contains(says), qPrintable(fit.words));
    }
}

QTEST_GUILESS_MAIN(TestWeightsFit)
#include "tst_weightsfit.moc"
