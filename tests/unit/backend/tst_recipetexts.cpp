#include "backend/chat/loadtest.h"
#include "backend/recipe/recipe.h"
#include "backend/recipe/recipetexts.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace flashdeck;

/**
 * What the deployment page says that the recipe file has no field for (issue 41, item 4): why the
 * Hub counts about 220B parameters, each GPU model's memory, and the load test's words for the
 * Low-Latency profile and for published figures.
 */
class TestRecipeTexts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void hubParameterCount_saysPackedFp4AndThatEveryWeightIsLoaded();
    void gpuMemoryByModel_givesEachModelOnce();
    void loadTestNotes_warnOfLowLatency_andSayFiguresAreUpstream_data();
    void loadTestNotes_warnOfLowLatency_andSayFiguresAreUpstream();
};

void TestRecipeTexts::hubParameterCount_saysPackedFp4AndThatEveryWeightIsLoaded()
{
    const QString text = recipe::texts::hubParameterCount();
    for (const char *part : {"about 220B parameters", "428B", "packed FP4", "two values in each byte",
                             "counts each byte as one parameter", "all the weights must be loaded"}) {
        QVERIFY2(text.contains(QLatin1String(part)), part);
    }
}

void TestRecipeTexts::gpuMemoryByModel_givesEachModelOnce()
{
    const auto recipes = recipe::Recipe::builtIn();
    QVERIFY2(recipes, qPrintable(recipes.message()));
    // The page's per-GPU memory (two B300 profiles, said once).
    QCOMPARE(recipe::texts::gpuMemoryByModel(recipes.value().first()),
             QStringLiteral("B300 288 GB, B200 192 GB, GB200 186 GB"));
    QCOMPARE(recipe::texts::gpuMemoryByModel(recipe::Recipe()), QString());
}

void TestRecipeTexts::loadTestNotes_warnOfLowLatency_andSayFiguresAreUpstream_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<bool>("warned");
    QTest::newRow("low-latency") << "b300x4-low-latency" << true;
    QTest::newRow("balanced") << "b300x4-balanced" << false;
    QTest::newRow("amd") << "mi355x-x8-two-tp4-router" << false;
    QTest::newRow("a server given by port") << "" << false;
}

void TestRecipeTexts::loadTestNotes_warnOfLowLatency_andSayFiguresAreUpstream()
{
    QFETCH(QString, profile);
    QFETCH(bool, warned);
    chat::LoadTestReport report;
    report.config.profileId = profile;
    const QStringList notes = report.notes();
    const bool said = !notes.filter(QLatin1String("batch-size-1 steps only")).isEmpty();
    QCOMPARE(said, warned);
    if (warned) {
        QVERIFY(notes.first().contains(QLatin1String("serves less than the Balanced profile"))); // said first
    }
    QVERIFY(notes.contains(recipe::texts::publishedFiguresNote()));
    QVERIFY(
        recipe::texts::publishedFiguresNote().contains(QLatin1String("upstream references, not a MiniMax guarantee")));
    // The JSON report carries the same words, and the profile.
    const QJsonObject json = QJsonDocument::fromJson(report.toJson()).object();
    QCOMPARE(json.value(QLatin1String("notes")).toArray().size(), notes.size());
    QCOMPARE(json.value(QLatin1String("profile")).toString(), profile);
}

QTEST_GUILESS_MAIN(TestRecipeTexts)
#include "tst_recipetexts.moc"
