#include "backend/core/linkreply.h"
#include "backend/core/localhttpclient.h"

#include <QPointer>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>

using namespace flashdeck;

namespace {

/**
 * A scripted HTTP server on a free loopback port: for each complete request head it asks
 * `answer` what to send (pieces written one event-loop turn apart) and whether to close after.
 */
class ScriptedServer : public QObject
{
public:
    struct Reply
    {
        QList<QByteArray> pieces;
        bool close = false;
        bool silent = false; // accept, read, never answer
    };
    std::function<Reply(int connection, const QByteArray &request)> answer;
    QList<QByteArray> requests;
    int connections = 0;

    ScriptedServer()
    {
        QVERIFY(m_server.listen(QHostAddress::LocalHost, 0));
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                const int index = connections++;
                auto buffer = std::make_shared<QByteArray>();
                connect(s, &QTcpSocket::readyRead, this, [this, s, index, buffer] {
                    *buffer += s->readAll();
                    qsizetype end;
                    while ((end = buffer->indexOf("\r\n\r\n")) >= 0) {
                        const QByteArray request = buffer->left(end + 4);
                        buffer->remove(0, end + 4);
                        requests.append(request);
                        const Reply r = answer(index, request);
                        if (!r.silent) {
                            send(s, r.pieces, r.close);
                        }
                    }
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    quint16 port() const { return m_server.serverPort(); }

private:
    void send(QTcpSocket *s, QList<QByteArray> pieces, bool close)
    {
        QPointer<QTcpSocket> socket(s);
        if (pieces.isEmpty()) {
            if (close) {
                s->disconnectFromHost();
            }
            return;
        }
        s->write(pieces.takeFirst());
        s->flush();
        QMetaObject::invokeMethod(
            this,
            [this, socket, pieces, close] {
                if (socket) {
                    send(socket, pieces, close);
                }
            },
            Qt::QueuedConnection);
    }

    QTcpServer m_server;
};

QByteArray ok(const QByteArray &body)
{
    return "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + QByteArray::number(body.size()) +
        "\r\n\r\n" + body;
}

/** Runs one GET and waits for its answer. */
std::optional<LocalHttpResponse> getOnce(LocalHttpClient &client, const QByteArray &path,
                                         LocalHttpClient::Headers headers = {}, int timeoutMs = 5000)
{
    std::optional<LocalHttpResponse> got;
    int calls = 0;
    client.get(path, std::move(headers), timeoutMs, [&](const LocalHttpResponse &r) {
        got = r;
        ++calls;
    });
    if (!QTest::qWaitFor([&] { return calls > 0; }, 10000)) {
        return std::nullopt;
    }
    return calls == 1 ? got : std::nullopt;
}

/** What a LinkReply gave: the body as read on each readyRead, and how it ended. */
struct LinkOutcome
{
    QByteArray body;
    int finishedCount = 0;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    int status = 0;
};

LinkOutcome runLink(LinkReply *reply)
{
    LinkOutcome out;
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [&out, reply] { out.body += reply->readAll(); });
    QObject::connect(reply, &QNetworkReply::finished, reply, [&out, reply] {
        ++out.finishedCount;
        out.body += reply->readAll();
        out.error = reply->error();
        out.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    });
    if (!QTest::qWaitFor([&] { return out.finishedCount > 0; }, 10000)) {
        reply->disconnect(); // its lambdas hold `out`, which ends here; finishedCount 0 fails the test
    }
    return out;
}

} // namespace

/**
 * The small keep-alive HTTP client the fleet's monitors poll /health, /metrics and Docker with
 * (one per host, every few seconds), against a scripted server on loopback: every way uvicorn
 * and dockerd end a body, one connection kept across polls, a kept-alive connection the server
 * dropped while idle, and each failure said in words.
 */
class TestLocalHttpClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void framings_data();
    void framings();
    void keepAlive_oneConnectionAcrossPolls_unlessTheServerCloses();
    void idleConnectionDropped_isOpenedAgainOnce();
    void failures_sayWhatHappened_data();
    void failures_sayWhatHappened();
    void requestHeaders_asGiven();
    void abortAll_runsNoCallback();
    void queued_oneAtATime_inOrder();
    void request_methodBodyAndHeaders();
    void closedUnderAPost_notSentAgain();
    void failAll_everyQueuedRequestHearsIt();
    void linkReply_errorStatus_bodyStaysReadable();
    void linkReply_requestHead_oneConnectionEach();
    void linkReply_abortAndRefusal_sayWhatHappened();
};

void TestLocalHttpClient::framings_data()
{
    QTest::addColumn<QList<QByteArray>>("pieces");
    QTest::addColumn<bool>("close");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");

    const QByteArray metrics = "# TYPE sglang:num_running_reqs gauge\nsglang:num_running_reqs 3.0\n";
    QTest::newRow("Content-Length (uvicorn)") << QList<QByteArray>{ok(metrics)} << false << 200 << metrics;
    QTest::newRow("head and body apart") << QList<QByteArray>{"HTTP/1.1 200 OK\r\nconte", "nt-length: 5\r\n", "\r\nhel",
                                                              "lo"}
                                         << false << 200 << QByteArray("hello");
    QTest::newRow("chunked (dockerd), extension and trailer")
        << QList<QByteArray>{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "5;name=x\r\n[{\"Id\r\n",
                             "3\r\n\":1\r\n", "2\r\n}]\r\n0\r\nX-Trailer: t\r\n\r\n"}
        << false << 200 << QByteArray("[{\"Id\":1}]");
    QTest::newRow("chunked, cut inside a size line")
        << QList<QByteArray>{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1", "0\r\n0123456789abcdef\r\n0\r",
                             "\n\r\n"}
        << false << 200 << QByteArray("0123456789abcdef");
    QTest::newRow("ended by the close (HTTP/1.0)")
        << QList<QByteArray>{"HTTP/1.0 200 OK\r\n\r\nall of ", "it"} << true << 200 << QByteArray("all of it");
    QTest::newRow("503 while the model loads")
        << QList<QByteArray>{"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n"} << false << 503
        << QByteArray();
    QTest::newRow("204 has no body") << QList<QByteArray>{"HTTP/1.1 204 No Content\r\n\r\n"} << false << 204
                                     << QByteArray();
    QTest::newRow("100 Continue first") << QList<QByteArray>{"HTTP/1.1 100 Continue\r\n\r\n", ok("fine")} << false
                                        << 200 << QByteArray("fine");
}

void TestLocalHttpClient::framings()
{
    QFETCH(QList<QByteArray>, pieces);
    QFETCH(bool, close);
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    ScriptedServer server;
    server.answer = [&](int, const QByteArray &) { return ScriptedServer::Reply{pieces, close}; };
    LocalHttpClient client(server.port());
    for (int round = 0; round < 2; ++round) { // the second on the kept connection, or a new one
        const auto r = getOnce(client, "/metrics");
        QVERIFY(r);
        QCOMPARE(r->error, QString());
        QCOMPARE(r->status, status);
        QCOMPARE(r->body, body);
    }
    QCOMPARE(client.connectionsOpened(), close ? 2 : 1);

    // The Engine API client's calls and streams read every framing the polls read.
    QObject owner;
    const LinkOutcome got =
        runLink(new LinkReply(LinkOpener::loopback(server.port()), "GET", "/v1.47/_ping", {}, {}, &owner));
    QCOMPARE(got.finishedCount, 1);
    QCOMPARE(got.status, status);
    QCOMPARE(got.body, body);
    QCOMPARE(got.error, status >= 400 ? QNetworkReply::ServiceUnavailableError : QNetworkReply::NoError);
}

void TestLocalHttpClient::keepAlive_oneConnectionAcrossPolls_unlessTheServerCloses()
{
    ScriptedServer server;
    server.answer = [](int, const QByteArray &) { return ScriptedServer::Reply{{ok("up")}}; };
    LocalHttpClient client(server.port());
    for (int i = 0; i < 5; ++i) {
        const auto r = getOnce(client, "/health");
        QVERIFY(r);
        QCOMPARE(r->status, 200);
    }
    QCOMPARE(server.connections, 1);
    QCOMPARE(client.connectionsOpened(), 1);

    ScriptedServer closing; // says so, and closes
    closing.answer = [](int, const QByteArray &) {
        return ScriptedServer::Reply{{"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nup"}, true};
    };
    LocalHttpClient other(closing.port());
    for (int i = 0; i < 3; ++i) {
        const auto r = getOnce(other, "/health");
        QVERIFY(r);
        QCOMPARE(r->body, QByteArray("up"));
    }
    QCOMPARE(closing.connections, 3);
}

void TestLocalHttpClient::idleConnectionDropped_isOpenedAgainOnce()
{
    // uvicorn closes a connection idle for 5 s without a word; the next poll must not fail for it.
    ScriptedServer server;
    server.answer = [](int, const QByteArray &) { return ScriptedServer::Reply{{ok("up")}, true}; };
    LocalHttpClient client(server.port());
    QVERIFY(getOnce(client, "/health"));
    QTRY_VERIFY(server.connections == 1);
    const auto second = getOnce(client, "/health");
    QVERIFY(second);
    QCOMPARE(second->status, 200);
    QCOMPARE(server.connections, 2);

    // A server that takes the request and closes without answering is asked once more, no more.
    ScriptedServer rude;
    int served = 0;
    rude.answer = [&](int, const QByteArray &) {
        return served++ == 0 ? ScriptedServer::Reply{{ok("first")}} : ScriptedServer::Reply{{}, true};
    };
    LocalHttpClient stubborn(rude.port());
    QVERIFY(getOnce(stubborn, "/health"));
    const auto failed = getOnce(stubborn, "/health");
    QVERIFY(failed);
    QCOMPARE(failed->status, 0);
    QVERIFY2(!failed->error.isEmpty(), "a failure says what happened");
    QCOMPARE(rude.connections, 2); // the kept one, then one new: never a loop
}

void TestLocalHttpClient::failures_sayWhatHappened_data()
{
    QTest::addColumn<QByteArray>("answer"); // empty: never answers
    QTest::addColumn<QString>("says");
    QTest::newRow("not HTTP") << QByteArray("SSH-2.0-OpenSSH_9.2\r\n\r\n") << "not HTTP";
    QTest::newRow("bad chunk size") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
                                    << "not HTTP";
    QTest::newRow("bad length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: -4\r\n\r\n") << "not HTTP";
    QTest::newRow("silence") << QByteArray() << "No answer within 0.3 s";
}

void TestLocalHttpClient::failures_sayWhatHappened()
{
    QFETCH(QByteArray, answer);
    QFETCH(QString, says);
    ScriptedServer server;
    server.answer = [&](int, const QByteArray &) {
        ScriptedServer::Reply r;
        r.silent = answer.isEmpty();
        r.pieces = {answer};
        return r;
    };
    LocalHttpClient client(server.port());
    const auto r = getOnce(client, "/metrics", {}, 300);
    QVERIFY(r);
    QCOMPARE(r->status, 0);
    QVERIFY2(r->error.contains(says), qPrintable(r->error));
}

void TestLocalHttpClient::requestHeaders_asGiven()
{
    ScriptedServer server;
    server.answer = [](int, const QByteArray &) { return ScriptedServer::Reply{{ok("[]")}}; };
    LocalHttpClient client(server.port());
    QVERIFY(getOnce(client, "/containers/json?all=1", {{"Host", "docker"}, {"Authorization", "Bearer k"}}));
    QVERIFY(getOnce(client, "/health"));
    QCOMPARE(server.requests.size(), 2);
    const QByteArray first = server.requests.at(0);
    QVERIFY2(first.startsWith("GET /containers/json?all=1 HTTP/1.1\r\n"), first.constData());
    QVERIFY(first.contains("\r\nHost: docker\r\n"));
    QVERIFY(first.contains("\r\nAuthorization: Bearer k\r\n"));
    QCOMPARE(first.count("Host:"), 1);
    const QByteArray host = "\r\nHost: 127.0.0.1:" + QByteArray::number(server.port()) + "\r\n";
    QVERIFY(server.requests.at(1).contains(host));

    // Nothing listens: the socket's own words.
    quint16 closedPort = 0;
    {
        QTcpServer gone;
        QVERIFY(gone.listen(QHostAddress::LocalHost, 0));
        closedPort = gone.serverPort();
    }
    LocalHttpClient refused(closedPort);
    const auto r = getOnce(refused, "/health");
    QVERIFY(r);
    QCOMPARE(r->status, 0);
    QVERIFY2(r->error.contains(QStringLiteral("refused"), Qt::CaseInsensitive), qPrintable(r->error));
}

void TestLocalHttpClient::abortAll_runsNoCallback()
{
    ScriptedServer server;
    server.answer = [](int, const QByteArray &) { return ScriptedServer::Reply{{}, false, true}; };
    LocalHttpClient client(server.port());
    int calls = 0;
    client.get("/a", {}, 200, [&](const LocalHttpResponse &) { ++calls; });
    client.get("/b", {}, 200, [&](const LocalHttpResponse &) { ++calls; });
    QTRY_COMPARE(server.requests.size(), 1);
    client.abortAll();
    QVERIFY(client.idle());
    QTest::qWait(400); // longer than the time limit: no late callback either
    QCOMPARE(calls, 0);
}

void TestLocalHttpClient::queued_oneAtATime_inOrder()
{
    ScriptedServer server;
    server.answer = [](int, const QByteArray &request) {
        return ScriptedServer::Reply{{ok(request.mid(4, request.indexOf(' ', 4) - 4))}};
    };
    LocalHttpClient client(server.port());
    QList<QByteArray> got;
    for (const QByteArray path : {"/one", "/two", "/three"}) {
        client.get(path, {}, 5000, [&](const LocalHttpResponse &r) { got.append(r.body); });
    }
    QTRY_COMPARE(got.size(), 3);
    QCOMPARE(got, (QList<QByteArray>{"/one", "/two", "/three"}));
    QCOMPARE(server.connections, 1);
}

void TestLocalHttpClient::request_methodBodyAndHeaders()
{
    // An Engine API call on the kept connection: its method, its JSON body with its length, and
    // the answer's headers (dockerd's Api-Version settles the version spoken).
    ScriptedServer server;
    server.answer = [](int, const QByteArray &) {
        return ScriptedServer::Reply{
            {"HTTP/1.1 201 Created\r\nApi-Version: 1.47\r\nContent-Length: 11\r\n\r\n{\"Id\":\"c0\"}"}};
    };
    LocalHttpClient client(server.port());
    std::optional<LocalHttpResponse> got;
    client.request("POST", "/v1.47/containers/create?name=x", {{"Content-Type", "application/json"}},
                   R"({"Image":"i"})", 5000, [&got](const LocalHttpResponse &r) { got = r; });
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->status, 201);
    QCOMPARE(got->body, QByteArray(R"({"Id":"c0"})"));
    QVERIFY(std::any_of(got->headers.cbegin(), got->headers.cend(),
                        [](const auto &h) { return h.first == "Api-Version" && h.second == "1.47"; }));
    const QByteArray head = server.requests.at(0);
    QVERIFY2(head.startsWith("POST /v1.47/containers/create?name=x HTTP/1.1\r\n"), head.constData());
    QVERIFY(head.contains("\r\nContent-Length: 13\r\n"));
}

