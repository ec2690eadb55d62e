#include "backend/expose/cidr.h"
#include "backend/expose/gatewayconfig.h"
#include "backend/expose/gatewayoptions.h"
#include "backend/expose/gatewaypreview.h"

#include <QTest>

using namespace flashdeck::expose;

/**
 * The gateway's options (issue 44): what the operator types is refused with words that say what
 * to write instead, and what passes is what nginx reads.
 */
class TestGatewayOptions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cidr_data();
    void cidr();
    void rate_data();
    void rate();
    void size_data();
    void size();
    void seconds_data();
    void seconds();
    void mediaHost_data();
    void mediaHost();
    void validate_data();
    void validate();
    void preview_statesWhatWillHappen();
    void config_refusesPathsNginxWouldMisread();
};

namespace {

GatewayOptions valid()
{
    GatewayOptions o;
    o.allow = {Cidr::parse(QStringLiteral("10.0.0.0/8")).value()};
    return o;
}

} // namespace

void TestGatewayOptions::cidr_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("canonical"); // empty: refused
    QTest::addColumn<QString>("words"); // part of the refusal

    QTest::newRow("v4 network") << "10.0.0.0/8"
                                << "10.0.0.0/8"
                                << "";
    QTest::newRow("v4 /24, spaces") << " 192.168.1.0/24 "
                                    << "192.168.1.0/24"
                                    << "";
    QTest::newRow("one host") << "192.0.2.7"
                              << "192.0.2.7/32"
                              << "";
    QTest::newRow("/32") << "127.0.0.1/32"
                         << "127.0.0.1/32"
                         << "";
    QTest::newRow("v6 network") << "2001:db8::/32"
                                << "2001:db8::/32"
                                << "";
    QTest::newRow("v6 host") << "::1"
                             << "::1/128"
                             << "";
    QTest::newRow("prefix too long") << "10.0.0.0/33"
                                     << ""
                                     << "from 0 to 32";
    QTest::newRow("v6 prefix too long") << "2001:db8::/129"
                                        << ""
                                        << "from 0 to 128";
    QTest::newRow("negative prefix") << "10.0.0.0/-1"
                                     << ""
                                     << "from 0 to 32";
    QTest::newRow("plus prefix") << "10.0.0.0/+8"
                                 << ""
                                 << "from 0 to 32";
    QTest::newRow("empty prefix") << "10.0.0.0/"
                                  << ""
                                  << "from 0 to 32";
    QTest::newRow("host name") << "example.com"
                               << ""
                               << "a host name is not accepted";
    QTest::newRow("host name with prefix") << "example.com/24"
                                           << ""
                                           << "not a network";
    QTest::newRow("empty") << ""
                           << ""
                           << "not a network";
    QTest::newRow("octet too big") << "10.0.0.256/24"
                                   << ""
                                   << "not a network";
    QTest::newRow("scope id") << "fe80::1%eth0/64"
                              << ""
                              << "not a network";
    QTest::newRow("everyone v4") << "0.0.0.0/0"
                                 << ""
                                 << "every address";
    QTest::newRow("everyone v6") << "::/0"
                                 << ""
                                 << "every address";
    QTest::newRow("host bits set") << "10.0.0.1/8"
                                   << ""
                                   << "Write 10.0.0.0/8 for the network, or 10.0.0.1/32";
    QTest::newRow("v6 host bits set") << "2001:db8::1/32"
                                      << ""
                                      << "2001:db8::/32";
}

void TestGatewayOptions::cidr()
{
    QFETCH(QString, input);
    QFETCH(QString, canonical);
    QFETCH(QString, words);
    const auto parsed = Cidr::parse(input);
    if (canonical.isEmpty()) {
        QVERIFY2(!parsed, qPrintable(input));
        QVERIFY2(parsed.message().contains(words), qPrintable(parsed.message()));
        QVERIFY2(parsed.message().contains(input.trimmed()) || input.trimmed().isEmpty(), qPrintable(parsed.message()));
    } else {
        QVERIFY2(parsed, qPrintable(parsed.message()));
        QCOMPARE(parsed.value().toString(), canonical);
    }
}

