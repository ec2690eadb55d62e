#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

#include <cstring>

namespace flashdeck::logs {

/** One line of a log as it arrived. */
struct SplitLine
{
    QByteArray text; // bytes as sent: invalid UTF-8 is kept, the view replaces it when shown
    bool progress = false; // ended by a lone '\r': a tqdm bar redrawing itself
    bool cut = false; // longer than the limit: the rest up to the next line end was dropped
};

/**
 * Splits a byte stream into lines at '\n', '\r\n' or a lone '\r' (progress bars redraw with it,
 * sglang-facts §3.1), whatever the chunk boundaries. A line longer than `maxLine` bytes (1 MiB)
 * is cut there and marked, so one runaway line cannot take the memory.
 */
class LineSplitter final
{
public:
    explicit LineSplitter(qsizetype maxLine = 1024 * 1024)
        : m_maxLine(maxLine)
    { }

    /**
     * The lines `chunk` completes. A line wholly inside the chunk shares its memory
     * (bytes::BlockSlicer: no '\0' after it, and it keeps the chunk alive); one that spans
     * chunks is a copy.
     */
    QList<SplitLine> feed(const QByteArray &chunk);
    /** The last line when the stream ends without a line end. */
    QList<SplitLine> finish();

    /**
     * The same lines without a copy each: calls `onLine(QByteArrayView text, bool progress,
     * bool cut)` for each line of `chunk`, in order. A line wholly inside the chunk is a view
     * into it; one that spans chunks is a view of the splitter's own buffer. Either is valid
     * during the call only. (`flashdeck logs --file` prints most lines it reads: a copy each
     * cost more than classifying them.)
     */
    template<typename OnLine>
    void feedEach(QByteArrayView chunk, OnLine &&onLine);
    template<typename OnLine>
    void finishEach(OnLine &&onLine);

private:
    QByteArray m_pending;
    bool m_pendingCR = false; // the previous chunk ended in '\r': a '\n' next belongs to it
    bool m_discarding = false; // past the limit: drop until the next line end
    qsizetype m_maxLine;
};

template<typename OnLine>
void LineSplitter::feedEach(QByteArrayView chunk, OnLine &&onLine)
{
    const char *p = chunk.data();
    const char *const end = p + chunk.size();
    if (m_pendingCR && p < end) {
        // The last chunk ended in '\r': a '\n' now makes it one CRLF line end; anything else
        // means it was a progress bar redrawing itself.
        const bool crlf = *p == '\n';
        if (!m_discarding) {
            onLine(QByteArrayView(m_pending), !crlf, false);
        }
        m_pending.clear();
        m_discarding = false;
        m_pendingCR = false;
        if (crlf) {
            ++p;
        }
    }
    while (p < end) {
        // The next line end: memchr (vectorised by libc) for '\n', then for a '\r' before it.
        // A byte loop here cost more than classifying the line (bench_logs).
        const char *q = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
        if (!q) {
            q = end;
        }
        if (const void *cr = std::memchr(p, '\r', size_t(q - p))) {
            q = static_cast<const char *>(cr);
        }
        // The common case: a whole line inside this chunk, nothing pending.
        if (q < end && *q == '\n' && m_pending.isEmpty() && !m_discarding && q - p <= m_maxLine) {
            onLine(QByteArrayView(p, q - p), false, false);
            p = q + 1;
            continue;
        }
        if (!m_discarding) {
            const qsizetype room = m_maxLine - m_pending.size();
            if (q - p > room) {
                m_pending.append(p, room);
                onLine(QByteArrayView(m_pending), false, true);
                m_pending.clear();
                m_discarding = true;
            } else {
                m_pending.append(p, q - p);
            }
        }
        if (q == end) {
            break; // no line end yet: keep the partial line for the next chunk
        }
        bool progress = false;
        if (*q == '\r') {
            if (q + 1 < end && q[1] == '\n') {
                ++q; // CRLF: one line end
            } else if (q + 1 == end) {
                m_pendingCR = true; // decided by the next chunk: CRLF or a progress redraw
                break;
            } else {
                progress = true;
            }
        }
        if (!m_discarding) {
            onLine(QByteArrayView(m_pending), progress, false);
        }
        m_pending.clear();
        m_discarding = false;
        p = q + 1;
    }
}

template<typename OnLine>
void LineSplitter::finishEach(OnLine &&onLine)
{
    if ((!m_pending.isEmpty() || m_pendingCR) && !m_discarding) {
        onLine(QByteArrayView(m_pending), false, false);
    }
    m_pending.clear();
    m_discarding = false;
    m_pendingCR = false;
}

} // namespace flashdeck::logs
