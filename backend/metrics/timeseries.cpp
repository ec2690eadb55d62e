#include "backend/metrics/timeseries.h"

#include <QDataStream>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace flashdeck::metrics {

TimeSeries::TimeSeries(int rawCapacity, qint64 bucketMs, int bucketCapacity)
    : m_rawCapacity(std::max(1, rawCapacity))
    , m_bucketMs(std::max<qint64>(1, bucketMs))
    , m_bucketCapacity(std::max(1, bucketCapacity))
{ }

// Fifty hosts × forty series × 2 880 buckets: every byte here is 5.6 MB of the fleet's RSS.
static_assert(sizeof(TimeSeries::Point) == 16);

template<typename T>
void TimeSeries::ringPush(std::vector<T> &ring, int capacity, int &head, int &size, const T &value)
{
    if (size < capacity) {
        if (ring.size() == ring.capacity()) {
            // Grow by doubling but never past the capacity: fifty hosts of forty series each
            // only pay for what they have seen (issue 7's RSS goal), and a full ring for no more.
            ring.reserve(std::size_t(std::min(capacity, std::max(64, size * 2))));
        }
        ring.push_back(value);
        ++size;
    } else {
        ring[std::size_t(head)] = value;
        head = (head + 1) % capacity;
    }
}

void TimeSeries::append(qint64 tMs, double v)
{
    if (m_rawSize > 0 && tMs < rawAt(m_rawSize - 1).tMs) {
        return;
    }
    pushBucket(tMs, v); // every sample also feeds its bucket: the coarse tier is complete on its own
    ringPush(m_raw, m_rawCapacity, m_rawHead, m_rawSize, Point{tMs, v});
}

void TimeSeries::appendGap(qint64 tMs)
{
    append(tMs, std::numeric_limits<double>::quiet_NaN());
}

void TimeSeries::pushBucket(qint64 tMs, double v)
{
    const qint64 start = tMs - (tMs % m_bucketMs + m_bucketMs) % m_bucketMs;
    if (m_bucketSize == 0 || bucketAt(m_bucketSize - 1).startMs != start) {
        Bucket b;
        b.startMs = start;
        ringPush(m_buckets, m_bucketCapacity, m_bucketHead, m_bucketSize, b);
    }
    Bucket &b = m_buckets[std::size_t((m_bucketHead + m_bucketSize - 1) % m_buckets.size())];
    if (std::isnan(v)) {
        return;
    }
    const float f = float(v);
    b.min = b.count == 0 ? f : std::min(b.min, f);
    b.max = b.count == 0 ? f : std::max(b.max, f);
    b.sum += f;
    ++b.count;
}

std::optional<TimeSeries::Point> TimeSeries::last() const
{
    for (int i = m_rawSize - 1; i >= 0; --i) {
        if (!std::isnan(rawAt(i).v)) {
            return rawAt(i);
        }
    }
    return std::nullopt;
}

std::optional<double> TimeSeries::min() const
{
    std::optional<double> m;
    for (int i = 0; i < m_bucketSize; ++i) {
        if (bucketAt(i).count > 0) {
            m = m ? std::min(*m, double(bucketAt(i).min)) : double(bucketAt(i).min);
        }
    }
    return m;
}

std::optional<double> TimeSeries::max() const
{
    std::optional<double> m;
    for (int i = 0; i < m_bucketSize; ++i) {
        if (bucketAt(i).count > 0) {
            m = m ? std::max(*m, double(bucketAt(i).max)) : double(bucketAt(i).max);
        }
    }
    return m;
}

std::optional<qint64> TimeSeries::oldestMs() const
{
    if (m_rawSize == 0) {
        return std::nullopt;
    }
    return std::min(rawAt(0).tMs, bucketAt(0).startMs);
}

template<typename F>
void TimeSeries::forEach(qint64 fromMs, qint64 toMs, F &&f) const
{
    // Buckets up to where the raw ring begins, then the raw samples (with their min and max equal).
    const qint64 rawStart = m_rawSize > 0 ? rawAt(0).tMs : std::numeric_limits<qint64>::max();
    for (int i = 0; i < m_bucketSize; ++i) {
        const Bucket &b = bucketAt(i);
        if (b.startMs + m_bucketMs > rawStart || b.startMs > toMs) {
            break;
        }
        if (b.startMs + m_bucketMs <= fromMs) {
            continue;
        }
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const qint64 mid = b.startMs + m_bucketMs / 2;
        if (b.count == 0) {
            f(mid, nan, nan, nan);
        } else {
            f(mid, double(b.min), double(b.max), double(b.sum) / b.count);
        }
    }
    // Raw samples in range: binary search for the first.
    int lo = 0;
    int hi = m_rawSize;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (rawAt(mid).tMs < fromMs) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    for (int i = lo; i < m_rawSize && rawAt(i).tMs <= toMs; ++i) {
        const Point &p = rawAt(i);
        f(p.tMs, p.v, p.v, p.v);
    }
}

QList<TimeSeries::Point> TimeSeries::points(qint64 fromMs, qint64 toMs) const
{
    QList<Point> out;
    forEach(fromMs, toMs, [&out](qint64 t, double, double, double mean) { out.append({t, mean}); });
    return out;
}

