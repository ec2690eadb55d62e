#include "backend/core/apppaths.h"
#include "backend/expose/gatewayimage.h"
#include "backend/fleet/inventory.h"
#include "tests/integration/cli/clirun.h"
#include "tests/simhost/simhostfixture.h"
#include "tests/support/buildpaths.h"
#include "tests/support/sshtesthelpers.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace flashdeck;
using namespace flashdeck::test;

namespace {

/** The simulated registry's other build of the server image (tests/simhost/registry.json). */
const QString kEarlier = QStringLiteral("sha256:f2980cb6934c079e09e1da073703389ba9cdc94781c5ba26b7db32d9ceb4820b");

/** The images a prune --json answer names in `list` ("removed" or "kept"), with their reasons. */
QMap<QString, QString> pruned(const QByteArray &out, const char *list)
{
    QMap<QString, QString> images;
    for (const QJsonValue &v : QJsonDocument::fromJson(out).object()[QLatin1String(list)].toArray()) {
        images.insert(v[QLatin1String("image")].toString(), v[QLatin1String("reason")].toString());
    }
    return images;
}

} // namespace

/**
 * What happens to an exposed host afterwards, as real processes over real SSH to the simulated
 * host: an upgrade keeps the gateway in front of the new server (expose --check all green);
 * pins, the runbook and prune know the gateway's image; a damaged record is said, never taken
 * for "not exposed"; two exposes at once: one wins, the other is refused and changes nothing.
 */
class TestExposeLife : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void upgrade_keepsTheGateway_pinsRunbookPrune();
    void damagedRecord_saidNotNull();
    void twoExposesAtOnce_oneWins();
    void unexposeJson_failureIsAnObject();
    void cleanup();

private:
    CliRun flashdeck(QStringList args) const;
    QProcess *startFlashdeck(const QStringList &args);
    /** The containers labelled `label` on the host (names), by the host's dockerd. */
    QStringList containers(const QString &label) const;
    QString recordFile() const;
    /** expose --check through a relay to the gateway's port: every step's status by id. */
    QMap<QString, QString> check(quint16 relayed) const;

    std::unique_ptr<SimHostFixture> m_host;
    QTemporaryDir m_config;
};

CliRun TestExposeLife::flashdeck(QStringList args) const
{
    args << QStringLiteral("--config-dir") << m_config.path();
    const QProcessEnvironment env = headlessTerminal(m_host->clientHome());
    return runFlashdeckIn(env, args, 240000);
}

QProcess *TestExposeLife::startFlashdeck(const QStringList &args)
{
    auto *p = new QProcess(this);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), m_host->clientHome());
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    env.remove(QStringLiteral("SGLANG_API_KEY"));
    p->setProcessEnvironment(env);
    p->start(flashdeckBinary(), args + QStringList{QStringLiteral("--config-dir"), m_config.path()});
    return p;
}

QStringList TestExposeLife::containers(const QString &label) const
{
    QProcess curl;
    curl.start(QStringLiteral("curl"),
               {QStringLiteral("-sS"), QStringLiteral("-g"),
                QStringLiteral("http://127.0.0.1:%1/containers/json?filters={%22label%22:[%22%2%22]}")
                    .arg(m_host->dockerPort())
                    .arg(label)});
    curl.waitForFinished(60000);
    QStringList names;
    for (const QJsonValue &c : QJsonDocument::fromJson(curl.readAllStandardOutput()).array()) {
        names.append(c[QLatin1String("Names")].toArray().first().toString());
    }
    return names;
}

QString TestExposeLife::recordFile() const
{
    return m_config.path() + QStringLiteral("/data/deployments/gpu/gateway.json");
}

QMap<QString, QString> TestExposeLife::check(quint16 relayed) const
{
    const CliRun checked =
        flashdeck({QStringLiteral("expose"), QStringLiteral("gpu"), QStringLiteral("--check"),
                   QStringLiteral("--connect"), QStringLiteral("127.0.0.1:%1").arg(relayed), QStringLiteral("--json")});
    QMap<QString, QString> statuses;
    const QMap<QString, QJsonObject> steps = deploySteps(checked.out);
    for (auto it = steps.cbegin(); it != steps.cend(); ++it) {
        statuses.insert(it.key(), it.value()[QLatin1String("status")].toString());
    }
    statuses.insert(QStringLiteral("exit"), QString::number(checked.exitCode));
    return statuses;
}

