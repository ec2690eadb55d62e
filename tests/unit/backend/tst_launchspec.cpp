#include "backend/recipe/launchspec.h"
#include "backend/recipe/recipe.h"

#include <QTest>

using namespace flashdeck;

namespace {
const QString kDigest = QStringLiteral("sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500");
const QString kSha = QStringLiteral("62cbc27f7e9e74309d8ecea398ffe088b6c4e0aa");
} // namespace

/** The container of host contract §4, and the rules checked before anything runs. */
class TestLaunchSpec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void balanced_isTheContractsContainer();
    void dockerRun_isTheSameContainerWithTheKeyAsAVariable();
    void amd_twoServicesOnTheirGpusAndPorts();
    void rules_refuseBeforeAnythingRuns_data();
    void rules_refuseBeforeAnythingRuns();
    void apiKey_is32RandomBytes();

private:
    recipe::LaunchInputs inputs() const;
    recipe::Recipe m_recipe;
};

void TestLaunchSpec::initTestCase()
{
    const auto recipes = recipe::Recipe::builtIn();
    QVERIFY2(recipes, qPrintable(recipes.message()));
    m_recipe = recipes.value().first();
}

recipe::LaunchInputs TestLaunchSpec::inputs() const
{
    recipe::LaunchInputs in;
    in.deploymentId = QStringLiteral("d1");
    in.imageDigest = kDigest;
    in.modelSha = kSha;
    in.apiKey = recipe::generateApiKey();
    in.hostHome = QStringLiteral("/home/ops");
    return in;
}

void TestLaunchSpec::balanced_isTheContractsContainer()
{
    const recipe::LaunchInputs in = inputs();
    const auto specs = recipe::buildLaunch(m_recipe, *m_recipe.profile(QStringLiteral("b300x4-balanced")), in);
    QVERIFY2(specs, qPrintable(specs.message()));
    QCOMPARE(specs.value().size(), 1);
    const nlohmann::json &b = specs.value().first().createBody;
    QCOMPARE(b["Image"], "lmsysorg/sglang:dev-minimax-m31-flash@" + kDigest.toStdString()); // F05, F06
    const nlohmann::json cmd = {"python3",
                                "-m",
                                "sglang.launch_server",
                                "--model-path",
                                "MiniMaxAI/MiniMax-M3.1-Flash",
                                "--revision",
                                kSha.toStdString(),
                                "--tp",
                                "4",
                                "--host",
                                "0.0.0.0",
                                "--port",
                                "30000",
                                "--mem-fraction-static",
                                "0.8",
                                "--trust-remote-code",
                                "--speculative-algorithm",
                                "DSPARK",
                                "--reasoning-parser",
                                "minimax-m3",
                                "--tool-call-parser",
                                "minimax-m3",
                                "--enable-metrics",
                                "--api-key",
                                in.apiKey.toStdString()};
    QCOMPARE(b["Cmd"], cmd);
    QCOMPARE(b["Env"], nlohmann::json({"FMHA_SM100_ALLOW_JIT=1"})); // F17
    QCOMPARE(b["Labels"]["io.flashdeck.deployment"], "d1");
    const nlohmann::json &h = b["HostConfig"];
    QCOMPARE(h["PortBindings"]["30000/tcp"][0]["HostIp"], "127.0.0.1"); // F16: loopback only
    QCOMPARE(h["ShmSize"], 32LL << 30);
    QCOMPARE(h["IpcMode"], "host");
    QCOMPARE(h["DeviceRequests"][0]["DeviceIDs"], nlohmann::json({"0", "1", "2", "3"})); // F13
    QCOMPARE(h["Binds"],
             nlohmann::json({"/home/ops/.cache/huggingface:/root/.cache/huggingface", // F26
                             "/home/ops/.cache/minfer:/root/.cache/minfer"})); // F17
}

