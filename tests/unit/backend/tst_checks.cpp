#include "backend/deploy/checks.h"
#include "backend/logs/logrules.h"
#include "backend/probe/hostfacts.h"
#include "backend/probe/nvidiasmi.h"
#include "backend/recipe/recipe.h"

#include <QCoreApplication>
#include <QTest>
#include <QTranslator>

using namespace flashdeck;

/** Each judgement of the plan on what real hosts print (host contract §2, §6). */
class TestChecks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void gpus_countAndModel();
    void driver_needsCuda134();
    void driver_neverBlamesQmul4();
    void gpuMemory_namesWhatHoldsIt_data();
    void gpuMemory_namesWhatHoldsIt();
    void disk_saysTheNumbers();
    void ports_namesTheTakenOne();
    void hostMemory_countsEveryRank();
    void qmul4_passWarnUnknown_data();
    void qmul4_passWarnUnknown();
    void qmul4_noLine_saysWhatAnEarlierStartPrinted_data();
    void qmul4_noLine_saysWhatAnEarlierStartPrinted();
    void qmul4_blackwellOnly_data();
    void qmul4_blackwellOnly();
    void dspark_seedWordingAndVariants();
    void kvPool_againstTheProfile();
    void launchFailure_mostSpecificCauseWins();
    void startLog_streamedLineByLine_sameVerdictsAsReadWhole();

private:
    recipe::Recipe m_recipe;
    const recipe::RecipeProfile *m_balanced = nullptr;
};

void TestChecks::initTestCase()
{
    const auto recipes = recipe::Recipe::builtIn();
    QVERIFY(recipes);
    m_recipe = recipes.value().first();
    m_balanced = m_recipe.profile(QStringLiteral("b300x4-balanced"));
    QVERIFY(m_balanced);
}

void TestChecks::gpus_countAndModel()
{
    const QString b300 = QStringLiteral("NVIDIA B300 SXM6 AC");
    QCOMPARE(deploy::checks::gpus(*m_balanced, {b300, b300, b300, b300}).status, recipe::StepStatus::Pass);
    const recipe::StepRecord h200 =
        deploy::checks::gpus(*m_balanced, {QStringLiteral("NVIDIA H200"), QStringLiteral("NVIDIA H200")});
    QCOMPARE(h200.status, recipe::StepStatus::Fail);
    QCOMPARE(h200.seen, QStringLiteral("2 × NVIDIA H200"));
    QCOMPARE(h200.expected, QStringLiteral("4 × B300"));
}

void TestChecks::driver_needsCuda134()
{
    probe::NvidiaDriver d;
    d.driverVersion = QStringLiteral("580.159.04");
    d.cudaVersion = QStringLiteral("13.0");
    const recipe::StepRecord old = deploy::checks::driver(m_recipe, d);
    QCOMPARE(old.status, recipe::StepStatus::Fail);
    QVERIFY(old.fix.contains(QLatin1String("13.4")));
    d.cudaVersion = QStringLiteral("13.4");
    QCOMPARE(deploy::checks::driver(m_recipe, d).status, recipe::StepStatus::Pass);
}

void TestChecks::driver_neverBlamesQmul4()
{
    // The page: the qmul4 fallback comes from the image's CUDA Toolkit, never from the driver,
    // so no text of the driver step (pass or fail) may tie the two together.
    probe::NvidiaDriver d;
    d.driverVersion = QStringLiteral("580.159.04");
    QTranslator chinese; // the translation says it as the English does
    QVERIFY(chinese.load(QStringLiteral(":/i18n/flashdeck_zh_CN.qm")));
    for (const bool translated : {false, true}) {
        if (translated) {
            QVERIFY(QCoreApplication::installTranslator(&chinese));
        }
        for (const char *cuda : {"12.8", "13.0", "13.4", "13.6"}) {
            d.cudaVersion = QString::fromLatin1(cuda);
            const recipe::StepRecord r = deploy::checks::driver(m_recipe, d);
            QVERIFY(!r.fix.isEmpty() || r.status == recipe::StepStatus::Pass);
            for (const QString &text : {r.title, r.why, r.expected, r.seen, r.fix}) {
                QVERIFY2(!text.contains(QLatin1String("qmul4"), Qt::CaseInsensitive), qPrintable(text));
                QVERIFY2(!text.contains(QLatin1String("fall"), Qt::CaseInsensitive), qPrintable(text));
                QVERIFY2(!text.contains(QStringLiteral("回退")), qPrintable(text)); // "falls back"
            }
        }
    }
    QCoreApplication::removeTranslator(&chinese);
}

