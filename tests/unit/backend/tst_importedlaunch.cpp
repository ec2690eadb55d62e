#include "backend/recipe/importedlaunch.h"
#include "backend/recipe/launchspec.h"
#include "backend/recipe/recipe.h"

#include <QTest>

using namespace flashdeck;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

QStringList l(std::initializer_list<const char *> words)
{
    QStringList out;
    for (const char *word : words) {
        out.append(QString::fromUtf8(word));
    }
    return out;
}

const QString kDigest = QStringLiteral("sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500");
const QString kSha = QStringLiteral("62cbc27f7e9e74309d8ecea398ffe088b6c4e0aa");

} // namespace

/** What Flashdeck sets on the generator's command, and what it refuses before anything is pulled. */
class TestImportedLaunch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void refusals_nameTheNumbers_data();
    void refusals_nameTheNumbers();
    void accepted_keepsTheArgumentsAndSaysWhatFlashdeckSets();
    void launch_amd_bothServicesRunTheGeneratorsFlagsAndNoB300Flag();
    void launch_h200_oneServiceOnItsGpus();

private:
    recipe::ImportContext nvidia8() const;
    recipe::Recipe m_recipe;
};

void TestImportedLaunch::initTestCase()
{
    const auto recipes = recipe::Recipe::builtIn();
    QVERIFY2(recipes, qPrintable(recipes.message()));
    m_recipe = recipes.value().first();
}

recipe::ImportContext TestImportedLaunch::nvidia8() const
{
    recipe::ImportContext c;
    c.gpusPerService = 8;
    c.gpusFrom = s("the host's 8 GPUs");
    c.revision = s("main");
    return c;
}

void TestImportedLaunch::refusals_nameTheNumbers_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("amd");
    QTest::addColumn<QStringList>("says");
    const char *start = "python3 -m sglang.launch_server --model-path MiniMaxAI/MiniMax-M3.1-Flash ";
    QTest::newRow("TP × DP × PP below the GPUs")
        << s(start) + s("--tp 4") << false
        << l({"TP 4 × DP 1 × PP 1 = 4 GPUs", "gives each server 8", "the host's 8 GPUs", "Nothing was pulled"});
    QTest::newRow("TP × DP × PP above") << s(start) + s("--tp-size 4 --dp-size 2 --pp-size 2") << false
                                        << l({"TP 4 × DP 2 × PP 2 = 16 GPUs"});
    QTest::newRow("the last --tp counts") << s(start) + s("--tp 8 --tp 2") << false << l({"TP 2 × DP 1"});
    QTest::newRow("TP 8 on ROCm") << s(start) + s("--tp 8") << true
                                  << l({"TP 8 on AMD GPUs", "TP 4 or lower", "32 GB image pull",
                                        "252 GB weights download", "two TP 4 services", "Nothing was pulled"});
    QTest::newRow("another model") << s("sglang serve --model-path Qwen/Qwen3-8B --tp 8") << false
                                   << l({"another model (--model-path Qwen/Qwen3-8B)", "MiniMaxAI/MiniMax-M3.1-Flash"});
    QTest::newRow("another model, --model")
        << s("sglang serve --model deepseek-ai/DeepSeek-V3 --tp 8") << false << l({"--model deepseek-ai/DeepSeek-V3"});
    QTest::newRow("host") << s(start) + s("--tp 8 --host 127.0.0.1") << false
                          << l({"sets --host 127.0.0.1; Flashdeck sets --host 0.0.0.0", "loopback"});
    QTest::newRow("port") << s(start) + s("--tp 8 --port 8000") << false
                          << l({"sets --port 8000; Flashdeck sets --port 30000", "deploy --port 8000"});
    QTest::newRow("api key") << s(start) + s("--tp 8 --api-key sk-123") << false
                             << l({"sets --api-key sk-123; Flashdeck sets --api-key a generated key"});
    QTest::newRow("revision") << s(start) + s("--tp 8 --revision dev") << false
                              << l({"sets --revision dev; Flashdeck sets --revision main"});
    QTest::newRow("tp not a number") << s(start) + s("--tp four") << false << l({"--tp takes a number", "four"});
    QTest::newRow("a shell would do more") << s(start) + s("--tp 8 && reboot") << false << l({"\"&\""});
}

void TestImportedLaunch::refusals_nameTheNumbers()
{
    QFETCH(QString, text);
    QFETCH(bool, amd);
    QFETCH(QStringList, says);
    recipe::ImportContext c = nvidia8();
    if (amd) {
        c.vendor = probe::GpuVendor::Amd;
        c.gpusPerService = 4;
    }
    const Result<recipe::ImportedLaunch> launch = recipe::ImportedLaunch::make(text, m_recipe, c);
    QVERIFY(!launch);
    for (const QString &w : says) {
        QVERIFY2(launch.message().contains(w),
                 qPrintable(QStringLiteral("\"%1\" not in: %2").arg(w, launch.message())));
    }
}