void TestGatewayOptions::rate_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("nginx"); // empty: refused

    QTest::newRow("per second") << "10/s"
                                << "10r/s";
    QTest::newRow("nginx spelling") << "10r/s"
                                    << "10r/s";
    QTest::newRow("per minute") << "600/m"
                                << "600r/m";
    QTest::newRow("words") << "5 / min"
                           << "5r/m";
    QTest::newRow("zero") << "0/s"
                          << "";
    QTest::newRow("no unit") << "10"
                             << "";
    QTest::newRow("per hour") << "10/h"
                              << "";
    QTest::newRow("negative") << "-1/s"
                              << "";
    QTest::newRow("fraction") << "0.5/s"
                              << "";
    QTest::newRow("text") << "fast"
                          << "";
}

void TestGatewayOptions::rate()
{
    QFETCH(QString, input);
    QFETCH(QString, nginx);
    const auto parsed = RequestRate::parse(input);
    if (nginx.isEmpty()) {
        QVERIFY(!parsed);
        QVERIFY2(parsed.message().contains(QLatin1String("--rate")), qPrintable(parsed.message()));
        const auto inWindow = RequestRate::parse(input, flashdeck::expose::Wording::Window);
        QVERIFY(!inWindow);
        QVERIFY2(!inWindow.message().contains(QLatin1String("--")), qPrintable(inWindow.message()));
    } else {
        QVERIFY2(parsed, qPrintable(parsed.message()));
        QCOMPARE(parsed.value().toNginx(), nginx);
    }
}

void TestGatewayOptions::size_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<qint64>("bytes"); // -1: refused

    QTest::newRow("m") << "32m" << qint64(32) * 1024 * 1024;
    QTest::newRow("M") << "32M" << qint64(32) * 1024 * 1024;
    QTest::newRow("MiB") << "32MiB" << qint64(32) * 1024 * 1024;
    QTest::newRow("MB is binary too") << "1MB" << qint64(1024) * 1024;
    QTest::newRow("k") << "512k" << qint64(512) * 1024;
    QTest::newRow("g") << "1g" << qint64(1024) * 1024 * 1024;
    QTest::newRow("bytes") << "1048576" << qint64(1048576);
    QTest::newRow("unknown unit") << "12XB" << qint64(-1);
    QTest::newRow("fraction") << "1.5m" << qint64(-1);
    QTest::newRow("negative") << "-1m" << qint64(-1);
    QTest::newRow("empty") << "" << qint64(-1);
    QTest::newRow("huge") << "999999999999g" << qint64(-1);
}

void TestGatewayOptions::size()
{
    QFETCH(QString, input);
    QFETCH(qint64, bytes);
    const auto parsed = GatewayOptions::parseSize(input, QStringLiteral("--max-body"));
    if (bytes < 0) {
        QVERIFY(!parsed);
        QVERIFY2(parsed.message().contains(QLatin1String("--max-body")), qPrintable(parsed.message()));
    } else {
        QVERIFY2(parsed, qPrintable(parsed.message()));
        QCOMPARE(parsed.value(), bytes);
    }
}

void TestGatewayOptions::seconds_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<int>("seconds"); // -1: refused

    QTest::newRow("bare") << "60" << 60;
    QTest::newRow("s") << "45s" << 45;
    QTest::newRow("m") << "10m" << 600;
    QTest::newRow("h") << "1h" << 3600;
    QTest::newRow("zero") << "0" << -1;
    QTest::newRow("two days") << "48h" << -1;
    QTest::newRow("ms") << "500ms" << -1;
}

