#pragma once

#include <QByteArray>

namespace flashdeck::bytes {

/**
 * `block[pos, pos + n)` as a QByteArray that shares `block`'s memory instead of copying it: one
 * reference count more, no allocation — when the block is worth sharing (see below). The log pipeline keeps every line
 * it reads; an allocation and a copy per line was most of its cost (docs/PERFORMANCE.md, "Logs").
 *
 * Qt 6 keeps a begin pointer and a size beside the shared header (QArrayDataPointer), so a
 * QByteArray can start inside a block it shares; QByteArray's own functions honour the size,
 * and writing to a shared slice detaches it first, as any shared QByteArray does. What a slice
 * does not give is a '\0' after its last byte (as with QByteArray::fromRawData): read it by its
 * size, never as a C string.
 *
 * A slice keeps its whole block alive: keep slices of blocks whose lines are kept together
 * (the log ring), and take a copy (`QByteArray(slice.constData(), slice.size())`) of a line that
 * outlives its neighbours. So the slice is a copy instead when the block is mostly unused room:
 * QIODevice::readAll() leaves 16 KiB or more of capacity behind a short read (qiodevice.cpp), and
 * a slow log's 150-byte chunks would each keep 16 KiB alive, 3 GB over a 200 000-line ring. A
 * `block` without a header of its own (empty, or fromRawData) is copied too.
 */
inline constexpr qsizetype kSliceSlack = 4096; // room a block may waste and still be shared

/** Shares without asking whether the block is worth it: see sharedSlice() and sharedPart(). */
inline QByteArray shareUnchecked(const QByteArray &block, qsizetype pos, qsizetype n)
{
    Q_ASSERT(pos >= 0 && n >= 0 && pos + n <= block.size());
    QByteArray::DataPointer &whole = const_cast<QByteArray &>(block).data_ptr();
    if (n == 0 || !whole.d_ptr()) {
        return QByteArray(block.constData() + pos, n);
    }
    whole.ref();
    return QByteArray(QByteArray::DataPointer(whole.d_ptr(), whole.data() + pos, n));
}

inline QByteArray sharedSlice(const QByteArray &block, qsizetype pos, qsizetype n)
{
    if (block.capacity() > 2 * block.size() + kSliceSlack) {
        return QByteArray(block.constData() + pos, n);
    }
    return shareUnchecked(block, pos, n);
}

/**
 * A part of `line`, where `line` came from sharedSlice() or is a copy of its own: it shares
 * whatever `line` holds (a block already judged worth sharing, or the line's own allocation),
 * so no density check is due. (A line's size says nothing of its block's.)
 */
inline QByteArray sharedPart(const QByteArray &line, qsizetype pos, qsizetype n)
{
    return shareUnchecked(line, pos, n);
}

} // namespace flashdeck::bytes
