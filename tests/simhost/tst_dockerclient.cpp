#include "backend/docker/dockerclient.h"
#include "backend/docker/logframes.h"
#include "backend/docker/pullprogress.h"
#include "tests/simhost/simhostfixture.h"

#include <QNetworkReply>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

using namespace flashdeck;
using namespace flashdeck::docker;

namespace {
const QString kImage = QStringLiteral("lmsysorg/sglang:dev-minimax-m31-flash");
const QString kDigest = QStringLiteral("sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500");
} // namespace

/**
 * Flashdeck's own Docker Engine client through its stdio tunnel (`docker system dial-stdio`
 * over the real SSH session) against the simulated daemon: the calls of host contract §3.
 */
class TestDockerClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void ping_settlesTheApiVersion();
    void pin_resolvesTheTagToItsDigest();
    void pull_streamsByteProgressAndTheDigest();
    void container_createStartLogsWaitRemove();
    void errors_carryTheDaemonsMessage();

private:
    DockerResponse callAndWait(const QByteArray &method, const QString &path, const QByteArray &body = {});
    QByteArray readAll(QNetworkReply *reply, const std::function<void(const QByteArray &)> &onChunk = {});

    test::SimHostFixture m_host;
    std::unique_ptr<DockerClient> m_docker;
};

void TestDockerClient::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QString error;
    // A pull of ~1.5 s, so its progress arrives in pieces however slow this machine is.
    QVERIFY2(m_host.start(QStringLiteral("b300x4"), &error, 0.25), qPrintable(error));
    QSignalSpy ready(&m_host.connection(), &ssh::HostConnection::tunnelReady);
    QSignalSpy failed(&m_host.connection(), &ssh::HostConnection::tunnelFailed);
    m_host.connection().openStdioTunnel("docker system dial-stdio");
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() + failed.count() > 0, 30000);
    QCOMPARE(failed.count(), 0);
    m_docker = std::make_unique<DockerClient>(ready.first().at(1).value<quint16>());
}

void TestDockerClient::cleanupTestCase()
{
    m_docker.reset();
    m_host.stop();
}

DockerResponse TestDockerClient::callAndWait(const QByteArray &method, const QString &path, const QByteArray &body)
{
    std::optional<DockerResponse> result;
    m_docker->call(method, path, body, [&result](const DockerResponse &r) { result = r; });
    if (!QTest::qWaitFor([&result] { return result.has_value(); }, 60000)) {
        DockerResponse timedOut;
        timedOut.transportError = QStringLiteral("timed out");
        return timedOut;
    }
    return *result;
}

QByteArray TestDockerClient::readAll(QNetworkReply *reply, const std::function<void(const QByteArray &)> &onChunk)
{
    QByteArray all;
    connect(reply, &QNetworkReply::readyRead, this, [&] {
        const QByteArray chunk = reply->readAll();
        all += chunk;
        if (onChunk) {
            onChunk(chunk);
        }
    });
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!reply->isFinished()) {
        finished.wait(60000);
    }
    const QByteArray rest = reply->readAll();
    all += rest;
    if (onChunk && !rest.isEmpty()) {
        onChunk(rest);
    }
    return all;
}

void TestDockerClient::ping_settlesTheApiVersion()
{
    std::optional<DockerResponse> pong;
    m_docker->ping([&pong](const DockerResponse &r) { pong = r; });
    QTRY_VERIFY_WITH_TIMEOUT(pong.has_value(), 30000);
    QVERIFY2(pong->ok(), qPrintable(pong->message()));
    QCOMPARE(pong->body, QByteArray("OK"));
    QCOMPARE(m_docker->apiPrefix(), QStringLiteral("/v1.47"));
    const DockerResponse version = callAndWait("GET", QStringLiteral("/version"));
    QVERIFY(version.ok());
    QCOMPARE(version.json()["ApiVersion"], "1.47");
}

void TestDockerClient::pin_resolvesTheTagToItsDigest()
{
    const DockerResponse d = callAndWait("GET", QStringLiteral("/distribution/%1/json").arg(kImage));
    QVERIFY2(d.ok(), qPrintable(d.message()));
    QCOMPARE(QString::fromStdString(d.json()["Descriptor"]["digest"].get<std::string>()), kDigest);
}

