#include "backend/deploy/checks.h"
#include "backend/probe/hostfacts.h"
#include "backend/probe/nvidiasmi.h"
#include "backend/recipe/recipe.h"

#include <QTest>

using namespace flashdeck;

/** Each judgement of the plan on what real hosts print (host contract §2, §6). */
class TestChecks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void gpus_countAndModel();
    void driver_needsCuda134();
    void gpuMemory_namesWhatHoldsIt_data();
    void gpuMemory_namesWhatHoldsIt();
    void disk_saysTheNumbers();
    void ports_namesTheTakenOne();
    void hostMemory_countsEveryRank();
    void qmul4_passWarnUnknown_data();
    void qmul4_passWarnUnknown();
    void dspark_seedWordingAndVariants();
    void kvPool_againstTheProfile();
    void launchFailure_mostSpecificCauseWins();

private:
    Recipe m_recipe;
    const RecipeProfile *m_balanced = nullptr;
};

void TestChecks::initTestCase()
{
    const auto recipes = Recipe::builtIn();
    QVERIFY(recipes);
    m_recipe = recipes.value().first();
    m_balanced = m_recipe.profile(QStringLiteral("b300x4-balanced"));
    QVERIFY(m_balanced);
}

void TestChecks::gpus_countAndModel()
{
    const QString b300 = QStringLiteral("NVIDIA B300 SXM6 AC");
    QCOMPARE(checks::gpus(*m_balanced, {b300, b300, b300, b300}).status, StepStatus::Pass);
    const StepRecord h200 = checks::gpus(*m_balanced, {QStringLiteral("NVIDIA H200"), QStringLiteral("NVIDIA H200")});
    QCOMPARE(h200.status, StepStatus::Fail);
    QCOMPARE(h200.seen, QStringLiteral("2 × NVIDIA H200"));
    QCOMPARE(h200.expected, QStringLiteral("4 × B300"));
}

void TestChecks::driver_needsCuda134()
{
    probe::NvidiaDriver d;
    d.driverVersion = QStringLiteral("580.159.04");
    d.cudaVersion = QStringLiteral("13.0");
    const StepRecord old = checks::driver(m_recipe, d);
    QCOMPARE(old.status, StepStatus::Fail);
    QVERIFY(old.fix.contains(QLatin1String("13.4")));
    d.cudaVersion = QStringLiteral("13.4");
    QCOMPARE(checks::driver(m_recipe, d).status, StepStatus::Pass);
}

void TestChecks::gpuMemory_namesWhatHoldsIt_data()
{
    QTest::addColumn<qint64>("heldMiB"); // on every GPU, by pid 4242
    QTest::addColumn<QString>("owner"); // whose container runs pid 4242 ("": nobody's)
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("mentions"); // in seen + fix
    const qint64 total = 293660; // a B300, as nvidia-smi counts it
    QTest::newRow("idle") << qint64(0) << QString() << int(StepStatus::Pass) << "free";
    QTest::newRow("a little") << qint64(total / 20) << QString() << int(StepStatus::Pass) << "free";
    QTest::newRow("half, another tenant")
        << qint64(total / 2) << QString() << int(StepStatus::Fail) << "pid 4242 (python3) holds 143.4 GiB";
    QTest::newRow("half, the fix") << qint64(total / 2) << QString() << int(StepStatus::Fail) << "not Flashdeck's";
    QTest::newRow("our own server, a rerun")
        << qint64(total * 9 / 10) << QStringLiteral("gpu1-b300x4-balanced") << int(StepStatus::Pass) << "free";
    QTest::newRow("another Flashdeck deployment") << qint64(total * 9 / 10) << QStringLiteral("gpu1-b300x4-low-latency")
                                                  << int(StepStatus::Fail) << "flashdeck undeploy gpu1";
}