void TestImportedLaunch::accepted_keepsTheArgumentsAndSaysWhatFlashdeckSets()
{
    const Result<recipe::ImportedLaunch> launch = recipe::ImportedLaunch::make(
        s("docker run --gpus all -p 30000:30000 -e CUDA_VISIBLE_DEVICES=0,1 -e SGL_X=1 "
          "lmsysorg/sglang:dev-cu12-minimax-m3 python3 -m sglang.launch_server --model-path "
          "MiniMaxAI/MiniMax-M3.1-Flash --revision main --tp 8 --host 0.0.0.0 --port 30000 --enable-metrics "
          "--mem-fraction-static 0.75 --attention-backend fa3"),
        m_recipe, nvidia8());
    QVERIFY2(launch, qPrintable(launch.message()));
    const recipe::ImportedLaunch &i = launch.value();
    QCOMPARE(i.serverArgs, l({"--tp", "8", "--mem-fraction-static", "0.75", "--attention-backend", "fa3"}));
    QCOMPARE(i.env, l({"SGL_X=1"})); // the GPU list is Flashdeck's
    QCOMPARE(i.image, s("lmsysorg/sglang:dev-cu12-minimax-m3"));
    QCOMPARE(i.memFractionStatic, s("0.75"));
    QCOMPARE(i.tp, 8);
    const QString preview = i.preview().join(QLatin1Char('\n'));
    for (const char *w :
         {"--tp 8 --mem-fraction-static 0.75 --attention-backend fa3", "pinned to its digest",
          "--model-path MiniMaxAI/MiniMax-M3.1-Flash", "--revision main", "127.0.0.1:30000", "--api-key (generated)",
          "--enable-metrics", "CUDA_VISIBLE_DEVICES=0,1: not carried over", "--gpus all: Flashdeck gives", "SGL_X=1"}) {
        QVERIFY2(preview.contains(s(w)), qPrintable(s(w) + s(" not in:\n") + preview));
    }
}

void TestImportedLaunch::launch_amd_bothServicesRunTheGeneratorsFlagsAndNoB300Flag()
{
    recipe::ImportContext c;
    c.vendor = probe::GpuVendor::Amd;
    c.gpusPerService = 4;
    c.revision = s("main");
    const Result<recipe::ImportedLaunch> imported = recipe::ImportedLaunch::make(
        s("SGLANG_USE_AITER=1 python3 -m sglang.launch_server --model-path MiniMaxAI/MiniMax-M3.1-Flash --tp 4 "
          "--quantization mxfp8 --dtype bfloat16 --mem-fraction-static 0.80"),
        m_recipe, c);
    QVERIFY2(imported, qPrintable(imported.message()));
    recipe::LaunchInputs in;
    in.deploymentId = s("amd-mi355x");
    in.imageDigest = kDigest;
    in.modelSha = kSha;
    in.apiKey = recipe::generateApiKey();
    in.hostHome = s("/root");
    in.imported = imported.value();
    const recipe::RecipeProfile *amd = m_recipe.profile(s("mi355x-x8-two-tp4-router"));
    const auto specs = recipe::buildLaunch(m_recipe, *amd, in);
    QVERIFY2(specs, qPrintable(specs.message()));
    QCOMPARE(specs.value().size(), 3); // two services and the Router
    for (int r = 0; r < 2; ++r) {
        const nlohmann::json cmd = specs.value().at(r).createBody["Cmd"];
        const std::vector<std::string> want = {"python3",
                                               "-m",
                                               "sglang.launch_server",
                                               "--model-path",
                                               "MiniMaxAI/MiniMax-M3.1-Flash",
                                               "--revision",
                                               kSha.toStdString(),
                                               "--host",
                                               "0.0.0.0",
                                               "--port",
                                               r == 0 ? "30000" : "30001",
                                               "--tp",
                                               "4",
                                               "--quantization",
                                               "mxfp8",
                                               "--dtype",
                                               "bfloat16",
                                               "--mem-fraction-static",
                                               "0.80",
                                               "--enable-metrics",
                                               "--api-key",
                                               in.apiKey.toStdString()};
        QCOMPARE(cmd.get<std::vector<std::string>>(), want);
        const std::string line = specs.value().at(r).dockerRunLine().toStdString();
        QVERIFY(line.find("DSPARK") == std::string::npos); // none of the B300 baseline's flags
        QVERIFY(line.find("--reasoning-parser") == std::string::npos);
        const auto env = specs.value().at(r).createBody["Env"].get<std::vector<std::string>>();
        QVERIFY(std::find(env.begin(), env.end(), "SGLANG_USE_AITER=1") != env.end());
        QVERIFY(std::find(env.begin(), env.end(),
                          r == 0 ? "HIP_VISIBLE_DEVICES=0,1,2,3" : "HIP_VISIBLE_DEVICES=4,5,6,7") != env.end());
    }
}

void TestImportedLaunch::launch_h200_oneServiceOnItsGpus()
{
    const Result<recipe::ImportedLaunch> imported =
        recipe::ImportedLaunch::make(s("sglang serve --tp-size 8 --attention-backend fa3"), m_recipe, nvidia8());
    QVERIFY2(imported, qPrintable(imported.message()));
    const recipe::RecipeProfile profile =
        recipe::ImportedLaunch::layout(*m_recipe.profile(s("h200")), 8, imported.value().memFractionStatic);
    QVERIFY(!profile.generatorOnly());
    QVERIFY(!profile.verified());
    recipe::LaunchInputs in;
    in.deploymentId = s("h200-h200");
    in.imageDigest = kDigest;
    in.modelSha = kSha;
    in.imported = imported.value();
    const auto specs = recipe::buildLaunch(m_recipe, profile, in);
    QVERIFY2(specs, qPrintable(specs.message()));
    QCOMPARE(specs.value().size(), 1);
    const nlohmann::json &body = specs.value().first().createBody;
    QCOMPARE(body["Cmd"][0], "sglang");
    QCOMPARE(body["Cmd"][1], "serve");
    QCOMPARE(body["HostConfig"]["DeviceRequests"][0]["DeviceIDs"].size(), 8u);
    QCOMPARE(body["HostConfig"]["PortBindings"]["30000/tcp"][0]["HostIp"], "127.0.0.1");
    QVERIFY(body["Env"].empty()); // no FMHA_SM100_ALLOW_JIT: a B300 setting
}

QTEST_GUILESS_MAIN(TestImportedLaunch)
#include "tst_importedlaunch.moc"