void TestChecks::gpuMemory_namesWhatHoldsIt_data()
{
    QTest::addColumn<qint64>("heldMiB"); // on every GPU, by pid 4242
    QTest::addColumn<QString>("owner"); // whose container runs pid 4242 ("": nobody's)
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("mentions"); // in seen + fix
    QTest::addColumn<bool>("listed"); // nvidia-smi lists pid 4242 as the holder
    QTest::addColumn<bool>("ownGpus"); // this deployment's running server was given GPUs 0-3
    const qint64 total = 293660; // a B300, as nvidia-smi counts it
    QTest::newRow("idle") << qint64(0) << QString() << int(recipe::StepStatus::Pass) << "free" << true << false;
    QTest::newRow("a little") << qint64(total / 20) << QString() << int(recipe::StepStatus::Pass) << "free" << true
                              << false;
    QTest::newRow("half, another tenant") << qint64(total / 2) << QString() << int(recipe::StepStatus::Fail)
                                          << "pid 4242 (python3) holds 143.4 GiB" << true << false;
    QTest::newRow("half, the fix") << qint64(total / 2) << QString() << int(recipe::StepStatus::Fail)
                                   << "not Flashdeck's" << true << false;
    QTest::newRow("our own server, a rerun") << qint64(total * 9 / 10) << QStringLiteral("gpu1-b300x4-balanced")
                                             << int(recipe::StepStatus::Pass) << "free" << true << false;
    QTest::newRow("another Flashdeck deployment")
        << qint64(total * 9 / 10) << QStringLiteral("gpu1-b300x4-low-latency") << int(recipe::StepStatus::Fail)
        << "flashdeck undeploy gpu1" << true << false;
    // nvidia-smi inside a container or a VM: the memory shows, its holder does not.
    QTest::newRow("no process listed, our server runs on them: its own")
        << qint64(total * 9 / 10) << QString() << int(recipe::StepStatus::Pass)
        << "the memory in use on GPU 0, 1, 2, 3 is this deployment's own running server's" << false << true;
    QTest::newRow("no process listed, not our server's GPUs: still short")
        << qint64(total * 9 / 10) << QString() << int(recipe::StepStatus::Fail) << "GPU 0:" << false << false;
}

void TestChecks::gpuMemory_namesWhatHoldsIt()
{
    QFETCH(qint64, heldMiB);
    QFETCH(QString, owner);
    QFETCH(int, status);
    QFETCH(QString, mentions);
    QFETCH(bool, listed);
    QFETCH(bool, ownGpus);
    probe::NvidiaDriver d;
    for (int i = 0; i < 4; ++i) {
        probe::NvidiaGpu g;
        g.index = i;
        g.memoryTotalMiB = 293660;
        g.memoryUsedMiB = heldMiB + (heldMiB > 0 ? 500 : 0); // the driver's own share shows as used too
        if (heldMiB > 0 && listed) {
            g.processes.append({4242, QStringLiteral("python3"), QStringLiteral("C"), heldMiB});
        }
        d.gpus.append(g);
    }
    QHash<qint64, QString> owners;
    if (!owner.isEmpty()) {
        owners.insert(4242, owner);
    }
    const recipe::StepRecord r =
        deploy::checks::gpuMemory(*m_balanced, d, owners, QStringLiteral("gpu1-b300x4-balanced"),
                                  QStringLiteral("gpu1"), {}, ownGpus ? QSet<int>{0, 1, 2, 3} : QSet<int>{});
    QCOMPARE(int(r.status), status);
    QVERIFY2(QString(r.seen + QLatin1Char(' ') + r.fix).contains(mentions),
             qPrintable(r.seen + QLatin1String(" | ") + r.fix));
    QVERIFY(!r.expected.isEmpty());
    if (r.status == recipe::StepStatus::Fail) {
        QVERIFY2(r.seen.contains(QLatin1String("GPU 0:")) && r.seen.contains(QLatin1String("GPU 3:")),
                 qPrintable(r.seen));
    }
}

