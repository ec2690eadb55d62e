#include "backend/deploy/readyprogress.h"
#include "backend/recipe/profilechoice.h"

#include <QTest>

using flashdeck::deploy::ReadyProgress;
using flashdeck::recipe::ProfileChoice;
using flashdeck::recipe::Recipe;

/**
 * The Ready step's reading of a first start (the weights cache growing, the log's milestones,
 * a stall), on a clock the test owns; and what an operator may choose on top of a profile.
 */
class TestReadyProgress : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void download_rateAndTimeLeft();
    void milestones_inOrder();
    void stall_onlyWhenNothingMoves();
    void bytesAlreadyThere_doNotCountAsDownloaded();
    void choice_gpus_data();
    void choice_gpus();
    void choice_amdImageMustBeConfirmed();
};

void TestReadyProgress::download_rateAndTimeLeft()
{
    constexpr qint64 total = 252000000000;
    ReadyProgress p(total, 0);
    QVERIFY(!p.sample(0, 0, 0)); // the first measurement is the base
    QCOMPARE(p.text(0), QStringLiteral("Starting the server (0 s so far)"));
    // 125 MB/s (1 Gbit/s): 12.5 GB in 100 s; 239.5 GB left take about 32 min.
    QVERIFY(p.sample(12500000000, 0, 100000));
    QCOMPARE(p.phase(), ReadyProgress::Phase::Downloading);
    QCOMPARE(p.text(100000),
             QStringLiteral("Downloading the weights: 12.5 of 252.0 GB · 125 MB/s · about 32 min left"));
    QCOMPARE(p.done(), qint64(12500000000));
    QVERIFY(p.sample(total, 0, 2016000));
    QCOMPARE(p.text(2016000), QStringLiteral("Weights in the cache (252.0 GB); compiling kernels and loading"));
}

void TestReadyProgress::milestones_inOrder()
{
    ReadyProgress p(0, 0); // a model folder: nothing to download
    QVERIFY(p.logLine(QStringLiteral("Loading safetensors checkpoint shards:  45% Completed | 22/48"), 1000));
    QCOMPARE(p.text(1000), QStringLiteral("Loading the weights into the GPUs: 45 %"));
    QVERIFY(p.logLine(QStringLiteral("INFO:     Application startup complete."), 2000));
    // Uvicorn says where it listens after "startup complete": that is news too.
    QVERIFY(
        p.logLine(QStringLiteral("INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)"), 2100));
    QCOMPARE(p.text(2100),
             QStringLiteral("HTTP server up on http://0.0.0.0:30000; warming up (/health answers 503 until ready)"));
    // A late shard line does not take the phase back.
    p.logLine(QStringLiteral("Loading safetensors checkpoint shards: 100% Completed | 48/48"), 2200);
    QCOMPARE(p.phase(), ReadyProgress::Phase::WarmingUp);
    QVERIFY(p.logLine(QStringLiteral("The server is fired up and ready to roll!"), 5000));
    QCOMPARE(p.summary(5000), QStringLiteral("HTTP server up after 2 s; ready after 5 s"));
}

void TestReadyProgress::stall_onlyWhenNothingMoves()
{
    ReadyProgress p(252000000000, 0);
    p.sample(0, 0, 0);
    p.sample(1000000000, 0, 10000);
    QCOMPARE(p.lastProgressMs(), qint64(10000));
    p.sample(1000000000, 0, 20000); // the same bytes: no progress
    QCOMPARE(p.lastProgressMs(), qint64(10000));
    p.sample(1000000000, 4096, 30000); // a kernel compiled: progress
    QCOMPARE(p.lastProgressMs(), qint64(30000));
    p.logActivity(40000); // log output: progress
    QCOMPARE(p.lastProgressMs(), qint64(40000));
    QVERIFY(p.lastSeen(40000).startsWith(QLatin1String("Downloading the weights: 1.0 of 252.0 GB")));
}

