#include "backend/core/jsonread.h"
#include "backend/probe/amdsmi.h"
#include "backend/probe/hostfacts.h"
#include "backend/probe/nvidiasmi.h"
#include "tests/support/buildpaths.h"

#include <QDateTime>
#include <QFile>
#include <QTest>

#include <ctime>

using namespace flashdeck::probe;

namespace {
QByteArray data(const QString &name)
{
    QFile f(flashdeck::test::testData(u"/nvidia-smi-h200x2/") + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray amdData(const char *name)
{
    QFile f(flashdeck::test::testData(u"/amd-smi/") + QLatin1String(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
} // namespace

/** The probe parsers on real captures (tests/data) and the real tools' documented shapes. */
class TestProbeParsers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    /** A zone that is not UTC, so that a timestamp read as local time would fail (CI runs in UTC). */
    void initTestCase()
    {
        qputenv("TZ", "Asia/Kolkata");
        ::tzset();
    }
    void untrustedJson_depthIsBounded_data();
    void untrustedJson_depthIsBounded();
    void amdSmi_nestingBomb_isRefusedBeforeParsing();
    void nvidiaXml_realH200Capture();
    void nvidiaXml_brokenSaysSo();
    void csvRow_realCapture();
    void gpuSample_data();
    void gpuSample();
    void versions_compareNumerically();
    void df_data();
    void df();
    void meminfo();
    void ss_listeningPorts();
    void amdSmi_bothShapesAndNA();
    void rocmSmi_stringsAndNA_data();
    void rocmSmi_stringsAndNA();
    void amdSmiStatic_realMi210_namesTheGpu();
    void amdSmiStatic_listShapeAndNA();
    void amdSmiProcess_realMi300x_andTheFullKeys();
    void rocmSmiPids_realMi300x();
};

void TestProbeParsers::nvidiaXml_realH200Capture()
{
    const auto d = parseNvidiaSmiXml(data(QStringLiteral("nvidia-smi-q-idle.xml")));
    QVERIFY2(d, qPrintable(d.message()));
    QCOMPARE(d.value().driverVersion, QStringLiteral("580.159.04"));
    QCOMPARE(d.value().cudaVersion, QStringLiteral("13.0")); // < 13.4: F07 fails on this host
    QCOMPARE(d.value().gpus.size(), 2);
    QCOMPARE(d.value().gpus.at(1).architecture, QStringLiteral("Hopper")); // <product_architecture>
    QCOMPARE(d.value().gpus.at(1).name, QStringLiteral("NVIDIA H200"));
    QCOMPARE(d.value().gpus.at(0).memoryTotalMiB, 143771);
    QVERIFY(d.value().gpus.at(0).uuid.startsWith(QLatin1String("GPU-53c876d4")));
    QVERIFY(d.value().gpus.at(0).processes.isEmpty()); // idle: nothing holds memory

    // The same machine while a PyTorch job held ~46 GB of each GPU.
    const auto busy = parseNvidiaSmiXml(data(QStringLiteral("nvidia-smi-q-busy.xml")));
    QVERIFY2(busy, qPrintable(busy.message()));
    QCOMPARE(busy.value().gpus.size(), 2);
    for (const NvidiaGpu &g : busy.value().gpus) {
        QCOMPARE(g.processes.size(), 1);
        QCOMPARE(g.processes.at(0).pid, 578);
        QCOMPARE(g.processes.at(0).name, QStringLiteral("python3"));
        QCOMPARE(g.processes.at(0).type, QStringLiteral("C"));
    }
    QCOMPARE(busy.value().gpus.at(0).processes.at(0).usedMemoryMiB, 46300);
    // fb_memory_usage's own figure, sampled a moment apart from the process list (they differ).
    QCOMPARE(busy.value().gpus.at(0).memoryUsedMiB, 46309);
    QCOMPARE(busy.value().gpus.at(1).processes.at(0).usedMemoryMiB, 46428);
}

void TestProbeParsers::nvidiaXml_brokenSaysSo()
{
    QVERIFY(!parseNvidiaSmiXml("<nvidia_smi_log><driver_version>1</driver"));
    const auto noCuda = parseNvidiaSmiXml("<nvidia_smi_log><driver_version>1</driver_version></nvidia_smi_log>");
    QVERIFY(!noCuda);
    QVERIFY(noCuda.message().contains(QLatin1String("CUDA")));
}

void TestProbeParsers::csvRow_realCapture()
{
    const QList<QByteArray> lines = data(QStringLiteral("query-gpu-csv-noheader-nounits-head.txt")).split('\n');
    const QStringList f = splitCsvRow(lines.first());
    QCOMPARE(f.size(), 16);
    QCOMPARE(f.at(2), QStringLiteral("NVIDIA H200"));
    QCOMPARE(f.at(6), QStringLiteral("143771"));
    QCOMPARE(f.at(12), QStringLiteral("79.12"));
}

void TestProbeParsers::gpuSample_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("used");
    QTest::addColumn<bool>("hasPower");
    QTest::addColumn<qint64>("hostTimeMs"); // -1: none
    QTest::newRow("b300") << QByteArray("2, NVIDIA B300 SXM6 AC, GPU-5b3, 293660, 234928, 92, 71, 932.00, 1100.00")
                          << true << qint64(234928) << true << qint64(-1);
    QTest::newRow("power N/A") << QByteArray("0, NVIDIA H200, GPU-53c, 143771, 0, 0, 41, [N/A], 700.00") << true
                               << qint64(0) << false << qint64(-1);
    QTest::newRow("short") << QByteArray("0, NVIDIA H200") << false << qint64(0) << false << qint64(-1);
    QTest::newRow("no index") << QByteArray("x, NVIDIA H200, GPU-53c, 143771, 0, 0, 41, 79, 700") << false << qint64(0)
                              << false << qint64(-1);
    // The stream's lines begin with nvidia-smi's timestamp, as the real capture prints it
    // (tests/data/nvidia-smi-h200x2/query-gpu-csv-noheader-nounits-head.txt), read as UTC.
    QTest::newRow("stream, timestamp")
        << QByteArray("2026/11/30 07:37:27.246, 0, NVIDIA H200, GPU-53c, 143771, 0, 0, 41, 79.12, 700.00") << true
        << qint64(0) << true << QDateTime(QDate(2026, 11, 30), QTime(7, 37, 27, 246), Qt::UTC).toMSecsSinceEpoch();
    QTest::newRow("stream, not a time") << QByteArray("soon, 0, NVIDIA H200, GPU-53c, 143771, 0, 0, 41, 79.12, 700.00")
                                        << true << qint64(0) << true << qint64(-1);
}

void TestProbeParsers::gpuSample()
{
    QFETCH(QByteArray, line);
    QFETCH(bool, ok);
    QFETCH(qint64, used);
    QFETCH(bool, hasPower);
    QFETCH(qint64, hostTimeMs);
    const auto s = parseGpuSample(line);
    QCOMPARE(bool(s), ok);
    if (ok) {
        QCOMPARE(s.value().memoryUsedMiB.value_or(-1), used);
        QCOMPARE(s.value().powerW.has_value(), hasPower);
        QCOMPARE(s.value().hostTimeMs.value_or(-1), hostTimeMs);
        QVERIFY2(s.value().name.startsWith(QLatin1String("NVIDIA ")), qPrintable(s.value().name)); // fields in place
    } else {
        QVERIFY(!s.message().isEmpty());
    }
}

void TestProbeParsers::versions_compareNumerically()
{
    QVERIFY(compareVersions(QStringLiteral("13.0"), QStringLiteral("13.4")) < 0);
    QVERIFY(compareVersions(QStringLiteral("13.10"), QStringLiteral("13.4")) > 0);
    QCOMPARE(compareVersions(QStringLiteral("13.4"), QStringLiteral("13.4.0")), 0);
    QVERIFY(compareVersions(QStringLiteral("12.9"), QStringLiteral("13")) < 0);
}

void TestProbeParsers::df_data()
{
    QTest::addColumn<QByteArray>("output");
    QTest::addColumn<qint64>("avail");
    QTest::addColumn<QString>("mount");
    QTest::newRow("gnu df") << QByteArray("       Avail Mounted on\n75053461504 /\n") << qint64(75053461504) << "/";
    QTest::newRow("space in mount") << QByteArray("Avail Mounted on\n180000000000 /mnt/fast disk\n")
                                    << qint64(180000000000) << "/mnt/fast disk";
    QTest::newRow("error") << QByteArray("df: /nope: No such file or directory\n") << qint64(-1) << "";
}

void TestProbeParsers::df()
{
    QFETCH(QByteArray, output);
    QFETCH(qint64, avail);
    QFETCH(QString, mount);
    const auto d = parseDf(output);
    QCOMPARE(bool(d), avail >= 0);
    if (d) {
        QCOMPARE(d.value().availBytes, avail);
        QCOMPARE(d.value().mountPoint, mount);
    }
}

void TestProbeParsers::meminfo()
{
    const auto m = parseMeminfo("MemTotal:       2113407488 kB\nMemFree:        1986603038 kB\n"
                                "MemAvailable:   2050005263 kB\n");
    QVERIFY(m);
    QCOMPARE(m.value().totalBytes, 2113407488LL * 1024);
    QCOMPARE(m.value().availableBytes, 2050005263LL * 1024);
    QVERIFY(!parseMeminfo("nothing here"));
}

void TestProbeParsers::ss_listeningPorts()
{
    const QByteArray out = "LISTEN 0      128        127.0.0.1:30000      0.0.0.0:*          \n"
                           "LISTEN 0      4096       0.0.0.0:22           0.0.0.0:*\n"
                           "LISTEN 0      511        [::]:8080            [::]:*\n"
                           "LISTEN 0      4096       127.0.0.53%lo:53     0.0.0.0:*\n";
    const auto sockets = parseSsListening(out);
    QCOMPARE(sockets.size(), 4);
    QVERIFY(portTaken(sockets, 30000));
    QVERIFY(portTaken(sockets, 8080)); // [::] covers IPv4 loopback too on Linux by default
    QVERIFY(!portTaken(sockets, 30001));
    QCOMPARE(sockets.at(3).address, QStringLiteral("127.0.0.53"));
}

void TestProbeParsers::amdSmi_bothShapesAndNA()
{
    const QByteArray gpu = R"({"gpu": 3, "mem_usage": {"total_vram": {"value": 294896, "unit": "MB"},
        "used_vram": "N/A"}, "usage": {"gfx_activity": {"value": 57, "unit": "%"}},
        "temperature": {"edge": "N/A", "hotspot": {"value": 61, "unit": "C"}}, "power": "N/A"})";
    const auto wrapped = parseAmdSmiMetric("{\"gpu_data\": [" + gpu + "]}");
    const auto list = parseAmdSmiMetric("[" + gpu + "]");
    QVERIFY(wrapped);
    QVERIFY(list);
    for (const auto &r : {wrapped.value(), list.value()}) {
        QCOMPARE(r.size(), 1);
        QCOMPARE(r.first().index, 3);
        QCOMPARE(r.first().memoryTotalMiB.value_or(0), qint64(294896 * 1e6 / 1048576.0));
        QVERIFY(!r.first().memoryUsedMiB);
        QCOMPARE(r.first().utilizationGpu.value_or(-1), 57);
        QCOMPARE(r.first().temperatureC.value_or(0), 61.0);
        QVERIFY(!r.first().powerW);
    }
    QVERIFY(!parseAmdSmiMetric("WARNING: No JSON data to report"));
}

