#include "backend/logs/logbuffer.h"

#include "backend/core/sharedbytes.h"

#include <algorithm>
#include <type_traits>
#include <utility>

namespace flashdeck::logs {

LogBuffer::LogBuffer(qsizetype capacity)
    : m_capacity(std::max<qsizetype>(1, capacity))
{ }

qsizetype LogBuffer::append(const QList<LogRecord> &records)
{
    // Each record copied into its slot: copying the list first (to move from it) would copy
    // every record into a new list as well (it detaches from its sender's), then drop that list.
    return appendEach(records.constData(), records.size());
}

qsizetype LogBuffer::append(QList<LogRecord> &&records)
{
    if (!records.isDetached()) {
        return append(std::as_const(records));
    }
    return appendEach(records.data(), records.size());
}

template<typename Record>
qsizetype LogBuffer::appendEach(Record *first, qsizetype count)
{
    if (m_ring.size() != size_t(m_capacity)) {
        m_ring.resize(size_t(m_capacity)); // allocated on first use: an idle host costs nothing
    }
    // Indexes wrap by comparison, not `%`: a 64-bit division per line was a tenth of the ring
    // pipeline's time (bench_logs).
    qsizetype dropped = 0;
    // The lines dropped give back their chunks' references a chunk at a time (one atomic
    // operation per line was the largest per-line cost left, bench_logs); the dropped slot is
    // empty before the new record moves in, so the sender's list keeps nothing of it either.
    bytes::BlockReleaser released;
    qsizetype tail = m_head + m_size; // where the next record goes, before wrapping
    if (tail >= m_capacity) {
        tail -= m_capacity;
    }
    for (Record *r = first; r != first + count; ++r) {
        ++m_total;
        m_textBytes += r->text.size();
        LogRecord &slot = m_ring[size_t(tail)];
        if (m_size == m_capacity) {
            m_textBytes -= slot.text.size(); // the oldest line: tail == head in a full ring
            released.release(slot.text);
            if (++m_head == m_capacity) {
                m_head = 0;
            }
            ++dropped;
        } else {
            ++m_size;
        }
        if constexpr (std::is_const_v<Record>) {
            slot = *r;
        } else {
            slot = std::move(*r);
        }
        if (++tail == m_capacity) {
            tail = 0;
        }
    }
    return dropped;
}

void LogBuffer::dropOldest(qsizetype count)
{
    count = std::min(count, m_size);
    bytes::BlockReleaser released;
    for (qsizetype i = 0; i < count; ++i) {
        LogRecord &oldest = m_ring[size_t(m_head)];
        m_textBytes -= oldest.text.size();
        released.release(oldest.text);
        oldest = LogRecord();
        if (++m_head == m_capacity) {
            m_head = 0;
        }
    }
    m_size -= count;
}

void LogBuffer::clear()
{
    m_ring.clear();
    m_ring.shrink_to_fit();
    m_head = 0;
    m_size = 0;
    m_total = 0;
    m_textBytes = 0;
}

qsizetype LogBuffer::setCapacity(qsizetype capacity)
{
    capacity = std::max<qsizetype>(1, capacity);
    const qsizetype keep = std::min(m_size, capacity);
    std::vector<LogRecord> ring;
    ring.reserve(size_t(capacity));
    for (qsizetype i = m_size - keep; i < m_size; ++i) {
        ring.push_back(at(i));
    }
    const qsizetype dropped = m_size - keep;
    m_textBytes = 0;
    for (const LogRecord &r : ring) {
        m_textBytes += r.text.size();
    }
    ring.resize(size_t(capacity));
    m_ring = std::move(ring);
    m_capacity = capacity;
    m_head = 0;
    m_size = keep;
    return dropped;
}

} // namespace flashdeck::logs
