#include "backend/chat/mediapolicy.h"
#include "backend/expose/gatewayconfig.h"
#include "tests/support/fakehttpserver.h"

#include <QFile>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace flashdeck::expose;
using flashdeck::testing::FakeHttpServer;

Q_DECLARE_METATYPE(flashdeck::expose::GatewayOptions)

namespace {

const QString kJsModule = QStringLiteral("/usr/lib/nginx/modules/ngx_http_js_module.so");
const QByteArray kKey = "sk-gateway-test-0123456789";

QString nginxBinary()
{
    return QStandardPaths::findExecutable(QStringLiteral("nginx"),
                                          {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin")});
}

/** Debian's nginx and njs, or why not: the test fails (never skips) naming the packages. */
QString missingNginx()
{
    if (nginxBinary().isEmpty()) {
        return QStringLiteral("nginx is not installed: apt-get install nginx-light libnginx-mod-http-js "
                              "(scripts/bootstrap installs both)");
    }
    if (!QFileInfo::exists(kJsModule)) {
        return QStringLiteral("nginx's njs module is missing (%1): apt-get install libnginx-mod-http-js")
            .arg(kJsModule);
    }
    return {};
}

/** Runs a short program to its end (no event loop needed: nothing of ours serves meanwhile). */
QString run(const QString &program, const QStringList &args, int *exitCode)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForFinished(60000)) {
        *exitCode = -1;
        return QStringLiteral("%1 did not finish: %2").arg(program, p.errorString());
    }
    *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return QString::fromLocal8Bit(p.readAll());
}

/** A port nobody listened on a moment ago (nginx cannot be asked for port 0). */
int freePort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
}

FakeHttpServer::Response answerWith(int status, const QByteArray &body, const QByteArray &type = "application/json")
{
    FakeHttpServer::Response r;
    r.status = status;
    r.body = body;
    r.contentType = type;
    return r;
}

struct Answer
{
    int status = -1; // -1: no answer in time
    QByteArray body;
};

} // namespace

/**
 * The generated gateway, run by Debian's own nginx and njs (issue 44): `nginx -t` accepts every
 * configuration we write, and a running gateway in front of a fake server refuses what the
 * deployment page asks it to refuse (source, key, size, rate, concurrency, remote media) before
 * the server sees the request, and passes the rest.
 */
class TestGatewayConfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void nginxAcceptsTheConfiguration_data();
    void nginxAcceptsTheConfiguration();
    void requests_data();
    void requests();
    void otherSources_get403();
    void pastTheRate_get429();
    void pastTheConcurrency_get503();
    void cleanupTestCase();

private:
    /** A running nginx; stopped as nginx asks (SIGTERM: the master ends its workers), never killed. */
    struct Gateway
    {
        std::unique_ptr<QTemporaryDir> dir;
        std::unique_ptr<QProcess> nginx;
        int port = 0;
        Gateway() = default;
        Gateway(const Gateway &) = delete;
        Gateway &operator=(const Gateway &) = delete;
        ~Gateway()
        {
            if (nginx && nginx->state() != QProcess::NotRunning) {
                nginx->terminate();
                nginx->waitForFinished(20000);
            }
        }
    };
    /** Writes the configuration, the script and a certificate into a fresh folder. */
    QString prepare(QTemporaryDir &dir, const GatewayOptions &options, QString *conf);
    /** Starts nginx on a free port in front of m_server; empty on success, else why not. */
    QString start(Gateway &gateway, GatewayOptions options);
    Answer send(int port, const QByteArray &path, const QByteArray &body, const QByteArray &authorization);
    GatewayOptions defaults() const;

    QTemporaryDir m_certs;
    FakeHttpServer m_server;
    QNetworkAccessManager m_nam;
    QSslConfiguration m_tls;
    std::unique_ptr<Gateway> m_main; // shared by the requests rows
};

GatewayOptions TestGatewayConfig::defaults() const
{
    GatewayOptions o;
    o.listenAddress = QStringLiteral("127.0.0.1");
    o.upstreamPort = m_server.port();
    o.allow = {Cidr::parse(QStringLiteral("127.0.0.0/8")).value()};
    o.rate = RequestRate{1000, RequestRate::Per::Second};
    o.burst = 1000;
    o.maxBodyBytes = 64 * 1024;
    o.mediaAllow = {QStringLiteral("images.example.org"), QStringLiteral("*.cdn.example.net")};
    return o;
}