void TestProbeParsers::rocmSmi_stringsAndNA_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<int>("cards");
    QTest::addColumn<int>("utilization"); // of the first card; -1 absent
    QTest::addColumn<qint64>("usedMiB"); // -1 absent
    // sglang-facts §13: the real single-card example (marimo-team/marimo issue #9237), verbatim fields.
    QTest::newRow("real single card")
        << QByteArray(
               R"J({"card0": {"GPU use (%)": "0", "VRAM Total Memory (B)": "21458059264", "VRAM Total Used Memory (B)": "27856896"}})J")
        << 1 << 0 << qint64(27856896 / 1048576);
    QTest::newRow("system key, N/A, rocm 5.7 without VRAM%")
        << QByteArray(
               R"J({"system": {"Driver version": "6.7.0"}, "card1": {"GPU use (%)": "N/A", "Memory Activity": "N/A", "VRAM Total Memory (B)": "309220868096", "VRAM Total Used Memory (B)": "N/A"}, "card0": {"GPU use (%)": "87", "VRAM Total Memory (B)": "309220868096", "VRAM Total Used Memory (B)": "207220868096"}})J")
        << 2 << 87 << qint64(207220868096 / 1048576);
}

void TestProbeParsers::rocmSmi_stringsAndNA()
{
    QFETCH(QByteArray, json);
    QFETCH(int, cards);
    QFETCH(int, utilization);
    QFETCH(qint64, usedMiB);
    const auto r = parseRocmSmi(json);
    QVERIFY2(r, qPrintable(r.message()));
    QCOMPARE(r.value().size(), cards);
    QCOMPARE(r.value().first().index, 0); // sorted by card number
    QCOMPARE(r.value().first().utilizationGpu.value_or(-1), utilization);
    QCOMPARE(r.value().first().memoryUsedMiB.value_or(-1), usedMiB);
    if (cards == 2) {
        QVERIFY(!r.value().at(1).utilizationGpu); // "N/A" is missing, not 0
        QVERIFY(!r.value().at(1).memoryUsedMiB);
        QVERIFY(r.value().at(1).memoryTotalMiB);
    }
    QVERIFY(!parseRocmSmi("WARNING: No JSON data to report\n"));
    QVERIFY(!parseRocmSmi("{}"));
}