void TestChecks::disk_saysTheNumbers()
{
    const recipe::StepRecord low = deploy::checks::disk(m_recipe, {180000000000LL, QStringLiteral("/")});
    QCOMPARE(low.status, recipe::StepStatus::Fail);
    QCOMPARE(low.seen, QStringLiteral("180.0 GB free on /"));
    QCOMPARE(low.expected, QStringLiteral("≥ 284.0 GB free (252.0 GB weights + 32.0 GB image)"));
    QVERIFY(low.fix.contains(QLatin1String("104.0 GB more")));
    QCOMPARE(deploy::checks::disk(m_recipe, {300000000000LL, QStringLiteral("/")}).status, recipe::StepStatus::Pass);
}

void TestChecks::ports_namesTheTakenOne()
{
    const recipe::StepRecord taken =
        deploy::checks::ports(*m_balanced, probe::parseSsListening("LISTEN 0 128 127.0.0.1:30000 0.0.0.0:*\n"));
    QCOMPARE(taken.status, recipe::StepStatus::Fail);
    QCOMPARE(taken.seen, QStringLiteral("in use: 30000"));
    QCOMPARE(deploy::checks::ports(*m_balanced, {}).status, recipe::StepStatus::Pass);
}

void TestChecks::hostMemory_countsEveryRank()
{
    probe::HostMemory memory;
    memory.totalBytes = 2000000000000LL;
    memory.availableBytes = 1500000000000LL;
    QCOMPARE(deploy::checks::hostMemory(*m_balanced, 300, memory).status, recipe::StepStatus::Pass); // 300 GB × 4 ranks
    const recipe::StepRecord tooMuch = deploy::checks::hostMemory(*m_balanced, 400, memory);
    QCOMPARE(tooMuch.status, recipe::StepStatus::Fail);
    QCOMPARE(tooMuch.expected, QStringLiteral("≥ 1600.0 GB available (400 GB × 4 ranks)"));
    QVERIFY(tooMuch.fix.contains(QLatin1String("at most 375 GB per rank")));
}

void TestChecks::qmul4_passWarnUnknown_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<recipe::StepStatus>("status");
    QTest::newRow("qmul4") << "[2026-11-30 12:00:01 TP0] Compiled inference.dequant.nvfp4_to_fp8 backend=qmul4 in 12.3s"
                           << recipe::StepStatus::Pass;
    QTest::newRow("fallback") << "[… TP0] Compiled inference.dequant.nvfp4_to_fp8 backend=fp16_fallback in 9.1s"
                              << recipe::StepStatus::Warn;
    QTest::newRow("absent") << "[… TP0] KV Cache is allocated. #tokens: 10400000" << recipe::StepStatus::Unknown;
}

void TestChecks::qmul4_passWarnUnknown()
{
    QFETCH(QString, line);
    QFETCH(recipe::StepStatus, status);
    const recipe::StepRecord r = deploy::checks::qmul4({QStringLiteral("Load weight end."), line});
    QCOMPARE(r.status, status);
    QVERIFY(status == recipe::StepStatus::Pass || !r.fix.isEmpty()); // never "unknown" without the way to check
    if (status == recipe::StepStatus::Warn) { // the image's toolkit is to blame, not the driver
        QVERIFY2(r.fix.contains(QLatin1String("CUDA Toolkit")) && r.fix.contains(QLatin1String("pinned image")) &&
                     !r.fix.contains(QLatin1String("Update the driver")),
                 qPrintable(r.fix));
    }
}

