#include "fakehttpserver.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

namespace flashdeck::testing {

namespace {

QByteArray reason(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 204:
        return "No Content";
    case 304:
        return "Not Modified";
    case 400:
        return "Bad Request";
    case 404:
        return "Not Found";
    case 409:
        return "Conflict";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    default:
        return "Status";
    }
}

} // namespace

FakeHttpServer::FakeHttpServer(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
{
    if (!m_server->listen(QHostAddress::LocalHost, 0)) {
        qFatal("FakeHttpServer: cannot listen on 127.0.0.1: %s", qPrintable(m_server->errorString()));
    }
    connect(m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *socket = m_server->nextPendingConnection()) {
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] { serve(socket); });
        }
    });
}

FakeHttpServer::~FakeHttpServer() = default;

quint16 FakeHttpServer::port() const
{
    return m_server->serverPort();
}

void FakeHttpServer::on(const QByteArray &method, const QByteArray &prefix, Response response)
{
    on(method, prefix, [response](const Request &) { return response; });
}

void FakeHttpServer::on(const QByteArray &method, const QByteArray &prefix, Handler handler)
{
    m_routes.prepend({method, prefix, std::move(handler)});
}

int FakeHttpServer::count(const QByteArray &method, const QByteArray &prefix) const
{
    int n = 0;
    for (const Request &r : m_requests) {
        n += r.method == method && r.target.startsWith(prefix) ? 1 : 0;
    }
    return n;
}

void FakeHttpServer::actAsDockerd(const QByteArray &apiVersion)
{
    Response pong;
    pong.body = "OK";
    pong.contentType = "text/plain; charset=utf-8";
    pong.headers = {{"Api-Version", apiVersion}};
    on("GET", "/_ping", pong);
}

QByteArray FakeHttpServer::dockerFrame(const QByteArray &line, quint8 stream)
{
    QByteArray f(8, '\0');
    f[0] = char(stream);
    const auto n = quint32(line.size());
    f[4] = char(n >> 24);
    f[5] = char(n >> 16);
    f[6] = char(n >> 8);
    f[7] = char(n);
    return f + line;
}

int FakeHttpServer::push(const QByteArray &bytes)
{
    for (QTcpSocket *socket : std::as_const(m_streams)) {
        socket->write(bytes);
    }
    return int(m_streams.size());
}

void FakeHttpServer::endStreams()
{
    for (QTcpSocket *socket : std::exchange(m_streams, {})) {
        socket->disconnectFromHost();
    }
}

void FakeHttpServer::streamPaced(QTcpSocket *socket, const Response &response)
{
    // -> QByteArray: with QT_USE_QSTRINGBUILDER an auto return type is the builder, which would
    // outlive the temporary it refers to.
    const auto chunk = [](const QByteArray &bytes) -> QByteArray {
        return QByteArray::number(bytes.size(), 16) + "\r\n" + bytes + "\r\n";
    };
    if (!response.body.isEmpty()) {
        socket->write(chunk(response.body));
    }
    auto *timer = new QTimer(socket); // goes with the socket: a client that left stops it
    timer->setInterval(response.paceMs);
    connect(
        timer, &QTimer::timeout, socket,
        [this, socket, timer, chunk, paced = response.paced, hold = response.holdOpen, next = qsizetype(0)]() mutable {
            if (next < paced.size()) {
                socket->write(chunk(paced[next++]));
                return;
            }
            timer->stop();
            if (hold) {
                m_streams.append(socket);
                connect(socket, &QObject::destroyed, this, [this, socket] { m_streams.removeAll(socket); });
                return;
            }
            socket->write("0\r\n\r\n");
            socket->disconnectFromHost();
        });
    timer->start();
}

void FakeHttpServer::serve(QTcpSocket *socket)
{
    // Requests may arrive together (keep-alive): answer each whole one in the buffer.
    QByteArray buffer = socket->property("buffer").toByteArray() + socket->readAll();
    for (;;) {
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0) {
            break;
        }
        const QList<QByteArray> lines = buffer.left(end).split('\n');
        qsizetype length = 0;
        for (const QByteArray &line : lines.mid(1)) {
            if (line.toLower().startsWith("content-length:")) {
                length = line.mid(15).trimmed().toLongLong();
            }
        }
        if (buffer.size() < end + 4 + length) {
            break;
        }
        const QList<QByteArray> first = lines.constFirst().trimmed().split(' ');
        Request request{first.value(0), first.value(1), buffer.mid(end + 4, length)};
        buffer.remove(0, end + 4 + length);
        m_requests.append(request);
        // Docker clients put the API version first (/v1.47/_ping): routes name the path after it.
        QByteArray path = request.target;
        if (path.startsWith("/v1.")) {
            path = path.mid(path.indexOf('/', 1));
        }
        Response response;
        response.status = 404;
        response.body = R"({"message":"page not found"})";
        for (const Route &route : std::as_const(m_routes)) {
            if (route.method == request.method && path.startsWith(route.prefix)) {
                response = route.handler(request);
                break;
            }
        }
        QByteArray head = "HTTP/1.1 " + QByteArray::number(response.status) + ' ' + reason(response.status) + "\r\n";
        head += "Content-Type: " + response.contentType + "\r\n";
        for (const auto &[name, value] : std::as_const(response.headers)) {
            head += name + ": " + value + "\r\n";
        }
        if (!response.paced.isEmpty()) {
            socket->write(head + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
            streamPaced(socket, response);
            return;
        }
        if (response.holdOpen) {
            head += "Connection: close\r\n\r\n"; // the body runs until the server closes
            socket->write(head + response.body);
            m_streams.append(socket);
            connect(socket, &QObject::destroyed, this, [this, socket] { m_streams.removeAll(socket); });
            return;
        }
        if (response.closeAfter) {
            head += "Connection: close\r\n\r\n";
            socket->write(head + response.body);
            socket->disconnectFromHost();
            return;
        }
        head += "Content-Length: " + QByteArray::number(response.body.size()) + "\r\n\r\n";
        socket->write(head + response.body);
    }
    socket->setProperty("buffer", buffer);
}

} // namespace flashdeck::testing
