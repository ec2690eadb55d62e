#include "fakehostdata.h"
#include "faketransport.h"

#include "backend/metrics/gpusampler.h"
#include "backend/metrics/hostclock.h"
#include "backend/metrics/hostmonitor.h"
#include "backend/ssh/commandreply.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QTest>

using namespace flashdeck;
using flashdeck::metrics::GpuSampler;
using flashdeck::metrics::HostClock;
using flashdeck::testing::fakeHostData;
using flashdeck::testing::FakeTransport;

namespace {

QList<QByteArray> sweep()
{
    return fakeHostData("nvidia-smi-query-b300x4.csv").trimmed().split('\n');
}

/** The same sweep as the stream prints it: each line begins with nvidia-smi's timestamp. */
QList<QByteArray> timedSweep(const QDateTime &at)
{
    QList<QByteArray> lines = sweep();
    for (qsizetype i = 0; i < lines.size(); ++i) {
        lines[i].prepend(at.addMSecs(3 * i).toString(QStringLiteral("yyyy/MM/dd HH:mm:ss.zzz, ")).toUtf8());
    }
    return lines;
}

} // namespace

/**
 * The GPU sampler over a scripted host: nvidia-smi's stream grouped into sweeps, its end
 * reported in its own words and retried, a stream of garbage stopped, and AMD's amd-smi
 * falling back to rocm-smi. No SSH: each case takes milliseconds (the retry, one second).
 */
class TestGpuSamplerUnit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nvidiaStream_groupsSweeps();
    void nvidiaStream_stampedWhenTheHostReadIt();
    void hostClock_data();
    void hostClock();
    void monitor_aToolFallenSilent_isNamed();
    void nvidiaStreamEnds_saysWhy_andStartsAgain();
    void nvidiaGarbage_isStopped();
    void stop_endsTheStream();
    void amdWithoutAmdSmi_fallsBackToRocmSmi();
    void amd_namesFromStatic_readOnce();
};

void TestGpuSamplerUnit::nvidiaStream_groupsSweeps()
{
    FakeTransport fake;
    FakeTransport::Answer stream;
    stream.lines = sweep() + sweep(); // two sweeps in one batch: the indexes start again
    stream.keepRunning = true;
    fake.answer("nvidia-smi --query-gpu=", stream);
    GpuSampler sampler(fake, GpuSampler::Vendor::Nvidia, 200);
    QSignalSpy sampled(&sampler, &GpuSampler::sampled);
    sampler.start();
    QTRY_COMPARE(sampled.size(), 2);
    const auto gpus = sampled.at(1).at(0).value<QList<probe::GpuSample>>();
    QCOMPARE(gpus.size(), 4);
    QCOMPARE(gpus.at(3).index, 3);
    QCOMPARE(gpus.at(0).name, QStringLiteral("NVIDIA B300 SXM6 AC"));
    QVERIFY(fake.commands().first().endsWith("-lms 200"));
}

void TestGpuSamplerUnit::nvidiaStream_stampedWhenTheHostReadIt()
{
    // A host whose clock is an hour behind: its first sweep arrives at once, then two more come
    // together (SSH stalled). They keep the second between them that nvidia-smi took, on this
    // machine's clock: not an hour off, and not both at the moment they arrived.
    FakeTransport fake;
    const QDateTime host = QDateTime::currentDateTimeUtc().addSecs(-3600);
    FakeTransport::Answer stream;
    stream.lines = timedSweep(host);
    stream.keepRunning = true;
    stream.repeatMs = 3000; // later than the burst's sweeps were taken, whatever the timer's slack
    stream.repeat = [host] { return timedSweep(host.addMSecs(1000)) + timedSweep(host.addMSecs(2000)); };
    fake.answer("nvidia-smi --query-gpu=", stream);
    GpuSampler sampler(fake, GpuSampler::Vendor::Nvidia, 1000);
    QSignalSpy sampled(&sampler, &GpuSampler::sampled);
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    sampler.start();
    QTRY_VERIFY_WITH_TIMEOUT(sampled.size() >= 3, 10000);
    const qint64 first = sampled.at(0).at(1).toLongLong();
    const qint64 second = sampled.at(1).at(1).toLongLong();
    const qint64 third = sampled.at(2).at(1).toLongLong();
    QCOMPARE(second - first, qint64(1000));
    QCOMPARE(third - second, qint64(1000));
    QVERIFY2(first >= before && third <= QDateTime::currentMSecsSinceEpoch(),
             qPrintable(QStringLiteral("%1 %2 %3").arg(before).arg(first).arg(third)));
    // The host's zone is not guessed: the stream runs under TZ=UTC, and asks for the timestamp.
    QVERIFY(fake.commands().first().startsWith("env TZ=UTC nvidia-smi --query-gpu=timestamp,index,"));
}

