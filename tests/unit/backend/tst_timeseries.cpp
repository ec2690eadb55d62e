#include "backend/metrics/metricsarchive.h"
#include "backend/metrics/timeseries.h"

#include <QDataStream>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using flashdeck::metrics::MetricsArchive;
using flashdeck::metrics::SeriesMap;
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
    void growingRing_matchesEveryPrefix();
    void writeRead_roundTripsBothTiers();
    void readFrom_rejectsOtherCapacities();
    void archive_savesAndLoads_withAGapAtRestart();
    void archive_damagedFile_data();
    void archive_damagedFile();
    void archive_tooOld_isNotLoaded();
};

namespace {

/** Every retained point, as (time, value) pairs, NaN as a marker the comparison can see. */
QList<QPair<qint64, double>> dump(const TimeSeries &s)
{
    QList<QPair<qint64, double>> out;
    for (const TimeSeries::Point &p :
         s.points(std::numeric_limits<qint64>::min() / 2, std::numeric_limits<qint64>::max() / 2)) {
        out.append({p.tMs, std::isnan(p.v) ? -999999.0 : p.v});
    }
    return out;
}

} // namespace

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
    QVERIFY(s.memoryBytes() < 1024); // an unused series costs nothing
    for (qint64 t = 0; t < 600; ++t) {
        s.append(t * 1000, double(t % 600));
    }
    QVERIFY(s.memoryBytes() < 32 * 1024); // ten minutes: a few kB, not the full rings
    for (qint64 t = 600; t < 86400; ++t) {
        s.append(t * 1000, double(t % 600));
    }
    QCOMPARE(s.memoryBytes(), s.fullMemoryBytes()); // full, and never more
    for (qint64 t = 86400; t < 2 * 86400; ++t) {
        s.append(t * 1000, double(t % 600));
    }
    QCOMPARE(s.memoryBytes(), s.fullMemoryBytes());
    QVERIFY(s.memoryBytes() < 160 * 1024); // fifty hosts of forty series stay near 250 MB
    s = TimeSeries();
    for (qint64 t = 0; t < 86400; ++t) {
        s.append(t * 1000, double(t % 600));
    }
    QCOMPARE(*s.oldestMs(), 0); // the whole day is still there, in 30 s buckets
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

void TestTimeSeries::growingRing_matchesEveryPrefix()
{
    // The rings grow before they wrap: at every size the content must be what a full-sized
    // ring would hold (checked against one that was created full by filling and draining).
    TimeSeries growing(37, 1000, 11);
    QList<QPair<qint64, double>> expectRaw;
    for (int i = 0; i < 200; ++i) {
        const qint64 t = qint64(i) * 700;
        if (i % 17 == 5) {
            growing.appendGap(t);
        } else {
            growing.append(t, i);
        }
        expectRaw.append({t, i % 17 == 5 ? -999999.0 : double(i)});
        if (expectRaw.size() > 37) {
            expectRaw.removeFirst();
        }
        // The raw tier in its window is exactly the last 37 samples.
        const auto raw = growing.points(expectRaw.first().first, t);
        QList<QPair<qint64, double>> got;
        for (const auto &p : raw) {
            got.append({p.tMs, std::isnan(p.v) ? -999999.0 : p.v});
        }
        QCOMPARE(got, expectRaw);
    }
    QVERIFY(growing.memoryBytes() <= growing.fullMemoryBytes());
}

void TestTimeSeries::writeRead_roundTripsBothTiers()
{
    TimeSeries s(50, 1000, 40);
    for (int i = 0; i < 300; ++i) {
        if (i == 120) {
            s.appendGap(qint64(i) * 400);
        } else {
            s.append(qint64(i) * 400, std::sin(i / 7.0) * 100);
        }
    }
    QByteArray bytes;
    {
        QDataStream out(&bytes, QIODevice::WriteOnly);
        s.writeTo(out);
    }
    TimeSeries back(50, 1000, 40);
    QDataStream in(bytes);
    QVERIFY(back.readFrom(in));
    QCOMPARE(dump(back), dump(s));
    QCOMPARE(back.window(0, 120000, 30).size(), s.window(0, 120000, 30).size());
    QCOMPARE(*back.min(), *s.min());
    QCOMPARE(*back.max(), *s.max());
    QCOMPARE(back.last()->tMs, s.last()->tMs);
    // It keeps going as the original would.
    s.append(200000, 1);
    back.append(200000, 1);
    QCOMPARE(dump(back), dump(s));
}

void TestTimeSeries::readFrom_rejectsOtherCapacities()
{
    TimeSeries s(50, 1000, 40);
    s.append(1, 1);
    QByteArray bytes;
    {
        QDataStream out(&bytes, QIODevice::WriteOnly);
        s.writeTo(out);
    }
    TimeSeries other(60, 1000, 40);
    QDataStream in(bytes);
    QVERIFY(!other.readFrom(in));
    QVERIFY(other.isEmpty());
    QDataStream shortIn(bytes.left(bytes.size() - 3));
    TimeSeries same(50, 1000, 40);
    QVERIFY(!same.readFrom(shortIn));
    QVERIFY(same.isEmpty());
}

