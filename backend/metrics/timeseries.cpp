#include "backend/metrics/timeseries.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace flashdeck::metrics {

TimeSeries::TimeSeries(int rawCapacity, qint64 bucketMs, int bucketCapacity)
    : m_raw(std::size_t(std::max(1, rawCapacity)))
    , m_bucketMs(std::max<qint64>(1, bucketMs))
    , m_buckets(std::size_t(std::max(1, bucketCapacity)))
{ }

void TimeSeries::append(qint64 tMs, double v)
{
    if (m_rawSize > 0 && tMs < rawAt(m_rawSize - 1).tMs) {
        return;
    }
    pushBucket(tMs, v); // every sample also feeds its bucket: the coarse tier is complete on its own
    if (m_rawSize < int(m_raw.size())) {
        m_raw[std::size_t((m_rawHead + m_rawSize) % m_raw.size())] = {tMs, v};
        ++m_rawSize;
    } else {
        m_raw[std::size_t(m_rawHead)] = {tMs, v};
        m_rawHead = (m_rawHead + 1) % int(m_raw.size());
    }
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
        if (m_bucketSize < int(m_buckets.size())) {
            m_buckets[std::size_t((m_bucketHead + m_bucketSize) % m_buckets.size())] = b;
            ++m_bucketSize;
        } else {
            m_buckets[std::size_t(m_bucketHead)] = b;
            m_bucketHead = (m_bucketHead + 1) % int(m_buckets.size());
        }
    }
    Bucket &b = m_buckets[std::size_t((m_bucketHead + m_bucketSize - 1) % m_buckets.size())];
    if (std::isnan(v)) {
        return;
    }
    const float f = float(v);
    b.min = b.count == 0 ? f : std::min(b.min, f);
    b.max = b.count == 0 ? f : std::max(b.max, f);
    b.sum += v;
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
            f(mid, double(b.min), double(b.max), b.sum / b.count);
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

} // namespace flashdeck::metrics