void TestExposeLife::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_config.isValid());
    m_host = std::make_unique<SimHostFixture>();
    QString error;
    QVERIFY2(m_host->start(QStringLiteral("b300x4"), &error), qPrintable(error));
    QVERIFY(m_host->addToInventory(m_config.path(), QStringLiteral("gpu")));
    const CliRun deployed =
        flashdeck({QStringLiteral("deploy"), QStringLiteral("gpu"), QStringLiteral("--accept-license"),
                   QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("120")});
    QVERIFY2(deployed.exitCode == 0, deployed.out.right(3000).constData());
}

void TestExposeLife::upgrade_keepsTheGateway_pinsRunbookPrune()
{
    const CliRun exposed = flashdeck({QStringLiteral("expose"), QStringLiteral("gpu"), QStringLiteral("--allow"),
                                      QStringLiteral("127.0.0.0/8"), QStringLiteral("--rate"), QStringLiteral("5/s"),
                                      QStringLiteral("--self-signed"), QStringLiteral("--json")});
    QVERIFY2(exposed.exitCode == 0, QByteArray(exposed.out + exposed.err).constData());
    const QString pin =
        lastJsonObject(exposed.out)[QLatin1String("exposed")].toObject()[QLatin1String("sha256")].toString();
    const quint16 relayed = m_host->relay(8443);
    QVERIFY(relayed != 0);

    // The upgrade replaces the server; the gateway in front of it stays, and says so.
    const CliRun up =
        flashdeck({QStringLiteral("upgrade"), QStringLiteral("gpu"), QStringLiteral("--image-digest"), kEarlier,
                   QStringLiteral("--ready-timeout"), QStringLiteral("120"), QStringLiteral("--json")});
    QVERIFY2(up.exitCode == 0, QByteArray(up.out.right(3000) + up.err).constData());
    const QJsonObject row = lastJsonObject(up.out)[QLatin1String("summary")].toArray().first().toObject();
    QCOMPARE(row[QLatin1String("result")].toString(), QStringLiteral("upgraded"));
    QCOMPARE(row[QLatin1String("gateway")][QLatin1String("kept")].toBool(), true);
    QCOMPARE(row[QLatin1String("gateway")][QLatin1String("url")].toString(), QStringLiteral("https://127.0.0.1:8443"));
    QCOMPARE(containers(QStringLiteral("io.flashdeck.gateway")), QStringList{QStringLiteral("/flashdeck-gpu-gateway")});
    QCOMPARE(containers(QStringLiteral("io.flashdeck.deployment")).size(), 1);
    const QMap<QString, QString> after = check(relayed);
    for (const char *id : {"expose.tls", "expose.nokey", "expose.key", "expose.media", "expose.rate"}) {
        QVERIFY2(after.value(QLatin1String(id)) == QLatin1String("pass"), id);
    }
    QCOMPARE(after.value(QStringLiteral("exit")), QStringLiteral("0"));

    // pins: the gateway's image by digest and its configuration, beside the server's pins.
    const CliRun pins = flashdeck({QStringLiteral("pins"), QStringLiteral("gpu"), QStringLiteral("--json")});
    QVERIFY2(pins.exitCode == 0, pins.err.constData());
    const QJsonObject pinned = QJsonDocument::fromJson(pins.out).object();
    QCOMPARE(pinned[QLatin1String("image_digest")].toString(), kEarlier); // the server's, as before
    const QJsonObject gateway = pinned[QLatin1String("gateway")].toObject();
    QCOMPARE(gateway[QLatin1String("image")].toString(), expose::GatewayImage::pinned());
    QCOMPARE(gateway[QLatin1String("image_digest")].toString(), expose::GatewayImage::digest());
    QCOMPARE(gateway[QLatin1String("allow")].toArray(), QJsonArray{QStringLiteral("127.0.0.0/8")});
    QCOMPARE(gateway[QLatin1String("rate")].toString(), QStringLiteral("5/s"));
    QCOMPARE(gateway[QLatin1String("port")].toInt(), 8443);
    QCOMPARE(gateway[QLatin1String("tls")].toString(), QStringLiteral("self-signed"));
    QCOMPARE(gateway[QLatin1String("sha256")].toString(), pin);
    const CliRun pinsText = flashdeck({QStringLiteral("pins"), QStringLiteral("gpu")});
    QVERIFY2(pinsText.out.contains(QByteArray("gateway image   " + expose::GatewayImage::pinned().toLatin1())),
             pinsText.out.constData());

    // The runbook: the gateway's image, configuration and the commands that make it again; never its key.
    const CliRun runbook = flashdeck({QStringLiteral("runbook"), QStringLiteral("gpu")});
    QVERIFY2(runbook.exitCode == 0, runbook.err.constData());
    for (const QByteArray &part :
         {QByteArray(QByteArray("GATEWAY_IMAGE=") + expose::GatewayImage::pinned().toLatin1() + '\n'),
          QByteArray("flashdeck expose gpu --allow 127.0.0.0/8 --listen 0.0.0.0 --port 8443 --rate 5/s"),
          QByteArray("--self-signed"), QByteArray("docker run -d --name \"$GATEWAY_NAME\""),
          QByteArray("proxies to 127.0.0.1:30000")}) {
        QVERIFY2(runbook.out.contains(part), QByteArray(part + " in:\n" + runbook.out.right(3000)).constData());
    }
    const ssh::CommandResult key =
        runAndWait(m_host->connection(), "sed -n 2p ~/.flashdeck/gateway/tls/key.pem", 30000);
    QVERIFY(!key.stdoutData.trimmed().isEmpty());
    QVERIFY(!runbook.out.contains(key.stdoutData.trimmed()));
    QProcess sh; // the script with the gateway's part still parses as POSIX shell
    sh.start(QStringLiteral("sh"), {QStringLiteral("-n")});
    sh.write(runbook.out);
    sh.closeWriteChannel();
    QVERIFY(sh.waitForFinished(30000));
    QVERIFY2(sh.exitStatus() == QProcess::NormalExit && sh.exitCode() == 0, sh.readAllStandardError().constData());

    // prune keeps the image the gateway runs, naming it as Flashdeck's gateway's.
    const CliRun kept = flashdeck(
        {QStringLiteral("prune"), QStringLiteral("gpu"), QStringLiteral("--dry-run"), QStringLiteral("--json")});
    QVERIFY2(kept.exitCode == 0, QByteArray(kept.out + kept.err).constData());
    QVERIFY2(pruned(kept.out, "kept").value(expose::GatewayImage::pinned()).contains(QLatin1String("gateway")),
             kept.out.constData());
    QVERIFY2(!pruned(kept.out, "removed").contains(expose::GatewayImage::pinned()), kept.out.constData());
    // Once unexposed, it is Flashdeck's image nothing runs: prune would remove it.
    QCOMPARE(flashdeck({QStringLiteral("unexpose"), QStringLiteral("gpu")}).exitCode, 0);
    const CliRun free = flashdeck(
        {QStringLiteral("prune"), QStringLiteral("gpu"), QStringLiteral("--dry-run"), QStringLiteral("--json")});
    QVERIFY2(pruned(free.out, "removed").contains(expose::GatewayImage::pinned()), free.out.constData());
}

