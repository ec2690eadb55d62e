#include "backend/logs/linesplitter.h"

#include <cstring>

namespace flashdeck::logs {

QList<SplitLine> LineSplitter::feed(const QByteArray &chunk)
{
    QList<SplitLine> out;
    out.reserve(chunk.size() / 96 + 1); // SGLang's lines run 60–200 bytes: rarely a regrowth
    const char *p = chunk.constData();
    const char *const end = p + chunk.size();
    if (m_pendingCR && p < end) {
        // The last chunk ended in '\r': a '\n' now makes it one CRLF line end; anything else
        // means it was a progress bar redrawing itself.
        const bool crlf = *p == '\n';
        if (!m_discarding) {
            out.append({m_pending, !crlf, false});
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
        // The common case: a whole line inside this chunk, nothing pending. One allocation of
        // the exact size (appending to m_pending grows, then is thrown away).
        if (q < end && *q == '\n' && m_pending.isEmpty() && !m_discarding && q - p <= m_maxLine) {
            out.append({QByteArray(p, q - p), false, false});
            p = q + 1;
            continue;
        }
        if (!m_discarding) {
            const qsizetype room = m_maxLine - m_pending.size();
            if (q - p > room) {
                m_pending.append(p, room);
                out.append({m_pending, false, true});
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
            out.append({m_pending, progress, false});
        }
        m_pending.clear();
        m_discarding = false;
        p = q + 1;
    }
    return out;
}

QList<SplitLine> LineSplitter::finish()
{
    QList<SplitLine> out;
    if ((!m_pending.isEmpty() || m_pendingCR) && !m_discarding) {
        out.append({m_pending, false, false});
    }
    m_pending.clear();
    m_discarding = false;
    m_pendingCR = false;
    return out;
}

} // namespace flashdeck::logs