void TestGatewayConfig::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    const QString missing = missingNginx();
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty(),
             "openssl is not installed: apt-get install openssl");
    // One certificate for every gateway here; the client trusts it alone (its name is 127.0.0.1).
    QVERIFY(m_certs.isValid());
    const QString cert = m_certs.filePath(QStringLiteral("cert.pem"));
    int rc = 0;
    const QString out =
        run(QStringLiteral("openssl"),
            {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
             QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
             QStringLiteral("-keyout"), m_certs.filePath(QStringLiteral("key.pem")), QStringLiteral("-out"), cert,
             QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
             QStringLiteral("/CN=flashdeck-gateway-test"), QStringLiteral("-addext"),
             QStringLiteral("subjectAltName=IP:127.0.0.1")},
            &rc);
    QVERIFY2(rc == 0, qPrintable(out));
    m_tls = QSslConfiguration::defaultConfiguration();
    m_tls.setCaCertificates(QSslCertificate::fromPath(cert));
    QCOMPARE(m_tls.caCertificates().size(), 1);
    m_server.on("POST", "/v1/chat/completions", answerWith(200, R"({"choices":[{"message":{"content":"ok"}}]})"));
    m_server.on("GET", "/v1/models", answerWith(200, R"({"data":[{"id":"MiniMax-M3.1-Flash"}]})"));
    m_server.on("GET", "/health", answerWith(200, {}));
    m_server.on("GET", "/metrics", answerWith(200, "sglang:num_running_reqs 0\n"));
    m_main = std::make_unique<Gateway>();
    const QString failed = start(*m_main, defaults());
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
}

void TestGatewayConfig::cleanupTestCase()
{
    m_main.reset();
}

QString TestGatewayConfig::prepare(QTemporaryDir &dir, const GatewayOptions &options, QString *conf)
{
    if (!dir.isValid()) {
        return QStringLiteral("no temporary folder");
    }
    // Run as root, nginx's workers are "nobody": they must reach the folder's temporary files.
    QFile::setPermissions(dir.path(),
                          QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther | QFile::ExeOther |
                              QFile::ReadGroup | QFile::ExeGroup);
    GatewayFiles files;
    files.certificate = m_certs.filePath(QStringLiteral("cert.pem"));
    files.key = m_certs.filePath(QStringLiteral("key.pem"));
    files.script = dir.filePath(QStringLiteral("gateway.js"));
    files.runDir = dir.path();
    files.jsModule = kJsModule;
    files.workerProcesses = QStringLiteral("1");
    const auto config = GatewayConfig::generate(options, files);
    if (!config) {
        return config.message();
    }
    *conf = dir.filePath(QStringLiteral("nginx.conf"));
    QFile confFile(*conf);
    QFile scriptFile(files.script);
    if (!confFile.open(QIODevice::WriteOnly) || !scriptFile.open(QIODevice::WriteOnly) ||
        confFile.write(config.value().nginxConf().toUtf8()) < 0 ||
        scriptFile.write(config.value().script().toUtf8()) < 0) {
        return QStringLiteral("cannot write into %1").arg(dir.path());
    }
    return {};
}

QString TestGatewayConfig::start(Gateway &gateway, GatewayOptions options)
{
    QString why;
    // A port found free may be taken before nginx binds it: try again with another.
    for (int attempt = 0; attempt < 5; ++attempt) {
        gateway.dir = std::make_unique<QTemporaryDir>();
        gateway.port = options.listenPort = freePort();
        QString conf;
        if (QString failed = prepare(*gateway.dir, options, &conf); !failed.isEmpty()) {
            return failed;
        }
        gateway.nginx = std::make_unique<QProcess>();
        gateway.nginx->setProcessChannelMode(QProcess::MergedChannels);
        gateway.nginx->start(nginxBinary(),
                             {QStringLiteral("-p"), gateway.dir->path(), QStringLiteral("-c"), conf,
                              QStringLiteral("-e"), QStringLiteral("stderr"), QStringLiteral("-g"),
                              QStringLiteral("daemon off;")});
        // nginx writes its pid file after it has bound its sockets (ngx_init_cycle, then
        // ngx_create_pidfile in nginx.c): the file means this gateway, not another, listens.
        const QString pidFile = gateway.dir->filePath(QStringLiteral("nginx.pid"));
        (void)QTest::qWaitFor(
            [&] { return QFileInfo::exists(pidFile) || gateway.nginx->state() == QProcess::NotRunning; }, 20000);
        if (QFileInfo::exists(pidFile) && gateway.nginx->state() == QProcess::Running) {
            return {};
        }
        gateway.nginx->waitForFinished(5000);
        why = QString::fromLocal8Bit(gateway.nginx->readAll());
        if (!why.contains(QLatin1String("Address already in use"))) {
            break;
        }
    }
    return QStringLiteral("nginx did not start: ") + why;
}