void TestReadyProgress::bytesAlreadyThere_doNotCountAsDownloaded()
{
    // A resumed first start: 100 GB were in the cache already; 20 GB more arrive in 160 s.
    ReadyProgress p(252000000000, 0);
    p.sample(100000000000, 0, 0);
    p.sample(120000000000, 0, 160000);
    QVERIFY(p.text(160000).contains(QLatin1String("125 MB/s")));
    p.logLine(QStringLiteral("The server is fired up and ready to roll!"), 200000);
    QVERIFY2(p.summary(200000).startsWith(QLatin1String("20.0 GB of weights downloaded in 3 min")),
             qPrintable(p.summary(200000)));
}

void TestReadyProgress::choice_gpus_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QString>("gpus");
    QTest::addColumn<QString>("outcome"); // the GPU list as it will run, or what is said
    QTest::newRow("the profile's") << "b300x4-balanced"
                                   << ""
                                   << "0,1,2,3";
    QTest::newRow("the other four") << "b300x4-balanced"
                                    << "4, 5,6,7"
                                    << "4,5,6,7";
    QTest::newRow("too few") << "b300x4-balanced"
                             << "4,5"
                             << "needs 4 GPUs (one per TP rank), not 2";
    QTest::newRow("twice") << "b300x4-balanced"
                           << "1,1,2,3"
                           << "GPU 1 is listed twice";
    QTest::newRow("not a number") << "b300x4-balanced"
                                  << "0,1,two,3"
                                  << "\"two\" is not a GPU index";
    QTest::newRow("two services, in order") << "mi355x-x8-two-tp4-router"
                                            << "7,6,5,4,3,2,1,0"
                                            << "7,6,5,4,3,2,1,0";
    QTest::newRow("two services, too few") << "mi355x-x8-two-tp4-router"
                                           << "0,1,2,3"
                                           << "needs 8 GPUs (2 services × TP 4, in order), not 4";
}

void TestReadyProgress::choice_gpus()
{
    QFETCH(QString, profile);
    QFETCH(QString, gpus);
    QFETCH(QString, outcome);
    const auto recipes = Recipe::builtIn();
    QVERIFY(recipes);
    const Recipe &r = recipes.value().first();
    const auto *p = r.profile(profile);
    QVERIFY(p);
    const QString image = p->imageConfirm ? r.imageOf(*p).reference() : QString();
    const auto chosen = ProfileChoice{image, gpus}.apply(r, *p);
    const QString said = chosen ? ProfileChoice::gpuList(chosen.value()) : chosen.message();
    QVERIFY2(said.contains(outcome), qPrintable(said));
}

void TestReadyProgress::choice_amdImageMustBeConfirmed()
{
    const auto recipes = Recipe::builtIn();
    QVERIFY(recipes);
    const Recipe &r = recipes.value().first();
    const auto *amd = r.profile(QStringLiteral("mi355x-x8-two-tp4-router"));
    QVERIFY(amd && amd->imageConfirm);
    const auto refused = ProfileChoice{}.apply(r, *amd);
    QVERIFY(!refused);
    QVERIFY2(refused.message().contains(QLatin1String("Suggested: aigmkt/minimax-m3-sglang-rocm720-mi35x:latest")) &&
                 refused.message().contains(QLatin1String("configuration generator")),
             qPrintable(refused.message()));
    const auto mine = ProfileChoice{QStringLiteral("registry.example:5000/team/sglang:rocm7"), {}}.apply(r, *amd);
    QVERIFY(mine);
    QCOMPARE(r.imageOf(mine.value()).reference(), QStringLiteral("registry.example:5000/team/sglang:rocm7"));
    // NVIDIA's profiles run the page's image unless told otherwise.
    const auto *balanced = r.profile(QStringLiteral("b300x4-balanced"));
    QVERIFY(ProfileChoice{}.apply(r, *balanced));
}

QTEST_GUILESS_MAIN(TestReadyProgress)
#include "tst_readyprogress.moc"
