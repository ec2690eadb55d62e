#include "backend/core/apppaths.h"
#include "backend/fleet/inventory.h"
#include "tests/integration/cli/clirun.h"
#include "tests/simhost/simhostfixture.h"
#include "tests/support/buildpaths.h"
#include "tests/support/sshtesthelpers.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSslCertificate>
#include <QSslKey>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace flashdeck;
using namespace flashdeck::test;

namespace {

/** What a program run to its end gave back. */
struct Ran
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Ran runTool(const QString &program, const QStringList &args, const QByteArray &input = {})
{
    QProcess p;
    p.start(program, args);
    if (!input.isEmpty()) {
        p.write(input);
    }
    p.closeWriteChannel();
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

} // namespace

/**
 * `flashdeck expose` and `unexpose` as real processes over real SSH to the simulated host, whose
 * dockerd runs the gateway with the machine's own nginx in the host's network namespace: a
 * colleague's curl from outside the namespace, with the printed pin, gets 401 without the key,
 * 200 with it, and the gateway's words for a remote image; refusals change nothing on the host;
 * `unexpose` leaves the server answering as before.
 */
class TestExposeCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void refusals_changeNothing_data();
    void refusals_changeNothing();
    void selfSigned_pinnedCurl_thenUnexposeLeavesTheServer();
    void operatorCertificate_copiedKey0600_pinOfTheirs();
    /** Whatever a test function left: the next one starts from a host that is not exposed. */
    void cleanup();

private:
    CliRun flashdeck(QStringList args) const;
    /** GET on the host's dockerd (relayed), as JSON. */
    QJsonDocument dockerGet(const QString &path) const;
    /** The server's key, from its container's command line (the deploy kept it nowhere readable here). */
    QString apiKey() const;
    /** The server container's id and when it started. */
    QString serverStarted() const;
    /** What may not change when expose refuses: the gateway's container, folder, record, the images. */
    QByteArray hostState();
    Ran curl(const QString &pin, const QStringList &extra) const;
    QString makeCertificates();

    std::unique_ptr<SimHostFixture> m_host;
    QTemporaryDir m_config;
    QTemporaryDir m_files;
};

CliRun TestExposeCli::flashdeck(QStringList args) const
{
    args << QStringLiteral("--config-dir") << m_config.path();
    const QProcessEnvironment env = headlessTerminal(m_host->clientHome());
    return runFlashdeckIn(env, args, 240000);
}

QJsonDocument TestExposeCli::dockerGet(const QString &path) const
{
    const Ran r = runTool(QStringLiteral("curl"),
                          {QStringLiteral("-sS"), QStringLiteral("-g"),
                           QStringLiteral("http://127.0.0.1:%1%2").arg(m_host->dockerPort()).arg(path)});
    return QJsonDocument::fromJson(r.out);
}

QString TestExposeCli::apiKey() const
{
    const QJsonArray list =
        dockerGet(QStringLiteral("/containers/json?filters={%22label%22:[%22io.flashdeck.deployment%22]}")).array();
    if (list.isEmpty()) {
        return {};
    }
    const QString id = list.first().toObject()[QLatin1String("Id")].toString();
    const QJsonArray cmd = dockerGet(QStringLiteral("/containers/%1/json").arg(id))
                               .object()[QLatin1String("Config")]
                               .toObject()[QLatin1String("Cmd")]
                               .toArray();
    for (qsizetype i = 0; i + 1 < cmd.size(); ++i) {
        if (cmd.at(i).toString() == QLatin1String("--api-key")) {
            return cmd.at(i + 1).toString();
        }
    }
    return {};
}

QString TestExposeCli::serverStarted() const
{
    const QJsonArray list =
        dockerGet(QStringLiteral("/containers/json?filters={%22label%22:[%22io.flashdeck.deployment%22]}")).array();
    if (list.size() != 1) {
        return {};
    }
    const QString id = list.first().toObject()[QLatin1String("Id")].toString();
    return id + QLatin1Char(' ') +
        dockerGet(QStringLiteral("/containers/%1/json").arg(id))
            .object()[QLatin1String("State")]
            .toObject()[QLatin1String("StartedAt")]
            .toString();
}

