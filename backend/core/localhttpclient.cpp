#include "backend/core/localhttpclient.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>

namespace flashdeck {

namespace {

bool equalsLower(QByteArrayView name, QByteArrayView lower)
{
    return name.size() == lower.size() && name.compare(lower, Qt::CaseInsensitive) == 0;
}

} // namespace

LocalHttpClient::LocalHttpClient(quint16 port, QObject *parent)
    : QObject(parent)
    , m_port(port)
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &LocalHttpClient::onTimeout);
}

LocalHttpClient::~LocalHttpClient()
{
    m_queue.clear();
    dropSocket();
}

void LocalHttpClient::get(const QByteArray &path, Headers headers, int timeoutMs, Done done)
{
    m_queue.push_back({path, std::move(headers), timeoutMs, std::move(done)});
    if (!m_busy) {
        startNext();
    }
}

void LocalHttpClient::abortAll()
{
    m_queue.clear();
    m_busy = false;
    m_timer->stop();
    dropSocket();
}

void LocalHttpClient::startNext()
{
    if (m_busy || m_queue.empty()) {
        return;
    }
    m_busy = true;
    m_retried = false;
    m_in.clear();
    m_headersDone = false;
    m_status = 0;
    m_contentLength = -1;
    m_chunked = m_untilClose = m_closeAfter = m_trailers = false;
    m_body.clear();
    m_chunkLeft = -1;
    if (m_queue.front().timeoutMs > 0) {
        m_timer->start(m_queue.front().timeoutMs);
    }
    if (m_socket && m_socket->state() == QAbstractSocket::ConnectedState) {
        m_reused = true;
        send();
        return;
    }
    m_reused = false;
    dropSocket();
    m_socket = new QTcpSocket(this);
    ++m_connectionsOpened;
    connect(m_socket, &QTcpSocket::connected, this, &LocalHttpClient::send);
    connect(m_socket, &QTcpSocket::readyRead, this, &LocalHttpClient::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &LocalHttpClient::onDisconnected);
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError error) {
        // The peer closing is also "disconnected", which reads a close-ended body first.
        if (error != QAbstractSocket::RemoteHostClosedError) {
            onDisconnected();
        }
    });
    m_socket->connectToHost(QHostAddress::LocalHost, m_port);
}

void LocalHttpClient::send()
{
    if (!m_busy || !m_socket) {
        return;
    }
    const Request &r = m_queue.front();
    QByteArray out = "GET " + r.path + " HTTP/1.1\r\n";
    bool host = false;
    for (const auto &[name, value] : r.headers) {
        host = host || equalsLower(name, "host");
        out += name + ": " + value + "\r\n";
    }
    if (!host) {
        out += "Host: 127.0.0.1:" + QByteArray::number(m_port) + "\r\n";
    }
    out += "\r\n";
    m_socket->write(out);
    out.fill('\0'); // may hold an API key
}

void LocalHttpClient::onReadyRead()
{
    if (!m_socket) {
        return;
    }
    if (!m_busy) {
        dropSocket(); // bytes nobody asked for: this connection is not one to reuse
        return;
    }
    m_in += m_socket->readAll();
    switch (parse()) {
    case Parse::NeedMore:
        break;
    case Parse::Done:
        finish({m_status, std::exchange(m_body, {}), {}});
        break;
    case Parse::Failed:
        fail(QCoreApplication::translate("Core", "The server's answer was not HTTP that Flashdeck can read."));
        break;
    }
}

LocalHttpClient::Parse LocalHttpClient::parse()
{
    while (!m_headersDone) {
        const qsizetype end = m_in.indexOf("\r\n\r\n");
        if (end < 0) {
            return m_in.size() > kMaxHeaderBytes ? Parse::Failed : Parse::NeedMore;
        }
        const QList<QByteArray> lines = m_in.left(end).split('\n');
        m_in.remove(0, end + 4);
        // "HTTP/1.1 200 OK"
        const QByteArray statusLine = lines.first().trimmed();
        if (!statusLine.startsWith("HTTP/1.") || statusLine.size() < 12 || statusLine.at(8) != ' ') {
            return Parse::Failed;
        }
        bool ok = false;
        m_status = statusLine.mid(9, 3).toInt(&ok);
        if (!ok || m_status < 100) {
            return Parse::Failed;
        }
        const bool http10 = statusLine.startsWith("HTTP/1.0");
        bool keepAlive = !http10;
        m_contentLength = -1;
        m_chunked = false;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray &line = lines.at(i);
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            const QByteArrayView name = QByteArrayView(line).first(colon).trimmed();
            const QByteArray value = line.mid(colon + 1).trimmed();
            if (equalsLower(name, "content-length")) {
                m_contentLength = value.toLongLong(&ok);
                if (!ok || m_contentLength < 0) {
                    return Parse::Failed;
                }
            } else if (equalsLower(name, "transfer-encoding")) {
                m_chunked = value.toLower().contains("chunked");
            } else if (equalsLower(name, "connection")) {
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
            return Parse::Done;
        }
        if (!m_chunked && m_contentLength < 0) {
            m_untilClose = true; // the body is what comes until the server closes
            m_closeAfter = true;
        }
        if (m_contentLength > kMaxBodyBytes) {
            return Parse::Failed;
        }
    }
    if (m_chunked) {
        return parseChunked();
    }
    if (m_untilClose) {
        m_body += std::exchange(m_in, {});
        return m_body.size() > kMaxBodyBytes ? Parse::Failed : Parse::NeedMore;
    }
    if (m_in.size() < m_contentLength) {
        return Parse::NeedMore;
    }
    m_body = m_in.left(m_contentLength);
    m_in.remove(0, m_contentLength);
    return Parse::Done;
}