void TestProbeParsers::untrustedJson_depthIsBounded_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("parsed");
    const int max = flashdeck::jsonread::kMaxDepth;
    QTest::newRow("at the limit") << QByteArray(max, '[') + QByteArray(max, ']') << true;
    QTest::newRow("one deeper") << QByteArray(max + 1, '[') + QByteArray(max + 1, ']') << false;
    QTest::newRow("objects count too") << QByteArray("{\"a\":").repeated(max + 1) + "1" + QByteArray(max + 1, '}')
                                       << false;
    QTest::newRow("brackets in strings do not count")
        << "[\"" + QByteArray(1000, '[') + "\\\"" + QByteArray(1000, '{') + "\"]" << true;
    QTest::newRow("closing brackets do not go negative") << QByteArray("]]]]") << false;
}

void TestProbeParsers::untrustedJson_depthIsBounded()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, parsed);
    const auto j = flashdeck::jsonread::parse(text.constData(), text.constData() + text.size());
    QCOMPARE(!j.is_discarded(), parsed);
}

void TestProbeParsers::amdSmi_nestingBomb_isRefusedBeforeParsing()
{
    // 4 MiB of '[' (the capture limit of a host command): nlohmann would build 4 M arrays.
    const QByteArray bomb(4 * 1024 * 1024, '[');
    const auto r = parseAmdSmiMetric(bomb);
    QVERIFY(!r);
    QVERIFY(r.status().message().contains(QLatin1String("not a GPU list")));
}