void TestChecks::qmul4_noLine_saysWhatAnEarlierStartPrinted_data()
{
    // Issue 41: a start that prints no nvfp4_to_fp8 line is no guess ("from the minfer cache"),
    // and clearing the kernel cache (a long recompile) is never advised.
    QTest::addColumn<QString>("earlierBackend"); // empty: no earlier start of these pins printed it
    QTest::addColumn<recipe::StepStatus>("status");
    QTest::addColumn<QString>("seen");
    QTest::newRow("nothing remembered") << QString() << recipe::StepStatus::Unknown << "not printed by this start";
    QTest::newRow("qmul4 remembered")
        << "qmul4" << recipe::StepStatus::Skipped
        << "qmul4 seen on 2026-11-30 at the first start of this image and revision; not printed by this start";
    QTest::newRow("fallback remembered")
        << "fp16_fallback" << recipe::StepStatus::Warn
        << "backend=fp16_fallback seen on 2026-11-30 at the first start of this image and revision; not printed by "
           "this start";
}

void TestChecks::qmul4_noLine_saysWhatAnEarlierStartPrinted()
{
    QFETCH(QString, earlierBackend);
    QFETCH(recipe::StepStatus, status);
    QFETCH(QString, seen);
    std::optional<recipe::KernelVerdict> earlier;
    if (!earlierBackend.isEmpty()) {
        earlier = recipe::KernelVerdict{earlierBackend, QStringLiteral("… nvfp4_to_fp8 backend=") + earlierBackend,
                                        QStringLiteral("2026-11-30T12:00:01Z"), QStringLiteral("sha256:abc"),
                                        QStringLiteral("62cbc27f")};
    }
    const recipe::StepRecord r =
        deploy::checks::qmul4({QStringLiteral("[… TP0] KV Cache is allocated. #tokens: 10400000")}, earlier);
    QCOMPARE(r.status, status);
    QCOMPARE(r.seen, seen);
    const QString said = r.seen + QLatin1Char(' ') + r.fix;
    QVERIFY2(!said.contains(QLatin1String("minfer")) && !said.contains(QLatin1String("cache")), qPrintable(said));
    QVERIFY(status != recipe::StepStatus::Warn || r.fix.contains(QLatin1String("CUDA Toolkit")));
    // A line printed by this start wins over any memory.
    const recipe::StepRecord printed = deploy::checks::qmul4(
        {QStringLiteral("[… TP0] Compiled inference.dequant.nvfp4_to_fp8 backend=qmul4 in 12.3s")}, earlier);
    QCOMPARE(printed.status, recipe::StepStatus::Pass);
}

void TestChecks::qmul4_blackwellOnly_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QStringList>("architectures");
    QTest::addColumn<QString>("reason"); // a part of the skip's reason; empty: the check applies
    const QStringList h200(8, QStringLiteral("NVIDIA H200"));
    const QStringList hopper(8, QStringLiteral("Hopper"));
    QTest::newRow("B300, Blackwell") << "b300x4-balanced" << QStringList(4, QStringLiteral("NVIDIA B300 SXM6 AC"))
                                     << QStringList(4, QStringLiteral("Blackwell")) << "";
    QTest::newRow("8 × H200, Hopper") << "h200" << h200 << hopper << "Hopper GPUs (NVIDIA H200)";
    QTest::newRow("H200 on a driver that names no architecture")
        << "h200" << h200 << QStringList(8, QString()) << "qmul4 is a Blackwell CUDA kernel";
    QTest::newRow("H200 profile, nothing read yet") << "h200" << QStringList{} << QStringList{} << "Hopper GPUs (H200)";
    QTest::newRow("ROCm") << "mi355x-x8-two-tp4-router" << QStringList(8, QStringLiteral("AMD Instinct MI355X"))
                          << QStringList{} << "ROCm host";
    QTest::newRow("unknown NVIDIA model: the check applies")
        << "b300x4-balanced" << QStringList{QStringLiteral("NVIDIA Graphics Device")} << QStringList{QString()} << "";
}