QByteArray TestExposeCli::hostState()
{
    const QJsonDocument containers = dockerGet(QStringLiteral("/containers/json?all=1"));
    QJsonArray names;
    for (const QJsonValue &c : containers.array()) {
        names.append(c.toObject()[QLatin1String("Names")]);
    }
    const QJsonDocument images = dockerGet(QStringLiteral("/images/json"));
    QJsonArray tags;
    for (const QJsonValue &i : images.array()) {
        tags.append(i.toObject()[QLatin1String("RepoTags")]);
        tags.append(i.toObject()[QLatin1String("RepoDigests")]);
    }
    const ssh::CommandResult folder =
        runAndWait(m_host->connection(), "ls -A ~/.flashdeck 2>/dev/null; echo end", 30000);
    const bool record = QFile::exists(m_config.path() + QStringLiteral("/data/deployments/gpu/gateway.json"));
    return QJsonDocument(QJsonArray{names, tags}).toJson(QJsonDocument::Compact) + folder.stdoutData +
        (record ? "record" : "no record");
}

Ran TestExposeCli::curl(const QString &pin, const QStringList &extra) const
{
    // From this machine, outside the host's namespace, through the relay: a colleague's view.
    QStringList args{QStringLiteral("-sS"),        QStringLiteral("--max-time"),     QStringLiteral("30"),
                     QStringLiteral("--insecure"), QStringLiteral("--pinnedpubkey"), QStringLiteral("sha256//") + pin,
                     QStringLiteral("-w"),         QStringLiteral("\n%{http_code}")};
    args += extra;
    return runTool(QStringLiteral("curl"), args);
}

/** An operator's certificate and key, another key, and a certificate that expired in 2020. */
QString TestExposeCli::makeCertificates()
{
    const QString script = QStringLiteral(
        "set -e; cd \"$0\"; c='-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=gateway.test';"
        "openssl req -x509 $c -keyout key.pem -out cert.pem -days 30 2>/dev/null;"
        "openssl req -x509 $c -keyout other-key.pem -out other-cert.pem -days 30 2>/dev/null;"
        // An expired one: `openssl ca` takes explicit dates (req -days refuses a past one).
        "mkdir db; touch db/index.txt; echo 01 > db/serial;"
        "printf '[ca]\\ndefault_ca=d\\n[d]\\ndatabase=db/index.txt\\nserial=db/serial\\nnew_certs_dir=db\\n"
        "default_md=sha256\\npolicy=p\\n[p]\\ncommonName=supplied\\n' > ca.cnf;"
        "openssl req -new $c -keyout expired-key.pem -out expired.csr 2>/dev/null;"
        "openssl ca -batch -config ca.cnf -selfsign -keyfile expired-key.pem -in expired.csr -out expired-cert.pem "
        "-startdate 20200101000000Z -enddate 20200102000000Z 2>&1");
    const Ran r = runTool(QStringLiteral("sh"), QStringList{QStringLiteral("-c"), script, m_files.path()});
    return r.exitCode == 0 ? QString() : QString::fromUtf8(r.out + r.err);
}

void TestExposeCli::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_config.isValid() && m_files.isValid());
    const QString certificates = makeCertificates();
    QVERIFY2(certificates.isEmpty(), qPrintable(certificates));
    m_host = std::make_unique<SimHostFixture>();
    QString error;
    QVERIFY2(m_host->start(QStringLiteral("b300x4"), &error), qPrintable(error));
    QVERIFY(m_host->addToInventory(m_config.path(), QStringLiteral("gpu")));
    const CliRun deployed =
        flashdeck({QStringLiteral("deploy"), QStringLiteral("gpu"), QStringLiteral("--accept-license"),
                   QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("120")});
    QVERIFY2(deployed.exitCode == 0, deployed.out.right(3000).constData());
    QVERIFY(!apiKey().isEmpty());
}