QList<TimeSeries::Point> TimeSeries::window(qint64 fromMs, qint64 toMs, int columns) const
{
    QList<Point> out;
    if (columns <= 0 || toMs <= fromMs) {
        return out;
    }
    const double width = double(toMs - fromMs) / columns;
    int column = -1;
    Point lo;
    Point hi;
    bool any = false;
    bool gap = false;
    qint64 gapAt = 0;
    auto flush = [&] {
        if (any) {
            if (lo.tMs <= hi.tMs) {
                out.append(lo);
                if (hi.tMs != lo.tMs || hi.v != lo.v) {
                    out.append(hi);
                }
            } else {
                out.append(hi);
                out.append(lo);
            }
        } else if (gap) {
            out.append({gapAt, std::numeric_limits<double>::quiet_NaN()});
        }
        any = false;
        gap = false;
    };
    forEach(fromMs, toMs, [&](qint64 t, double mn, double mx, double) {
        const int c = std::clamp(int(double(t - fromMs) / width), 0, columns - 1);
        if (c != column) {
            flush();
            column = c;
        }
        if (std::isnan(mn)) {
            // A gap inside a column with values still breaks the line there: keep it after them.
            if (any) {
                flush();
            }
            gap = true;
            gapAt = t;
            return;
        }
        if (gap) {
            flush(); // the gap comes first, then the values after it
        }
        if (!any || mn < lo.v) {
            lo = {t, mn};
        }
        if (!any || mx > hi.v) {
            hi = {t, mx};
        }
        any = true;
    });
    flush();
    return out;
}

std::size_t TimeSeries::memoryBytes() const
{
    return sizeof(*this) + m_raw.capacity() * sizeof(Point) + m_buckets.capacity() * sizeof(Bucket);
}

std::size_t TimeSeries::fullMemoryBytes() const
{
    return sizeof(*this) + std::size_t(m_rawCapacity) * sizeof(Point) + std::size_t(m_bucketCapacity) * sizeof(Bucket);
}

// The history file holds the rings as they are in memory (a few MB per host; field by field
// through QDataStream took 100 ms a host, raw copies take a few): fixed layouts, and the
// byte order in the archive's header (MetricsArchive refuses a file from the other order).
static_assert(sizeof(TimeSeries::Point) == 16 && std::is_trivially_copyable_v<TimeSeries::Point>);

template<typename T>
static void writeRing(QDataStream &out, const std::vector<T> &ring, int head, int size)
{
    out << qint32(size);
    const int first = std::min(size, int(ring.size()) - head); // head … end, then 0 … the rest
    out.writeRawData(reinterpret_cast<const char *>(ring.data() + head), int(sizeof(T)) * first);
    out.writeRawData(reinterpret_cast<const char *>(ring.data()), int(sizeof(T)) * (size - first));
}

template<typename T>
static bool readRing(QDataStream &in, std::vector<T> &ring, int capacity, int *size)
{
    qint32 n = 0;
    in >> n;
    if (in.status() != QDataStream::Ok || n < 0 || n > capacity) {
        return false;
    }
    ring.resize(std::size_t(n));
    const int bytes = int(sizeof(T)) * n;
    if (in.readRawData(reinterpret_cast<char *>(ring.data()), bytes) != bytes) {
        return false;
    }
    *size = n;
    return true;
}

void TimeSeries::writeTo(QDataStream &out) const
{
    out << qint32(m_rawCapacity) << qint64(m_bucketMs) << qint32(m_bucketCapacity) << qint32(sizeof(Bucket));
    writeRing(out, m_raw, m_rawHead, m_rawSize);
    writeRing(out, m_buckets, m_bucketHead, m_bucketSize);
}

bool TimeSeries::readFrom(QDataStream &in)
{
    *this = TimeSeries(m_rawCapacity, m_bucketMs, m_bucketCapacity);
    qint32 rawCapacity = 0;
    qint64 bucketMs = 0;
    qint32 bucketCapacity = 0;
    qint32 bucketSize = 0;
    in >> rawCapacity >> bucketMs >> bucketCapacity >> bucketSize;
    if (in.status() != QDataStream::Ok || rawCapacity != m_rawCapacity || bucketMs != m_bucketMs ||
        bucketCapacity != m_bucketCapacity || bucketSize != qint32(sizeof(Bucket))) {
        return false;
    }
    std::vector<Point> raw;
    std::vector<Bucket> buckets;
    int rawSize = 0;
    int bucketCount = 0;
    if (!readRing(in, raw, m_rawCapacity, &rawSize) || !readRing(in, buckets, m_bucketCapacity, &bucketCount)) {
        return false;
    }
    // Time must only move forward in each tier, as append() keeps it; anything else is damage.
    const bool ordered =
        std::is_sorted(raw.begin(), raw.end(), [](const Point &a, const Point &b) { return a.tMs < b.tMs; }) &&
        std::is_sorted(buckets.begin(), buckets.end(),
                       [](const Bucket &a, const Bucket &b) { return a.startMs < b.startMs; }) &&
        std::all_of(buckets.begin(), buckets.end(), [](const Bucket &b) { return b.count >= 0; });
    if (!ordered) {
        return false;
    }
    m_raw = std::move(raw);
    m_rawSize = rawSize;
    m_buckets = std::move(buckets);
    m_bucketSize = bucketCount;
    return true;
}

} // namespace flashdeck::metrics
