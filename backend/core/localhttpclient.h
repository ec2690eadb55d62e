#pragma once

#include "backend/core/httpresponseparser.h"
#include "backend/core/linkopener.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>

#include <deque>
#include <functional>

class QTcpSocket;
class QTimer;

namespace flashdeck {

/** What a LocalHttpClient request came back with. */
struct LocalHttpResponse
{
    int status = 0; // 0 when no answer came (refused, closed, timed out)
    QByteArray body;
    QString error; // set when status is 0: what went wrong, for the user
    QList<QPair<QByteArray, QByteArray>> headers; // the answer's header lines, names as sent
};

/**
 * Small periodic GETs, and Engine API calls, through an SSH tunnel (its private link, or a port on 127.0.0.1), one
 * request at a time on one kept-alive HTTP/1.1 connection, in the calling thread.
 *
 * Why not QNetworkAccessManager: it runs a thread of its own per manager and reads a response's
 * status line and headers one byte per read() (its socket is opened Unbuffered). Watching 50 hosts,
 * their /health, /metrics and Docker polls made 8 000 one-byte reads and 100 threads' wake-ups a
 * second, most of Flashdeck's CPU (bench_fleet; a system call costs ~3 µs on these VMs). Here a
 * response costs one read per arrival. Streams, uploads and anything long-lived stay with
 * QNetworkAccessManager.
 *
 * Understands what uvicorn and dockerd send: Content-Length, chunked transfer coding, a body
 * ended by the close, 1xx/204/304 without one, `Connection: close`. A kept-alive connection the
 * server closed while idle is opened again once, as browsers do, when the request got no byte back.
 */
class LocalHttpClient final : public QObject
{
    Q_OBJECT

public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;
    using Done = std::function<void(const LocalHttpResponse &)>;

    /** To a port on 127.0.0.1 (a test's server, a tunnel's local end). */
    explicit LocalHttpClient(quint16 port, QObject *parent = nullptr);
    /** Over the connections `link` opens (a tunnel's private link: no port at all). */
    explicit LocalHttpClient(LinkOpener link, QObject *parent = nullptr);
    ~LocalHttpClient() override;

    /** Queues `GET path` (with `headers`, e.g. Authorization); `done` runs once, later. */
    void get(const QByteArray &path, Headers headers, int timeoutMs, Done done);
    /**
     * Queues any request (`timeoutMs` 0: none). Only an idempotent one (GET, HEAD, PUT, DELETE:
     * RFC 9110 §9.2.2) is sent again when a kept-alive connection closed under it; a POST that
     * met a closed connection fails, as it may have been carried out.
     */
    void request(const QByteArray &method, const QByteArray &path, Headers headers, QByteArray body, int timeoutMs,
                 Done done);
    /** Drops every queued request and the connection; no callback runs. */
    void abortAll();
    /** Drops the connection and answers every queued request with `error` (status 0), in order. */
    void failAll(const QString &error);
    /** Nothing on the wire and nothing queued. */
    bool idle() const { return !m_busy && m_queue.empty(); }
    /** Connections opened so far (tests and benchmarks: keep-alive at work). */
    int connectionsOpened() const { return m_connectionsOpened; }

    static constexpr qsizetype kMaxBodyBytes = 64 * 1024 * 1024;

private:
    struct Request
    {
        QByteArray method;
        QByteArray path;
        QByteArray body;
        Headers headers;
        int timeoutMs = 0;
        Done done;
    };

    void startNext();
    void send();
    void onReadyRead();
    void onDisconnected();
    void onTimeout();
    void finish(LocalHttpResponse response);
    void finishAnswered();
    void fail(const QString &error);
    void dropSocket();

    LinkOpener m_link;
    QTcpSocket *m_socket = nullptr;
    QTimer *m_timer;
    std::deque<Request> m_queue;
    bool m_busy = false; // m_queue.front() is on the wire
    bool m_reused = false; // the request went out on a connection an earlier one used
    bool m_retried = false;
    int m_connectionsOpened = 0;

    // The response being read.
    QByteArray m_in;
    HttpResponseParser m_response{kMaxBodyBytes};
    QByteArray m_body;
};

} // namespace flashdeck