void TestProbeParsers::amdSmiStatic_realMi210_namesTheGpu()
{
    const QByteArray text = amdData("static-mi210.json");
    QVERIFY(!text.isEmpty());
    const auto names = parseAmdSmiStatic(text);
    QVERIFY2(names, qPrintable(names.message()));
    QCOMPARE(names.value().size(), 1);
    QCOMPARE(names.value().value(0), QStringLiteral("AMD Instinct MI210"));
    // metric has no name anywhere: the static answer is the only place.
    QVERIFY(!parseAmdSmiStatic("{\"card0\": {}}"));
}

void TestProbeParsers::amdSmiStatic_listShapeAndNA()
{
    const QByteArray list = R"([{"gpu": 0, "asic": {"market_name": "AMD Instinct MI355X"}},
                                {"gpu": 1, "asic": {"market_name": "N/A"}},
                                {"gpu": 2, "asic": "N/A"}, {"gpu": "x"}])";
    const auto names = parseAmdSmiStatic(list);
    QVERIFY(names);
    QCOMPARE(names.value().value(0), QStringLiteral("AMD Instinct MI355X"));
    QVERIFY(names.value().contains(1) && names.value().value(1).isEmpty()); // there, not named
    QVERIFY(names.value().contains(2) && names.value().value(2).isEmpty());
    QCOMPARE(names.value().size(), 3);
}

