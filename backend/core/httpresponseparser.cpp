#include "backend/core/httpresponseparser.h"

#include <QByteArrayView>

namespace flashdeck {

void HttpResponseParser::reset()
{
    *this = HttpResponseParser(m_maxBody);
}

HttpResponseParser::Result HttpResponseParser::feed(QByteArray &in, QByteArray &body)
{
    if (!m_headersDone) {
        const Result headers = parseHeaders(in);
        if (headers != Result::NeedMore || !m_headersDone) {
            return headers;
        }
    }
    if (m_chunked) {
        return parseChunked(in, body);
    }
    if (m_untilClose) {
        if (tooLong(in.size())) {
            return Result::Failed;
        }
        m_bodyBytes += in.size();
        body += std::exchange(in, {});
        return Result::NeedMore;
    }
    const qint64 take = std::min<qint64>(in.size(), m_contentLength - m_bodyBytes);
    body.append(in.constData(), take);
    in.remove(0, take);
    m_bodyBytes += take;
    return m_bodyBytes == m_contentLength ? Result::Done : Result::NeedMore;
}

HttpResponseParser::Result HttpResponseParser::parseHeaders(QByteArray &in)
{
    while (!m_headersDone) {
        const qsizetype end = in.indexOf("\r\n\r\n");
        if (end < 0) {
            return in.size() > kMaxHeaderBytes ? Result::Failed : Result::NeedMore;
        }
        const QList<QByteArray> lines = in.left(end).split('\n');
        in.remove(0, end + 4);
        // "HTTP/1.1 200 OK"
        const QByteArray statusLine = lines.first().trimmed();
        if (!statusLine.startsWith("HTTP/1.") || statusLine.size() < 12 || statusLine.at(8) != ' ') {
            return Result::Failed;
        }
        bool ok = false;
        m_status = statusLine.mid(9, 3).toInt(&ok);
        if (!ok || m_status < 100) {
            return Result::Failed;
        }
        m_reason = statusLine.mid(13).trimmed();
        bool keepAlive = !statusLine.startsWith("HTTP/1.0");
        m_contentLength = -1;
        m_chunked = false;
        m_headers.clear();
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray &line = lines.at(i);
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            const QByteArray name = line.first(colon).trimmed();
            const QByteArray value = line.mid(colon + 1).trimmed();
            m_headers.append({name, value});
            if (headerNameIs(name, "content-length")) {
                m_contentLength = value.toLongLong(&ok);
                if (!ok || m_contentLength < 0) {
                    return Result::Failed;
                }
            } else if (headerNameIs(name, "transfer-encoding")) {
                m_chunked = value.toLower().contains("chunked");
            } else if (headerNameIs(name, "connection")) {
                const QByteArray v = value.toLower();
                keepAlive = v.contains("keep-alive") || (keepAlive && !v.contains("close"));
            }
        }
        if (m_status < 200) {
            continue; // 100 Continue and friends: the real answer follows
        }
        m_headersDone = true;
        m_closeAfter = !keepAlive;
        if (m_status == 204 || m_status == 304) {
            return Result::Done;
        }
        if (!m_chunked && m_contentLength < 0) {
            m_untilClose = true; // the body is what comes until the server closes
            m_closeAfter = true;
        }
        if (!m_chunked && m_contentLength > 0 && tooLong(m_contentLength)) {
            return Result::Failed;
        }
        if (!m_chunked && m_contentLength == 0) {
            return Result::Done;
        }
    }
    return Result::NeedMore;
}

HttpResponseParser::Result HttpResponseParser::parseChunked(QByteArray &in, QByteArray &body)
{
    for (;;) {
        if (m_trailers) {
            const qsizetype eol = in.indexOf("\r\n");
            if (eol < 0) {
                return in.size() > kMaxHeaderBytes ? Result::Failed : Result::NeedMore;
            }
            const bool last = eol == 0;
            in.remove(0, eol + 2);
            if (last) {
                return Result::Done;
            }
            continue;
        }
        if (m_chunkLeft < 0) {
            const qsizetype eol = in.indexOf("\r\n");
            if (eol < 0) {
                return in.size() > 1024 ? Result::Failed : Result::NeedMore;
            }
            QByteArrayView sizeText = QByteArrayView(in).first(eol);
            if (const qsizetype semi = sizeText.indexOf(';'); semi >= 0) {
                sizeText = sizeText.first(semi); // chunk extensions: ignored, as RFC 9112 allows
            }
            bool ok = false;
            const qint64 size = sizeText.trimmed().toLongLong(&ok, 16);
            if (!ok || size < 0 || tooLong(size)) {
                return Result::Failed;
            }
            in.remove(0, eol + 2);
            if (size == 0) {
                m_trailers = true;
                continue;
            }
            m_chunkLeft = size;
        }
        if (m_chunkLeft > 0) {
            // Hand out what has come of this chunk: a stream's chunk may arrive in pieces.
            const qint64 take = std::min<qint64>(in.size(), m_chunkLeft);
            body.append(in.constData(), take);
            in.remove(0, take);
            m_chunkLeft -= take;
            m_bodyBytes += take;
            if (m_chunkLeft > 0) {
                return Result::NeedMore;
            }
        }
        if (in.size() < 2) {
            return Result::NeedMore;
        }
        if (in.at(0) != '\r' || in.at(1) != '\n') {
            return Result::Failed;
        }
        in.remove(0, 2);
        m_chunkLeft = -1;
    }
}

} // namespace flashdeck
