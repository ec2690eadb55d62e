#include "backend/metrics/timeseries.h"

#include <QTest>

#include <cmath>

using flashdeck::metrics::TimeSeries;

/** The fixed-memory series behind every chart: rings, tiers, gaps and downsampling. */
class TestTimeSeries : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lastMinMax_skipGaps();
    void rawRingOverwrites_bucketsKeepTheOlderPast();
    void dayAtOneHertz_fitsInFixedMemory();
    void window_keepsSpikes_andBoundsPoints_data();
    void window_keepsSpikes_andBoundsPoints();
    void window_showsAGapNotALine();
    void outOfOrderSample_isIgnored();
};

void TestTimeSeries::lastMinMax_skipGaps()
{
    TimeSeries s;
    QVERIFY(s.isEmpty());
    QVERIFY(!s.last());
    s.append(1000, 5);
    s.append(2000, -3);
    s.appendGap(3000);
    QCOMPARE(s.last()->v, -3.0);
    QCOMPARE(s.last()->tMs, 2000);
    QCOMPARE(*s.min(), -3.0);
    QCOMPARE(*s.max(), 5.0);
}

void TestTimeSeries::rawRingOverwrites_bucketsKeepTheOlderPast()
{
    TimeSeries s(10, 1000, 100); // 10 raw samples, 1 s buckets
    for (int i = 0; i < 50; ++i) {
        s.append(qint64(i) * 500, i); // 2 Hz
    }
    const auto raw = s.points(20000, 30000);
    QCOMPARE(raw.size(), 10); // the last 10 samples, as taken
    QCOMPARE(raw.first().v, 40.0);
    const auto old = s.points(0, 4999); // before the raw ring: bucket means of two samples
    QCOMPARE(old.size(), 5);
    QCOMPARE(old.first().v, 0.5);
    QCOMPARE(old.first().tMs, 500);
    QCOMPARE(*s.oldestMs(), 0);
}

void TestTimeSeries::dayAtOneHertz_fitsInFixedMemory()
{
    TimeSeries s;
    const std::size_t before = s.memoryBytes();
    for (qint64 t = 0; t < 86400; ++t) {
        s.append(t * 1000, double(t % 600));
    }
    QCOMPARE(s.memoryBytes(), before); // nothing grows
    QVERIFY(s.memoryBytes() < 400 * 1024);
    QCOMPARE(*s.oldestMs(), 0); // the whole day is still there, in 10 s buckets
    const auto day = s.window(0, 86400 * 1000, 800);
    QVERIFY(day.size() <= 1600);
    QCOMPARE(*s.max(), 599.0);
}

void TestTimeSeries::window_keepsSpikes_andBoundsPoints_data()
{
    QTest::addColumn<int>("columns");
    QTest::newRow("narrow chart") << 50;
    QTest::newRow("wide chart") << 1200;
}

void TestTimeSeries::window_keepsSpikes_andBoundsPoints()
{
    QFETCH(int, columns);
    TimeSeries s;
    for (qint64 t = 0; t < 3600; ++t) {
        s.append(t * 1000, t == 1234 ? 1000.0 : 1.0); // one spike in an hour of flat line
    }
    const auto w = s.window(0, 3600 * 1000, columns);
    QVERIFY(w.size() <= 2 * columns);
    double peak = 0;
    for (const auto &p : w) {
        peak = std::max(peak, p.v);
    }
    QCOMPARE(peak, 1000.0); // a min/max downsample never hides the spike
    for (qsizetype i = 1; i < w.size(); ++i) {
        QVERIFY(w[i].tMs >= w[i - 1].tMs); // in time order
    }
}

void TestTimeSeries::window_showsAGapNotALine()
{
    TimeSeries s;
    for (qint64 t = 0; t < 100; ++t) {
        if (t >= 40 && t < 60) {
            s.appendGap(t * 1000); // the host was unreachable
        } else {
            s.append(t * 1000, 7);
        }
    }
    const auto w = s.window(0, 100 * 1000, 10);
    int gaps = 0;
    for (const auto &p : w) {
        const bool inOutage = p.tMs >= 40000 && p.tMs < 60000;
        if (std::isnan(p.v)) {
            QVERIFY(inOutage);
            ++gaps;
        } else {
            QVERIFY(!inOutage); // no value invented where the host said nothing
        }
    }
    QVERIFY(gaps >= 1); // the line breaks there
    QVERIFY(!std::isnan(w.first().v) && !std::isnan(w.last().v));
}

void TestTimeSeries::outOfOrderSample_isIgnored()
{
    TimeSeries s;
    s.append(5000, 1);
    s.append(4000, 2);
    QCOMPARE(s.points(0, 10000).size(), 1);
}

QTEST_GUILESS_MAIN(TestTimeSeries)
#include "tst_timeseries.moc"