void TestChecks::qmul4_blackwellOnly()
{
    QFETCH(QString, profile);
    QFETCH(QStringList, names);
    QFETCH(QStringList, architectures);
    QFETCH(QString, reason);
    const recipe::RecipeProfile *p = m_recipe.profile(profile);
    QVERIFY(p);
    const QString why = deploy::checks::qmul4NotApplicable(*p, names, architectures);
    QVERIFY2(reason.isEmpty() ? why.isEmpty() : why.contains(reason), qPrintable(why));
}

void TestChecks::dspark_seedWordingAndVariants()
{
    for (const char *line : {"DSpark draft found in the target checkpoint's dspark/ subfolder",
                             "DSpark draft weights are bundled in the target checkpoint; defaulting …",
                             "[TP0] Initialized DSpark draft runner. attention_backend=trtllm_mha"}) {
        QCOMPARE(deploy::checks::dspark({QString::fromUtf8(line)}).status, recipe::StepStatus::Pass);
    }
    QCOMPARE(deploy::checks::dspark({QStringLiteral("Load weight end.")}).status, recipe::StepStatus::Warn);
}

void TestChecks::kvPool_againstTheProfile()
{
    QCOMPARE(deploy::checks::kvPool(*m_balanced, {QStringLiteral("KV Cache is allocated. #tokens: 10400000, K size")})
                 .status,
             recipe::StepStatus::Pass);
    const recipe::StepRecord small =
        deploy::checks::kvPool(*m_balanced, {QStringLiteral("max_total_num_tokens=6500000, chunked")});
    QCOMPARE(small.status, recipe::StepStatus::Warn);
    QCOMPARE(small.seen, QStringLiteral("6500000 tokens"));
    QCOMPARE(deploy::checks::kvPool(*m_balanced, {}).status, recipe::StepStatus::Unknown);
}

void TestChecks::launchFailure_mostSpecificCauseWins()
{
    const QStringList log{QStringLiteral("[TP0] Scheduler hit an exception: Traceback (most recent call last):"),
                          QStringLiteral("  File \"…/safetensors/torch.py\", line 313, in load_file"),
                          QStringLiteral("safetensors_rust.SafetensorError: Error while deserializing header: "
                                         "MetadataIncompleteBuffer")};
    const recipe::StepRecord r = deploy::checks::launchFailure(log);
    QCOMPARE(r.status, recipe::StepStatus::Fail);
    QVERIFY(r.seen.contains(QLatin1String("SafetensorError")));
    QVERIFY(r.fix.contains(QLatin1String("re-download")));
    QCOMPARE(deploy::checks::launchFailure({QStringLiteral("all good")}).status, recipe::StepStatus::Pending);
    // Read while it streams: the traceback's first line alone is no verdict yet.
    QCOMPARE(deploy::checks::launchFailure({log.first()}, true).status, recipe::StepStatus::Pending);
    QCOMPARE(deploy::checks::launchFailure({log.first()}).status, recipe::StepStatus::Fail);
    // A traceback no specific rule knows: its exception line comes first, the header after it.
    const recipe::StepRecord generic = deploy::checks::launchFailure(
        {log.first(), QStringLiteral("  File \"…/nvfp4_kv.py\", line 18, in <module>"),
         QStringLiteral("    from sgl_kernel import nvfp4_to_fp8_qmul4"),
         QStringLiteral("ImportError: cannot import name 'nvfp4_to_fp8_qmul4' from 'sgl_kernel'"),
         QStringLiteral("[TP0] Received sigquit from a child process. It usually means the child failed.")});
    QCOMPARE(generic.status, recipe::StepStatus::Fail);
    QCOMPARE(generic.seen.section(QLatin1Char('\n'), 0, 0),
             QStringLiteral("ImportError: cannot import name 'nvfp4_to_fp8_qmul4' from 'sgl_kernel'"));
    QCOMPARE(generic.seen.section(QLatin1Char('\n'), 1), log.first());
}

