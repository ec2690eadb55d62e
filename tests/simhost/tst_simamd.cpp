#include "backend/probe/amdsmi.h"
#include "tests/simhost/simhostfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace flashdeck;
using namespace flashdeck::test;

/** The simulated amd-smi and rocm-smi over real SSH, in the shapes real releases print. */
class TestSimAmd : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { m_host.stop(); }
    void amdSmi_wrappedShape_eightGpus_followsLoad();
    void amdSmi_listShape_olderReleases();
    void rocmSmi_stringsOnly_perRequestedOption();
    void rocmSmi_noOption_warnsLikeTheRealTool();
    void amdSmiStatic_namesEveryGpu();
    void amdSmiProcess_idleAndBusy();
    void rocmSmiPids_busyHost();

private:
    SimHostFixture m_host;
};

void TestSimAmd::initTestCase()
{
    QString error;
    if (!m_host.start(QStringLiteral("mi355x-x8"), &error)) {
        QSKIP(qPrintable(error));
    }
}

void TestSimAmd::amdSmi_wrappedShape_eightGpus_followsLoad()
{
    QVERIFY(m_host.writeLoad({4}, 150000, 88, 1020.5, 71));
    const auto r = runAndWait(m_host.connection(), "amd-smi metric --json");
    m_host.clearLoad();
    QVERIFY(r.succeeded());
    const QJsonArray gpus = QJsonDocument::fromJson(r.stdoutData).object().value(QStringLiteral("gpu_data")).toArray();
    QCOMPARE(gpus.size(), 8);
    const QJsonObject g4 = gpus.at(4).toObject();
    QCOMPARE(g4.value(QStringLiteral("gpu")).toInt(), 4);
    const QJsonObject mem = g4.value(QStringLiteral("mem_usage")).toObject();
    QCOMPARE(mem.value(QStringLiteral("used_vram")).toObject().value(QStringLiteral("value")).toInt(), 150000);
    QCOMPARE(mem.value(QStringLiteral("total_vram")).toObject().value(QStringLiteral("unit")).toString(),
             QStringLiteral("MB"));
    const QJsonObject usage = g4.value(QStringLiteral("usage")).toObject();
    QCOMPARE(usage.value(QStringLiteral("gfx_activity")).toObject().value(QStringLiteral("value")).toInt(), 88);
    QCOMPARE(usage.value(QStringLiteral("mm_activity")).toString(), QStringLiteral("N/A")); // "N/A" strings, as real
    QCOMPARE(gpus.at(0)
                 .toObject()
                 .value(QStringLiteral("usage"))
                 .toObject()
                 .value(QStringLiteral("gfx_activity"))
                 .toObject()
                 .value(QStringLiteral("value"))
                 .toInt(),
             0);
}

void TestSimAmd::amdSmi_listShape_olderReleases()
{
    // Same GPUs, older amd-smi: a top-level list.
    QFile scenario(m_host.simDir() + QStringLiteral("/scenario.json"));
    QVERIFY(scenario.open(QIODevice::ReadOnly));
    QByteArray text = scenario.readAll();
    scenario.close();
    text.replace("\"amd_smi_shape\": \"wrapped\"", "\"amd_smi_shape\": \"list\"");
    QVERIFY(scenario.open(QIODevice::WriteOnly | QIODevice::Truncate));
    scenario.write(text);
    scenario.close();
    const auto r = runAndWait(m_host.connection(), "amd-smi metric --json");
    QVERIFY(m_host.useScenario(QStringLiteral("mi355x-x8")));
    QVERIFY(r.succeeded());
    const QJsonDocument doc = QJsonDocument::fromJson(r.stdoutData);
    QVERIFY(doc.isArray());
    QCOMPARE(doc.array().size(), 8);
}