void TestChecks::gpuMemory_namesWhatHoldsIt()
{
    QFETCH(qint64, heldMiB);
    QFETCH(QString, owner);
    QFETCH(int, status);
    QFETCH(QString, mentions);
    probe::NvidiaDriver d;
    for (int i = 0; i < 4; ++i) {
        probe::NvidiaGpu g;
        g.index = i;
        g.memoryTotalMiB = 293660;
        g.memoryUsedMiB = heldMiB + (heldMiB > 0 ? 500 : 0); // the driver's own share shows as used too
        if (heldMiB > 0) {
            g.processes.append({4242, QStringLiteral("python3"), QStringLiteral("C"), heldMiB});
        }
        d.gpus.append(g);
    }
    QHash<qint64, QString> owners;
    if (!owner.isEmpty()) {
        owners.insert(4242, owner);
    }
    const StepRecord r =
        checks::gpuMemory(*m_balanced, d, owners, QStringLiteral("gpu1-b300x4-balanced"), QStringLiteral("gpu1"));
    QCOMPARE(int(r.status), status);
    QVERIFY2(QString(r.seen + QLatin1Char(' ') + r.fix).contains(mentions),
             qPrintable(r.seen + QLatin1String(" | ") + r.fix));
    QVERIFY(!r.expected.isEmpty());
    if (r.status == StepStatus::Fail) {
        QVERIFY2(r.seen.contains(QLatin1String("GPU 0:")) && r.seen.contains(QLatin1String("GPU 3:")),
                 qPrintable(r.seen));
    }
}

void TestChecks::disk_saysTheNumbers()
{
    const StepRecord low = checks::disk(m_recipe, {180000000000LL, QStringLiteral("/")});
    QCOMPARE(low.status, StepStatus::Fail);
    QCOMPARE(low.seen, QStringLiteral("180.0 GB free on /"));
    QCOMPARE(low.expected, QStringLiteral("≥ 284.0 GB free (252.0 GB weights + 32.0 GB image)"));
    QVERIFY(low.fix.contains(QLatin1String("104.0 GB more")));
    QCOMPARE(checks::disk(m_recipe, {300000000000LL, QStringLiteral("/")}).status, StepStatus::Pass);
}

void TestChecks::ports_namesTheTakenOne()
{
    const StepRecord taken =
        checks::ports(*m_balanced, probe::parseSsListening("LISTEN 0 128 127.0.0.1:30000 0.0.0.0:*\n"));
    QCOMPARE(taken.status, StepStatus::Fail);
    QCOMPARE(taken.seen, QStringLiteral("in use: 30000"));
    QCOMPARE(checks::ports(*m_balanced, {}).status, StepStatus::Pass);
}

void TestChecks::hostMemory_countsEveryRank()
{
    probe::HostMemory memory;
    memory.totalBytes = 2000000000000LL;
    memory.availableBytes = 1500000000000LL;
    QCOMPARE(checks::hostMemory(*m_balanced, 300, memory).status, StepStatus::Pass); // 300 GB × 4 ranks
    const StepRecord tooMuch = checks::hostMemory(*m_balanced, 400, memory);
    QCOMPARE(tooMuch.status, StepStatus::Fail);
    QCOMPARE(tooMuch.expected, QStringLiteral("≥ 1600.0 GB available (400 GB × 4 ranks)"));
    QVERIFY(tooMuch.fix.contains(QLatin1String("at most 375 GB per rank")));
}

void TestChecks::qmul4_passWarnUnknown_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<StepStatus>("status");
    QTest::newRow("qmul4") << "[2026-11-30 12:00:01 TP0] Compiled inference.dequant.nvfp4_to_fp8 backend=qmul4 in 12.3s"
                           << StepStatus::Pass;
    QTest::newRow("fallback") << "[… TP0] Compiled inference.dequant.nvfp4_to_fp8 backend=fp16_fallback in 9.1s"
                              << StepStatus::Warn;
    QTest::newRow("absent") << "[… TP0] KV Cache is allocated. #tokens: 10400000" << StepStatus::Unknown;
}