Answer TestGatewayConfig::send(int port, const QByteArray &path, const QByteArray &body,
                               const QByteArray &authorization)
{
    QNetworkRequest request(QUrl(QStringLiteral("https://127.0.0.1:%1%2").arg(port).arg(QString::fromLatin1(path))));
    request.setSslConfiguration(m_tls);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    if (!authorization.isEmpty()) {
        request.setRawHeader("Authorization", authorization);
    }
    std::unique_ptr<QNetworkReply> reply(body.isNull() ? m_nam.get(request) : m_nam.post(request, body));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    if (!reply->isFinished() && !finished.wait(20000)) {
        return {};
    }
    Answer answer;
    answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    answer.body = reply->readAll();
    return answer;
}

void TestGatewayConfig::nginxAcceptsTheConfiguration_data()
{
    QTest::addColumn<GatewayOptions>("options");
    GatewayOptions o = defaults();
    QTest::newRow("test gateway") << o;
    o.listenAddress = QStringLiteral("0.0.0.0");
    o.rate = RequestRate{600, RequestRate::Per::Minute};
    o.allow = {Cidr::parse(QStringLiteral("10.0.0.0/8")).value(), Cidr::parse(QStringLiteral("192.0.2.7")).value(),
               Cidr::parse(QStringLiteral("2001:db8::/32")).value()};
    o.mediaAllow.clear();
    o.maxBodyBytes = 256LL * 1024 * 1024;
    QTest::newRow("every source kind, no media host, largest body") << o;
    GatewayOptions d;
    d.allow = {Cidr::parse(QStringLiteral("10.20.0.0/16")).value()};
    QTest::newRow("defaults") << d;
    d.listenAddress = QStringLiteral("::");
    d.tls = TlsMode::OperatorCertificate;
    QTest::newRow("IPv6, operator's certificate") << d;
}

void TestGatewayConfig::nginxAcceptsTheConfiguration()
{
    QFETCH(GatewayOptions, options);
    QTemporaryDir dir;
    QString conf;
    const QString failed = prepare(dir, options, &conf);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    int rc = 0;
    const QString out = run(nginxBinary(),
                            {QStringLiteral("-t"), QStringLiteral("-p"), dir.path(), QStringLiteral("-c"), conf,
                             QStringLiteral("-e"), QStringLiteral("stderr")},
                            &rc);
    QVERIFY2(rc == 0, qPrintable(out));
    QVERIFY2(out.contains(QLatin1String("test is successful")), qPrintable(out));
    // Not even a warning (a low-bits CIDR, a duplicate, a directive nginx ignores).
    QVERIFY2(!out.contains(QLatin1String("[warn]")) && !out.contains(QLatin1String("[emerg]")), qPrintable(out));
}