void TestProbeParsers::amdSmiProcess_realMi300x_andTheFullKeys()
{
    const auto real = parseAmdSmiProcess(amdData("process-mi300x.json"));
    QVERIFY2(real, qPrintable(real.message()));
    QCOMPARE(real.value().value(0).size(), 1);
    const GpuProcess p = real.value().value(0).first();
    QCOMPARE(p.pid, 28389);
    QCOMPARE(p.name, QStringLiteral("llama-server"));
    QCOMPARE(p.usedMemoryMiB, 2353860608LL / 1048576); // mem_usage, in bytes
    // The keys ROCm/amdsmi's process() prints: vram_mem is the GPU's share; "No running
    // processes detected" is a string where a GPU has none.
    const QByteArray full = R"({"gpu_data": [
        {"gpu": 0, "process_list": [{"process_info": {"name": "python3", "pid": 41207,
            "memory_usage": {"gtt_mem": {"value": 2097152, "unit": "B"}, "cpu_mem": {"value": 0, "unit": "B"},
                             "vram_mem": {"value": 153962577920, "unit": "B"}},
            "mem_usage": {"value": 153964675072, "unit": "B"},
            "usage": {"gfx": {"value": 0, "unit": "ns"}, "enc": {"value": 0, "unit": "ns"}}}}]},
        {"gpu": 1, "process_list": [{"process_info": "No running processes detected"}]}]})";
    const auto held = parseAmdSmiProcess(full);
    QVERIFY(held);
    QCOMPARE(held.value().value(0).size(), 1);
    QCOMPARE(held.value().value(0).first().usedMemoryMiB, 146830);
    QVERIFY(held.value().contains(1) && held.value().value(1).isEmpty());
    QVERIFY(!parseAmdSmiProcess("WARNING: nothing"));
}

void TestProbeParsers::rocmSmiPids_realMi300x()
{
    const QList<RocmSmiProcess> pids = parseRocmSmiPids(amdData("rocm-smi-pids-mi300x.json"));
    QCOMPARE(pids.size(), 1);
    QCOMPARE(pids.first().process.pid, 28389);
    QCOMPARE(pids.first().process.name, QStringLiteral("llama-server"));
    QCOMPARE(pids.first().gpuCount, 1);
    QCOMPARE(pids.first().process.usedMemoryMiB, 2353860608LL / 1048576);
    QVERIFY(parseRocmSmiPids("WARNING: No JSON data to report").isEmpty()); // no KFD process
}

QTEST_GUILESS_MAIN(TestProbeParsers)
#include "tst_probeparsers.moc"