void TestExposeCli::refusals_changeNothing_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("words");
    const QString allow = QStringLiteral("--allow");
    const QString net = QStringLiteral("127.0.0.0/8");
    const auto file = [this](const char *name) { return m_files.filePath(QLatin1String(name)); };
    QTest::newRow("allow not a CIDR") << QStringList{allow, QStringLiteral("10.0.0.0/33")} << 2
                                      << QStringLiteral("prefix length must be a number from 0 to 32");
    QTest::newRow("allow a host name") << QStringList{allow, QStringLiteral("office.example.org")} << 2
                                       << QStringLiteral("--allow office.example.org");
    QTest::newRow("no allow") << QStringList{} << 2 << QStringLiteral("Say who may connect with --allow CIDR");
    QTest::newRow("upstream timeout 0") << QStringList{allow, net, QStringLiteral("--upstream-timeout"),
                                                       QStringLiteral("0")}
                                        << 2 << QStringLiteral("Timeouts must be between 1 second and 24 hours");
    QTest::newRow("client timeout not a duration")
        << QStringList{allow, net, QStringLiteral("--client-timeout"), QStringLiteral("soon")} << 2
        << QStringLiteral("--client-timeout soon is not a duration");
    // The simulated dockerd holds the host's 127.0.0.1:2375, as a real one started with -H tcp:// does.
    QTest::newRow("port taken") << QStringList{allow, net, QStringLiteral("--port"), QStringLiteral("2375")} << 1
                                << QStringLiteral("Port 2375 is taken on the host (127.0.0.1:2375 is listening there)");
    QTest::newRow("key of another certificate") << QStringList{allow,
                                                               net,
                                                               QStringLiteral("--tls-cert"),
                                                               file("cert.pem"),
                                                               QStringLiteral("--tls-key"),
                                                               file("other-key.pem")}
                                                << 1 << QStringLiteral("The key does not match the certificate");
    QTest::newRow("expired certificate") << QStringList{allow,
                                                        net,
                                                        QStringLiteral("--tls-cert"),
                                                        file("expired-cert.pem"),
                                                        QStringLiteral("--tls-key"),
                                                        file("expired-key.pem")}
                                         << 1 << QStringLiteral("The certificate expired on 2020-01-02T00:00:00Z");
}

void TestExposeCli::refusals_changeNothing()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, words);
    const QByteArray before = hostState();
    const CliRun r = flashdeck(QStringList{QStringLiteral("expose"), QStringLiteral("gpu")} + args);
    QVERIFY2(r.exitCode == exitCode, qPrintable(QString::fromUtf8(r.out + r.err)));
    QVERIFY2(QString::fromUtf8(r.err).contains(words), r.err.constData());
    QCOMPARE(hostState(), before);
    // The operator's key is a secret: never printed, whatever happened.
    QFile key(m_files.filePath(QStringLiteral("other-key.pem")));
    QVERIFY(key.open(QIODevice::ReadOnly));
    const QByteArray body = key.readAll().split('\n').value(1);
    QVERIFY(!body.isEmpty() && !r.out.contains(body) && !r.err.contains(body));
}

