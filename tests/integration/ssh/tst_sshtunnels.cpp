#include "backend/core/linkreply.h"
#include "backend/ssh/hostconnection.h"
#include "backend/ssh/tunnelreply.h"
#include "tests/support/sshdfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <sys/socket.h>

using namespace flashdeck;
using namespace flashdeck::test;

namespace {

/** A tiny HTTP/1.0 server on loopback: answers GET /N with a body derived from N. */
class MiniHttpServer : public QObject
{
public:
    MiniHttpServer()
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [s] {
                    if (!s->peek(8192).contains("\r\n\r\n")) {
                        return;
                    }
                    const QByteArray request = s->readAll();
                    const QByteArray path = request.split(' ').value(1);
                    const QByteArray body = bodyFor(path);
                    s->write("HTTP/1.0 200 OK\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" +
                             body);
                    s->disconnectFromHost();
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    static QByteArray bodyFor(const QByteArray &path) { return path.repeated(4096); }
    quint16 port() const { return m_server.serverPort(); }

private:
    QTcpServer m_server;
};

} // namespace

/** Tunnels over a real connection: many parallel clients, stdio half-close, reconnects. */
class TestSshTunnels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void portTunnel_fiftyParallelRequests();
    void stdioTunnel_echoesAndHalfCloses();
    void privateStdioTunnel_noPort_echoesAndEndsWithTheTunnel();
    void privatePortTunnel_noPort_parallelRequests();
    void portTunnel_toClosedPort_closesClientCleanly();
    void sshdKilledAndRestarted_recoversByItself();

private:
    quint16 openTunnel(ssh::HostConnection &c, std::function<quint64()> open);
    std::unique_ptr<QTemporaryDir> m_home;
    std::unique_ptr<SshdFixture> m_sshd;
    QString m_key;
};

void TestSshTunnels::init()
{
    enableTestLogging();
    m_home = std::make_unique<QTemporaryDir>();
    isolateSshEnvironment(m_home->path());
    m_sshd = std::make_unique<SshdFixture>();
    QString error;
    if (!m_sshd->start(&error)) {
        QSKIP(qPrintable(error));
    }
    m_key = m_sshd->addClientKey(QStringLiteral("id_tun"));
}

void TestSshTunnels::cleanup()
{
    m_sshd.reset();
}

quint16 TestSshTunnels::openTunnel(ssh::HostConnection &c, std::function<quint64()> open)
{
    QSignalSpy ready(&c, &ssh::HostConnection::tunnelReady);
    const quint64 id = open();
    if (!ready.wait(10000) || ready.first().at(0).toULongLong() != id) {
        return 0;
    }
    return static_cast<quint16>(ready.first().at(1).toUInt());
}

void TestSshTunnels::portTunnel_fiftyParallelRequests()
{
    MiniHttpServer http;
    ssh::HostConnection c(targetFor(*m_sshd, m_home->path() + QStringLiteral("/kh"), m_key));
    QCOMPARE(connectAndWait(c).phase, ssh::ConnectionPhase::Ready);
    const quint16 local = openTunnel(c, [&] { return c.openPortTunnel(QStringLiteral("127.0.0.1"), http.port()); });
    QVERIFY(local != 0);

    constexpr int kClients = 50;
    std::vector<std::unique_ptr<QTcpSocket>> clients;
    std::vector<QByteArray> replies(kClients);
    int done = 0;
    for (int i = 0; i < kClients; ++i) {
        auto s = std::make_unique<QTcpSocket>();
        QTcpSocket *raw = s.get();
        connect(raw, &QTcpSocket::connected, raw,
                [raw, i] { raw->write("GET /req" + QByteArray::number(i) + " HTTP/1.0\r\n\r\n"); });
        connect(raw, &QTcpSocket::readyRead, raw, [raw, &replies, i] { replies[i] += raw->readAll(); });
        connect(raw, &QTcpSocket::disconnected, raw, [&done] { ++done; });
        raw->connectToHost(QHostAddress::LocalHost, local);
        clients.push_back(std::move(s));
    }
    QTRY_COMPARE_WITH_TIMEOUT(done, kClients, 60000);
    for (int i = 0; i < kClients; ++i) {
        const QByteArray body = MiniHttpServer::bodyFor("/req" + QByteArray::number(i));
        QVERIFY2(replies[i].startsWith("HTTP/1.0 200 OK"), replies[i].left(100).constData());
        QVERIFY2(replies[i].endsWith(body),
                 qPrintable(QStringLiteral("client %1: %2 bytes").arg(i).arg(replies[i].size())));
    }
}