void TestGatewayConfig::requests_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<QByteArray>("body"); // null: GET
    QTest::addColumn<QByteArray>("authorization");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("words");
    QTest::addColumn<QString>("url"); // an https URL the Playground's policy must judge the same way

    const auto chat = [](const QByteArray &url) -> QByteArray {
        return QByteArray(
                   R"({"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"what is this?"},)"
                   R"({"type":"image_url","image_url":{"url":")") +
            url + R"("}}]}]})";
    };
    const QByteArray bearer = "Bearer " + kKey;
    const QByteArray plain = R"({"model":"m","messages":[{"role":"user","content":"hello"}]})";

    QTest::newRow("no key") << QByteArray("/v1/chat/completions") << plain << QByteArray() << 401
                            << QByteArray("API key is required") << QString();
    QTest::newRow("basic, not bearer") << QByteArray("/v1/chat/completions") << plain
                                       << QByteArray("Basic dXNlcjpwdw==") << 401 << QByteArray("Authorization: Bearer")
                                       << QString();
    QTest::newRow("empty bearer") << QByteArray("/v1/chat/completions") << plain << QByteArray("Bearer ") << 401
                                  << QByteArray("API key") << QString();
    QTest::newRow("key, text") << QByteArray("/v1/chat/completions") << plain << bearer << 200 << QByteArray("choices")
                               << QString();
    QTest::newRow("models") << QByteArray("/v1/models") << QByteArray() << bearer << 200
                            << QByteArray("MiniMax-M3.1-Flash") << QString();
    QTest::newRow("health") << QByteArray("/health") << QByteArray() << bearer << 200 << QByteArray() << QString();
    QTest::newRow("metrics not exposed") << QByteArray("/metrics") << QByteArray() << bearer << 404
                                         << QByteArray("Only the OpenAI-compatible API") << QString();
    QTest::newRow("not JSON") << QByteArray("/v1/chat/completions") << QByteArray("{\"messages\": [") << bearer << 400
                              << QByteArray("not JSON") << QString();
    QTest::newRow("too large") << QByteArray("/v1/chat/completions") << QByteArray(64 * 1024 + 1, 'x') << bearer << 413
                               << QByteArray("larger than this gateway accepts") << QString();
    QTest::newRow("data URI") << QByteArray("/v1/chat/completions") << chat("data:image/png;base64,iVBORw0KGgo=")
                              << bearer << 200 << QByteArray("choices") << QString();
    const struct
    {
        const char *name;
        const char *url;
        int status;
        const char *words;
    } urls[] = {
        {"allowed host", "https://images.example.org/cat.png", 200, "choices"},
        {"allowed subdomain", "https://a.cdn.example.net/cat.png", 200, "choices"},
        {"allowed host, upper case, :443", "https://IMAGES.example.org:443/cat.png", 200, "choices"},
        {"evil host", "https://evil.example/x.png", 403, "evil.example is not on this gateway's allowed media hosts"},
        {"apex of a wildcard", "https://cdn.example.net/x.png", 403, "not on this gateway's allowed media hosts"},
        {"suffix trick", "https://images.example.org.evil.example/x.png", 403, "not on this gateway's allowed"},
        {"http", "http://images.example.org/cat.png", 403, "only https"},
        {"other port", "https://images.example.org:8443/cat.png", 403, "only port 443"},
        {"user info", "https://images.example.org@evil.example/x.png", 403, "user name or password"},
        {"loopback literal", "https://127.0.0.1/x.png", 403, "loopback"},
        {"metadata service", "https://169.254.169.254/latest/meta-data", 403, "link-local"},
        {"private literal", "https://10.1.2.3/x.png", 403, "private (RFC 1918)"},
        {"decimal literal", "https://2130706433/x.png", 403, "instead of a host name"},
        {"IPv6 literal", "https://[::1]/x.png", 403, "instead of a host name"},
        {"backslash", "https://images.example.org\\\\@evil.example/x.png", 403, "backslash"},
        {"file", "file:///etc/passwd", 403, "this one is file:"},
        {"bare path", "/etc/passwd", 403, "neither"},
    };
    for (const auto &u : urls) {
        const QString url = QString::fromLatin1(u.url).replace(QLatin1String("\\\\"), QLatin1String("\\"));
        QTest::newRow(u.name) << QByteArray("/v1/chat/completions") << chat(u.url) << bearer << u.status
                              << QByteArray(u.words) << (url.startsWith(QLatin1String("https:")) ? url : QString());
    }
    QTest::newRow("image_url as a string")
        << QByteArray("/v1/chat/completions")
        << QByteArray(
               R"({"messages":[{"role":"user","content":[{"type":"image_url","image_url":"https://evil.example/x.png"}]}]})")
        << bearer << 403 << QByteArray("messages[0].content[0].image_url") << QString();
    QTest::newRow("video in a later message")
        << QByteArray("/v1/chat/completions")
        << QByteArray(
               R"({"messages":[{"role":"user","content":"hi"},{"role":"user","content":[{"type":"video_url","video_url":{"url":"https://evil.example/v.mp4"}}]}]})")
        << bearer << 403 << QByteArray("messages[1].content[0].video_url") << QString();
    QTest::newRow("escaped key name")
        << QByteArray("/v1/chat/completions")
        << QByteArray(
               R"({"messages":[{"role":"user","content":[{"type":"image_url","image\u005furl":{"url":"https://evil.example/x.png"}}]}]})")
        << bearer << 403 << QByteArray("evil.example") << QString();
}

void TestGatewayConfig::requests()
{
    QFETCH(QByteArray, path);
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, authorization);
    QFETCH(int, status);
    QFETCH(QByteArray, words);
    QFETCH(QString, url);
    const int before = int(m_server.requests().size());
    const Answer answer = send(m_main->port, path, body, authorization);
    QVERIFY2(answer.status == status,
             qPrintable(QStringLiteral("%1: %2").arg(answer.status).arg(QString::fromUtf8(answer.body))));
    QVERIFY2(answer.body.contains(words), answer.body.constData());
    // A refusal is the gateway's: the server never saw the request.
    QCOMPARE(int(m_server.requests().size()), answer.status == 200 ? before + 1 : before);
    if (answer.status == 200 && !body.isNull()) {
        QCOMPARE(m_server.requests().last().body, body); // passed on as sent, after the check
    }
    if (!url.isEmpty()) {
        // One policy: the gateway lets a remote URL through exactly when the Playground would fetch it.
        flashdeck::chat::MediaLimits limits;
        limits.allowedHosts = defaults().mediaAllow;
        const flashdeck::Status playground = flashdeck::chat::MediaPolicy(limits).checkUrl(url);
        QVERIFY2(playground.isOk() == (answer.status == 200), qPrintable(playground.message()));
    }
}

void TestGatewayConfig::otherSources_get403()
{
    GatewayOptions o = defaults();
    o.allow = {Cidr::parse(QStringLiteral("10.0.0.0/8")).value(), Cidr::parse(QStringLiteral("2001:db8::/32")).value()};
    Gateway gateway;
    const QString failed = start(gateway, o);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    const int before = int(m_server.requests().size());
    const Answer answer = send(gateway.port, "/v1/models", QByteArray(), "Bearer " + kKey);
    QCOMPARE(answer.status, 403);
    QVERIFY2(answer.body.contains("does not accept requests from your address"), answer.body.constData());
    QCOMPARE(int(m_server.requests().size()), before);
}

void TestGatewayConfig::pastTheRate_get429()
{
    GatewayOptions o = defaults();
    o.rate = RequestRate{1, RequestRate::Per::Minute};
    o.burst = 2;
    Gateway gateway;
    const QString failed = start(gateway, o);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    // One at the rate and two of burst pass at once (nodelay); the fourth within the minute is refused.
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(send(gateway.port, "/v1/models", QByteArray(), "Bearer " + kKey).status, 200);
    }
    const Answer answer = send(gateway.port, "/v1/models", QByteArray(), "Bearer " + kKey);
    QCOMPARE(answer.status, 429);
    QVERIFY2(answer.body.contains("Too many requests from your address (limit 1/m, burst 2)"), answer.body.constData());
}

