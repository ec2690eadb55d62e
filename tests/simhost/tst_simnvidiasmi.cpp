#include "backend/deploy/checks.h"
#include "backend/probe/nvidiasmi.h"
#include "backend/recipe/recipe.h"
#include "tests/simhost/simhostfixture.h"
#include "tests/support/buildpaths.h"
#include "tests/support/sshtesthelpers.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace flashdeck;
using namespace flashdeck::test;

namespace {

QByteArray readData(const QString &name)
{
    QFile f(flashdeck::test::testData(u"/nvidia-smi-h200x2/") + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

const QByteArray kFixtureQuery = "timestamp,index,name,uuid,driver_version,pci.bus_id,memory.total,memory.used,"
                                 "memory.free,utilization.gpu,utilization.memory,temperature.gpu,power.draw,"
                                 "power.limit,clocks.sm,pstate";

// Element paths of the first <gpu> block: the structure a parser walks.
QStringList gpuStructure(const QByteArray &xml)
{
    QXmlStreamReader r(xml);
    QStringList path;
    QStringList out;
    bool inGpu = false;
    while (!r.atEnd()) {
        r.readNext();
        if (r.isStartElement()) {
            path.append(r.name().toString());
            if (path.size() == 2 && path.last() == QStringLiteral("gpu")) {
                if (!out.isEmpty()) {
                    break; // first GPU only
                }
                inGpu = true;
            }
            if (inGpu) {
                out.append(path.join(QLatin1Char('/')));
            }
        } else if (r.isEndElement()) {
            path.removeLast();
        }
    }
    return out;
}

QString firstText(const QByteArray &xml, const QString &element)
{
    QXmlStreamReader r(xml);
    while (r.readNextStartElement() || !r.atEnd()) {
        if (r.isStartElement() && r.name() == element) {
            return r.readElementText();
        }
        if (!r.isStartElement()) {
            r.readNext();
        }
    }
    return {};
}

} // namespace

/** The simulated nvidia-smi, run over real SSH, against the real H200 fixture formats. */
class TestSimNvidiaSmi : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void listGpus_matchesFixtureExactly();
    void version_matchesFixtureExactly();
    void queryCsv_headerAndColumnsMatchFixture_data();
    void queryCsv_headerAndColumnsMatchFixture();
    void streaming_followsTheSimulatedLoad();
    void queryXml_hasTheRealStructure();
    void unknownField_failsLikeTheRealTool();
    void b300Scenario_fourGpusWith288GbClassMemory();
    void plainTable_hasTheBoxLayoutAndTheLoad();
    void h200x8Scenario_eightHopperGpus_qmul4NotChecked();

private:
    ssh::HostConnection &conn() { return m_host.connection(); }
    SimHostFixture m_host;
};

void TestSimNvidiaSmi::initTestCase()
{
    QString error;
    if (!m_host.start(QStringLiteral("h200x2"), &error)) {
        QSKIP(qPrintable(error));
    }
    // The simulated tool is the one on PATH, not a real driver's.
    QCOMPARE(runAndWait(conn(), "command -v nvidia-smi").stdoutData.trimmed(),
             flashdeck::test::simBin().toUtf8() + "/nvidia-smi");
}

void TestSimNvidiaSmi::cleanupTestCase()
{
    m_host.stop();
}

void TestSimNvidiaSmi::listGpus_matchesFixtureExactly()
{
    const auto r = runAndWait(conn(), "nvidia-smi -L");
    QVERIFY(r.succeeded());
    QCOMPARE(r.stdoutData, readData(QStringLiteral("nvidia-smi-L.txt")));
}

void TestSimNvidiaSmi::version_matchesFixtureExactly()
{
    const auto r = runAndWait(conn(), "nvidia-smi --version");
    QVERIFY(r.succeeded());
    QCOMPARE(r.stdoutData.trimmed(), readData(QStringLiteral("version.txt")).trimmed());
}

void TestSimNvidiaSmi::queryCsv_headerAndColumnsMatchFixture_data()
{
    QTest::addColumn<QByteArray>("format");
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<bool>("header");
    QTest::newRow("csv") << QByteArray("csv") << QStringLiteral("query-gpu-csv-stream-head.txt") << true;
    QTest::newRow("csv,noheader,nounits")
        << QByteArray("csv,noheader,nounits") << QStringLiteral("query-gpu-csv-noheader-nounits-head.txt") << false;
}

void TestSimNvidiaSmi::queryCsv_headerAndColumnsMatchFixture()
{
    QFETCH(QByteArray, format);
    QFETCH(QString, fixture);
    QFETCH(bool, header);
    const auto r = runAndWait(conn(), "nvidia-smi --query-gpu=" + kFixtureQuery + " --format=" + format);
    QVERIFY(r.succeeded());
    const QList<QByteArray> got = r.stdoutData.trimmed().split('\n');
    const QList<QByteArray> want = readData(fixture).trimmed().split('\n');
    QCOMPARE(got.size(), header ? 3 : 2);
    int row = 0;
    if (header) {
        QCOMPARE(got.first(), want.first()); // including "clocks.current.sm [MHz]"
        row = 1;
    }
    for (int i = row; i < got.size(); ++i) {
        const QList<QByteArray> g = got.at(i).split(',');
        const QList<QByteArray> w = want.at(i).split(',');
        QCOMPARE(g.size(), w.size());
        // Static columns identical: index, name, uuid, driver, bus id, total, power limit, pstate.
        for (int col : {1, 2, 3, 4, 5, 6, 13, 15}) {
            QCOMPARE(g.at(col), w.at(col));
        }
        // Dynamic columns keep the real shape (units, decimals).
        QVERIFY(QRegularExpression(QStringLiteral("^\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}$"))
                    .match(QString::fromUtf8(g.at(0)))
                    .hasMatch());
        QCOMPARE(g.at(12).endsWith(" W"), w.at(12).endsWith(" W"));
        QCOMPARE(g.at(12).contains('.'), true);
        QCOMPARE(g.at(7).endsWith(" MiB"), w.at(7).endsWith(" MiB"));
    }
}

void TestSimNvidiaSmi::streaming_followsTheSimulatedLoad()
{
    ssh::RemoteCommand cmd;
    cmd.commandLine = "nvidia-smi --query-gpu=index,memory.used,utilization.gpu --format=csv,noheader,nounits -lms 100";
    QList<QByteArray> lines;
    QObject ctx;
    connect(&conn(), &ssh::HostConnection::commandOutput, &ctx,
            [&lines](quint64, const QList<QByteArray> &out, const QList<QByteArray> &) { lines += out; });
    const quint64 id = conn().run(cmd);
    QTRY_VERIFY_WITH_TIMEOUT(lines.size() >= 4, 10000);
    QVERIFY(lines.contains("0, 0, 0"));
    QVERIFY(m_host.writeLoad({0}, 46309, 97)); // the fixture's busy figure for GPU 0
    QTRY_VERIFY_WITH_TIMEOUT(lines.contains("0, 46309, 97"), 10000);
    QSignalSpy finished(&conn(), &ssh::HostConnection::commandFinished);
    conn().cancel(id);
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 10000);
    m_host.clearLoad();
}

