#include "backend/docker/logframes.h"

namespace flashdeck::docker {

void LogFrameDecoder::emitText(int stream, const QByteArray &payload, QList<LogLine> &out)
{
    QByteArray &partial = m_partial[stream];
    partial += payload;
    qsizetype nl;
    while ((nl = partial.indexOf('\n')) >= 0) {
        QByteArray text = partial.left(nl);
        if (text.endsWith('\r')) {
            text.chop(1);
        }
        out.append({stream, text});
        partial.remove(0, nl + 1);
    }
}

QList<LogLine> LogFrameDecoder::feed(const QByteArray &chunk)
{
    QList<LogLine> out;
    if (m_corrupt) {
        return out;
    }
    if (!m_multiplexed) {
        emitText(1, chunk, out);
        return out;
    }
    m_frames += chunk;
    qsizetype pos = 0;
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
        emitText(h[0] == 2 ? 2 : 1, m_frames.mid(pos + 8, size), out);
        pos += 8 + size;
    }
    m_frames.remove(0, pos);
    return out;
}

QList<LogLine> LogFrameDecoder::finish()
{
    QList<LogLine> out;
    for (int s = 1; s <= 2; ++s) {
        if (!m_partial[s].isEmpty()) {
            out.append({s, m_partial[s]});
            m_partial[s].clear();
        }
    }
    return out;
}

} // namespace flashdeck::docker