void TestGpuSamplerUnit::hostClock_data()
{
    // Readings as (host time, arrival) pairs in ms, and where each lands on this machine's clock.
    QTest::addColumn<QList<qint64>>("host");
    QTest::addColumn<QList<qint64>>("arrived");
    QTest::addColumn<QList<qint64>>("local");
    QTest::newRow("host behind, steady") << QList<qint64>{1000, 2000, 3000} << QList<qint64>{61010, 62005, 63020}
                                         << QList<qint64>{61010, 62005, 63005};
    QTest::newRow("a stall, then a burst")
        << QList<qint64>{1000, 2000, 3000, 4000} << QList<qint64>{1010, 2010, 4010, 4010}
        << QList<qint64>{1010, 2010, 3010, 4010};
    QTest::newRow("host ahead, then its clock steps forward")
        << QList<qint64>{90000, 91000, 200000} << QList<qint64>{1000, 2000, 3000} << QList<qint64>{1000, 2000, 3000};
    {
        // SSH stalls for 20 s: the 20 readings taken meanwhile arrive together, far more than
        // kStepMs late, and keep their second apart; the next arrives on time.
        QList<qint64> host{0};
        QList<qint64> arrived{10};
        QList<qint64> local{10};
        for (int i = 1; i <= 20; ++i) {
            host << i * 1000;
            arrived << 20010;
            local << i * 1000 + 10;
        }
        host << 21000;
        arrived << 21010;
        local << 21010;
        QTest::newRow("a long stall: its burst is not a clock step") << host << arrived << local;
    }
    {
        // The host's clock steps back a minute: its readings keep arriving "late". They are held
        // at the last time given (never earlier) until the lateness has lasted kStepTrustMs.
        QList<qint64> host{0};
        QList<qint64> arrived{10};
        QList<qint64> local{10};
        const int steps = int(HostClock::kStepTrustMs / 1000);
        for (int i = 1; i <= steps + 1; ++i) {
            host << i * 1000 - 60000;
            arrived << i * 1000 + 10;
            local << (i <= steps ? 10 : i * 1000 + 10);
        }
        QTest::newRow("host clock stepped back: believed once it lasts") << host << arrived << local;
    }
}

void TestGpuSamplerUnit::hostClock()
{
    QFETCH(QList<qint64>, host);
    QFETCH(QList<qint64>, arrived);
    QFETCH(QList<qint64>, local);
    HostClock clock;
    for (qsizetype i = 0; i < host.size(); ++i) {
        const qint64 at = clock.toLocal(host.at(i), arrived.at(i));
        QCOMPARE(at, local.at(i));
        QVERIFY(at <= arrived.at(i)); // never later than it came
        QVERIFY(i == 0 || at >= local.at(i - 1)); // never back: a series drops an older point
    }
}

void TestGpuSamplerUnit::monitor_aToolFallenSilent_isNamed()
{
    // nvidia-smi prints one sweep and then nothing (a hung tool): the monitor says so, naming the
    // tool as the operator knows it, not the first word of the command (`env`). The monitor waits
    // ten seconds of silence before it says so.
    FakeTransport fake;
    fake.answer("then echo nvidia", FakeTransport::Answer{"nvidia\n", {}, 0, {}, {}, false});
    FakeTransport::Answer stream;
    stream.lines = timedSweep(QDateTime::currentDateTimeUtc());
    stream.keepRunning = true;
    fake.answer("nvidia-smi --query-gpu=", stream);
    metrics::HostMonitor monitor(QStringLiteral("gpu-a"), fake, metrics::MonitorConfig{});
    monitor.start();
    QTRY_COMPARE_WITH_TIMEOUT(monitor.status().gpus.size(), 4, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!monitor.status().gpuError.isEmpty(), 30000);
    QVERIFY2(monitor.status().gpuError.startsWith(QLatin1String("nvidia-smi has given no reading for 10 s")),
             qPrintable(monitor.status().gpuError));
}