void TestExposeLife::damagedRecord_saidNotNull()
{
    QFile record(recordFile());
    QVERIFY(record.open(QIODevice::WriteOnly));
    record.write("{\"host\": \"gpu\", \"port\": ");
    record.close();
    const CliRun status = flashdeck({QStringLiteral("status"), QStringLiteral("gpu"), QStringLiteral("--json")});
    const QJsonValue exposed = statusByHost(status.out).value(QStringLiteral("gpu"))[QLatin1String("exposed")];
    QVERIFY2(exposed.isObject(), status.out.constData());
    QVERIFY2(exposed[QLatin1String("error")].toString().contains(QLatin1String("is damaged")), status.out.constData());
    QVERIFY(exposed[QLatin1String("error")].toString().contains(QLatin1String("flashdeck unexpose gpu")));
    const CliRun words = flashdeck({QStringLiteral("status"), QStringLiteral("gpu")});
    QVERIFY2(words.out.contains("Whether gpu is exposed is unknown"), words.out.constData());
    // unexpose settles it: whatever gateway is there goes, and the record with it.
    const CliRun unexposed = flashdeck({QStringLiteral("unexpose"), QStringLiteral("gpu"), QStringLiteral("--json")});
    QVERIFY2(unexposed.exitCode == 0, unexposed.err.constData());
    QCOMPARE(lastJsonObject(unexposed.out)[QLatin1String("ok")].toBool(), true);
    QVERIFY(!QFile::exists(recordFile()));
}