void TestSimNvidiaSmi::queryXml_hasTheRealStructure()
{
    QVERIFY(m_host.writeLoad({0}, 8159, 83));
    const auto r = runAndWait(conn(), "nvidia-smi -q -x");
    m_host.clearLoad();
    QVERIFY(r.succeeded());
    const QByteArray fixture = readData(QStringLiteral("nvidia-smi-q-idle.xml"));
    QCOMPARE(gpuStructure(r.stdoutData), gpuStructure(fixture));
    QCOMPARE(firstText(r.stdoutData, QStringLiteral("driver_version")), QStringLiteral("580.159.04"));
    QCOMPARE(firstText(r.stdoutData, QStringLiteral("cuda_version")), QStringLiteral("13.0"));
    QCOMPARE(firstText(r.stdoutData, QStringLiteral("attached_gpus")), QStringLiteral("2"));
    QCOMPARE(firstText(r.stdoutData, QStringLiteral("used")), QStringLiteral("8159 MiB"));
    QCOMPARE(firstText(r.stdoutData, QStringLiteral("gpu_util")), QStringLiteral("83 %"));
    QVERIFY(r.stdoutData.contains("<uuid>GPU-eada4807-2ab2-1f43-b19b-ef0b073c9efe</uuid>"));
    QXmlStreamReader check(r.stdoutData);
    while (!check.atEnd()) {
        check.readNext();
    }
    QVERIFY2(!check.hasError(), qPrintable(check.errorString()));
}

