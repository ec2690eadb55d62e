#include "backend/probe/amdsmi.h"
#include "backend/probe/hostfacts.h"
#include "backend/probe/nvidiasmi.h"
#include "tests/simhost/simhostfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace flashdeck;
using namespace flashdeck::test;

namespace {

const QByteArray kImage = "lmsysorg/sglang:dev-minimax-m31-flash";

enum class Launch {
    Ready, // the log reaches "The server is fired up and ready to roll!" and /health is 200
    Exits, // the container exits non-zero during the launch
    NeverReady, // Uvicorn is up, /health stays 503
    RefusedByDocker, // `docker run` itself fails (exit 125)
};

QByteArray run(ssh::HostConnection &c, const QByteArray &command, int *exitCode = nullptr, QByteArray *err = nullptr)
{
    const ssh::CommandResult r = runAndWait(c, command, 90000);
    if (exitCode) {
        *exitCode = r.exitCode.value_or(-1);
    }
    if (err) {
        *err = r.stderrData;
    }
    return r.stdoutData;
}

} // namespace

Q_DECLARE_METATYPE(Launch)

/**
 * Every scenario of tests/simhost/scenarios, over real SSH: the probe commands of host
 * contract §2 answer in their real formats with the scenario's facts, and the launch of §4
 * ends the way the scenario says, with the log lines the checks of §6 look for.
 */
class TestSimScenarios : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void scenario_data();
    void scenario();
    void launchWithoutJit_failsAsF17Says();
    void df_fallsWithThePullAndTheWeights_andComesBackWhenTheyGo();
};

void TestSimScenarios::scenario_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("cuda"); // empty: AMD
    QTest::addColumn<int>("gpus");
    QTest::addColumn<Launch>("launch");
    QTest::addColumn<QByteArrayList>("mustLog");
    QTest::addColumn<QByteArrayList>("mustNotLog");

    const QByteArray ready = "The server is fired up and ready to roll!";
    const QByteArray qmul4 = "nvfp4_to_fp8 backend=qmul4";
    const QByteArray fallback = "nvfp4_to_fp8 backend=fp16_fallback";
    const QByteArray dspark = "Initialized DSpark draft runner";
    const QByteArray kv = "KV Cache is allocated. #tokens: 10400000";
    QTest::newRow("b300x4") << "b300x4"
                            << "13.4" << 4 << Launch::Ready << QByteArrayList{qmul4, dspark, kv, ready}
                            << QByteArrayList{fallback};
    QTest::newRow("b300x4-old-driver") << "b300x4-old-driver"
                                       << "13.0" << 4 << Launch::Ready << QByteArrayList{qmul4, ready}
                                       << QByteArrayList{fallback};
    // Hopper: qmul4 is an sm100 kernel, so a start prints no nvfp4_to_fp8 line at all.
    QTest::newRow("h200x2") << "h200x2"
                            << "13.0" << 2 << Launch::Ready << QByteArrayList{ready}
                            << QByteArrayList{QByteArray("nvfp4_to_fp8")};
    QTest::newRow("low-disk") << "low-disk"
                              << "13.4" << 4 << Launch::Ready << QByteArrayList{ready} << QByteArrayList{};
    QTest::newRow("port-taken") << "port-taken"
                                << "13.4" << 4 << Launch::RefusedByDocker << QByteArrayList{"address already in use"}
                                << QByteArrayList{};
    QTest::newRow("missing-shard") << "missing-shard"
                                   << "13.4" << 4 << Launch::Exits
                                   << QByteArrayList{"Loading safetensors checkpoint shards",
                                                     "safetensors_rust.SafetensorError", "Received sigquit"}
                                   << QByteArrayList{ready, "Load weight end"};
    QTest::newRow("oom") << "oom"
                         << "13.4" << 4 << Launch::Exits
                         << QByteArrayList{"Load weight end",
                                           "Not enough memory. Please try to increase --mem-fraction-static"}
                         << QByteArrayList{ready, "KV Cache is allocated"};
    QTest::newRow("slow-start") << "slow-start"
                                << "13.4" << 4 << Launch::Ready << QByteArrayList{qmul4, ready} << QByteArrayList{};
    QTest::newRow("never-ready") << "never-ready"
                                 << "13.4" << 4 << Launch::NeverReady << QByteArrayList{"Uvicorn running on"}
                                 << QByteArrayList{ready};
    QTest::newRow("qmul4-fallback") << "qmul4-fallback"
                                    << "13.4" << 4 << Launch::Ready << QByteArrayList{fallback, ready}
                                    << QByteArrayList{qmul4};
    QTest::newRow("qmul4-cached") << "qmul4-cached"
                                  << "13.4" << 4 << Launch::Ready << QByteArrayList{kv, ready}
                                  << QByteArrayList{"nvfp4_to_fp8"};
    QTest::newRow("no-dspark") << "no-dspark"
                               << "13.4" << 4 << Launch::Ready << QByteArrayList{qmul4, ready}
                               << QByteArrayList{"DSpark"};
    QTest::newRow("mi355x-x8") << "mi355x-x8"
                               << "" << 8 << Launch::Ready << QByteArrayList{ready} << QByteArrayList{};
}