void TestSshTunnels::stdioTunnel_echoesAndHalfCloses()
{
    ssh::HostConnection c(targetFor(*m_sshd, m_home->path() + QStringLiteral("/kh"), m_key));
    QCOMPARE(connectAndWait(c).phase, ssh::ConnectionPhase::Ready);
    // `cat` echoes until its stdin ends: the reply only completes if our half-close reaches it.
    const quint16 local = openTunnel(c, [&] { return c.openStdioTunnel("cat"); });
    QVERIFY(local != 0);

    QByteArray payload;
    for (int i = 0; i < 200000; ++i) {
        payload += char('a' + i % 26);
    }
    QTcpSocket s;
    QByteArray echoed;
    bool remoteFinished = false;
    connect(&s, &QTcpSocket::readyRead, &s, [&] { echoed += s.readAll(); });
    connect(&s, &QTcpSocket::readChannelFinished, &s, [&] { remoteFinished = true; });
    s.connectToHost(QHostAddress::LocalHost, local);
    QVERIFY(s.waitForConnected(5000));
    s.write(payload);
    QTRY_COMPARE_WITH_TIMEOUT(s.bytesToWrite(), qint64(0), 10000);
    ::shutdown(static_cast<int>(s.socketDescriptor()), SHUT_WR);
    // cat sees EOF only through our half-close; then it exits and the tunnel half-closes back.
    QTRY_VERIFY_WITH_TIMEOUT(remoteFinished, 20000);
    echoed += s.readAll();
    QCOMPARE(echoed, payload);
}

void TestSshTunnels::privateStdioTunnel_noPort_echoesAndEndsWithTheTunnel()
{
    // The Engine API's tunnel: no port at all, each connection one end of a socket pair.
    ssh::HostConnection c(targetFor(*m_sshd, m_home->path() + QStringLiteral("/kh"), m_key));
    QCOMPARE(connectAndWait(c).phase, ssh::ConnectionPhase::Ready);
    QObject owner;
    ssh::TunnelReply *tunnel = c.tunnelToCommand("cat", &owner);
    QTRY_COMPARE_WITH_TIMEOUT(tunnel->phase(), ssh::TunnelReply::Phase::Ready, 10000);
    QCOMPARE(tunnel->localPort(), quint16(0)); // nothing listens
    const LinkOpener link = tunnel->link();

    QString error;
    const int fd = link.open(&error);
    QVERIFY2(fd >= 0, qPrintable(error));
    QTcpSocket s;
    QVERIFY(s.setSocketDescriptor(fd));
    QByteArray echoed;
    bool remoteFinished = false;
    connect(&s, &QTcpSocket::readyRead, &s, [&] { echoed += s.readAll(); });
    connect(&s, &QTcpSocket::readChannelFinished, &s, [&] { remoteFinished = true; });
    const QByteArray payload = QByteArray("private link ").repeated(20000);
    s.write(payload);
    QTRY_COMPARE_WITH_TIMEOUT(s.bytesToWrite(), qint64(0), 10000);
    ::shutdown(fd, SHUT_WR); // cat sees EOF only through our half-close
    QTRY_VERIFY_WITH_TIMEOUT(remoteFinished, 20000);
    echoed += s.readAll();
    QCOMPARE(echoed, payload);

    // The tunnel gone, its opener still works and its connections end at once.
    tunnel->abandon();
    const int late = link.open(&error);
    QVERIFY2(late >= 0, qPrintable(error));
    QTcpSocket after;
    QVERIFY(after.setSocketDescriptor(late));
    bool ended = false;
    connect(&after, &QTcpSocket::disconnected, &after, [&] { ended = true; });
    connect(&after, &QTcpSocket::readChannelFinished, &after, [&] { ended = true; });
    QTRY_VERIFY_WITH_TIMEOUT(ended, 10000);
}

