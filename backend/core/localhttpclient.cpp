#include "backend/core/localhttpclient.h"

#include <QCoreApplication>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>

namespace flashdeck {

LocalHttpClient::LocalHttpClient(quint16 port, QObject *parent)
    : LocalHttpClient(LinkOpener::loopback(port), parent)
{ }

LocalHttpClient::LocalHttpClient(LinkOpener link, QObject *parent)
    : QObject(parent)
    , m_link(std::move(link))
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
    request(QByteArrayLiteral("GET"), path, std::move(headers), {}, timeoutMs, std::move(done));
}

void LocalHttpClient::request(const QByteArray &method, const QByteArray &path, Headers headers, QByteArray body,
                              int timeoutMs, Done done)
{
    m_queue.push_back({method, path, std::move(body), std::move(headers), timeoutMs, std::move(done)});
    if (!m_busy) {
        startNext();
    }
}

void LocalHttpClient::failAll(const QString &error)
{
    std::deque<Request> queue = std::exchange(m_queue, {});
    m_busy = false;
    m_timer->stop();
    dropSocket();
    const QPointer<LocalHttpClient> alive(this);
    for (Request &r : queue) {
        r.body.fill('\0');
        r.done({0, {}, error, {}});
        if (!alive) {
            return;
        }
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
    m_response.reset();
    m_body.clear();
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
    QString error;
    m_socket = m_link.openSocket(this, &error);
    if (!m_socket) {
        // Reported from the event loop, as a refused connection was: never inside get().
        QMetaObject::invokeMethod(
            this, [this, error] { fail(error); }, Qt::QueuedConnection);
        return;
    }
    ++m_connectionsOpened;
    connect(m_socket, &QTcpSocket::readyRead, this, &LocalHttpClient::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &LocalHttpClient::onDisconnected);
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError socketError) {
        // The peer closing is also "disconnected", which reads a close-ended body first.
        if (socketError != QAbstractSocket::RemoteHostClosedError) {
            onDisconnected();
        }
    });
    send();
}

void LocalHttpClient::send()
{
    if (!m_busy || !m_socket) {
        return;
    }
    Request &r = m_queue.front();
    QByteArray out = r.method + ' ' + r.path + " HTTP/1.1\r\n";
    bool host = false;
    for (const auto &[name, value] : r.headers) {
        host = host || headerNameIs(name, "host");
        out += name + ": " + value + "\r\n";
    }
    if (!host) {
        out += "Host: " + m_link.hostHeader() + "\r\n";
    }
    if (!r.body.isEmpty() || r.method == "POST" || r.method == "PUT") {
        out += "Content-Length: " + QByteArray::number(r.body.size()) + "\r\n";
    }
    out += "\r\n" + r.body;
    m_socket->write(out);
    out.fill('\0'); // may hold an API key, or a launch line that does
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
    switch (m_response.feed(m_in, m_body)) {
    case HttpResponseParser::Result::NeedMore:
        break;
    case HttpResponseParser::Result::Done:
        finishAnswered();
        break;
    case HttpResponseParser::Result::Failed:
        fail(QCoreApplication::translate("Core", "The server's answer was not HTTP that Flashdeck can read."));
        break;
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
        if (m_response.feed(m_in, m_body) == HttpResponseParser::Result::Done) {
            finishAnswered();
            return;
        }
    }
    if (m_response.completeAtClose()) {
        finishAnswered();
        return;
    }
    // The server closed a kept-alive connection just as the request went out (uvicorn closes
    // one idle for 5 s): nothing of an answer came, so asking again on a new one is safe for a
    // request that may be repeated (a POST may have been carried out: RFC 9110 §9.2.2).
    const QByteArray &method = m_queue.front().method;
    const bool idempotent = method != "POST" && method != "PATCH";
    if (m_reused && !m_retried && idempotent && m_in.isEmpty() && !m_response.headersDone()) {
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
    const QString why = m_socket->error() == QAbstractSocket::RemoteHostClosedError || m_response.headersDone()
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
    finish({0, {}, error, {}});
}

void LocalHttpClient::finishAnswered()
{
    finish({m_response.status(), std::exchange(m_body, {}), {}, m_response.headers()});
}

void LocalHttpClient::finish(LocalHttpResponse response)
{
    m_timer->stop();
    Done done = std::move(m_queue.front().done);
    m_queue.front().body.fill('\0');
    m_queue.pop_front();
    m_busy = false;
    if (m_response.closeAfter() || !m_in.isEmpty()) {
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
    LinkOpener::release(m_socket, this);
}

} // namespace flashdeck