void TestExposeCli::selfSigned_pinnedCurl_thenUnexposeLeavesTheServer()
{
    const QString key = apiKey();
    const QString bearer = QStringLiteral("Authorization: Bearer ") + key;
    const QString direct = QStringLiteral("http://127.0.0.1:%1/v1/models").arg(m_host->serverPort());
    const Ran before =
        runTool(QStringLiteral("curl"), QStringList{QStringLiteral("-sS"), QStringLiteral("-H"), bearer, direct});
    QVERIFY2(before.exitCode == 0 && before.out.contains("MiniMax"), before.err.constData());
    const QString startedBefore = serverStarted();
    QVERIFY(!startedBefore.isEmpty());

    const CliRun exposed =
        flashdeck({QStringLiteral("expose"), QStringLiteral("gpu"), QStringLiteral("--allow"),
                   QStringLiteral("127.0.0.0/8"), QStringLiteral("--self-signed"), QStringLiteral("--json")});
    QVERIFY2(exposed.exitCode == 0, qPrintable(QString::fromUtf8(exposed.out + exposed.err)));
    const QJsonObject result = lastJsonObject(exposed.out);
    const QJsonObject gateway = result[QLatin1String("exposed")].toObject();
    const QString pin = gateway[QLatin1String("sha256")].toString();
    QCOMPARE(gateway[QLatin1String("url")].toString(), QStringLiteral("https://127.0.0.1:8443"));
    QCOMPARE(gateway[QLatin1String("allow")].toArray(), QJsonArray{QStringLiteral("127.0.0.0/8")});
    QCOMPARE(QByteArray::fromBase64(pin.toLatin1()).size(), 32);
    QVERIFY(result[QLatin1String("curl")].toString().contains(QStringLiteral("--pinnedpubkey 'sha256//") + pin));

    // The key made on the host stays there, 0600, in a folder only its owner enters.
    const ssh::CommandResult modes = runAndWait(
        m_host->connection(), "stat -c '%a %n' ~/.flashdeck/gateway ~/.flashdeck/gateway/tls/key.pem", 30000);
    QVERIFY2(modes.stdoutData.startsWith("700 ") && modes.stdoutData.contains("\n600 "), modes.stdoutData.constData());

    const quint16 port = m_host->relay(8443);
    QVERIFY(port != 0);
    const Ran noKey = curl(pin, {QStringLiteral("https://127.0.0.1:%1/v1/models").arg(port)});
    QVERIFY2(noKey.exitCode == 0 && noKey.out.endsWith("\n401"), QByteArray(noKey.out + noKey.err).constData());
    const Ran withKey =
        curl(pin, {QStringLiteral("-H"), bearer, QStringLiteral("https://127.0.0.1:%1/v1/models").arg(port)});
    QVERIFY2(withKey.exitCode == 0 && withKey.out.endsWith("\n200") && withKey.out.contains("MiniMax"),
             QByteArray(withKey.out + withKey.err).constData());
    // Another key than the one printed: curl refuses the connection itself (CURLE_SSL_PINNEDPUBKEYNOTMATCH).
    const QString otherPin = QString::fromLatin1(QByteArray(32, 'x').toBase64());
    QCOMPARE(curl(otherPin, {QStringLiteral("https://127.0.0.1:%1/v1/models").arg(port)}).exitCode, 90);
    // A remote image the operator did not allow: refused with the gateway's words, before the server.
    const QByteArray chat = R"({"model":"m","messages":[{"role":"user","content":[{"type":"image_url",
        "image_url":{"url":"https://images.example.org/cat.png"}},{"type":"text","text":"what is it?"}]}]})";
    const Ran media =
        curl(pin,
             {QStringLiteral("-H"), bearer, QStringLiteral("-H"), QStringLiteral("Content-Type: application/json"),
              QStringLiteral("--data-binary"), QString::fromUtf8(chat),
              QStringLiteral("https://127.0.0.1:%1/v1/chat/completions").arg(port)});
    QVERIFY2(media.out.endsWith("\n403") &&
                 media.out.contains("images.example.org is not on this gateway's allowed media hosts"),
             QByteArray(media.out + media.err).constData());

    // expose --check from this machine, reaching the gateway through the relay: every step passes.
    const CliRun checked =
        flashdeck({QStringLiteral("expose"), QStringLiteral("gpu"), QStringLiteral("--check"),
                   QStringLiteral("--connect"), QStringLiteral("127.0.0.1:%1").arg(port), QStringLiteral("--json")});
    const QMap<QString, QJsonObject> steps = deploySteps(checked.out);
    QByteArray failed = checked.err;
    for (const QJsonObject &step : steps) {
        failed += step[QLatin1String("status")].toString() == QLatin1String("pass")
            ? QByteArray()
            : QJsonDocument(step).toJson(QJsonDocument::Compact) + '\n';
    }
    QVERIFY2(checked.exitCode == 0, failed.constData());
    for (const char *id : {"expose.tls", "expose.nokey", "expose.key", "expose.media", "expose.rate"}) {
        QVERIFY2(steps.value(QLatin1String(id))[QLatin1String("status")].toString() == QLatin1String("pass"),
                 QByteArray(id + QByteArray(" in ") + checked.out).constData());
    }
    // Through a relay the server's port would be this machine's: not judged, and said so.
    const QJsonObject serverPort = steps.value(QStringLiteral("expose.serverport"));
    QCOMPARE(serverPort[QLatin1String("status")].toString(), QStringLiteral("skipped"));
    QVERIFY(serverPort[QLatin1String("seen")].toString().contains(QLatin1String("judged only from there")));
    // Nothing listening where it is told to look: no gateway with the recorded key there.
    const CliRun wrong = flashdeck({QStringLiteral("expose"), QStringLiteral("gpu"), QStringLiteral("--check"),
                                    QStringLiteral("--connect"), QStringLiteral("127.0.0.1:%1").arg(freeLocalPort())});
    QCOMPARE(wrong.exitCode, 1);
    QVERIFY2(wrong.out.contains("FAIL  expose.tls"), wrong.out.constData());

    const CliRun status = flashdeck({QStringLiteral("status"), QStringLiteral("gpu"), QStringLiteral("--json")});
    QCOMPARE(statusByHost(status.out).value(QStringLiteral("gpu"))[QLatin1String("exposed")].toObject(), gateway);
    // Undeploying an exposed server is refused: its gateway would serve whatever takes the port next.
    const CliRun undeploy = flashdeck({QStringLiteral("undeploy"), QStringLiteral("gpu")});
    QCOMPARE(undeploy.exitCode, 1);
    QVERIFY2(undeploy.err.contains("flashdeck unexpose gpu"), undeploy.err.constData());
    QCOMPARE(serverStarted(), startedBefore);

    const CliRun unexposed = flashdeck({QStringLiteral("unexpose"), QStringLiteral("gpu"), QStringLiteral("--json")});
    QVERIFY2(unexposed.exitCode == 0, unexposed.err.constData());
    QCOMPARE(lastJsonObject(unexposed.out)[QLatin1String("removed")].toArray(),
             QJsonArray{QStringLiteral("flashdeck-gpu-gateway")});
    const Ran after =
        runTool(QStringLiteral("curl"), QStringList{QStringLiteral("-sS"), QStringLiteral("-H"), bearer, direct});
    // The same server answers the same way: the same container, never restarted (created is the clock's).
    const auto model = [](const QByteArray &body) {
        QJsonObject m = QJsonDocument::fromJson(body).object()[QLatin1String("data")].toArray().first().toObject();
        m.remove(QStringLiteral("created"));
        return m;
    };
    QCOMPARE(model(after.out), model(before.out));
    QCOMPARE(serverStarted(), startedBefore);
    QVERIFY(curl(pin, {QStringLiteral("https://127.0.0.1:%1/v1/models").arg(port)}).exitCode != 0);
    const ssh::CommandResult folder = runAndWait(m_host->connection(), "test -e ~/.flashdeck/gateway; echo $?", 30000);
    QCOMPARE(folder.stdoutData.trimmed(), QByteArray("1"));
    const CliRun statusAfter = flashdeck({QStringLiteral("status"), QStringLiteral("gpu"), QStringLiteral("--json")});
    QVERIFY(statusByHost(statusAfter.out).value(QStringLiteral("gpu"))[QLatin1String("exposed")].isNull());
}