void TestLocalHttpClient::closedUnderAPost_notSentAgain()
{
    // A kept connection closed as a request went out: a GET is asked again (above), a POST is
    // not — it may have been carried out (a container created twice).
    ScriptedServer rude;
    int served = 0;
    rude.answer = [&](int, const QByteArray &) {
        return served++ == 0 ? ScriptedServer::Reply{{ok("first")}} : ScriptedServer::Reply{{}, true};
    };
    LocalHttpClient client(rude.port());
    QVERIFY(getOnce(client, "/_ping"));
    std::optional<LocalHttpResponse> got;
    client.request("POST", "/containers/c0/start", {}, {}, 5000, [&got](const LocalHttpResponse &r) { got = r; });
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->status, 0);
    QVERIFY2(!got->error.isEmpty(), "a failure says what happened");
    QCOMPARE(rude.connections, 1); // never sent on another
    QCOMPARE(rude.requests.size(), 2);
}

void TestLocalHttpClient::failAll_everyQueuedRequestHearsIt()
{
    ScriptedServer server;
    server.answer = [](int, const QByteArray &) { return ScriptedServer::Reply{{}, false, true}; };
    LocalHttpClient client(server.port());
    QStringList heard;
    for (const QByteArray path : {"/a", "/b", "/c"}) {
        client.get(path, {}, 0, [&heard, path](const LocalHttpResponse &r) {
            heard.append(QString::fromLatin1(path) + QLatin1Char(' ') + r.error);
        });
    }
    QTRY_COMPARE(server.requests.size(), 1);
    client.failAll(QStringLiteral("the tunnel closed"));
    QCOMPARE(heard,
             (QStringList{QStringLiteral("/a the tunnel closed"), QStringLiteral("/b the tunnel closed"),
                          QStringLiteral("/c the tunnel closed")}));
    QVERIFY(client.idle());
}