LocalHttpClient::Parse LocalHttpClient::parseChunked()
{
    for (;;) {
        if (m_trailers) {
            const qsizetype eol = m_in.indexOf("\r\n");
            if (eol < 0) {
                return m_in.size() > kMaxHeaderBytes ? Parse::Failed : Parse::NeedMore;
            }
            const bool last = eol == 0;
            m_in.remove(0, eol + 2);
            if (last) {
                return Parse::Done;
            }
            continue;
        }
        if (m_chunkLeft < 0) {
            const qsizetype eol = m_in.indexOf("\r\n");
            if (eol < 0) {
                return m_in.size() > 1024 ? Parse::Failed : Parse::NeedMore;
            }
            QByteArrayView sizeText = QByteArrayView(m_in).first(eol);
            if (const qsizetype semi = sizeText.indexOf(';'); semi >= 0) {
                sizeText = sizeText.first(semi); // chunk extensions: ignored, as RFC 9112 allows
            }
            bool ok = false;
            const qint64 size = sizeText.trimmed().toLongLong(&ok, 16);
            if (!ok || size < 0 || m_body.size() + size > kMaxBodyBytes) {
                return Parse::Failed;
            }
            m_in.remove(0, eol + 2);
            if (size == 0) {
                m_trailers = true;
                continue;
            }
            m_chunkLeft = size;
        }
        if (m_in.size() < m_chunkLeft + 2) {
            return Parse::NeedMore;
        }
        if (m_in.at(m_chunkLeft) != '\r' || m_in.at(m_chunkLeft + 1) != '\n') {
            return Parse::Failed;
        }
        m_body.append(m_in.constData(), m_chunkLeft);
        m_in.remove(0, m_chunkLeft + 2);
        m_chunkLeft = -1;
    }
}

void LocalHttpClient::onDisconnected()
{
    if (!m_socket) {
        return;
    }
    if (!m_busy) {
        dropSocket(); // an idle kept-alive connection the server closed: the next request opens one
        return;
    }
    if (m_socket->bytesAvailable() > 0) {
        m_in += m_socket->readAll();
        if (const Parse p = parse(); p == Parse::Done) {
            finish({m_status, std::exchange(m_body, {}), {}});
            return;
        }
    }
    if (m_headersDone && m_untilClose) {
        finish({m_status, std::exchange(m_body, {}), {}});
        return;
    }
    // The server closed a kept-alive connection just as the request went out (uvicorn closes
    // one idle for 5 s): nothing of an answer came, so asking again on a new one is safe.
    if (m_reused && !m_retried && m_in.isEmpty() && !m_headersDone) {
        const bool timing = m_timer->isActive();
        const int left = m_timer->remainingTime();
        m_busy = false;
        startNext();
        m_retried = true;
        if (timing) {
            m_timer->start(std::max(1, left));
        }
        return;
    }
    const QString why = m_socket->error() == QAbstractSocket::RemoteHostClosedError || m_headersDone
        ? QCoreApplication::translate("Core", "The connection closed before the answer was complete.")
        : m_socket->errorString();
    fail(why);
}

void LocalHttpClient::onTimeout()
{
    if (m_busy) {
        fail(QCoreApplication::translate("Core", "No answer within %1 s.").arg(m_queue.front().timeoutMs / 1000.0));
    }
}

void LocalHttpClient::fail(const QString &error)
{
    dropSocket();
    finish({0, {}, error});
}

void LocalHttpClient::finish(LocalHttpResponse response)
{
    m_timer->stop();
    Done done = std::move(m_queue.front().done);
    m_queue.pop_front();
    m_busy = false;
    if (m_closeAfter || !m_in.isEmpty()) {
        dropSocket(); // the server said so, or sent more than the answer: not a connection to reuse
    }
    const QPointer<LocalHttpClient> alive(this);
    done(response);
    if (alive) {
        startNext();
    }
}

void LocalHttpClient::dropSocket()
{
    m_in.clear();
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
        // Not our child any more: this may run inside the socket's own signal, and a client
        // deleted from a callback must not delete the socket under it.
        m_socket->setParent(nullptr);
        m_socket->deleteLater();
        m_socket = nullptr;
    }
}

} // namespace flashdeck
