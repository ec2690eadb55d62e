#include "fakehttpserver.h"
#include "faketransport.h"

#include "backend/logs/logfollower.h"
#include "backend/logs/logrecord.h"
#include "backend/logs/logrules.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QTest>

using namespace flashdeck;
using flashdeck::testing::FakeHttpServer;
using flashdeck::testing::FakeTransport;

namespace {

/** One line as dockerd sends it without a TTY: an 8-byte frame header, then the timestamped text. */
QByteArray frame(int second, const QByteArray &text, quint8 stream = 1)
{
    return FakeHttpServer::dockerFrame(
        "2026-12-01T10:00:" + QByteArray::number(second).rightJustified(2, '0') + ".000000001Z " + text + '\n', stream);
}

QByteArray frames(int from, int to)
{
    QByteArray all;
    for (int i = from; i <= to; ++i) {
        all += frame(i, "[2026-12-01 10:00:" + QByteArray::number(i) + " TP0] line " + QByteArray::number(i));
    }
    return all;
}

} // namespace

/**
 * The log follower over a scripted host and a fake Engine API (no SSH, no simulator): it finds
 * the deployment's server container, follows its log, and after the session drops and comes back
 * continues from where it was, with no line twice and none lost.
 */
class TestLogFollowerUnit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void dropAndReconnect_continuesWithoutDuplicates();
    void noDeployment_waitsAndSaysSo();
    void dockerUnreachable_saysWhy();

private:
    void serveDocker(FakeHttpServer &dockerd, const QByteArray &containers);
    std::optional<logs::LogRules> m_rules;
};

void TestLogFollowerUnit::initTestCase()
{
    auto rules = logs::LogRules::builtIn();
    QVERIFY2(rules, qPrintable(rules.message()));
    m_rules = rules.value();
}

void TestLogFollowerUnit::serveDocker(FakeHttpServer &dockerd, const QByteArray &containers)
{
    dockerd.actAsDockerd();
    FakeHttpServer::Response list;
    list.body = containers;
    dockerd.on("GET", "/containers/json", list);
}

void TestLogFollowerUnit::dropAndReconnect_continuesWithoutDuplicates()
{
    FakeTransport fake(QStringLiteral("gpu1"));
    FakeHttpServer dockerd;
    fake.route("docker system dial-stdio", dockerd.port());
    serveDocker(dockerd,
                R"([{"Id":"c0ffee","Names":["/flashdeck-gpu1-b300x4-balanced-0"],"State":"running",)"
                R"("Status":"Up 2 minutes","Labels":{"io.flashdeck.deployment":"gpu1-b300x4-balanced"}}])");
    // The first stream sends lines 1–3 and stays open; after the drop, Docker replays from the
    // `since` second it is asked for: lines 3–6 (3 again), and stays open.
    dockerd.on("GET", "/containers/c0ffee/logs", [](const FakeHttpServer::Request &r) {
        FakeHttpServer::Response logs;
        logs.contentType = "application/vnd.docker.multiplexed-stream";
        logs.holdOpen = true;
        logs.body = r.target.contains("since=") ? frames(3, 6) : frames(1, 3);
        return logs;
    });

    logs::LogFollower follower(fake, *m_rules, {QStringLiteral("gpu1"), {}, 1000, true, 10});
    QList<QByteArray> got;
    connect(&follower, &logs::LogFollower::recordsArrived, this, [&got](const QList<logs::LogRecord> &records) {
        for (const logs::LogRecord &r : records) {
            got.append(r.text);
        }
    });
    follower.start();
    QTRY_COMPARE(got.size(), 3);
    QCOMPARE(follower.state(), logs::LogFollower::State::Following);
    QCOMPARE(follower.containerName(), QStringLiteral("flashdeck-gpu1-b300x4-balanced-0"));

    fake.drop();
    QTRY_COMPARE(follower.state(), logs::LogFollower::State::Connecting);
    dockerd.endStreams();
    fake.setPhase(ssh::ConnectionPhase::Ready);
    QTRY_COMPARE(got.size(), 6);
    QCOMPARE(follower.reconnects(), 1);
    QCOMPARE(follower.duplicatesSkipped(), 1); // line 3, sent again
    for (int i = 0; i < 6; ++i) {
        QVERIFY2(got.at(i).endsWith(QByteArray("line " + QByteArray::number(i + 1))), got.at(i).constData());
    }
    // The second request asked from the last second it had, not from the start.
    QCOMPARE(dockerd.count("GET", "/v1.47/containers/c0ffee/logs"), 2);
    const qint64 third = QDateTime::fromString(QStringLiteral("2026-12-01T10:00:03Z"), Qt::ISODate).toSecsSinceEpoch();
    QVERIFY(dockerd.requests().last().target.contains(QByteArray("since=" + QByteArray::number(third))));
    QCOMPARE(fake.count("docker system dial-stdio"), 0); // tunnels, not commands
    follower.stop();
    QCOMPARE(fake.openTunnels(), 0); // stopping closes its tunnel
}

void TestLogFollowerUnit::noDeployment_waitsAndSaysSo()
{
    FakeTransport fake(QStringLiteral("gpu1"));
    FakeHttpServer dockerd;
    fake.route("docker system dial-stdio", dockerd.port());
    serveDocker(dockerd, "[]");
    logs::LogFollower follower(fake, *m_rules, {QStringLiteral("gpu1"), {}, 1000, true, 10});
    follower.start();
    QTRY_COMPARE(follower.state(), logs::LogFollower::State::Waiting);
    QCOMPARE(follower.stateText(), QStringLiteral("No Flashdeck deployment on gpu1. Waiting for one to start."));
}

void TestLogFollowerUnit::dockerUnreachable_saysWhy()
{
    FakeTransport fake(QStringLiteral("gpu1"));
    fake.refuse("docker system dial-stdio", QStringLiteral("The tunnel's command exited: docker: command not found"));
    logs::LogFollower follower(fake, *m_rules, {QStringLiteral("gpu1"), {}, 1000, false, 10});
    QSignalSpy finished(&follower, &logs::LogFollower::finished);
    follower.start();
    QVERIFY(finished.wait(5000));
    QCOMPARE(follower.state(), logs::LogFollower::State::Failed);
    QVERIFY2(follower.stateText().contains(QLatin1String("docker: command not found")),
             qPrintable(follower.stateText()));
}

QTEST_GUILESS_MAIN(TestLogFollowerUnit)
#include "tst_logfollowerunit.moc"
