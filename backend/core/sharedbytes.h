#pragma once

#include <QByteArray>

namespace flashdeck::bytes {

/**
 * Gives back `n` references of the block `d` held uncounted (BlockSlicer's spares,
 * BlockReleaser's runs): all but one at once (the ones held keep the count above zero), then
 * the last one as any holder lets go, which frees the block if nothing else holds it.
 */
inline void giveBack(QTypedArrayData<char> *d, int n)
{
    if (n <= 0) {
        return;
    }
    if (n > 1) {
        d->ref_.fetchAndSubRelease(n - 1);
    }
    QByteArray::DataPointer last(d, nullptr, 0);
}

/**
 * Slices of one block as QByteArrays that share the block's memory instead of copying it: no
 * allocation and no copy per slice — when the block is worth sharing (see below). The log
 * pipeline keeps every line it reads; an allocation and a copy per line was most of its cost,
 * and then an atomic reference-count update per line was the largest part of what was left
 * (docs/PERFORMANCE.md, "Logs"). So the slicer takes references for its slices 256 at a time and
 * gives back the ones it did not hand out when it goes: the count never falls below the number
 * of holders, whatever the slices do meanwhile.
 *
 * Qt 6 keeps a begin pointer and a size beside the shared header (QArrayDataPointer), so a
 * QByteArray can start inside a block it shares; QByteArray's own functions honour the size,
 * and writing to a shared slice detaches it first, as any shared QByteArray does. What a slice
 * does not give is a '\0' after its last byte (as with QByteArray::fromRawData): read it by its
 * size, never as a C string.
 *
 * A slice keeps its whole block alive: keep slices of blocks whose lines are kept together
 * (the log ring), and take a copy (`QByteArray(slice.constData(), slice.size())`) of a line that
 * outlives its neighbours. So the slices are copies instead when the block is mostly unused room:
 * QIODevice::readAll() leaves 16 KiB or more of capacity behind a short read (qiodevice.cpp), and
 * a slow log's 150-byte chunks would each keep 16 KiB alive, 3 GB over a 200 000-line ring. A
 * block without a header of its own (empty, or fromRawData) is copied from too.
 *
 * The block must outlive the slicer, unchanged (the slices may outlive both).
 */
class BlockSlicer
{
public:
    static constexpr qsizetype kSlack = 4096; // room a block may waste and still be shared

    explicit BlockSlicer(const QByteArray &block)
        : m_block(block)
    {
        QByteArray::DataPointer &whole = const_cast<QByteArray &>(block).data_ptr();
        if (whole.d_ptr() && block.capacity() <= 2 * block.size() + kSlack) {
            m_d = whole.d_ptr();
        }
    }
    ~BlockSlicer() { giveBack(m_d, m_spare); }
    BlockSlicer(const BlockSlicer &) = delete;
    BlockSlicer &operator=(const BlockSlicer &) = delete;

    const QByteArray &block() const { return m_block; }

    /** `block[pos, pos + n)`: shared, or a copy where the block is not worth sharing. */
    QByteArray slice(qsizetype pos, qsizetype n)
    {
        Q_ASSERT(pos >= 0 && n >= 0 && pos + n <= m_block.size());
        if (!m_d || n == 0) {
            return QByteArray(m_block.constData() + pos, n);
        }
        if (m_spare == 0) {
            m_d->ref_.fetchAndAddRelaxed(kBatch); // as QArrayData::ref(): an increment needs no order
            m_spare = kBatch;
        }
        --m_spare;
        return QByteArray(QByteArray::DataPointer(m_d, const_cast<char *>(m_block.constData()) + pos, n));
    }

private:
    static constexpr int kBatch = 256;
    const QByteArray &m_block;
    QTypedArrayData<char> *m_d = nullptr; // null: copy every slice
    int m_spare = 0; // references taken and not handed out yet
};

/**
 * The other end of BlockSlicer: gives back the references of many QByteArrays one block at a
 * time. Letting go of a line one reference at a time is an atomic operation per line; the log
 * ring drops its oldest lines in the order they arrived, so thousands in a row share a block, and
 * this gives their references back with one atomic operation for each run of them
 * (docs/PERFORMANCE.md, "Logs"). A QByteArray without a header of its own is simply emptied.
 *
 * The references are held, uncounted, until the releaser goes or flush(): the blocks stay alive
 * until then, never shorter.
 */
class BlockReleaser
{
public:
    BlockReleaser() = default;
    ~BlockReleaser() { flush(); }
    BlockReleaser(const BlockReleaser &) = delete;
    BlockReleaser &operator=(const BlockReleaser &) = delete;

    /** Empties `bytes`; its reference goes back with the rest of its run. */
    void release(QByteArray &bytes)
    {
        QByteArray::DataPointer &p = bytes.data_ptr();
        if (p.d) {
            if (p.d != m_d) {
                flush();
                m_d = p.d;
            }
            ++m_held;
        }
        // Forgotten, not released: the reference is now one of m_held.
        p.d = nullptr;
        p.ptr = nullptr;
        p.size = 0;
    }

    /** Gives back the references held. */
    void flush()
    {
        giveBack(m_d, m_held);
        m_d = nullptr;
        m_held = 0;
    }

private:
    QTypedArrayData<char> *m_d = nullptr;
    int m_held = 0; // references of m_d held and not given back yet (a count is an int)
};

/**
 * Narrows `bytes` to its part `[pos, pos + n)` in place: it keeps the memory it holds (shared or
 * its own) and its one reference, so no count changes and nothing is copied. As with a slice,
 * no '\0' follows the part.
 */
inline void narrow(QByteArray &bytes, qsizetype pos, qsizetype n)
{
    Q_ASSERT(pos >= 0 && n >= 0 && pos + n <= bytes.size());
    QByteArray::DataPointer &d = bytes.data_ptr();
    d.ptr += pos;
    d.size = n;
}

} // namespace flashdeck::bytes