void TestSimScenarios::scenario()
{
    QFETCH(QString, name);
    QFETCH(QString, cuda);
    QFETCH(int, gpus);
    QFETCH(Launch, launch);
    QFETCH(QByteArrayList, mustLog);
    QFETCH(QByteArrayList, mustNotLog);

    SimHostFixture host;
    QString error;
    QVERIFY2(host.start(name, &error), qPrintable(error));
    ssh::HostConnection &c = host.connection();
    const bool nvidia = !cuda.isEmpty();

    // §2 probes: GPUs, driver CUDA, docker and its runtimes, disk, memory, ports, the pin.
    // …parsed with the product's own probe parsers.
    if (nvidia) {
        const auto driver = probe::parseNvidiaSmiXml(run(c, "nvidia-smi -q -x"));
        QVERIFY2(driver, qPrintable(driver.message()));
        QCOMPARE(driver.value().cudaVersion, cuda);
        QCOMPARE(driver.value().gpus.size(), gpus);
        const QList<QByteArray> samples =
            run(c, QByteArray("nvidia-smi --query-gpu=") + probe::kGpuSampleFields + " --format=csv,noheader,nounits")
                .trimmed()
                .split('\n');
        QCOMPARE(samples.size(), gpus);
        for (const QByteArray &line : samples) {
            const auto sample = probe::parseGpuSample(line);
            QVERIFY2(sample, qPrintable(sample.message()));
            QCOMPARE(sample.value().memoryTotalMiB.value_or(0), driver.value().gpus.first().memoryTotalMiB);
        }
    } else {
        const auto amd = probe::parseAmdSmiMetric(run(c, "amd-smi metric --json"));
        QVERIFY2(amd, qPrintable(amd.message()));
        QCOMPARE(amd.value().size(), gpus);
    }
    const QJsonObject version = QJsonDocument::fromJson(run(c, "docker version --format '{{json .}}'")).object();
    QCOMPARE(version[QLatin1String("Server")].toObject()[QLatin1String("Version")].toString(),
             QStringLiteral("27.5.1"));
    const QJsonObject info = QJsonDocument::fromJson(run(c, "docker info --format '{{json .}}'")).object();
    QCOMPARE(info[QLatin1String("Runtimes")].toObject().contains(QLatin1String("nvidia")), nvidia);
    const auto disk = probe::parseDf(run(c, "df -B1 --output=avail,target \"$HOME\""));
    QVERIFY2(disk, qPrintable(disk.message()));
    if (name == QLatin1String("low-disk")) {
        QCOMPARE(disk.value().availBytes, 180000000000LL); // < 252 GB (F13)
    }
    const auto memory = probe::parseMeminfo(run(c, "cat /proc/meminfo"));
    QVERIFY2(memory, qPrintable(memory.message()));
    if (name == QLatin1String("port-taken")) { // the real ss sees the scenario's squatter
        QVERIFY(probe::portTaken(probe::parseSsListening(run(c, "ss -Hltn")), 30000));
    }
    int code = -1;
    run(c, R"(curl -fsS "$HF_ENDPOINT/api/models/MiniMaxAI/MiniMax-M3.1-Flash/revision/main")", &code);
    QCOMPARE(code, 0);

    // §4 launch, on the contract's port for port-taken and a free one otherwise.
    QByteArray err;
    run(c, "docker pull " + kImage, &code, &err);
    QVERIFY2(code == 0, err.constData());
    const quint16 port = name == QLatin1String("port-taken") ? 30000 : freeLocalPort();
    const int tpSize = qMin(gpus, 4); // F13: GPUs 0-3; F11: TP 4 at most on ROCm
    QByteArray devices;
    for (int i = 0; i < tpSize; ++i) {
        devices += (i ? "," : "") + QByteArray::number(i);
    }
    const QByteArray gpuFlags =
        nvidia ? "--gpus '\"device=" + devices + "\"'" : QByteArray("--device=/dev/kfd --device=/dev/dri");
    const QByteArray tp = QByteArray::number(tpSize);
    const QByteArray launchLine = "docker run -d --name fd-" + name.toLatin1() + " --label io.flashdeck.deployment=t " +
        gpuFlags + " --shm-size 32g --ipc=host -p 127.0.0.1:" + QByteArray::number(port) +
        ":30000 -e FMHA_SM100_ALLOW_JIT=1 " + kImage +
        " python3 -m sglang.launch_server --model-path MiniMaxAI/MiniMax-M3.1-Flash --tp " + tp +
        " --trust-remote-code --host 0.0.0.0 --port 30000 --mem-fraction-static 0.8 --speculative-algorithm DSPARK "
        "--reasoning-parser minimax-m3 --enable-metrics";
    run(c, launchLine, &code, &err);
    if (launch == Launch::RefusedByDocker) {
        QCOMPARE(code, 125);
        for (const QByteArray &s : mustLog) {
            QVERIFY2(err.contains(s), err.constData());
        }
        return;
    }
    QVERIFY2(code == 0, err.constData());

    // Wait on the log or the state itself: the ready line (or an early end), the end of the
    // container, or Uvicorn being up.
    const QByteArray n = "n=fd-" + name.toLatin1() + "; ";
    const QByteArray running = "[ \"$(docker inspect -f '{{.State.Running}}' $n)\" = true ]";
    const QByteArray wait = launch == Launch::Ready
        ? "until docker logs $n 2>&1 | grep -q 'ready to roll'; do " + running + " || break; sleep 0.05; done"
        : launch == Launch::Exits
        ? "while " + running + "; do sleep 0.05; done"
        : QByteArray("until docker logs $n 2>&1 | grep -q 'Uvicorn running'; do sleep 0.05; done");
    run(c, n + wait);
    const QByteArray log = run(c, "docker logs fd-" + name.toLatin1() + " 2>&1");
    for (const QByteArray &s : mustLog) {
        QVERIFY2(log.contains(s), QByteArray(s + " missing from:\n" + log).constData());
    }
    for (const QByteArray &s : mustNotLog) {
        QVERIFY2(!log.contains(s), QByteArray(s + " unexpected in:\n" + log).constData());
    }
    const QByteArray state = run(c, "docker inspect -f '{{.State.Status}} {{.State.ExitCode}}' fd-" + name.toLatin1());
    const QByteArray health =
        run(c, "curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:" + QByteArray::number(port) + "/health");
    switch (launch) {
    case Launch::Ready:
        QCOMPARE(state.trimmed(), QByteArray("running 0"));
        QCOMPARE(health, QByteArray("200"));
        break;
    case Launch::NeverReady:
        QCOMPARE(state.trimmed(), QByteArray("running 0"));
        QCOMPARE(health, QByteArray("503"));
        break;
    case Launch::Exits:
        QCOMPARE(state.trimmed(), QByteArray("exited 1"));
        QCOMPARE(health, QByteArray("000")); // nothing listens
        break;
    case Launch::RefusedByDocker:
        break;
    }
}

