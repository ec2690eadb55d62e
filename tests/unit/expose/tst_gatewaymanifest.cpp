#include "backend/expose/gatewayimage.h"
#include "backend/expose/gatewaymanifest.h"
#include "backend/expose/gatewayrecord.h"

#include <QProcess>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace flashdeck::expose;

/**
 * The gateway as `pins` and the runbook carry it: its pinned image and configuration, the
 * expose line that places it again (the operator's files named, never read), and the runbook's
 * part, which still parses as POSIX shell.
 */
class TestGatewayManifest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void exposeCommand_data();
    void exposeCommand();
    void json_imageAndConfiguration();
    void runbookSection_parsesAndStartsFromTheFolder();

private:
    static GatewayRecord record(bool selfSigned);
};

GatewayRecord TestGatewayManifest::record(bool selfSigned)
{
    GatewayRecord r;
    r.host = QStringLiteral("gpu-1");
    r.address = QStringLiteral("10.0.0.5");
    r.port = 9443;
    r.listenAddress = QStringLiteral("0.0.0.0");
    r.upstreamPort = 30000;
    r.allow = {QStringLiteral("10.0.0.0/24"), QStringLiteral("192.168.1.0/24")};
    r.publicKeySha256 = QStringLiteral("AAAA");
    r.certificateSha256 = QStringLiteral("AB:CD");
    r.certificateExpires = QStringLiteral("2027-01-01T00:00:00Z");
    r.selfSigned = selfSigned;
    r.image = GatewayImage::pinned();
    r.containerName = QStringLiteral("flashdeck-gpu-1-gateway");
    r.hostDir = QStringLiteral("/home/op/.flashdeck/gateway");
    r.rate = QStringLiteral("10/s");
    r.burst = 20;
    r.maxConcurrent = 64;
    r.maxBodyBytes = 33554432;
    r.mediaAllow = {QStringLiteral("*.example.org")};
    return r;
}

void TestGatewayManifest::exposeCommand_data()
{
    QTest::addColumn<bool>("selfSigned");
    QTest::addColumn<QString>("tail");
    QTest::newRow("self-signed") << true << QStringLiteral("--self-signed");
    QTest::newRow("the operator's") << false
                                    << QStringLiteral("--tls-cert YOUR-CERTIFICATE.pem --tls-key YOUR-KEY.pem");
}

void TestGatewayManifest::exposeCommand()
{
    QFETCH(bool, selfSigned);
    QFETCH(QString, tail);
    QCOMPARE(GatewayManifest::exposeCommand(record(selfSigned)),
             QStringLiteral("flashdeck expose gpu-1 --allow 10.0.0.0/24 --allow 192.168.1.0/24 --listen 0.0.0.0 "
                            "--port 9443 --rate 10/s --burst 20 --max-concurrent 64 --max-body 33554432 "
                            "--media-allow '*.example.org' ") +
                 tail);
    // Timeouts other than the defaults are recorded and placed again with the gateway.
    GatewayRecord slow = record(selfSigned);
    slow.clientTimeoutSeconds = 30;
    slow.upstreamTimeoutSeconds = 1200;
    const auto again = GatewayRecord::fromJson(slow.toJson());
    QVERIFY2(again, qPrintable(again.message()));
    QCOMPARE(again.value().clientTimeoutSeconds, 30);
    QCOMPARE(again.value().upstreamTimeoutSeconds, 1200);
    const QString command = GatewayManifest::exposeCommand(again.value());
    QVERIFY2(command.contains(QLatin1String("--max-body 33554432 --client-timeout 30 --upstream-timeout 1200 "
                                            "--media-allow")),
             qPrintable(command));
}

void TestGatewayManifest::json_imageAndConfiguration()
{
    const nlohmann::json j = GatewayManifest::toJson(record(false));
    QCOMPARE(QString::fromStdString(j["image"].get<std::string>()), GatewayImage::pinned());
    QCOMPARE(QString::fromStdString(j["image_digest"].get<std::string>()), GatewayImage::digest());
    QCOMPARE(j["port"].get<int>(), 9443);
    QCOMPARE(j["upstream_port"].get<int>(), 30000);
    QCOMPARE(j["allow"].size(), 2u);
    QCOMPARE(j["tls"].get<std::string>(), std::string("certificate"));
    QCOMPARE(j["max_body_bytes"].get<qint64>(), 33554432);
    QCOMPARE(j["url"].get<std::string>(), std::string("https://10.0.0.5:9443"));
    // A record written before it named its image runs the pinned one.
    GatewayRecord old = record(true);
    old.image.clear();
    QCOMPARE(GatewayManifest::image(old), GatewayImage::pinned());
}

void TestGatewayManifest::runbookSection_parsesAndStartsFromTheFolder()
{
    const QString section = GatewayManifest::runbookSection(record(true));
    for (const QString &part :
         {QString(QStringLiteral("GATEWAY_IMAGE=") + GatewayImage::pinned()),
          QStringLiteral("proxies to 127.0.0.1:30000"), QStringLiteral("allowed       10.0.0.0/24 192.168.1.0/24"),
          QStringLiteral("pin sha256//AAAA"),
          QStringLiteral("--label io.flashdeck.gateway=gpu-1 --label io.flashdeck.role=gateway --network host"),
          QStringLiteral("-v \"$GATEWAY_DIR:/etc/nginx/flashdeck:ro\""),
          QStringLiteral("-c /etc/nginx/flashdeck/nginx.conf")}) {
        QVERIFY2(section.contains(part), qPrintable(part + QStringLiteral(" in:\n") + section));
    }
    // The runbook defines step(); the part parses as POSIX shell after it.
    QProcess sh;
    sh.start(QStringLiteral("sh"), {QStringLiteral("-n")});
    sh.write(QByteArray("step() { :; }\n") + section.toUtf8());
    sh.closeWriteChannel();
    QVERIFY(sh.waitForFinished(30000));
    QVERIFY2(sh.exitCode() == 0, sh.readAllStandardError().constData());
}

QTEST_GUILESS_MAIN(TestGatewayManifest)
#include "tst_gatewaymanifest.moc"
