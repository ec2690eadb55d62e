#pragma once

#include "backend/logs/logrecord.h"

#include <QList>

#include <vector>

namespace flashdeck::logs {

/**
 * The last `capacity` lines of a log, in fixed memory: a ring of records. Appending past the
 * capacity drops the oldest lines and says how many, so a model can remove exactly those rows.
 * Indexes are logical: 0 is the oldest line kept.
 */
class LogBuffer final
{
public:
    static constexpr qsizetype kDefaultCapacity = 200000;

    explicit LogBuffer(qsizetype capacity = kDefaultCapacity);

    qsizetype capacity() const { return m_capacity; }
    qsizetype size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    const LogRecord &at(qsizetype i) const { return m_ring[size_t((m_head + i) % m_capacity)]; }
    /** Lines appended in all, dropped ones included. */
    qint64 total() const { return m_total; }
    /** Bytes of text held (for the memory figures of PERFORMANCE.md). */
    qint64 textBytes() const { return m_textBytes; }

    /** Appends the lines; returns how many of the oldest were dropped to make room. */
    qsizetype append(const QList<LogRecord> &records);
    /**
     * The same, taking the records' text instead of sharing it (no reference counting per line)
     * when `records` is the list's only holder; a list shared with its sender is copied from.
     */
    qsizetype append(QList<LogRecord> &&records);
    /** Drops the `count` oldest lines (a model removes their rows around this call). */
    void dropOldest(qsizetype count);
    /** Empties the ring and its counts (another log begins). */
    void clear();
    /** A new capacity: keeps the newest lines that fit; returns how many were dropped. */
    qsizetype setCapacity(qsizetype capacity);

private:
    template<typename Record> // LogRecord: moved from; const LogRecord: copied
    qsizetype appendEach(Record *first, qsizetype count);

    std::vector<LogRecord> m_ring;
    qsizetype m_capacity;
    qsizetype m_head = 0; // ring index of the oldest line
    qsizetype m_size = 0;
    qint64 m_total = 0;
    qint64 m_textBytes = 0;
};

} // namespace flashdeck::logs
