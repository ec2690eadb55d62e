#include "fakehttpserver.h"
#include "faketransport.h"

#include "backend/docker/dockerclient.h"
#include "backend/docker/dockerendpoint.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>
#include <optional>

using namespace flashdeck;
using flashdeck::docker::DockerClient;
using flashdeck::docker::DockerEndpoint;
using flashdeck::docker::DockerResponse;
using flashdeck::testing::FakeHttpServer;
using flashdeck::testing::FakeTransport;

/**
 * A host's one way to its Docker Engine, over a scripted host: every client given the same
 * connection shares one dial-stdio tunnel and one kept-alive call connection, in the order
 * asked; the tunnel closes with its last client; a dropped session is heard by every call still
 * queued and said once; one client's abort leaves the others' calls alone.
 */
class TestDockerEndpoint : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyClient_oneTunnel_oneCallConnection();
    void droppedSession_everyQueuedCallHearsIt_thenOpensAgain();
    void oneClientsAbort_leavesTheOthersCalls();
};

namespace {

/** Opens the endpoint and waits for it; false when it did not open. */
bool openEndpoint(DockerEndpoint &endpoint)
{
    bool opened = false;
    QObject context;
    endpoint.whenOpen(
        &context, [&opened] { opened = true; }, [](const QString &) {});
    return QTest::qWaitFor([&opened] { return opened; }, 5000);
}

/** The fake host's dial-stdio reaches `dockerd`, which answers `GET path` with `body`. */
void serveDocker(FakeTransport &fake, FakeHttpServer &dockerd, const QByteArray &path, const QByteArray &body)
{
    fake.route("docker system dial-stdio", dockerd.port());
    dockerd.actAsDockerd();
    FakeHttpServer::Response answer;
    answer.body = body;
    dockerd.on("GET", path, answer);
}

} // namespace

void TestDockerEndpoint::everyClient_oneTunnel_oneCallConnection()
{
    FakeTransport fake(QStringLiteral("gpu1"));
    FakeHttpServer dockerd;
    serveDocker(fake, dockerd, "/containers/json", "[]");

    DockerEndpoint &endpoint = DockerEndpoint::of(fake);
    QCOMPARE(&DockerEndpoint::of(fake), &endpoint); // the transport's one
    auto sampler = std::make_unique<DockerClient>(endpoint);
    auto runner = std::make_unique<DockerClient>(endpoint);
    QVERIFY(openEndpoint(endpoint));
    QList<QString> order;
    for (int i = 0; i < 3; ++i) {
        for (auto *client : {sampler.get(), runner.get()}) {
            const QString who = client == sampler.get() ? QStringLiteral("sampler") : QStringLiteral("runner");
            client->call("GET", QStringLiteral("/containers/json?all=1"), {},
                         [&order, who, i](const DockerResponse &r) {
                             order.append(r.ok() ? who + QString::number(i) : r.message());
                         });
        }
    }
    QTRY_COMPARE(order.size(), 6);
    QCOMPARE(order,
             (QList<QString>{QStringLiteral("sampler0"), QStringLiteral("runner0"), QStringLiteral("sampler1"),
                             QStringLiteral("runner1"), QStringLiteral("sampler2"), QStringLiteral("runner2")}));
    QCOMPARE(fake.openTunnels(), 1);
    QCOMPARE(endpoint.callConnectionsOpened(), 1);

    sampler.reset();
    QCOMPARE(fake.openTunnels(), 1); // the runner still uses it
    runner.reset();
    QCOMPARE(fake.openTunnels(), 0); // closed with its last client: no dial-stdio left on the host
    QVERIFY(!endpoint.isOpen());
}

void TestDockerEndpoint::droppedSession_everyQueuedCallHearsIt_thenOpensAgain()
{
    FakeTransport fake(QStringLiteral("gpu1"));
    FakeHttpServer dockerd;
    serveDocker(fake, dockerd, "/info", R"({"ServerVersion":"27.5.1"})");

    DockerEndpoint &endpoint = DockerEndpoint::of(fake);
    DockerClient client(endpoint);
    QVERIFY(openEndpoint(endpoint));
    QSignalSpy closed(&endpoint, &DockerEndpoint::closed);
    QList<DockerResponse> answers;
    for (int i = 0; i < 3; ++i) {
        client.call("GET", QStringLiteral("/info"), {}, [&answers](const DockerResponse &r) { answers.append(r); });
    }
    fake.drop(); // before any answer came
    QTRY_COMPARE(answers.size(), 3);
    for (const DockerResponse &r : std::as_const(answers)) {
        QCOMPARE(r.status, 0);
        QVERIFY2(r.transportError.contains(QLatin1String("Disconnected.")), qPrintable(r.transportError));
    }
    QCOMPARE(closed.size(), 1);
    QVERIFY(!endpoint.isOpen());

    // SSH is back: the next whoever asks opens a new tunnel, and the same client's calls work.
    fake.setPhase(ssh::ConnectionPhase::Ready);
    QVERIFY(openEndpoint(endpoint));
    std::optional<DockerResponse> again;
    client.call("GET", QStringLiteral("/info"), {}, [&again](const DockerResponse &r) { again = r; });
    QTRY_VERIFY(again.has_value());
    QVERIFY2(again->ok(), qPrintable(again->message()));
    QCOMPARE(fake.openTunnels(), 1);
}

void TestDockerEndpoint::oneClientsAbort_leavesTheOthersCalls()
{
    FakeTransport fake(QStringLiteral("gpu1"));
    FakeHttpServer dockerd;
    serveDocker(fake, dockerd, "/info", "{}");

    DockerEndpoint &endpoint = DockerEndpoint::of(fake);
    DockerClient quitter(endpoint);
    DockerClient stayer(endpoint);
    QVERIFY(openEndpoint(endpoint));
    int quitterHeard = 0;
    int stayerHeard = 0;
    for (int i = 0; i < 2; ++i) {
        quitter.call("GET", QStringLiteral("/info"), {}, [&quitterHeard](const DockerResponse &) { ++quitterHeard; });
        stayer.call("GET", QStringLiteral("/info"), {},
                    [&stayerHeard](const DockerResponse &r) { stayerHeard += r.ok() ? 1 : 0; });
    }
    quitter.abortAll();
    QTRY_COMPARE(stayerHeard, 2);
    QCOMPARE(quitterHeard, 0);
    QCOMPARE(endpoint.callConnectionsOpened(), 1); // the shared connection was not dropped for it
}

QTEST_GUILESS_MAIN(TestDockerEndpoint)
#include "tst_dockerendpoint.moc"