void TestSimAmd::rocmSmi_stringsOnly_perRequestedOption()
{
    QVERIFY(m_host.writeLoad({0}, 147448, 50));
    const auto r = runAndWait(m_host.connection(), "rocm-smi --showuse --showmemuse --showmeminfo vram --json");
    m_host.clearLoad();
    QVERIFY(r.succeeded());
    const QJsonObject cards = QJsonDocument::fromJson(r.stdoutData).object();
    QCOMPARE(cards.size(), 8);
    const QJsonObject c0 = cards.value(QStringLiteral("card0")).toObject();
    for (auto it = c0.begin(); it != c0.end(); ++it) {
        QVERIFY2(it.value().isString(), qPrintable(it.key())); // all values are strings
    }
    QCOMPARE(c0.value(QStringLiteral("GPU use (%)")).toString(), QStringLiteral("50"));
    QCOMPARE(c0.value(QStringLiteral("VRAM Total Used Memory (B)")).toString(),
             QString::number(qint64(147448) * 1024 * 1024));
    QCOMPARE(c0.value(QStringLiteral("GPU Memory Allocated (VRAM%)")).toString(), QStringLiteral("50"));

    const auto onlyUse = runAndWait(m_host.connection(), "rocm-smi --showuse --json");
    const QJsonObject c =
        QJsonDocument::fromJson(onlyUse.stdoutData).object().value(QStringLiteral("card3")).toObject();
    QCOMPARE(c.keys(), QStringList{QStringLiteral("GPU use (%)")});
}

void TestSimAmd::rocmSmi_noOption_warnsLikeTheRealTool()
{
    const auto r = runAndWait(m_host.connection(), "rocm-smi --json");
    QVERIFY(r.succeeded());
    QCOMPARE(r.stdoutData.trimmed(), QByteArray("WARNING: No JSON data to report"));
}

void TestSimAmd::amdSmiStatic_namesEveryGpu()
{
    // The name is in static's asic section, never in metric (a real MI210's keys: see tools/amd_smi.cpp).
    const auto whole = runAndWait(m_host.connection(), "amd-smi static --json");
    QVERIFY(whole.succeeded());
    const QJsonArray gpus =
        QJsonDocument::fromJson(whole.stdoutData).object().value(QStringLiteral("gpu_data")).toArray();
    QCOMPARE(gpus.size(), 8);
    const QJsonObject g7 = gpus.at(7).toObject();
    QCOMPARE(g7.value(QStringLiteral("gpu")).toInt(), 7);
    for (const char *section : {"asic", "bus", "vbios", "limit", "driver", "board", "vram"}) {
        QVERIFY2(g7.contains(QLatin1String(section)), section);
    }
    const QJsonObject asic = g7.value(QStringLiteral("asic")).toObject();
    QCOMPARE(asic.value(QStringLiteral("market_name")).toString(), QStringLiteral("AMD Instinct MI355X"));
    QCOMPARE(asic.value(QStringLiteral("vendor_name")).toString(),
             QStringLiteral("Advanced Micro Devices Inc. [AMD/ATI]"));
    QCOMPARE(asic.value(QStringLiteral("target_graphics_version")).toString(), QStringLiteral("gfx950"));
    QVERIFY(whole.stdoutData.indexOf("\"market_name\"") < whole.stdoutData.indexOf("\"vendor_id\"")); // its order

    const auto asicOnly = runAndWait(m_host.connection(), "amd-smi static --asic --json");
    QVERIFY(asicOnly.succeeded());
    const QJsonObject first = QJsonDocument::fromJson(asicOnly.stdoutData)
                                  .object()
                                  .value(QStringLiteral("gpu_data"))
                                  .toArray()
                                  .at(0)
                                  .toObject();
    QCOMPARE(first.keys(), (QStringList{QStringLiteral("asic"), QStringLiteral("gpu")}));
    const auto names = probe::parseAmdSmiStatic(asicOnly.stdoutData);
    QVERIFY2(names, qPrintable(names.message()));
    QCOMPARE(names.value().size(), 8);
    QCOMPARE(names.value().value(3), QStringLiteral("AMD Instinct MI355X"));
}

