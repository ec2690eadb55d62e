#include "backend/chat/sseparser.h"

#include <algorithm>

namespace flashdeck::chat {

SseParser::SseParser(qsizetype maxLineBytes)
    : m_max(maxLineBytes)
{ }

QList<SseEvent> SseParser::feed(QByteArrayView bytes)
{
    QList<SseEvent> out;
    if (m_overflow) {
        return out;
    }
    qsizetype i = 0;
    if (!m_started) {
        // A UTF-8 BOM may open the stream; it can itself arrive split, so wait for 3 bytes.
        const QByteArray head = m_line + bytes.first(std::min(bytes.size(), 3 - m_line.size())).toByteArray();
        if (head.size() < 3 && QByteArrayLiteral("\xEF\xBB\xBF").startsWith(head)) {
            m_line = head;
            return out;
        }
        m_started = true;
        if (head.startsWith("\xEF\xBB\xBF")) {
            i = 3 - m_line.size();
            m_line.clear();
        }
    }
    if (m_afterCr && i < bytes.size() && bytes[i] == '\n') {
        ++i; // the LF of a CRLF split across two chunks
    }
    m_afterCr = false;
    while (i < bytes.size()) {
        qsizetype end = i;
        while (end < bytes.size() && bytes[end] != '\n' && bytes[end] != '\r') {
            ++end;
        }
        if (end == bytes.size()) {
            if (m_line.size() + (end - i) > m_max) {
                m_overflow = true;
                return out;
            }
            m_line.append(bytes.sliced(i, end - i)); // no line ending yet: keep it for the next chunk
            break;
        }
        if (m_line.isEmpty()) {
            line(bytes.sliced(i, end - i), out);
        } else {
            m_line.append(bytes.sliced(i, end - i));
            const QByteArray whole = std::move(m_line);
            m_line.clear();
            line(whole, out);
        }
        if (m_overflow) {
            return out;
        }
        i = end + 1;
        if (bytes[end] == '\r') {
            if (i < bytes.size()) {
                i += bytes[i] == '\n' ? 1 : 0;
            } else {
                m_afterCr = true;
            }
        }
    }
    return out;
}

void SseParser::line(QByteArrayView text, QList<SseEvent> &out)
{
    if (text.isEmpty()) { // dispatch
        if (m_hasData) {
            SseEvent e;
            if (!m_event.isEmpty()) {
                e.event = m_event;
            }
            e.data = std::move(m_data);
            e.id = m_lastId;
            out.append(std::move(e));
        }
        m_data.clear();
        m_event.clear();
        m_hasData = false;
        return;
    }
    if (text.startsWith(':')) {
        ++m_comments;
        return;
    }
    const qsizetype colon = text.indexOf(':');
    const QByteArrayView field = colon < 0 ? text : text.first(colon);
    QByteArrayView value = colon < 0 ? QByteArrayView() : text.sliced(colon + 1);
    if (value.startsWith(' ')) {
        value = value.sliced(1);
    }
    if (field == "data") {
        if (m_data.size() + value.size() > m_max) {
            m_overflow = true;
            return;
        }
        if (m_hasData) {
            m_data.append('\n');
        }
        m_data.append(value);
        m_hasData = true;
    } else if (field == "event") {
        m_event = value.toByteArray();
    } else if (field == "id") {
        if (!value.contains('\0')) {
            m_lastId = value.toByteArray();
        }
    } // "retry" and unknown fields are ignored, as the spec says
}

} // namespace flashdeck::chat