void TestLocalHttpClient::linkReply_errorStatus_bodyStaysReadable()
{
    // dockerd's 404 carries its words in JSON; the reply's error is the status's kind, as
    // QNetworkAccessManager's, and the body is still there to read.
    ScriptedServer server;
    const QByteArray message = R"({"message":"No such container: flashdeck-x-0"})";
    server.answer = [&](int, const QByteArray &) {
        return ScriptedServer::Reply{{"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: " +
                                      QByteArray::number(message.size()) + "\r\n\r\n" + message}};
    };
    QObject owner;
    auto *reply = new LinkReply(LinkOpener::loopback(server.port()), "GET", "/containers/x/json", {}, {}, &owner);
    const LinkOutcome got = runLink(reply);
    QCOMPARE(got.finishedCount, 1);
    QCOMPARE(got.status, 404);
    QCOMPARE(got.error, QNetworkReply::ContentNotFoundError);
    QCOMPARE(got.body, message);
    QCOMPARE(reply->header(QNetworkRequest::ContentTypeHeader).toString(), QStringLiteral("application/json"));
    QVERIFY(reply->isFinished());
}

void TestLocalHttpClient::linkReply_requestHead_oneConnectionEach()
{
    ScriptedServer server;
    server.answer = [](int, const QByteArray &) { return ScriptedServer::Reply{{ok("{}")}}; };
    QObject owner;
    const LinkReply::Headers headers{{"Host", "docker"}, {"Content-Type", "application/json"}};
    QCOMPARE(runLink(new LinkReply(LinkOpener::loopback(server.port()), "POST", "/containers/create?name=a", headers,
                                   R"({"Image":"x"})", &owner))
                 .status,
             200);
    QCOMPARE(runLink(new LinkReply(LinkOpener::loopback(server.port()), "GET", "/_ping", {}, {}, &owner)).status, 200);
    QCOMPARE(server.connections, 2); // one connection per request: each is one channel on a link
    const QByteArray post = server.requests.at(0);
    QVERIFY2(post.startsWith("POST /containers/create?name=a HTTP/1.1\r\n"), post.constData());
    QCOMPARE(post.count("Host:"), 1);
    QVERIFY(post.contains("\r\nHost: docker\r\n"));
    QVERIFY(post.contains("\r\nContent-Length: 13\r\n"));
    QVERIFY(post.contains("\r\nConnection: close\r\n"));
    const QByteArray host = "\r\nHost: 127.0.0.1:" + QByteArray::number(server.port()) + "\r\n";
    QVERIFY(server.requests.at(1).contains(host));
}