void TestTimeSeries::archive_savesAndLoads_withAGapAtRestart()
{
    QTemporaryDir dir;
    const QString file = dir.path() + QStringLiteral("/metrics/b300.fdts"); // the folder is created
    SeriesMap series;
    for (const char *name : {"gpu.0.util", "kv.usage", "server.queued"}) {
        auto s = std::make_shared<TimeSeries>();
        for (qint64 t = 0; t < 4000; ++t) {
            s->append(1000000 + t * 1000, double(t % 97));
        }
        series.insert(QLatin1String(name), s);
    }
    const qint64 savedAt = 1000000 + 4000 * 1000;
    QVERIFY(MetricsArchive(file).save(series, savedAt).isOk());
    QVERIFY(!QFile::exists(file + QStringLiteral(".damaged")));

    const qint64 restart = savedAt + 5 * 60 * 1000; // five minutes away
    const auto loaded = MetricsArchive(file).load(restart);
    QVERIFY2(loaded.isOk(), qPrintable(loaded.message()));
    QCOMPARE(loaded.value().size(), 3);
    for (auto it = series.cbegin(); it != series.cend(); ++it) {
        const TimeSeries &back = *loaded.value().value(it.key());
        TimeSeries expected = *it.value();
        expected.appendGap(restart); // Flashdeck was not watching: a gap, not a line
        QCOMPARE(dump(back), dump(expected));
        QVERIFY(std::isnan(back.points(restart, restart).value(0).v));
    }
    // Saving again replaces it whole.
    SeriesMap one{{QStringLiteral("kv.usage"), series.value(QStringLiteral("kv.usage"))}};
    QVERIFY(MetricsArchive(file).save(one, restart).isOk());
    QCOMPARE(MetricsArchive(file).load(restart).value().size(), 1);
}

void TestTimeSeries::archive_damagedFile_data()
{
    QTest::addColumn<int>("cut"); // bytes kept (negative: flip a byte at -cut instead)
    QTest::addColumn<QString>("why");
    QTest::newRow("empty") << 0 << QStringLiteral("not a Flashdeck chart history");
    QTest::newRow("header cut") << 7 << QStringLiteral("not a Flashdeck chart history");
    QTest::newRow("payload cut") << 200 << QStringLiteral("bytes where");
    QTest::newRow("payload flipped") << -300 << QStringLiteral("checksum mismatch");
    QTest::newRow("magic flipped") << -1 << QStringLiteral("not a Flashdeck chart history");
}

void TestTimeSeries::archive_damagedFile()
{
    QFETCH(int, cut);
    QFETCH(QString, why);
    QTemporaryDir dir;
    const QString file = dir.path() + QStringLiteral("/h.fdts");
    auto s = std::make_shared<TimeSeries>();
    for (qint64 t = 0; t < 100; ++t) {
        s->append(t * 1000, double(t));
    }
    QVERIFY(MetricsArchive(file).save({{QStringLiteral("gpu.0.util"), s}}, 100000).isOk());
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QByteArray bytes = f.readAll();
    if (cut >= 0) {
        bytes.truncate(cut);
    } else {
        bytes[-cut - 1] = char(bytes[-cut - 1] ^ 0x5a);
    }
    QVERIFY(f.resize(0) && f.seek(0) && f.write(bytes) == bytes.size());
    f.close();
    const auto loaded = MetricsArchive(file).load(100000);
    QVERIFY(!loaded.isOk());
    QVERIFY2(loaded.message().contains(why), qPrintable(loaded.message()));
    QVERIFY(loaded.message().contains(QStringLiteral("charts start empty")));
    // Kept aside for a look, and out of the way of the next save.
    QVERIFY(!QFile::exists(file));
    QFile aside(file + QStringLiteral(".damaged"));
    QVERIFY(aside.open(QIODevice::ReadOnly));
    QCOMPARE(aside.readAll(), bytes);
    QVERIFY(MetricsArchive(file).save({{QStringLiteral("gpu.0.util"), s}}, 200000).isOk());
    QVERIFY(MetricsArchive(file).load(200000).isOk());
}

void TestTimeSeries::archive_tooOld_isNotLoaded()
{
    QTemporaryDir dir;
    const QString file = dir.path() + QStringLiteral("/h.fdts");
    auto s = std::make_shared<TimeSeries>();
    s->append(1000, 1);
    QVERIFY(MetricsArchive(file).save({{QStringLiteral("kv.usage"), s}}, 2000).isOk());
    const auto loaded = MetricsArchive(file).load(2000 + 25 * 3600 * 1000);
    QVERIFY(loaded.isOk());
    QVERIFY(loaded.value().isEmpty());
    QVERIFY(QFile::exists(file)); // not damaged, only old: left alone
}

QTEST_GUILESS_MAIN(TestTimeSeries)
#include "tst_timeseries.moc"
