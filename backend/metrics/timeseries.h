#pragma once

#include <QList>
#include <QtGlobal>

class QDataStream;

#include <cstddef>
#include <optional>
#include <vector>

namespace flashdeck::metrics {

/**
 * One metric of one host over time, in fixed memory: the last `rawCapacity` samples as taken
 * (default one hour at 1 Hz), and behind them `bucketCapacity` buckets of `bucketMs` each
 * holding min, max and mean (default 2 880 × 30 s = 24 h: a 24 h chart 1 200 px wide
 * shows 72 s per pixel, so finer buckets would only cost memory). A NaN sample is a gap — the host
 * did not answer — and is drawn as one, never bridged by a line. The rings grow as samples
 * arrive, up to about 125 kB when full (a host watched for ten minutes holds a few kB per series).
 */
class TimeSeries final
{
public:
    struct Point
    {
        qint64 tMs = 0;
        double v = 0;
    };

    explicit TimeSeries(int rawCapacity = 3600, qint64 bucketMs = 30000, int bucketCapacity = 2880);

    /** Appends a sample; one older than the last is ignored (clocks only move forward here). */
    void append(qint64 tMs, double v);
    void appendGap(qint64 tMs);

    bool isEmpty() const { return m_rawSize == 0; }
    /** The newest sample that is not a gap. */
    std::optional<Point> last() const;
    /** Minimum and maximum over everything retained; empty when there is no value. */
    std::optional<double> min() const;
    std::optional<double> max() const;
    /** The oldest time still retained (raw or bucketed). */
    std::optional<qint64> oldestMs() const;

    /**
     * The series over [fromMs, toMs], downsampled to at most 2 × `columns` points: per column its
     * minimum and maximum in time order, so spikes survive; a column with only gaps gives a
     * NaN point. Raw samples where the raw ring still has them, buckets before that.
     */
    QList<Point> window(qint64 fromMs, qint64 toMs, int columns) const;
    /** Every retained point in [fromMs, toMs] (raw, or bucket means before the raw window). */
    QList<Point> points(qint64 fromMs, qint64 toMs) const;

    /** What it holds now, and what it will hold once both rings are full. */
    std::size_t memoryBytes() const;
    std::size_t fullMemoryBytes() const;

    /** Writes everything retained (both tiers, exactly) for on-disk retention. */
    void writeTo(QDataStream &out) const;
    /**
     * Replaces the content with what writeTo() wrote; false, leaving the series empty, when the
     * stream is short, damaged or was written with other capacities.
     */
    [[nodiscard]] bool readFrom(QDataStream &in);

private:
    struct Bucket
    {
        qint64 startMs = 0;
        float min = 0;
        float max = 0;
        float sum = 0; // of at most a bucket's worth of samples: float keeps 7 digits, plenty for a mean
        int count = 0; // values; 0 with gaps only
    };
    void pushBucket(qint64 tMs, double v);
    const Point &rawAt(int i) const { return m_raw[std::size_t((m_rawHead + i) % m_raw.size())]; }
    const Bucket &bucketAt(int i) const { return m_buckets[std::size_t((m_bucketHead + i) % m_buckets.size())]; }
    template<typename T>
    static void ringPush(std::vector<T> &ring, int capacity, int &head, int &size, const T &value);
    template<typename F>
    void forEach(qint64 fromMs, qint64 toMs, F &&f) const;

    // Each ring is a vector that grows to its capacity, then wraps; until then head is 0.
    std::vector<Point> m_raw;
    int m_rawCapacity;
    int m_rawHead = 0; // oldest
    int m_rawSize = 0;
    qint64 m_bucketMs;
    std::vector<Bucket> m_buckets;
    int m_bucketCapacity;
    int m_bucketHead = 0;
    int m_bucketSize = 0;
};

} // namespace flashdeck::metrics