void TestSimNvidiaSmi::unknownField_failsLikeTheRealTool()
{
    const auto r = runAndWait(conn(), "nvidia-smi --query-gpu=index,bogus.field --format=csv");
    QCOMPARE(r.exitCode.value_or(-1), 2);
    QVERIFY(r.stdoutData.contains("Field \"bogus.field\" is not a valid field to query."));
}

void TestSimNvidiaSmi::b300Scenario_fourGpusWith288GbClassMemory()
{
    QVERIFY(m_host.useScenario(QStringLiteral("b300x4")));
    const auto list = runAndWait(conn(), "nvidia-smi -L");
    QCOMPARE(list.stdoutData.count('\n'), 4);
    QVERIFY(list.stdoutData.contains("GPU 3: NVIDIA B300"));
    const auto csv = runAndWait(conn(), "nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits");
    QCOMPARE(csv.stdoutData, QByteArray("293660\n293660\n293660\n293660\n"));
    const auto xml = runAndWait(conn(), "nvidia-smi -q -x");
    QCOMPARE(firstText(xml.stdoutData, QStringLiteral("cuda_version")), QStringLiteral("13.4"));
    QVERIFY(m_host.useScenario(QStringLiteral("h200x2")));
}

void TestSimNvidiaSmi::plainTable_hasTheBoxLayoutAndTheLoad()
{
    QVERIFY(m_host.useScenario(QStringLiteral("b300x4")));
    QVERIFY(m_host.writeLoad({1}, 234928, 92));
    const auto r = runAndWait(conn(), "nvidia-smi");
    QVERIFY(r.succeeded());
    const QList<QByteArray> lines = r.stdoutData.split('\n');
    QVERIFY(lines.at(2).startsWith("| NVIDIA-SMI 595.58.03"));
    QVERIFY(lines.at(2).contains("CUDA Version: 13.4"));
    int gpuRows = 0;
    for (const QByteArray &l : lines.mid(1)) {
        if (l.startsWith('|') || l.startsWith('+')) {
            QCOMPARE(l.size(), 91); // every box line is 91 columns wide
        }
        gpuRows += l.contains("NVIDIA B300 SXM6 AC") ? 1 : 0;
    }
    QCOMPARE(gpuRows, 4);
    QVERIFY(r.stdoutData.contains("|  234928MiB / 293660MiB |     92%      Default |"));
    QVERIFY(r.stdoutData.contains("No running processes found")); // a test's load has no process
    m_host.clearLoad();
    QVERIFY(m_host.useScenario(QStringLiteral("h200x2")));
}

void TestSimNvidiaSmi::h200x8Scenario_eightHopperGpus_qmul4NotChecked()
{
    QVERIFY(m_host.useScenario(QStringLiteral("h200x8")));
    const auto xml = runAndWait(conn(), "nvidia-smi -q -x");
    QVERIFY(m_host.useScenario(QStringLiteral("h200x2")));
    const auto d = probe::parseNvidiaSmiXml(xml.stdoutData);
    QVERIFY2(d, qPrintable(d.message()));
    QCOMPARE(d.value().gpus.size(), 8);
    QCOMPARE(d.value().cudaVersion, QStringLiteral("13.4"));
    QStringList names;
    QStringList architectures;
    for (const probe::NvidiaGpu &g : d.value().gpus) {
        names.append(g.name);
        architectures.append(g.architecture);
    }
    QCOMPARE(architectures, QStringList(8, QStringLiteral("Hopper")));
    QCOMPARE(names, QStringList(8, QStringLiteral("NVIDIA H200")));
    // What the deploy runner decides for check.qmul4 on this host: skipped, with the reason.
    const auto recipes = recipe::Recipe::builtIn();
    QVERIFY(recipes);
    const recipe::RecipeProfile *h200 = recipes.value().first().profile(QStringLiteral("h200"));
    QVERIFY(h200);
    const QString why = deploy::checks::qmul4NotApplicable(*h200, names, architectures);
    QVERIFY2(why.contains(QLatin1String("Hopper")) && why.contains(QLatin1String("Blackwell")), qPrintable(why));
}

QTEST_GUILESS_MAIN(TestSimNvidiaSmi)
#include "tst_simnvidiasmi.moc"
