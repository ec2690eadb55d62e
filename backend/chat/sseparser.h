#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace flashdeck::chat {

/** One server-sent event (WHATWG HTML §9.2): its type, its data lines joined by '\n', its id. */
struct SseEvent
{
    QByteArray event = QByteArrayLiteral("message");
    QByteArray data;
    QByteArray id;
};

/**
 * An incremental parser for `text/event-stream`, fed as bytes arrive from the tunnel: chunk
 * boundaries may fall anywhere, even between the CR and LF of one line ending. Comment lines
 * (": keep-alive") are counted and dropped; an event is dispatched at its blank line, and one
 * left unfinished when the stream ends is not (the spec's rule: a cut stream gives no half
 * event). A line longer than `maxLineBytes` is an error rather than unbounded memory.
 */
class SseParser final
{
public:
    explicit SseParser(qsizetype maxLineBytes = 16 * 1024 * 1024);

    /** Parses `bytes`; returns the events completed by them, in order. */
    QList<SseEvent> feed(QByteArrayView bytes);

    /** True once a line passed maxLineBytes; the parser then ignores further input. */
    bool overflowed() const { return m_overflow; }
    /** Comment lines seen (SGLang and proxies send ": ping" keep-alives). */
    int comments() const { return m_comments; }
    /** Bytes of an unfinished line or event still held (non-zero when the stream was cut). */
    qsizetype pendingBytes() const { return m_line.size() + m_data.size(); }

private:
    void line(QByteArrayView text, QList<SseEvent> &out);

    qsizetype m_max;
    QByteArray m_line;
    QByteArray m_data;
    QByteArray m_event;
    QByteArray m_lastId;
    bool m_hasData = false;
    bool m_afterCr = false; // the previous chunk ended in CR: a leading LF now ends nothing
    bool m_started = false; // a leading BOM is skipped once
    bool m_overflow = false;
    int m_comments = 0;
};

} // namespace flashdeck::chat
