#include "backend/metrics/gpusampler.h"
#include "tests/simhost/simhostfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QDateTime>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace flashdeck;
using namespace flashdeck::test;
using flashdeck::metrics::GpuSampler;

namespace {

/** The last sweep `spy` saw. */
QList<probe::GpuSample> lastSweep(const QSignalSpy &spy)
{
    return spy.isEmpty() ? QList<probe::GpuSample>{} : spy.last().at(0).value<QList<probe::GpuSample>>();
}

} // namespace

/**
 * The GPU sampler over real SSH against the simulated host: NVIDIA's long-lived
 * `nvidia-smi -lms` stream (grouped into sweeps, followed as the load changes, restarted when
 * it dies), amd-smi polling, and the rocm-smi fallback on a host without amd-smi.
 */
class TestGpuSampler : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qRegisterMetaType<QList<probe::GpuSample>>();
    }
    void nvidia_streamsSweeps_followsLoad_restartsWhenKilled();
    void amd_amdSmi_thenRocmSmiWhereAmdSmiIsMissing();
};

void TestGpuSampler::nvidia_streamsSweeps_followsLoad_restartsWhenKilled()
{
    SimHostFixture host;
    QString error;
    QVERIFY2(host.start(QStringLiteral("b300x4"), &error), qPrintable(error));
    GpuSampler sampler(host.connection(), GpuSampler::Vendor::Nvidia, 200);
    QSignalSpy sampled(&sampler, &GpuSampler::sampled);
    QSignalSpy failed(&sampler, &GpuSampler::failed);
    sampler.start();
    QVERIFY(sampled.wait(20000));
    QCOMPARE(lastSweep(sampled).size(), 4);
    QCOMPARE(lastSweep(sampled).at(3).index, 3);
    QVERIFY(lastSweep(sampled).at(0).name.contains(QLatin1String("B300")));
    // nvidia-smi's own time comes with each line, read as UTC (the stream runs under TZ=UTC): within
    // a minute of this machine's clock, which the simulated host shares.
    const std::optional<qint64> read = lastSweep(sampled).at(0).hostTimeMs;
    QVERIFY(read.has_value());
    QVERIFY2(std::abs(*read - QDateTime::currentMSecsSinceEpoch()) < 60000, qPrintable(QString::number(*read)));

    QVERIFY(host.writeLoad({0, 1}, 200000, 93));
    QTRY_VERIFY_WITH_TIMEOUT(lastSweep(sampled).size() == 4 && lastSweep(sampled).at(0).utilizationGpu == 93 &&
                                 lastSweep(sampled).at(1).memoryUsedMiB.value_or(0) >= 200000 &&
                                 lastSweep(sampled).at(2).utilizationGpu == 0,
                             20000);

    // The stream dies on the host (a driver reload, an OOM kill): reported, then restarted. The
    // [u] keeps pkill from matching its own shell.
    const int before = int(sampled.size());
    // --ns: only this host's processes (its network namespace), never another test's or a demo's.
    const auto killed =
        runAndWait(host.connection(), "pkill --ns $$ --nslist net -f 'nvidia-smi --query-gp[u]' || true");
    QVERIFY(killed.exitCode.has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 20000); // may arrive while runAndWait spins
    QVERIFY2(failed.last().at(0).toString().contains(QLatin1String("nvidia-smi stopped")),
             qPrintable(failed.last().at(0).toString()));
    QTRY_VERIFY_WITH_TIMEOUT(sampled.size() > before + 2, 20000);
    QCOMPARE(lastSweep(sampled).size(), 4);
    sampler.stop();
}

void TestGpuSampler::amd_amdSmi_thenRocmSmiWhereAmdSmiIsMissing()
{
    SimHostFixture host;
    QString error;
    QVERIFY2(host.start(QStringLiteral("mi355x-x8"), &error), qPrintable(error));
    {
        GpuSampler sampler(host.connection(), GpuSampler::Vendor::Amd, 200);
        QSignalSpy sampled(&sampler, &GpuSampler::sampled);
        QVERIFY(host.writeLoad({5}, 123456, 77));
        sampler.start();
        QTRY_VERIFY_WITH_TIMEOUT(lastSweep(sampled).size() == 8 && lastSweep(sampled).at(5).utilizationGpu == 77,
                                 20000);
        QVERIFY(sampler.command().startsWith(QLatin1String("amd-smi")));
        QCOMPARE(lastSweep(sampled).at(5).name, QStringLiteral("AMD Instinct MI355X")); // amd-smi static's
    }
    // A host without amd-smi (older ROCm): the same readings through rocm-smi.
    QFile f(host.simDir() + QStringLiteral("/scenario.json"));
    QVERIFY(f.open(QIODevice::ReadWrite));
    nlohmann::json scenario = nlohmann::json::parse(f.readAll().toStdString());
    scenario["missing_tools"] = {"amd-smi"};
    QVERIFY(f.resize(0) && f.write(QByteArray::fromStdString(scenario.dump())) > 0);
    f.close();
    GpuSampler sampler(host.connection(), GpuSampler::Vendor::Amd, 200);
    QSignalSpy sampled(&sampler, &GpuSampler::sampled);
    sampler.start();
    QTRY_VERIFY_WITH_TIMEOUT(lastSweep(sampled).size() == 8 && lastSweep(sampled).at(5).utilizationGpu == 77, 20000);
    QVERIFY(sampler.command().startsWith(QLatin1String("rocm-smi")));
    QVERIFY(lastSweep(sampled).at(5).memoryUsedMiB.value_or(0) > 0);
    QCOMPARE(lastSweep(sampled).at(5).name, QStringLiteral("AMD Instinct MI355X")); // rocm-smi's "Card Series"
}

QTEST_GUILESS_MAIN(TestGpuSampler)
#include "tst_gpusampler.moc"