void TestLocalHttpClient::linkReply_abortAndRefusal_sayWhatHappened()
{
    // Aborting a stream (a pull, a follow) ends it at once, once, closed: dockerd sees the close.
    ScriptedServer server;
    server.answer = [](int, const QByteArray &) {
        return ScriptedServer::Reply{{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n"}};
    };
    QObject owner;
    auto *stream =
        new LinkReply(LinkOpener::loopback(server.port()), "GET", "/containers/x/logs?follow=1", {}, {}, &owner);
    QByteArray seen;
    int finished = 0;
    connect(stream, &QNetworkReply::readyRead, stream, [&] { seen += stream->readAll(); });
    connect(stream, &QNetworkReply::finished, stream, [&] { ++finished; });
    QTRY_COMPARE(seen, QByteArray("first")); // handed out while the stream lasts
    QCOMPARE(finished, 0);
    stream->abort();
    QCOMPARE(finished, 1);
    QCOMPARE(stream->error(), QNetworkReply::OperationCanceledError);
    QVERIFY(!stream->isOpen());
    stream->abort(); // twice: still once
    QCOMPARE(finished, 1);

    quint16 closedPort = 0;
    {
        QTcpServer gone;
        QVERIFY(gone.listen(QHostAddress::LocalHost, 0));
        closedPort = gone.serverPort();
    }
    const LinkOutcome refused =
        runLink(new LinkReply(LinkOpener::loopback(closedPort), "GET", "/_ping", {}, {}, &owner));
    QCOMPARE(refused.finishedCount, 1);
    QCOMPARE(refused.error, QNetworkReply::ConnectionRefusedError);
    QCOMPARE(refused.status, 0);

    // A server that takes the request and never says a byte: the transfer timeout ends it, once.
    ScriptedServer silent;
    silent.answer = [](int, const QByteArray &) { return ScriptedServer::Reply{{}, false, true}; };
    auto *waiting =
        new LinkReply(LinkOpener::loopback(silent.port()), "POST", "/v1/chat/completions", {}, "{}", &owner);
    waiting->setTransferTimeout(50);
    const LinkOutcome timedOut = runLink(waiting);
    QCOMPARE(timedOut.finishedCount, 1);
    QCOMPARE(timedOut.error, QNetworkReply::TimeoutError);
}

QTEST_GUILESS_MAIN(TestLocalHttpClient)
#include "tst_localhttpclient.moc"
