#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QPair>

namespace flashdeck {

/** An HTTP header's name against one in lower case: names are case-insensitive (RFC 9110, 5.1). */
[[nodiscard]] inline bool headerNameIs(QByteArrayView name, QByteArrayView lower)
{
    return name.size() == lower.size() && name.compare(lower, Qt::CaseInsensitive) == 0;
}

/**
 * Reads one HTTP/1.x response as it arrives, the way uvicorn and dockerd send them:
 * Content-Length, chunked transfer coding, a body ended by the close, 1xx (skipped) and
 * 204/304 without one, `Connection: close`. The decoded body is handed out as it comes, so
 * a stream (a pull's progress, `logs?follow=1`, server-sent events) is read while it lasts.
 * Shared by LocalHttpClient (small polls) and LinkReply (calls and streams over a link).
 */
class HttpResponseParser
{
public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;
    enum class Result { NeedMore, Done, Failed };

    static constexpr qsizetype kMaxHeaderBytes = 64 * 1024;

    /** `maxBodyBytes`: a body past this fails the response (0: no limit, for streams). */
    explicit HttpResponseParser(qint64 maxBodyBytes = 0)
        : m_maxBody(maxBodyBytes)
    { }

    /** Forgets the response read so far: the next feed starts a new one. */
    void reset();
    /**
     * Consumes what it can of `in` (bytes read from the connection) and appends the body bytes
     * it decoded to `body`. Bytes after a complete response stay in `in`.
     */
    [[nodiscard]] Result feed(QByteArray &in, QByteArray &body);
    /** The connection closed: Done when the body was the rest of the connection. */
    [[nodiscard]] bool completeAtClose() const { return m_headersDone && m_untilClose; }

    bool headersDone() const { return m_headersDone; }
    int status() const { return m_status; }
    const QByteArray &reason() const { return m_reason; }
    /** The final response's header lines, names as sent. */
    const Headers &headers() const { return m_headers; }
    /** The server closes the connection after this response (or its body ends with the close). */
    bool closeAfter() const { return m_closeAfter; }

private:
    Result parseHeaders(QByteArray &in);
    Result parseChunked(QByteArray &in, QByteArray &body);
    bool tooLong(qint64 more) const { return m_maxBody > 0 && m_bodyBytes + more > m_maxBody; }

    qint64 m_maxBody = 0;
    bool m_headersDone = false;
    int m_status = 0;
    QByteArray m_reason;
    Headers m_headers;
    qint64 m_contentLength = -1;
    qint64 m_bodyBytes = 0; // decoded so far
    bool m_chunked = false;
    bool m_untilClose = false;
    bool m_closeAfter = false;
    qint64 m_chunkLeft = -1; // chunked: bytes left in this chunk; -1 before its size line
    bool m_trailers = false;
};

} // namespace flashdeck