void TestDockerClient::pull_streamsByteProgressAndTheDigest()
{
    PullProgress progress;
    QList<qint64> seen;
    QNetworkReply *reply = m_docker->stream(
        "POST",
        QStringLiteral("/images/create?fromImage=%1&tag=%2")
            .arg(DockerClient::q(QStringLiteral("docker.io/lmsysorg/sglang")), DockerClient::q(kDigest)));
    readAll(reply, [&](const QByteArray &chunk) {
        if (progress.feed(chunk)) {
            seen.append(progress.downloadedBytes());
        }
    });
    QCOMPARE(DockerClient::responseOf(reply).status, 200);
    reply->deleteLater();
    QVERIFY(progress.error().isEmpty());
    QCOMPARE(progress.digest(), kDigest);
    QCOMPARE(progress.layersDone(), 14);
    QCOMPARE(progress.downloadedBytes(), progress.totalBytes());
    QVERIFY(progress.totalBytes() > 14000000000LL); // ~14 GB of layers
    QVERIFY(std::is_sorted(seen.begin(), seen.end())); // bytes only grow
    QVERIFY(seen.size() >= 2);
    QVERIFY(seen.first() < progress.totalBytes()); // progress came while it pulled, not in one lump at the end

    const DockerResponse image =
        callAndWait("GET", QStringLiteral("/images/%1/json").arg(kImage + QLatin1Char('@') + kDigest));
    QVERIFY2(image.ok(), qPrintable(image.message()));
    QCOMPARE(image.json()["RepoDigests"][0], "lmsysorg/sglang@" + kDigest.toStdString());
}

void TestDockerClient::container_createStartLogsWaitRemove()
{
    const nlohmann::json body = {{"Image", QString(kImage + QLatin1Char('@') + kDigest).toStdString()},
                                 {"Cmd", {"sh", "-c", "echo ready; echo oops >&2; exit 4"}},
                                 {"Labels", {{"io.flashdeck.deployment", "t2"}}}};
    const DockerResponse created = callAndWait("POST", QStringLiteral("/containers/create?name=fd-client"),
                                               QByteArray::fromStdString(body.dump()));
    QVERIFY2(created.status == 201, qPrintable(created.message()));
    const QString id = QString::fromStdString(created.json()["Id"].get<std::string>());

    // Wait first (headers at once), then start: the order the docker CLI uses.
    QNetworkReply *wait = m_docker->stream("POST", QStringLiteral("/containers/%1/wait?condition=next-exit").arg(id));
    QTRY_VERIFY_WITH_TIMEOUT(wait->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200, 30000);
    QVERIFY(!wait->isFinished());
    QCOMPARE(callAndWait("POST", QStringLiteral("/containers/%1/start").arg(id)).status, 204);
    const QByteArray waited = readAll(wait);
    QCOMPARE(nlohmann::json::parse(waited.toStdString(), nullptr, false).value("StatusCode", -1), 4);
    wait->deleteLater();

    LogFrameDecoder decoder;
    QNetworkReply *logs =
        m_docker->stream("GET", QStringLiteral("/containers/%1/logs?follow=1&stdout=1&stderr=1&timestamps=0").arg(id));
    QList<LogLine> lines;
    readAll(logs, [&](const QByteArray &chunk) { lines += decoder.feed(chunk); });
    logs->deleteLater();
    lines += decoder.finish();
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines.at(0).text, QByteArray("ready"));
    QCOMPARE(lines.at(1).stream, 2);

    const DockerResponse listed =
        callAndWait("GET",
                    QStringLiteral("/containers/json?all=1&filters=%1")
                        .arg(DockerClient::q(QStringLiteral(R"({"label":["io.flashdeck.deployment=t2"]})"))));
    QVERIFY(listed.ok());
    QCOMPARE(listed.json().size(), 1u);
    QCOMPARE(callAndWait("DELETE", QStringLiteral("/containers/%1").arg(id)).status, 204);
}

void TestDockerClient::errors_carryTheDaemonsMessage()
{
    const DockerResponse missing = callAndWait("GET", QStringLiteral("/containers/nope/json"));
    QCOMPARE(missing.status, 404);
    QCOMPARE(missing.message(), QStringLiteral("No such container: nope"));
    const DockerResponse tag = callAndWait(
        "POST",
        QStringLiteral("/images/create?fromImage=%1&tag=nope").arg(DockerClient::q(QStringLiteral("lmsysorg/sglang"))));
    QCOMPARE(tag.status, 404);
    QVERIFY(tag.message().contains(QLatin1String("manifest for lmsysorg/sglang:nope not found")));
}

QTEST_GUILESS_MAIN(TestDockerClient)
#include "tst_dockerclient.moc"