void TestSimScenarios::launchWithoutJit_failsAsF17Says()
{
    SimHostFixture host;
    QString error;
    QVERIFY2(host.start(QStringLiteral("b300x4"), &error), qPrintable(error));
    int code = -1;
    run(host.connection(), "docker pull -q " + kImage, &code);
    QCOMPARE(code, 0);
    run(host.connection(),
        "docker run --name fd-nojit " + kImage +
            " python3 -m sglang.launch_server --model-path MiniMaxAI/MiniMax-M3.1-Flash --tp 4 --port 30000",
        &code);
    QCOMPARE(code, 1);
    const QByteArray log = run(host.connection(), "docker logs fd-nojit 2>&1");
    QVERIFY(log.contains("JIT compilation is disabled"));
    QVERIFY(log.contains("FMHA_SM100_ALLOW_JIT=1"));
}

/**
 * A real disk fills: after a pull `df` has less free by the unpacked image, after weights land in a
 * container's bound Hugging Face cache less by their size, and after `docker rmi` and the cache's
 * removal it is back where it was (the window and `status` once showed the same free space before
 * and after 252 GB of weights, a pull and a prune).
 */
void TestSimScenarios::df_fallsWithThePullAndTheWeights_andComesBackWhenTheyGo()
{
    SimHostFixture host;
    QString error;
    QVERIFY2(host.start(QStringLiteral("b300x4"), &error), qPrintable(error));
    ssh::HostConnection &c = host.connection();
    const auto free = [&] {
        const auto disk = probe::parseDf(run(c, "df -B1 --output=avail,target \"$HOME\""));
        return disk ? disk.value().availBytes : -1;
    };
    const qint64 before = free();
    QCOMPARE(before, 3840000000000LL); // the scenario's disk

    int code = -1;
    run(c, "docker pull -q " + kImage, &code);
    QCOMPARE(code, 0);
    const qint64 imageBytes = run(c, "docker image inspect --format '{{.Size}}' " + kImage).trimmed().toLongLong();
    QVERIFY(imageBytes > 0);
    const qint64 afterPull = free();
    QVERIFY2(std::llabs(before - afterPull - imageBytes) < 1000000, // each layer's share, rounded
             qPrintable(QStringLiteral("%1 → %2, image %3").arg(before).arg(afterPull).arg(imageBytes)));

    // 20 GB of weights (sparse: apparent size, as the simulated shards) in the bound cache.
    const QByteArray cache = run(c, "mktemp -d", &code).trimmed();
    QVERIFY(code == 0 && cache.startsWith('/'));
    run(c, "mkdir " + cache + "/hub && truncate -s 20000000000 " + cache + "/hub/shard", &code);
    QCOMPARE(code, 0);
    run(c, "docker create --name fd-df -v " + cache + ":/root/.cache/huggingface " + kImage + " true", &code);
    QCOMPARE(code, 0);
    QCOMPARE(free(), afterPull - 20000000000LL);

    run(c, "docker rm fd-df && rm -rf " + cache + " && docker rmi " + kImage, &code);
    QCOMPARE(code, 0);
    QCOMPARE(free(), before);
}

QTEST_GUILESS_MAIN(TestSimScenarios)
#include "tst_simscenarios.moc"