void TestExposeLife::twoExposesAtOnce_oneWins()
{
    const QStringList args{QStringLiteral("expose"), QStringLiteral("gpu"), QStringLiteral("--allow"),
                           QStringLiteral("127.0.0.0/8"), QStringLiteral("--json")};
    QProcess *first = startFlashdeck(args);
    QProcess *second = startFlashdeck(args);
    QVERIFY(first->waitForFinished(240000) && second->waitForFinished(240000));
    const QList<QProcess *> both{first, second};
    QList<QByteArray> outs, errs;
    int won = 0;
    for (QProcess *p : both) {
        outs.append(p->readAllStandardOutput());
        errs.append(p->readAllStandardError());
        won += p->exitCode() == 0 ? 1 : 0;
    }
    QVERIFY2(won == 1, QByteArray(outs.join() + errs.join()).constData());
    const qsizetype loser = first->exitCode() == 0 ? 1 : 0;
    QCOMPARE(both.at(loser)->exitCode(), 1);
    // Refused in words: the other command holds the host (or, had it ended first, its gateway is there).
    const QByteArray refusal = errs.at(loser);
    qInfo("The second expose was refused with: %s", refusal.constData());
    QVERIFY2(refusal.contains("Another command is changing gpu right now") ||
                 refusal.contains("A gateway is already placed on this host"),
             refusal.constData());
    const QJsonObject loserJson = lastJsonObject(outs.at(loser));
    QCOMPARE(loserJson[QLatin1String("ok")].toBool(true), false);
    QVERIFY(!loserJson[QLatin1String("error")].toString().isEmpty());
    // The host and the record agree: one gateway, the winner's.
    const QJsonObject winner = lastJsonObject(outs.at(1 - loser))[QLatin1String("exposed")].toObject();
    QCOMPARE(containers(QStringLiteral("io.flashdeck.gateway")), QStringList{QStringLiteral("/flashdeck-gpu-gateway")});
    const CliRun status = flashdeck({QStringLiteral("status"), QStringLiteral("gpu"), QStringLiteral("--json")});
    QCOMPARE(statusByHost(status.out).value(QStringLiteral("gpu"))[QLatin1String("exposed")].toObject(), winner);
    const QMap<QString, QString> checked = check(m_host->relay(8443));
    QCOMPARE(checked.value(QStringLiteral("expose.key")), QStringLiteral("pass"));
}

void TestExposeLife::unexposeJson_failureIsAnObject()
{
    // A host that does not answer: the words on stderr, and one JSON object like expose's.
    const AppPaths paths(m_config.path());
    fleet::Inventory inventory(paths.inventoryFile());
    QVERIFY(inventory.load().isOk());
    fleet::HostEntry gone = m_host->hostEntry(QStringLiteral("gone"));
    gone.port = freeLocalPort();
    QVERIFY(inventory.add(gone).isOk());
    QVERIFY(inventory.save().isOk());
    const CliRun refused = flashdeck({QStringLiteral("unexpose"), QStringLiteral("gone"), QStringLiteral("--json")});
    QVERIFY(refused.exitCode != 0);
    const QJsonObject o = lastJsonObject(refused.out);
    QCOMPARE(o[QLatin1String("host")].toString(), QStringLiteral("gone"));
    QCOMPARE(o[QLatin1String("ok")].toBool(true), false);
    QVERIFY2(!o[QLatin1String("error")].toString().isEmpty() && !refused.err.isEmpty(),
             QByteArray(refused.out + refused.err).constData());
}

void TestExposeLife::cleanup()
{
    flashdeck({QStringLiteral("unexpose"), QStringLiteral("gpu")});
}

QTEST_GUILESS_MAIN(TestExposeLife)
#include "tst_exposelife.moc"
