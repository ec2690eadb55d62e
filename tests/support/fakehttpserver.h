#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>

#include <functional>

class QTcpServer;
class QTcpSocket;

namespace flashdeck::testing {

/**
 * An HTTP/1.1 server on a free port of 127.0.0.1 that answers from a table: the far end of a
 * FakeTransport tunnel, standing in for dockerd's Engine API or an SGLang server in unit tests.
 * Keep-alive, Content-Length bodies; a route may instead send its body and close (a stream).
 */
class FakeHttpServer final : public QObject
{
    Q_OBJECT

public:
    struct Request
    {
        QByteArray method;
        QByteArray target; // path and query, as sent
        QByteArray body;
    };
    struct Response
    {
        int status = 200;
        QByteArray body;
        QByteArray contentType = "application/json";
        QList<QPair<QByteArray, QByteArray>> headers;
        /** Send the body and close, with no Content-Length (a stream that ended). */
        bool closeAfter = false;
        /** Send the body and keep the connection open, with no Content-Length (a live stream). */
        bool holdOpen = false;
        /**
         * A paced stream: the body is chunked (Transfer-Encoding: chunked), these chunks follow
         * it one every `paceMs`, then the last chunk ends it and the connection closes; with
         * holdOpen, the connection stays open after them instead (a server that went quiet)
         * until the client goes or endStreams() (push() writes to it as given: frame a chunk).
         */
        QList<QByteArray> paced;
        int paceMs = 0;
    };
    using Handler = std::function<Response(const Request &)>;

    explicit FakeHttpServer(QObject *parent = nullptr);
    ~FakeHttpServer() override;

    quint16 port() const;
    /** Requests whose method matches and whose target starts with `prefix`; the latest added wins. */
    void on(const QByteArray &method, const QByteArray &prefix, Response response);
    void on(const QByteArray &method, const QByteArray &prefix, Handler handler);
    /** Every request, in order. */
    const QList<Request> &requests() const { return m_requests; }
    int count(const QByteArray &method, const QByteArray &prefix) const;
    /** Answers GET /_ping as dockerd does (its API version in a header): a Docker client's first call. */
    void actAsDockerd(const QByteArray &apiVersion = "1.47");
    /** One line of a container's log as dockerd frames it without a TTY: 8-byte header, then the text. */
    static QByteArray dockerFrame(const QByteArray &line, quint8 stream = 1);
    /** Writes more to every live stream (holdOpen); returns how many there were. */
    int push(const QByteArray &bytes);
    /** Ends every live stream, as a server whose container exited. */
    void endStreams();

private:
    struct Route
    {
        QByteArray method;
        QByteArray prefix;
        Handler handler;
    };
    void serve(QTcpSocket *socket);
    /** Writes `response` (paced) to `socket`: its chunks, then the end or the hold. */
    void streamPaced(QTcpSocket *socket, const Response &response);

    QTcpServer *m_server;
    QList<Route> m_routes;
    QList<Request> m_requests;
    QList<QTcpSocket *> m_streams;
};

} // namespace flashdeck::testing
