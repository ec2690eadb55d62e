#include "backend/expose/gatewaycertificate.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck;
using namespace flashdeck::expose;

/**
 * The operator's certificate against the address the gateway's URL uses: a subjectAltName that
 * names it (an IP entry, a DNS entry, a "*." wildcard for one label) passes; anything else gets
 * the warning with what clients do and what to do. And the host's command that makes the
 * self-signed one keeps openssl's stderr.
 */
class TestGatewayCertificate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void nameMismatch_data();
    void nameMismatch();
    void selfSignedCommand_keepsOpensslWords();

private:
    /** A certificate made by openssl with `extension` ("" for none). */
    QByteArray make(const QString &name, const QString &extension);

    QTemporaryDir m_dir;
    QByteArray m_named;
    QByteArray m_bare;
};

QByteArray TestGatewayCertificate::make(const QString &name, const QString &extension)
{
    QStringList args{QStringLiteral("req"),
                     QStringLiteral("-x509"),
                     QStringLiteral("-newkey"),
                     QStringLiteral("ec"),
                     QStringLiteral("-pkeyopt"),
                     QStringLiteral("ec_paramgen_curve:prime256v1"),
                     QStringLiteral("-nodes"),
                     QStringLiteral("-keyout"),
                     m_dir.filePath(name + QStringLiteral(".key")),
                     QStringLiteral("-out"),
                     m_dir.filePath(name + QStringLiteral(".pem")),
                     QStringLiteral("-days"),
                     QStringLiteral("30"),
                     QStringLiteral("-subj"),
                     QStringLiteral("/CN=gateway.test")};
    if (!extension.isEmpty()) {
        args << QStringLiteral("-addext") << extension;
    }
    QProcess openssl;
    openssl.start(QStringLiteral("openssl"), args);
    if (!openssl.waitForFinished(60000) || openssl.exitCode() != 0) {
        return {};
    }
    QFile f(m_dir.filePath(name + QStringLiteral(".pem")));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void TestGatewayCertificate::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_named =
        make(QStringLiteral("named"),
             QStringLiteral("subjectAltName=IP:10.0.0.5,IP:2001:db8::5,DNS:gpu.example.org,DNS:*.lab.example.org"));
    m_bare = make(QStringLiteral("bare"), QString());
    QVERIFY2(!m_named.isEmpty() && !m_bare.isEmpty(), "openssl could not make the test certificates");
}

void TestGatewayCertificate::nameMismatch_data()
{
    QTest::addColumn<bool>("named");
    QTest::addColumn<QString>("address");
    QTest::addColumn<bool>("matches");
    QTest::newRow("its IP") << true << QStringLiteral("10.0.0.5") << true;
    QTest::newRow("its IPv6, another spelling") << true << QStringLiteral("2001:db8:0::5") << true;
    QTest::newRow("another IP") << true << QStringLiteral("10.0.0.6") << false;
    QTest::newRow("its name") << true << QStringLiteral("gpu.example.org") << true;
    QTest::newRow("its name, upper case") << true << QStringLiteral("GPU.Example.ORG") << true;
    QTest::newRow("one label under the wildcard") << true << QStringLiteral("a.lab.example.org") << true;
    QTest::newRow("two labels under the wildcard") << true << QStringLiteral("b.a.lab.example.org") << false;
    QTest::newRow("the wildcard's own domain") << true << QStringLiteral("lab.example.org") << false;
    QTest::newRow("a name as an IP entry") << true << QStringLiteral("10.0.0.5.example.org") << false;
    QTest::newRow("no subjectAltName, the CN's name") << false << QStringLiteral("gateway.test") << false;
}

void TestGatewayCertificate::nameMismatch()
{
    QFETCH(bool, named);
    QFETCH(QString, address);
    QFETCH(bool, matches);
    const auto cert = GatewayCertificate::fromPem(named ? m_named : m_bare, QStringLiteral("test"));
    QVERIFY(cert);
    const QString words = cert.value().nameMismatch(address);
    QCOMPARE(words.isEmpty(), matches);
    if (!matches) {
        QVERIFY2(words.contains(address) && words.contains(QLatin1String("will reject the connection")),
                 qPrintable(words));
        QVERIFY(words.contains(named ? QLatin1String("gpu.example.org") : QLatin1String("names nothing")));
    }
}

void TestGatewayCertificate::selfSignedCommand_keepsOpensslWords()
{
    const QByteArray ip =
        GatewayCertificate::selfSignedCommand("'/home/u/.flashdeck/gateway'", QStringLiteral("10.0.0.5"));
    QVERIFY2(ip.contains("-addext subjectAltName=IP:10.0.0.5 ") && !ip.contains("/dev/null"), ip.constData());
    const QByteArray dns = GatewayCertificate::selfSignedCommand("'/d'", QStringLiteral("gpu.example.org"));
    QVERIFY2(dns.contains("subjectAltName=DNS:gpu.example.org"), dns.constData());
    // Run where openssl cannot write its key (a folder in its place): the command fails, and
    // openssl's own words about it reach stderr (where the error is read from).
    QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("host/tls/key.pem"))));
    const QByteArray folder = "'" + m_dir.filePath(QStringLiteral("host")).toUtf8() + "'";
    QProcess sh;
    sh.start(QStringLiteral("sh"),
             {QStringLiteral("-c"),
              QString::fromUtf8(GatewayCertificate::selfSignedCommand(folder, QStringLiteral("10.0.0.5")))});
    QVERIFY(sh.waitForFinished(60000));
    const QByteArray said = sh.readAllStandardError();
    QVERIFY2(sh.exitCode() != 0 && said.contains("key.pem"), said.constData());
}

QTEST_GUILESS_MAIN(TestGatewayCertificate)
#include "tst_gatewaycertificate.moc"