void TestGatewayOptions::seconds()
{
    QFETCH(QString, input);
    QFETCH(int, seconds);
    const auto parsed = GatewayOptions::parseSeconds(input, QStringLiteral("--timeout"));
    if (seconds < 0) {
        QVERIFY(!parsed);
    } else {
        QVERIFY2(parsed, qPrintable(parsed.message()));
        QCOMPARE(parsed.value(), seconds);
    }
}

void TestGatewayOptions::mediaHost_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("entry"); // empty: refused

    QTest::newRow("name") << "images.example.org"
                          << "images.example.org";
    QTest::newRow("upper case, trailing dot") << "Upper.Example.COM."
                                              << "upper.example.com";
    QTest::newRow("subdomains") << "*.cdn.example.net"
                                << "*.cdn.example.net";
    QTest::newRow("IDN in ACE form") << "bücher.example"
                                     << "xn--bcher-kva.example";
    QTest::newRow("URL") << "https://images.example.org"
                         << "";
    QTest::newRow("path") << "images.example.org/cats"
                          << "";
    QTest::newRow("port") << "images.example.org:443"
                          << "";
    QTest::newRow("IPv4 address") << "10.0.0.5"
                                  << "";
    QTest::newRow("decimal address") << "2130706433"
                                     << "";
    QTest::newRow("hex address") << "0x7f.1"
                                 << "";
    QTest::newRow("IPv6 address") << "::1"
                                  << "";
    QTest::newRow("single label") << "localhost"
                                  << "";
    QTest::newRow("star alone") << "*"
                                << "";
    QTest::newRow("star inside") << "img.*.example.org"
                                 << "";
    QTest::newRow("underscore") << "bad_name.example"
                                << "";
    QTest::newRow("empty") << ""
                           << "";
}

void TestGatewayOptions::mediaHost()
{
    QFETCH(QString, input);
    QFETCH(QString, entry);
    const auto parsed = GatewayOptions::parseMediaHost(input);
    if (entry.isEmpty()) {
        QVERIFY2(!parsed, qPrintable(input));
        QVERIFY2(parsed.message().startsWith(QLatin1String("--media-allow")), qPrintable(parsed.message()));
    } else {
        QVERIFY2(parsed, qPrintable(parsed.message()));
        QCOMPARE(parsed.value(), entry);
    }
}

void TestGatewayOptions::validate_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("words"); // empty: valid

    QTest::newRow("defaults with one network") << ""
                                               << ""
                                               << "";
    QTest::newRow("no --allow") << "allow"
                                << ""
                                << "restricted";
    QTest::newRow("listen on a name") << "listen"
                                      << "gpu-1.example"
                                      << "--listen gpu-1.example";
    QTest::newRow("listen on v6") << "listen"
                                  << "::"
                                  << "";
    QTest::newRow("port 0") << "port"
                            << "0"
                            << "--port 0 is not a TCP port";
    QTest::newRow("port 65536") << "port"
                                << "65536"
                                << "--port 65536";
    QTest::newRow("upstream port 70000") << "upstream"
                                         << "70000"
                                         << "--upstream-port 70000";
    QTest::newRow("port of the server") << "port"
                                        << "30000"
                                        << "the server itself uses it";
    QTest::newRow("rate 0") << "rate"
                            << "0"
                            << "a rate of 0";
    QTest::newRow("burst -1") << "burst"
                              << "-1"
                              << "--burst";
    QTest::newRow("concurrency 0") << "concurrent"
                                   << "0"
                                   << "--max-concurrent";
    QTest::newRow("body 100 bytes") << "body"
                                    << "100"
                                    << "--max-body";
    QTest::newRow("body 1 GiB") << "body"
                                << "1073741824"
                                << "in memory";
    QTest::newRow("timeout 0") << "timeout"
                               << "0"
                               << "Timeouts";
    QTest::newRow("media host not normalised") << "media"
                                               << "Images.Example.org"
                                               << "--media-allow";
    QTest::newRow("media host an address") << "media"
                                           << "10.0.0.1"
                                           << "never allowed";
}