void TestChecks::qmul4_passWarnUnknown()
{
    QFETCH(QString, line);
    QFETCH(StepStatus, status);
    const StepRecord r = checks::qmul4({QStringLiteral("Load weight end."), line});
    QCOMPARE(r.status, status);
    QVERIFY(status == StepStatus::Pass || !r.fix.isEmpty()); // never "unknown" without the way to check
    if (status == StepStatus::Warn) { // the image's toolkit is to blame, not the driver
        QVERIFY2(r.fix.contains(QLatin1String("CUDA Toolkit")) && r.fix.contains(QLatin1String("pinned image")) &&
                     !r.fix.contains(QLatin1String("Update the driver")),
                 qPrintable(r.fix));
    }
}

void TestChecks::dspark_seedWordingAndVariants()
{
    for (const char *line : {"DSpark draft found in the target checkpoint's dspark/ subfolder",
                             "DSpark draft weights are bundled in the target checkpoint; defaulting …",
                             "[TP0] Initialized DSpark draft runner. attention_backend=trtllm_mha"}) {
        QCOMPARE(checks::dspark({QString::fromUtf8(line)}).status, StepStatus::Pass);
    }
    QCOMPARE(checks::dspark({QStringLiteral("Load weight end.")}).status, StepStatus::Warn);
}

void TestChecks::kvPool_againstTheProfile()
{
    QCOMPARE(checks::kvPool(*m_balanced, {QStringLiteral("KV Cache is allocated. #tokens: 10400000, K size")}).status,
             StepStatus::Pass);
    const StepRecord small = checks::kvPool(*m_balanced, {QStringLiteral("max_total_num_tokens=6500000, chunked")});
    QCOMPARE(small.status, StepStatus::Warn);
    QCOMPARE(small.seen, QStringLiteral("6500000 tokens"));
    QCOMPARE(checks::kvPool(*m_balanced, {}).status, StepStatus::Unknown);
}

void TestChecks::launchFailure_mostSpecificCauseWins()
{
    const QStringList log{QStringLiteral("[TP0] Scheduler hit an exception: Traceback (most recent call last):"),
                          QStringLiteral("  File \"…/safetensors/torch.py\", line 313, in load_file"),
                          QStringLiteral("safetensors_rust.SafetensorError: Error while deserializing header: "
                                         "MetadataIncompleteBuffer")};
    const StepRecord r = checks::launchFailure(log);
    QCOMPARE(r.status, StepStatus::Fail);
    QVERIFY(r.seen.contains(QLatin1String("SafetensorError")));
    QVERIFY(r.fix.contains(QLatin1String("re-download")));
    QCOMPARE(checks::launchFailure({QStringLiteral("all good")}).status, StepStatus::Pending);
    // Read while it streams: the traceback's first line alone is no verdict yet.
    QCOMPARE(checks::launchFailure({log.first()}, true).status, StepStatus::Pending);
    QCOMPARE(checks::launchFailure({log.first()}).status, StepStatus::Fail);
    // A traceback no specific rule knows: its exception line comes first, the header after it.
    const StepRecord generic = checks::launchFailure(
        {log.first(), QStringLiteral("  File \"…/nvfp4_kv.py\", line 18, in <module>"),
         QStringLiteral("    from sgl_kernel import nvfp4_to_fp8_qmul4"),
         QStringLiteral("ImportError: cannot import name 'nvfp4_to_fp8_qmul4' from 'sgl_kernel'"),
         QStringLiteral("[TP0] Received sigquit from a child process. It usually means the child failed.")});
    QCOMPARE(generic.status, StepStatus::Fail);
    QCOMPARE(generic.seen.section(QLatin1Char('\n'), 0, 0),
             QStringLiteral("ImportError: cannot import name 'nvfp4_to_fp8_qmul4' from 'sgl_kernel'"));
    QCOMPARE(generic.seen.section(QLatin1Char('\n'), 1), log.first());
}

QTEST_GUILESS_MAIN(TestChecks)
#include "tst_checks.moc"