void TestSshTunnels::privatePortTunnel_noPort_parallelRequests()
{
    // The model server's tunnel (chat, the load test, the samplers): no port, one socket pair and
    // one SSH channel per request, many at once.
    MiniHttpServer http;
    ssh::HostConnection c(targetFor(*m_sshd, m_home->path() + QStringLiteral("/kh"), m_key));
    QCOMPARE(connectAndWait(c).phase, ssh::ConnectionPhase::Ready);
    QObject owner;
    ssh::TunnelReply *tunnel = c.tunnelToPort(QStringLiteral("127.0.0.1"), http.port(), &owner);
    QTRY_COMPARE_WITH_TIMEOUT(tunnel->phase(), ssh::TunnelReply::Phase::Ready, 10000);
    QCOMPARE(tunnel->localPort(), quint16(0)); // nothing listens

    constexpr int kRequests = 20;
    std::vector<QByteArray> bodies(kRequests);
    std::vector<int> statuses(kRequests, -1);
    int done = 0;
    for (int i = 0; i < kRequests; ++i) {
        auto *reply = new LinkReply(tunnel->link(), "GET", "/req" + QByteArray::number(i), {}, {}, &owner);
        connect(reply, &QNetworkReply::readyRead, reply, [reply, &bodies, i] { bodies[i] += reply->readAll(); });
        connect(reply, &QNetworkReply::finished, reply, [reply, &bodies, &statuses, &done, i] {
            bodies[i] += reply->readAll();
            statuses[i] = reply->error() == QNetworkReply::NoError
                ? reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt()
                : 0;
            ++done;
        });
    }
    QTRY_COMPARE_WITH_TIMEOUT(done, kRequests, 60000);
    for (int i = 0; i < kRequests; ++i) {
        QCOMPARE(statuses[i], 200);
        QCOMPARE(bodies[i], MiniHttpServer::bodyFor("/req" + QByteArray::number(i)));
    }
}

void TestSshTunnels::portTunnel_toClosedPort_closesClientCleanly()
{
    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
    const quint16 deadPort = closed.serverPort();
    closed.close();
    ssh::HostConnection c(targetFor(*m_sshd, m_home->path() + QStringLiteral("/kh"), m_key));
    QCOMPARE(connectAndWait(c).phase, ssh::ConnectionPhase::Ready);
    const quint16 local = openTunnel(c, [&] { return c.openPortTunnel(QStringLiteral("127.0.0.1"), deadPort); });
    QVERIFY(local != 0);
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, local);
    QVERIFY(s.waitForConnected(5000));
    QTRY_COMPARE_WITH_TIMEOUT(s.state(), QAbstractSocket::UnconnectedState, 10000);
    // The connection itself survives a refused forward.
    QVERIFY(runAndWait(c, "true").succeeded());
}

void TestSshTunnels::sshdKilledAndRestarted_recoversByItself()
{
    MiniHttpServer http;
    ssh::HostConnection c(targetFor(*m_sshd, m_home->path() + QStringLiteral("/kh"), m_key));
    QCOMPARE(connectAndWait(c).phase, ssh::ConnectionPhase::Ready);
    const quint16 local = openTunnel(c, [&] { return c.openPortTunnel(QStringLiteral("127.0.0.1"), http.port()); });
    QVERIFY(local != 0);

    QList<ssh::ConnectionState> states;
    connect(&c, &ssh::HostConnection::stateChanged, this,
            [&states](const ssh::ConnectionState &s) { states.append(s); });
    m_sshd->stop(); // the listener and the connection's own sshd process
    QTRY_VERIFY_WITH_TIMEOUT(c.state().phase == ssh::ConnectionPhase::Reconnecting, 20000);
    QVERIFY(c.state().retryInMs > 0);
    QCOMPARE(c.state().error.code, ssh::SshErrorCode::ConnectionLost);
    QVERIFY2(c.state().describe().contains(QStringLiteral("reconnecting in")), qPrintable(c.state().describe()));

    QString error;
    QVERIFY2(m_sshd->start(&error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(c.state().phase, ssh::ConnectionPhase::Ready, 30000);
    QVERIFY(runAndWait(c, "echo back").stdoutData == "back\n");

    // The tunnel kept its local port and works on the new session.
    QTcpSocket s;
    QByteArray reply;
    connect(&s, &QTcpSocket::readyRead, &s, [&] { reply += s.readAll(); });
    s.connectToHost(QHostAddress::LocalHost, local);
    QVERIFY(s.waitForConnected(5000));
    s.write("GET /again HTTP/1.0\r\n\r\n");
    QTRY_VERIFY_WITH_TIMEOUT(reply.endsWith(MiniHttpServer::bodyFor("/again")), 20000);
}

QTEST_GUILESS_MAIN(TestSshTunnels)
#include "tst_sshtunnels.moc"
