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

QTEST_GUILESS_MAIN(TestSimAmd)
#include "tst_simamd.moc"