void TestGatewayConfig::pastTheConcurrency_get503()
{
    GatewayOptions o = defaults();
    o.maxConcurrent = 1;
    Gateway gateway;
    const QString failed = start(gateway, o);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    FakeHttpServer::Response stream = answerWith(200, "data: {}\n\n", "text/event-stream");
    stream.holdOpen = true; // a streamed answer still going
    m_server.on("GET", "/v1/stream", stream);
    QNetworkRequest request(QUrl(QStringLiteral("https://127.0.0.1:%1/v1/stream").arg(gateway.port)));
    request.setSslConfiguration(m_tls);
    request.setRawHeader("Authorization", "Bearer " + kKey);
    std::unique_ptr<QNetworkReply> held(m_nam.get(request));
    QTRY_VERIFY_WITH_TIMEOUT(m_server.count("GET", "/v1/stream") == 1, 20000);
    const Answer answer = send(gateway.port, "/v1/models", QByteArray(), "Bearer " + kKey);
    QCOMPARE(answer.status, 503);
    QVERIFY2(answer.body.contains("as many requests as this gateway lets through (1)"), answer.body.constData());
    QVERIFY(answer.body.startsWith("{\"error\""));
    m_server.endStreams();
    QTRY_VERIFY_WITH_TIMEOUT(held->isFinished(), 20000);
    QTRY_COMPARE_WITH_TIMEOUT(send(gateway.port, "/v1/models", QByteArray(), "Bearer " + kKey).status, 200, 20000);
}

QTEST_GUILESS_MAIN(TestGatewayConfig)
#include "tst_gatewayconfig.moc"