void TestGatewayOptions::validate()
{
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(QString, words);
    GatewayOptions o = valid();
    if (field == QLatin1String("allow")) {
        o.allow.clear();
    } else if (field == QLatin1String("listen")) {
        o.listenAddress = value;
    } else if (field == QLatin1String("port")) {
        o.listenPort = value.toInt();
    } else if (field == QLatin1String("upstream")) {
        o.upstreamPort = value.toInt();
    } else if (field == QLatin1String("rate")) {
        o.rate.count = value.toInt();
    } else if (field == QLatin1String("burst")) {
        o.burst = value.toInt();
    } else if (field == QLatin1String("concurrent")) {
        o.maxConcurrent = value.toInt();
    } else if (field == QLatin1String("body")) {
        o.maxBodyBytes = value.toLongLong();
    } else if (field == QLatin1String("timeout")) {
        o.upstreamTimeoutSeconds = value.toInt();
    } else if (field == QLatin1String("media")) {
        o.mediaAllow = {value};
    }
    const flashdeck::Status s = o.validate();
    const auto config = GatewayConfig::generate(o);
    if (words.isEmpty()) {
        QVERIFY2(s, qPrintable(s.message()));
        QVERIFY2(config, qPrintable(config.message()));
    } else {
        QVERIFY(!s);
        QVERIFY2(s.message().contains(words), qPrintable(s.message()));
        QVERIFY(!config); // nothing is written from options that do not pass
        QCOMPARE(config.message(), s.message());
        // The window's panel has fields, not options: its refusal names none of the command's.
        o.wording = flashdeck::expose::Wording::Window;
        const flashdeck::Status inWindow = o.validate();
        QVERIFY(!inWindow);
        QVERIFY2(!inWindow.message().contains(QLatin1String("--")), qPrintable(inWindow.message()));
    }
}

void TestGatewayOptions::preview_statesWhatWillHappen()
{
    GatewayOptions o = valid();
    o.allow.append(Cidr::parse(QStringLiteral("2001:db8::/32")).value());
    o.mediaAllow = {QStringLiteral("images.example.org")};
    const QString text = GatewayPreview::text(o);
    for (const char *expected : {"https://0.0.0.0:8443", "port 30000", "10.0.0.0/8, 2001:db8::/32", "403", "401",
                                 "10/s", "burst 20", "429", "64 requests", "503", "32 MiB", "413", "60 s", "600 s",
                                 "images.example.org", "data: URIs", "self-signed", "SHA-256"}) {
        QVERIFY2(text.contains(QLatin1String(expected)), expected);
    }
    o.mediaAllow.clear();
    QVERIFY(GatewayPreview::text(o).contains(QLatin1String("none, so only data: URIs pass")));
}

void TestGatewayOptions::config_refusesPathsNginxWouldMisread()
{
    for (const char *path : {"relative/cert.pem", "/tmp/a b\";include /etc/x;", "/tmp/$host.pem", "/tmp/{x}"}) {
        GatewayFiles files;
        files.certificate = QLatin1String(path);
        const auto config = GatewayConfig::generate(valid(), files);
        QVERIFY2(!config, path);
        QVERIFY2(config.message().contains(QLatin1String(path)), qPrintable(config.message()));
    }
    const auto config = GatewayConfig::generate(valid());
    QVERIFY(config);
    QVERIFY(
        config.value().nginxConf().contains(QLatin1String("ssl_certificate \"/etc/nginx/flashdeck/tls/cert.pem\";")));
    QVERIFY(config.value().nginxConf().contains(QLatin1String("10.0.0.0/8 1;")));
    // The script carries the Playground's blocked ranges, written from the same table.
    QVERIFY(config.value().script().contains(QLatin1String("link-local (the cloud metadata service")));
    QVERIFY(!config.value().script().contains(QLatin1String("/*@")));
}

QTEST_GUILESS_MAIN(TestGatewayOptions)
#include "tst_gatewayoptions.moc"