void TestSimAmd::amdSmiProcess_idleAndBusy()
{
    const auto idle = runAndWait(m_host.connection(), "amd-smi process --json");
    QVERIFY(idle.succeeded());
    const QJsonArray gpus =
        QJsonDocument::fromJson(idle.stdoutData).object().value(QStringLiteral("gpu_data")).toArray();
    QCOMPARE(gpus.size(), 8);
    const QJsonArray none = gpus.at(0).toObject().value(QStringLiteral("process_list")).toArray();
    QCOMPARE(none.size(), 1);
    QCOMPARE(none.at(0).toObject().value(QStringLiteral("process_info")).toString(),
             QStringLiteral("No running processes detected"));

    QVERIFY(m_host.useScenario(QStringLiteral("mi355x-busy")));
    const auto busy = runAndWait(m_host.connection(), "amd-smi process --json");
    QVERIFY(m_host.useScenario(QStringLiteral("mi355x-x8")));
    QVERIFY(busy.succeeded());
    const auto held = probe::parseAmdSmiProcess(busy.stdoutData);
    QVERIFY2(held, qPrintable(held.message()));
    QCOMPARE(held.value().size(), 8);
    for (int gpu = 0; gpu < 8; ++gpu) {
        QCOMPARE(held.value().value(gpu).size(), 1);
        QCOMPARE(held.value().value(gpu).first().pid, 52113);
        QCOMPARE(held.value().value(gpu).first().name, QStringLiteral("python3"));
        QCOMPARE(held.value().value(gpu).first().usedMemoryMiB, 147448);
    }
    const QJsonObject info = QJsonDocument::fromJson(busy.stdoutData)
                                 .object()
                                 .value(QStringLiteral("gpu_data"))
                                 .toArray()
                                 .at(0)
                                 .toObject()
                                 .value(QStringLiteral("process_list"))
                                 .toArray()
                                 .at(0)
                                 .toObject()
                                 .value(QStringLiteral("process_info"))
                                 .toObject();
    QCOMPARE(info.value(QStringLiteral("mem_usage")).toObject().value(QStringLiteral("unit")).toString(),
             QStringLiteral("B"));
    QVERIFY(info.value(QStringLiteral("memory_usage")).toObject().contains(QStringLiteral("vram_mem")));
}

void TestSimAmd::rocmSmiPids_busyHost()
{
    const auto idle = runAndWait(m_host.connection(), "rocm-smi --showpids --json");
    QCOMPARE(idle.stdoutData.trimmed(), QByteArray("WARNING: No JSON data to report")); // no KFD process
    QVERIFY(m_host.useScenario(QStringLiteral("mi355x-busy")));
    const auto busy = runAndWait(m_host.connection(), "rocm-smi --showmeminfo vram --showpids --json");
    QVERIFY(m_host.useScenario(QStringLiteral("mi355x-x8")));
    QVERIFY(busy.succeeded());
    const QJsonObject all = QJsonDocument::fromJson(busy.stdoutData).object();
    QCOMPARE(all.value(QStringLiteral("system")).toObject().value(QStringLiteral("PID52113")).toString(),
             QStringLiteral("python3, 8, %1, 0, 0").arg(qint64(147448) * 8 * 1024 * 1024));
    const QList<probe::RocmSmiProcess> pids = probe::parseRocmSmiPids(busy.stdoutData);
    QCOMPARE(pids.size(), 1);
    QCOMPARE(pids.first().gpuCount, 8);
    const auto cards = probe::parseRocmSmi(busy.stdoutData);
    QVERIFY(cards);
    QCOMPARE(cards.value().size(), 8); // "system" is no card
}

QTEST_GUILESS_MAIN(TestSimAmd)
#include "tst_simamd.moc"