void TestLaunchSpec::dockerRun_isTheSameContainerWithTheKeyAsAVariable()
{
    const recipe::LaunchInputs in = inputs();
    const auto specs = recipe::buildLaunch(m_recipe, *m_recipe.profile(QStringLiteral("b300x4-balanced")), in);
    QVERIFY(specs);
    const QString line = specs.value().first().dockerRunLine();
    QVERIFY(!line.contains(in.apiKey)); // the runbook never holds the key
    QVERIFY(line.endsWith(QLatin1String("--enable-metrics --api-key \"$FLASHDECK_API_KEY\"")));
    QVERIFY(line.startsWith(QLatin1String("docker run -d --name flashdeck-d1-0 --label io.flashdeck.deployment=d1 "
                                          "--gpus '\"device=0,1,2,3\"' --shm-size 32g --ipc=host -p "
                                          "127.0.0.1:30000:30000 ")));
    QVERIFY(line.contains(QLatin1String(" -e FMHA_SM100_ALLOW_JIT=1 lmsysorg/sglang:dev-minimax-m31-flash@sha256:")));
}

void TestLaunchSpec::amd_twoServicesOnTheirGpusAndPorts()
{
    const auto specs =
        recipe::buildLaunch(m_recipe, *m_recipe.profile(QStringLiteral("mi355x-x8-two-tp4-router")), inputs());
    QVERIFY2(specs, qPrintable(specs.message()));
    QCOMPARE(specs.value().size(), 3); // two TP 4 services and the Router (F11, F37)
    QCOMPARE(specs.value().at(1).hostPort, quint16(30001));
    const recipe::ContainerSpec &router = specs.value().at(2);
    QCOMPARE(router.role, QStringLiteral("router"));
    QCOMPARE(router.createBody["HostConfig"]["NetworkMode"], "host");
    QCOMPARE(router.createBody["Cmd"],
             nlohmann::json({"python3", "-m", "sglang_router.launch_router", "--worker-urls", "http://127.0.0.1:30000",
                             "http://127.0.0.1:30001", "--policy", "cache_aware", "--host", "127.0.0.1", "--port",
                             "30080"}));
    const nlohmann::json &second = specs.value().at(1).createBody;
    QVERIFY(!second["HostConfig"].contains("DeviceRequests")); // no NVIDIA runtime on ROCm
    QCOMPARE(second["HostConfig"]["Devices"][0]["PathOnHost"], "/dev/kfd");
    QVERIFY(std::find(second["Env"].begin(), second["Env"].end(), "HIP_VISIBLE_DEVICES=4,5,6,7") !=
            second["Env"].end());
    QVERIFY(second["Image"].get<std::string>().rfind("aigmkt/minimax-m3-sglang-rocm720-mi35x:latest@", 0) == 0);
}

void TestLaunchSpec::rules_refuseBeforeAnythingRuns_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<int>("change");
    QTest::addColumn<QString>("message");
    QTest::newRow("generator only") << "h200" << 0 << "H200 has no launch in this recipe";
    QTest::newRow("low latency without its flags") << "b300x4-low-latency" << 0 << "needs its extra flags";
    QTest::newRow("exposed without key") << "b300x4-balanced" << 1 << "needs an API key";
    QTest::newRow("short key") << "b300x4-balanced" << 2 << "too short";
    QTest::newRow("unpinned image") << "b300x4-balanced" << 3 << "not pinned to a digest";
    QTest::newRow("unpinned model") << "b300x4-balanced" << 4 << "not pinned to a commit";
}

void TestLaunchSpec::rules_refuseBeforeAnythingRuns()
{
    QFETCH(QString, profile);
    QFETCH(int, change);
    QFETCH(QString, message);
    recipe::LaunchInputs in = inputs();
    switch (change) {
    case 1:
        in.exposePublicly = true;
        in.apiKey.clear();
        break;
    case 2:
        in.apiKey = QStringLiteral("short");
        break;
    case 3:
        in.imageDigest = QStringLiteral("dev-minimax-m31-flash");
        break;
    case 4:
        in.modelSha = QStringLiteral("main");
        break;
    default:
        break;
    }
    const auto r = recipe::buildLaunch(m_recipe, *m_recipe.profile(profile), in);
    QVERIFY(!r);
    QVERIFY2(r.message().contains(message), qPrintable(r.message()));
}

void TestLaunchSpec::apiKey_is32RandomBytes()
{
    const QString a = recipe::generateApiKey();
    const QString b = recipe::generateApiKey();
    QVERIFY(a != b);
    QVERIFY(a.startsWith(QLatin1String("sk-fd-")));
    QCOMPARE(QByteArray::fromBase64(a.mid(6).toLatin1(), QByteArray::Base64UrlEncoding).size(), 32);
}

QTEST_GUILESS_MAIN(TestLaunchSpec)
#include "tst_launchspec.moc"