void TestGpuSamplerUnit::nvidiaStreamEnds_saysWhy_andStartsAgain()
{
    FakeTransport fake;
    int starts = 0;
    fake.answer("nvidia-smi --query-gpu=", [&starts](const ssh::RemoteCommand &) {
        FakeTransport::Answer a;
        if (++starts == 1) {
            a.exitCode = 9;
            a.err = "Unable to determine the device handle for GPU0000:1B:00.0: Unknown Error\n";
        } else {
            a.lines = sweep();
            a.keepRunning = true;
        }
        return a;
    });
    GpuSampler sampler(fake, GpuSampler::Vendor::Nvidia, 200);
    QSignalSpy failed(&sampler, &GpuSampler::failed);
    QSignalSpy sampled(&sampler, &GpuSampler::sampled);
    sampler.start();
    QVERIFY(failed.wait(5000));
    QCOMPARE(failed.first().first().toString(),
             QStringLiteral("nvidia-smi stopped (exit 9): Unable to determine the device handle for GPU0000:1B:00.0: "
                            "Unknown Error"));
    QVERIFY(sampled.wait(5000)); // started again after its back-off
    QCOMPARE(starts, 2);
}

void TestGpuSamplerUnit::nvidiaGarbage_isStopped()
{
    FakeTransport fake;
    FakeTransport::Answer stream;
    for (int i = 0; i < 80; ++i) {
        stream.lines.append("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.");
    }
    stream.keepRunning = true;
    fake.answer("nvidia-smi --query-gpu=", stream);
    GpuSampler sampler(fake, GpuSampler::Vendor::Nvidia, 200);
    QSignalSpy failed(&sampler, &GpuSampler::failed);
    sampler.start();
    QTRY_COMPARE(failed.size(), 2); // the first bad line, then the stop
    QVERIFY2(failed.at(1).first().toString().contains(QLatin1String("printed 64 lines in a row that are not GPU "
                                                                    "readings")),
             qPrintable(failed.at(1).first().toString()));
    QVERIFY(fake.running().isEmpty()); // cancelled on the host
}

void TestGpuSamplerUnit::stop_endsTheStream()
{
    FakeTransport fake;
    FakeTransport::Answer stream;
    stream.lines = sweep();
    stream.keepRunning = true;
    fake.answer("nvidia-smi --query-gpu=", stream);
    GpuSampler sampler(fake, GpuSampler::Vendor::Nvidia, 200);
    QSignalSpy sampled(&sampler, &GpuSampler::sampled);
    QSignalSpy failed(&sampler, &GpuSampler::failed);
    sampler.start();
    QVERIFY(sampled.wait(5000));
    QCOMPARE(fake.running().size(), 1);
    sampler.stop();
    QTRY_VERIFY(fake.running().isEmpty());
    QTest::qWait(0);
    QCOMPARE(failed.size(), 0); // a stop is no failure
}

void TestGpuSamplerUnit::amdWithoutAmdSmi_fallsBackToRocmSmi()
{
    FakeTransport fake; // amd-smi: command not found (nothing scripted for it)
    fake.answer("rocm-smi", FakeTransport::Answer{fakeHostData("rocm-smi-mi355x-x8.json"), {}, 0, {}, {}, false});
    GpuSampler sampler(fake, GpuSampler::Vendor::Amd, 200);
    QSignalSpy sampled(&sampler, &GpuSampler::sampled);
    sampler.start();
    QVERIFY(sampled.wait(5000));
    QCOMPARE(sampled.first().first().value<QList<probe::GpuSample>>().size(), 8);
    QCOMPARE(fake.count("amd-smi metric --json"), 1); // asked once, then never again
    QVERIFY(sampler.command().startsWith(QLatin1String("rocm-smi")));
}

void TestGpuSamplerUnit::amd_namesFromStatic_readOnce()
{
    // amd-smi metric names no GPU; amd-smi static does (asic.market_name): read once, first.
    FakeTransport fake;
    fake.answer("amd-smi static --asic --json",
                FakeTransport::Answer{fakeHostData("amd-smi-static-mi355x-x8.json"), {}, 0, {}, {}, false});
    fake.answer("amd-smi metric --json",
                FakeTransport::Answer{fakeHostData("amd-smi-metric-mi355x-x8.json"), {}, 0, {}, {}, false});
    GpuSampler sampler(fake, GpuSampler::Vendor::Amd, 100);
    QSignalSpy sampled(&sampler, &GpuSampler::sampled);
    sampler.start();
    QTRY_VERIFY(sampled.size() >= 2);
    for (const auto &sample : sampled) {
        const auto gpus = sample.first().value<QList<probe::GpuSample>>();
        QCOMPARE(gpus.size(), 8);
        for (const probe::GpuSample &g : gpus) {
            QCOMPARE(g.name, QStringLiteral("AMD Instinct MI355X"));
        }
    }
    QCOMPARE(fake.count("amd-smi static"), 1);
    QCOMPARE(fake.commands().first(), QByteArray("amd-smi static --asic --json"));
}

QTEST_GUILESS_MAIN(TestGpuSamplerUnit)
#include "tst_gpusamplerunit.moc"
