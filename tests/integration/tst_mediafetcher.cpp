#include "backend/chat/mediafetcher.h"
#include "tests/support/buildpaths.h"

#include <QFile>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTest>

using namespace flashdeck;
using namespace flashdeck::chat;

/**
 * The remote-image fetcher against a real HTTPS server on loopback (issue 8, F33): what it
 * takes, and everything it refuses — loopback and private answers, redirects, wrong types,
 * bytes that contradict the type, sizes past the cap (declared or streamed), a server that
 * never answers, a body cut short, a certificate for another name.
 */
class TestMediaFetcher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void fetch_data();
    void fetch();
    void loopbackAnswer_isRefusedBeforeConnecting();
    void oneprivateAnswerAmongPublic_refusesTheLot();

private:
    QSslServer m_server;
    QByteArray m_response;
    bool m_silent = false;
    QByteArray m_lastRequest;
    QList<QSslCertificate> m_ca;
};

namespace {

QByteArray png(int w, int h)
{
    QByteArray b("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16);
    for (int v : {w, h}) {
        b += char(v >> 24);
        b += char(v >> 16);
        b += char(v >> 8);
        b += char(v);
    }
    return b + QByteArray("\x08\x06\0\0\0", 5) + QByteArray(200, '\x11');
}

QByteArray jpeg()
{
    return QByteArray("\xFF\xD8\xFF\xC0\x00\x11\x08\x00\x10\x00\x10", 11) + QByteArray(100, '\0');
}

QByteArray head(const QByteArray &status, const QByteArray &type, qint64 length)
{
    QByteArray h = "HTTP/1.1 " + status + "\r\nContent-Type: " + type + "\r\n";
    if (length >= 0) {
        h += "Content-Length: " + QByteArray::number(length) + "\r\n";
    }
    return h + "Connection: close\r\n\r\n";
}

QByteArray chunked(const QByteArray &body, const QByteArray &type, bool terminate = true)
{
    QByteArray out = "HTTP/1.1 200 OK\r\nContent-Type: " + type + "\r\nTransfer-Encoding: chunked\r\n\r\n";
    for (qsizetype i = 0; i < body.size(); i += 50) {
        const QByteArray part = body.mid(i, 50);
        out += QByteArray::number(part.size(), 16) + ";ext=1\r\n" + part + "\r\n";
    }
    return terminate ? out + "0\r\n\r\n" : out;
}

} // namespace

void TestMediaFetcher::initTestCase()
{
    QFile crt(flashdeck::test::testData(u"/tls/images-test.crt"));
    QFile key(flashdeck::test::testData(u"/tls/images-test.key"));
    QVERIFY(crt.open(QIODevice::ReadOnly) && key.open(QIODevice::ReadOnly));
    const QSslCertificate cert(crt.readAll());
    QVERIFY(!cert.isNull());
    m_ca = {cert};
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setLocalCertificate(cert);
    tls.setPrivateKey(QSslKey(key.readAll(), QSsl::Rsa));
    tls.setPeerVerifyMode(QSslSocket::VerifyNone);
    m_server.setSslConfiguration(tls);
    QVERIFY(m_server.listen(QHostAddress::LocalHost));
    connect(&m_server, &QSslServer::pendingConnectionAvailable, this, [this] {
        while (QTcpSocket *s = m_server.nextPendingConnection()) {
            connect(s, &QTcpSocket::readyRead, s, [this, s] {
                m_lastRequest += s->readAll();
                if (!m_lastRequest.contains("\r\n\r\n") || m_silent) {
                    return;
                }
                s->write(m_response);
                s->flush();
                s->disconnectFromHost();
            });
        }
    });
}

void TestMediaFetcher::fetch_data()
{
    QTest::addColumn<QByteArray>("response");
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("silent");
    QTest::addColumn<QString>("failure"); // empty: fetched
    const QByteArray image = png(16, 16);
    QTest::newRow("png with length") << head("200 OK", "image/png", image.size()) + image
                                     << QStringLiteral("images.test") << false << QString();
    QTest::newRow("png chunked") << chunked(image, "image/png") << QStringLiteral("images.test") << false << QString();
    QTest::newRow("type with parameters") << head("200 OK", "image/png; charset=binary", image.size()) + image
                                          << QStringLiteral("images.test") << false << QString();
    QTest::newRow("redirect") << QByteArray("HTTP/1.1 302 Found\r\nLocation: https://169.254.169.254/\r\n"
                                            "Content-Length: 0\r\n\r\n")
                              << QStringLiteral("images.test") << false << QStringLiteral("redirects are not followed");
    QTest::newRow("404") << head("404 Not Found", "text/html", 0) << QStringLiteral("images.test") << false
                         << QStringLiteral("HTTP 404");
    QTest::newRow("html") << head("200 OK", "text/html", 6) + "<html>" << QStringLiteral("images.test") << false
                          << QStringLiteral("serves text/html");
    QTest::newRow("no type") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc")
                             << QStringLiteral("images.test") << false << QStringLiteral("no content type");
    QTest::newRow("type contradicts bytes")
        << head("200 OK", "image/png", jpeg().size()) + jpeg() << QStringLiteral("images.test") << false
        << QStringLiteral("bytes are image/jpeg");
    QTest::newRow("svg as png") << head("200 OK", "image/png", 6) + "<svg/>" << QStringLiteral("images.test") << false
                                << QStringLiteral("not a PNG");
    QTest::newRow("declared too big") << head("200 OK", "image/png", 5000) + image << QStringLiteral("images.test")
                                      << false << QStringLiteral("the limit is");
    QTest::newRow("streamed too big") << chunked(image + QByteArray(5000, 'x'), "image/png", false)
                                      << QStringLiteral("images.test") << false
                                      << QStringLiteral("download was stopped");
    QTest::newRow("cut short") << head("200 OK", "image/png", 1000) + image << QStringLiteral("images.test") << false
                               << QStringLiteral("cut short");
    QTest::newRow("chunked without end") << chunked(image, "image/png", false) << QStringLiteral("images.test") << false
                                         << QStringLiteral("cut short");
    QTest::newRow("never answers") << QByteArray() << QStringLiteral("images.test") << true
                                   << QStringLiteral("did not arrive within");
    QTest::newRow("certificate for another name")
        << head("200 OK", "image/png", image.size()) + image << QStringLiteral("other.test") << false
        << QStringLiteral("certificate");
}

void TestMediaFetcher::fetch()
{
    QFETCH(QByteArray, response);
    QFETCH(QString, host);
    QFETCH(bool, silent);
    QFETCH(QString, failure);
    m_response = response;
    m_silent = silent;
    m_lastRequest.clear();
    MediaLimits limits;
    limits.allowedHosts = {QStringLiteral("images.test"), QStringLiteral("other.test")};
    limits.maxBytes = 4096;
    limits.timeoutMs = 1500;
    MediaFetcher fetcher{MediaPolicy(limits)};
    const quint16 port = m_server.serverPort();
    fetcher.setResolverForTesting([](const QString &) { return QList<QHostAddress>{QHostAddress::LocalHost}; });
    // Loopback is where the test server is; the real check refuses it (the next test).
    fetcher.setAddressCheckForTesting([](const QHostAddress &) { return Status::ok(); });
    fetcher.setExtraCaForTesting(m_ca);
    QSignalSpy ok(&fetcher, &MediaFetcher::fetched);
    QSignalSpy failed(&fetcher, &MediaFetcher::failed);
    fetcher.setPortForTesting(port); // the URL says 443, as the policy wants; the test server cannot bind it
    fetcher.fetch(QStringLiteral("https://%1/pictures/cat.png?size=small").arg(host));
    QTRY_VERIFY_WITH_TIMEOUT(ok.size() + failed.size() == 1, 10000);
    if (failure.isEmpty()) {
        QVERIFY2(ok.size() == 1, failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        const auto image = ok.first().first().value<ChatImage>();
        QCOMPARE(image.mimeType, QStringLiteral("image/png"));
        QCOMPARE(image.bytes, png(16, 16));
        QVERIFY(m_lastRequest.startsWith("GET /pictures/cat.png?size=small HTTP/1.1\r\nHost: images.test\r\n"));
    } else {
        QCOMPARE(ok.size(), 0);
        QVERIFY2(failed.first().first().toString().contains(failure), qPrintable(failed.first().first().toString()));
    }
}

void TestMediaFetcher::loopbackAnswer_isRefusedBeforeConnecting()
{
    MediaLimits limits;
    limits.allowedHosts = {QStringLiteral("images.test")};
    MediaFetcher fetcher{MediaPolicy(limits)};
    fetcher.setResolverForTesting([](const QString &) { return QList<QHostAddress>{QHostAddress::LocalHost}; });
    QSignalSpy failed(&fetcher, &MediaFetcher::failed);
    m_lastRequest.clear();
    fetcher.fetch(QStringLiteral("https://images.test/cat.png"));
    QVERIFY(failed.wait(5000));
    QVERIFY2(failed.first().first().toString().contains(QStringLiteral("127.0.0.1, which is loopback")),
             qPrintable(failed.first().first().toString()));
    QVERIFY(m_lastRequest.isEmpty());
}

void TestMediaFetcher::oneprivateAnswerAmongPublic_refusesTheLot()
{
    MediaLimits limits;
    limits.allowedHosts = {QStringLiteral("images.test")};
    MediaFetcher fetcher{MediaPolicy(limits)};
    fetcher.setResolverForTesting([](const QString &) {
        return QList<QHostAddress>{QHostAddress(QStringLiteral("93.184.216.34")),
                                   QHostAddress(QStringLiteral("10.0.0.7"))};
    });
    QSignalSpy failed(&fetcher, &MediaFetcher::failed);
    fetcher.fetch(QStringLiteral("https://images.test/cat.png"));
    QVERIFY(failed.wait(5000));
    QVERIFY(failed.first().first().toString().contains(QStringLiteral("10.0.0.7, which is private")));
    // And a URL the policy refuses never gets as far as a lookup.
    fetcher.fetch(QStringLiteral("http://images.test/cat.png"));
    QVERIFY(failed.wait(5000));
    QVERIFY(failed.last().first().toString().contains(QStringLiteral("https")));
}

QTEST_GUILESS_MAIN(TestMediaFetcher)
#include "tst_mediafetcher.moc"