void TestExposeCli::operatorCertificate_copiedKey0600_pinOfTheirs()
{
    QFile cert(m_files.filePath(QStringLiteral("cert.pem")));
    QVERIFY(cert.open(QIODevice::ReadOnly));
    const QSslCertificate theirs(cert.readAll());
    const QString pin = QString::fromLatin1(
        QCryptographicHash::hash(theirs.publicKey().toDer(), QCryptographicHash::Sha256).toBase64());
    const CliRun exposed =
        flashdeck({QStringLiteral("expose"), QStringLiteral("gpu"), QStringLiteral("--allow"),
                   QStringLiteral("127.0.0.0/8"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1"),
                   QStringLiteral("--port"), QStringLiteral("9443"), QStringLiteral("--tls-cert"), cert.fileName(),
                   QStringLiteral("--tls-key"), m_files.filePath(QStringLiteral("key.pem"))});
    QVERIFY2(exposed.exitCode == 0, QByteArray(exposed.out + exposed.err).constData());
    QVERIFY2(exposed.out.contains(QByteArray("sha256//" + pin.toLatin1())), exposed.out.constData());
    // Their certificate names no address (no subjectAltName): clients checking the name would refuse it.
    QVERIFY2(exposed.err.contains("subjectAltName names nothing, not 127.0.0.1") &&
                 exposed.err.contains("will reject the connection"),
             exposed.err.constData());
    // Their certificate chains to no CA here either: the curl line names the pin all the same.
    QVERIFY2(exposed.out.contains("https://127.0.0.1:9443"), exposed.out.constData());
    const ssh::CommandResult modes = runAndWait(m_host->connection(),
                                                "stat -c '%a' ~/.flashdeck/gateway/tls/key.pem; "
                                                "cmp ~/.flashdeck/gateway/tls/cert.pem " +
                                                    cert.fileName().toUtf8() + " && echo same",
                                                30000);
    QVERIFY2(modes.stdoutData == "600\nsame\n", modes.stdoutData.constData());
    const quint16 port = m_host->relay(9443);
    const Ran answered = curl(pin, {QStringLiteral("https://127.0.0.1:%1/v1/models").arg(port)});
    QVERIFY2(answered.exitCode == 0 && answered.out.endsWith("\n401"),
             QByteArray(answered.out + answered.err).constData());
    QCOMPARE(flashdeck({QStringLiteral("unexpose"), QStringLiteral("gpu")}).exitCode, 0);
}

void TestExposeCli::cleanup()
{
    flashdeck({QStringLiteral("unexpose"), QStringLiteral("gpu")});
}

QTEST_GUILESS_MAIN(TestExposeCli)
#include "tst_exposecli.moc"
