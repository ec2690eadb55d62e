#include "backend/docker/logframes.h"

#include "backend/core/sharedbytes.h"

#include <cstring>

namespace flashdeck::docker {

void LogFrameDecoder::emitText(int stream, bytes::BlockSlicer &block, qsizetype from, qsizetype size,
                               QList<LogLine> &out)
{
    // One pass over the payload. A line wholly inside it shares the block's memory (the ring
    // keeps every line: an allocation and a copy each was most of the pipeline's cost,
    // bench_logs); only a line that spans frames or chunks is assembled in `partial`.
    QByteArray &partial = m_partial[stream];
    bool &discarding = m_discarding[stream];
    const char *const base = block.block().constData();
    const char *p = base + from;
    const char *const end = p + size;
    while (p < end) {
        const char *nl = static_cast<const char *>(memchr(p, '\n', size_t(end - p)));
        const char *stop = nl ? nl : end;
        if (nl && partial.isEmpty() && !discarding && stop - p <= kMaxLine) {
            const qsizetype n = stop - p - (stop > p && stop[-1] == '\r' ? 1 : 0);
            out.append({stream, block.slice(p - base, n), false});
            p = nl + 1;
            continue;
        }
        if (!discarding) {
            const qsizetype room = kMaxLine - partial.size();
            if (stop - p > room) {
                partial.append(p, room);
                out.append({stream, partial, true});
                partial.clear();
                discarding = true;
            } else {
                partial.append(p, stop - p);
            }
        }
        if (!nl) {
            break;
        }
        if (!discarding) {
            if (partial.endsWith('\r')) {
                partial.chop(1);
            }
            out.append({stream, partial, false});
        }
        partial.clear();
        discarding = false;
        p = nl + 1;
    }
}

QList<LogLine> LogFrameDecoder::feed(const QByteArray &chunk)
{
    QList<LogLine> out;
    if (m_corrupt) {
        return out;
    }
    if (!m_multiplexed) {
        bytes::BlockSlicer slicer(chunk);
        emitText(1, slicer, 0, chunk.size(), out);
        return out;
    }
    m_frames += chunk; // shares `chunk` when nothing was left over (QByteArray::append)
    qsizetype pos = 0;
    {
        bytes::BlockSlicer slicer(m_frames); // gone before m_frames changes below
        while (m_frames.size() - pos >= 8) {
            const auto *h = reinterpret_cast<const unsigned char *>(m_frames.constData() + pos);
            if (h[0] > 2) {
                m_corrupt = true; // not a multiplexed stream after all: stop rather than print garbage
                break;
            }
            const qsizetype size = (qsizetype(h[4]) << 24) | (qsizetype(h[5]) << 16) | (qsizetype(h[6]) << 8) | h[7];
            if (m_frames.size() - pos - 8 < size) {
                break;
            }
            emitText(h[0] == 2 ? 2 : 1, slicer, pos + 8, size, out);
            pos += 8 + size;
        }
    }
    if (pos == m_frames.size()) {
        m_frames.clear(); // the lines may share it: let go rather than detach an empty copy
    } else {
        m_frames.remove(0, pos);
    }
    return out;
}

QList<LogLine> LogFrameDecoder::finish()
{
    QList<LogLine> out;
    for (int s = 1; s <= 2; ++s) {
        if (!m_partial[s].isEmpty() && !m_discarding[s]) {
            out.append({s, m_partial[s], false});
        }
        m_partial[s].clear();
        m_discarding[s] = false;
    }
    return out;
}

} // namespace flashdeck::docker