void TestChecks::startLog_streamedLineByLine_sameVerdictsAsReadWhole()
{
    // The ready wait reads the log as it streams: each line classified once, where each rule
    // matched kept, and every check asked after every read must say what it says of the whole.
    const auto rules = logs::LogRules::builtIn();
    QVERIFY(rules);
    const QStringList log{
        QStringLiteral("[2026-11-30 08:31:50 TP0] Load weight begin."),
        QStringLiteral("[2026-11-30 08:31:56 TP0] KV Cache is allocated. #tokens: 6500000, K size: 40 GB"),
        QStringLiteral(
            "[2026-11-30 08:31:55 TP0] Compiled inference.dequant.nvfp4_to_fp8 backend=fp16_fallback in 12.3s"),
        QStringLiteral("[2026-11-30 08:31:55 TP0] Compiled inference.dequant.nvfp4_to_fp8 backend=qmul4 in 12.3s"),
        QStringLiteral("[2026-09-11 23:45:10 TP0] Draft checkpoint bundles a DSpark head; loading draft arch "
                       "DeepseekV4DSparkForCausalLM."),
        QStringLiteral("[2026-11-30 08:31:57 TP0] KV Cache is allocated. #tokens: 10400000, K size: 61.20 GB"),
        QStringLiteral("[TP0] Scheduler hit an exception: Traceback (most recent call last):"),
        QStringLiteral("ImportError: cannot import name 'nvfp4_to_fp8_qmul4' from 'sgl_kernel'"),
        QStringLiteral("[2026-09-11 23:47:09] The server is fired up and ready to roll!"),
    };
    deploy::StartLog streamed(rules.value());
    for (qsizetype n = 0; n < log.size(); ++n) {
        const int rule = streamed.append(log.at(n));
        QCOMPARE(rule, rules.value().classify(log.at(n).toUtf8()));
        const QStringList sofar = log.first(n + 1);
        const auto same = [](const recipe::StepRecord &a, const recipe::StepRecord &b) {
            return a.status == b.status && a.seen == b.seen && a.fix == b.fix;
        };
        QVERIFY(same(deploy::checks::launchFailure(streamed, true),
                     deploy::checks::launchFailure(sofar, rules.value(), true)));
        QVERIFY(same(deploy::checks::launchFailure(streamed), deploy::checks::launchFailure(sofar, rules.value())));
        QVERIFY(same(deploy::checks::qmul4(streamed), deploy::checks::qmul4(sofar, rules.value())));
        QVERIFY(same(deploy::checks::dspark(streamed), deploy::checks::dspark(sofar, rules.value())));
        QVERIFY(same(deploy::checks::kvPool(*m_balanced, streamed),
                     deploy::checks::kvPool(*m_balanced, sofar, rules.value())));
    }
    // The first verdict line counts (the fallback came first), the last KV pool line does.
    QCOMPARE(deploy::checks::qmul4(streamed).status, recipe::StepStatus::Warn);
    QCOMPARE(deploy::checks::kvPool(*m_balanced, streamed).status, recipe::StepStatus::Pass);
    QCOMPARE(streamed.first(rules.value().indexOf(QStringLiteral("ready"))), qsizetype(8));
    QCOMPARE(streamed.matches(rules.value().indexOf(QStringLiteral("kv-pool"))), (QList<qsizetype>{1, 5}));
    QCOMPARE(streamed.lastLines(2), log.at(7) + QLatin1Char('\n') + log.at(8));
}

QTEST_GUILESS_MAIN(TestChecks)
#include "tst_checks.moc"
