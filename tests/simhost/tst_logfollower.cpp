#include "backend/docker/dockerclient.h"
#include "backend/logs/logfollower.h"
#include "backend/logs/logrules.h"
#include "tests/simhost/simhostfixture.h"

#include <QNetworkReply>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

using namespace flashdeck;
using namespace flashdeck::logs;

namespace {
const QString kImage = QStringLiteral("lmsysorg/sglang:dev-minimax-m31-flash");
const QString kDigest = QStringLiteral("sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500");
constexpr int kLines = 1500;

// A container that writes numbered lines in bursts, a tqdm bar redrawn with '\r', the qmul4
// check on stderr and SGLang's ready line, then idles: every line must arrive exactly once.
const char *kScript = "i=0; while [ $i -lt 1500 ]; do i=$((i+1)); echo \"line $i\"; "
                      "if [ $((i % 100)) -eq 0 ]; then sleep 0.1; fi; done; "
                      "printf 'Loading safetensors checkpoint shards:  50%%\\rLoading safetensors checkpoint "
                      "shards: 100%%\\r\\n'; "
                      "echo '[2026-11-30 18:00:00 TP0] nvfp4_to_fp8 backend=qmul4' >&2; "
                      "echo 'The server is fired up and ready to roll!'; exec sleep 3600";
} // namespace

/**
 * The Logs page's follower against the simulated host over real SSH: a deployment's log,
 * classified and batched, through an sshd that dies and comes back, and a container that
 * restarts — nothing lost, nothing delivered twice.
 */
class TestLogFollower : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void follow_everyLineOnce_acrossSshdRestartAndContainerRestart();
    void noFollow_deliversTheWholeLogAndFinishes();
    void follow_aReplacedContainerStartsOver();
    void noDeployment_saysSo();

private:
    docker::DockerResponse call(const QByteArray &method, const QString &path, const QByteArray &body = {});
    /** Creates and starts the lab deployment's container running `script`; empty, or dockerd's words. */
    QString startContainer(const char *script);

    test::SimHostFixture m_host;
    std::unique_ptr<docker::DockerClient> m_docker;
    std::optional<LogRules> m_rules;
    QString m_id;
};

docker::DockerResponse TestLogFollower::call(const QByteArray &method, const QString &path, const QByteArray &body)
{
    std::optional<docker::DockerResponse> result;
    m_docker->call(method, path, body, [&result](const docker::DockerResponse &r) { result = r; });
    if (!QTest::qWaitFor([&result] { return result.has_value(); }, 60000)) {
        docker::DockerResponse timedOut;
        timedOut.transportError = QStringLiteral("timed out");
        return timedOut;
    }
    return *result;
}

void TestLogFollower::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    auto rules = LogRules::builtIn();
    QVERIFY2(rules, qPrintable(rules.message()));
    m_rules = rules.value();
    QString error;
    QVERIFY2(m_host.start(QStringLiteral("b300x4"), &error), qPrintable(error));
    QSignalSpy ready(&m_host.connection(), &ssh::HostConnection::tunnelReady);
    m_host.connection().openStdioTunnel("docker system dial-stdio");
    QVERIFY(ready.wait(30000));
    m_docker = std::make_unique<docker::DockerClient>(ready.first().at(1).value<quint16>());
    QNetworkReply *pull = m_docker->stream("POST",
                                           QStringLiteral("/images/create?fromImage=%1")
                                               .arg(docker::DockerClient::q(kImage + QLatin1Char('@') + kDigest)));
    QSignalSpy pulled(pull, &QNetworkReply::finished);
    QVERIFY(pulled.wait(60000));
    pull->deleteLater();

    const QString started = startContainer(kScript);
    QVERIFY2(started.isEmpty(), qPrintable(started));
}

QString TestLogFollower::startContainer(const char *script)
{
    // The lab host's deployment container, as Flashdeck names and labels it.
    const nlohmann::json body = {{"Image", QString(kImage + QLatin1Char('@') + kDigest).toStdString()},
                                 {"Cmd", {"sh", "-c", script}},
                                 {"Labels", {{"io.flashdeck.deployment", "lab-b300x4-balanced"}}}};
    const auto created = call("POST", QStringLiteral("/containers/create?name=flashdeck-lab-b300x4-balanced-0"),
                              QByteArray::fromStdString(body.dump()));
    if (created.status != 201) {
        return created.message();
    }
    m_id = QString::fromStdString(created.json()["Id"].get<std::string>());
    const auto started = call("POST", QStringLiteral("/containers/%1/start").arg(m_id));
    return started.status == 204 ? QString() : started.message();
}

void TestLogFollower::cleanupTestCase()
{
    if (m_docker && !m_id.isEmpty()) {
        (void)call("DELETE", QStringLiteral("/containers/%1?force=1").arg(m_id));
    }
    m_docker.reset();
    m_host.stop();
}

void TestLogFollower::follow_everyLineOnce_acrossSshdRestartAndContainerRestart()
{
    LogFollower follower(m_host.connection(), *m_rules, {QStringLiteral("lab"), {}, -1, true, 20});
    QList<LogRecord> got;
    connect(&follower, &LogFollower::recordsArrived, this, [&got](const QList<LogRecord> &r) { got += r; });
    follower.start();
    QTRY_VERIFY_WITH_TIMEOUT(got.size() >= 200, 60000);
    QCOMPARE(follower.containerName(), QStringLiteral("flashdeck-lab-b300x4-balanced-0"));

    // sshd dies mid-stream (and every connection with it), then comes back on the same port.
    m_docker.reset(); // its tunnel dies too; a new one below
    m_host.sshd().stop();
    QTRY_VERIFY_WITH_TIMEOUT(follower.state() == LogFollower::State::Connecting, 30000);
    QString error;
    QVERIFY2(m_host.sshd().restart(&error), qPrintable(error));
    auto readyLines = [&got] {
        return std::count_if(got.cbegin(), got.cend(), [](const LogRecord &r) {
            return r.text.contains("The server is fired up and ready to roll!");
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(readyLines() == 1, 120000);
    QVERIFY(follower.reconnects() >= 1);

    auto checkRun = [](const QList<LogRecord> &records, qsizetype from) {
        for (int i = 1; i <= kLines; ++i) {
            const QByteArray want = "line " + QByteArray::number(i);
            if (records.at(from + i - 1).text != want) {
                return QStringLiteral("record %1: %2 instead of %3")
                    .arg(from + i - 1)
                    .arg(QString::fromUtf8(records.at(from + i - 1).text), QString::fromUtf8(want));
            }
        }
        return QString();
    };
    QVERIFY(got.size() >= kLines + 3);
    const QString firstRun = checkRun(got, 0);
    QVERIFY2(firstRun.isEmpty(), qPrintable(firstRun));
    QCOMPARE(got.at(kLines).text, QByteArray("Loading safetensors checkpoint shards: 100%")); // the bar's last frame
    // stdout and stderr are separate pipes, as in Docker: their order between them may vary.
    auto ruleAt = [&](int i) { return got.at(i).rule >= 0 ? m_rules->rules().at(got.at(i).rule).id : QString(); };
    QStringList tailRules;
    for (int i = kLines; i < kLines + 3; ++i) {
        tailRules << ruleAt(i);
        if (ruleAt(i) == QLatin1String("qmul4-ok")) {
            QCOMPARE(got.at(i).stream, quint8(2));
        }
    }
    tailRules.sort();
    QCOMPARE(tailRules, QString::fromLatin1("qmul4-ok ready weights").split(QLatin1Char(' ')));
    for (qsizetype i = 0; i < got.size(); ++i) {
        QCOMPARE(got.at(i).seq, i + 1);
        QVERIFY(got.at(i).timeNs > 0);
    }

    // The container restarts: the follow ends with it, then continues with the new run only.
    QSignalSpy tunnel(&m_host.connection(), &ssh::HostConnection::tunnelReady);
    m_host.connection().openStdioTunnel("docker system dial-stdio");
    QVERIFY(tunnel.wait(30000));
    m_docker = std::make_unique<docker::DockerClient>(tunnel.first().at(1).value<quint16>());
    QCOMPARE(call("POST", QStringLiteral("/containers/%1/stop?t=1").arg(m_id)).status, 204);
    QTRY_VERIFY_WITH_TIMEOUT(follower.state() == LogFollower::State::Waiting, 30000);
    QCOMPARE(call("POST", QStringLiteral("/containers/%1/start").arg(m_id)).status, 204);
    QTRY_VERIFY_WITH_TIMEOUT(readyLines() == 2, 120000);
    QCOMPARE(got.size(), 2 * (kLines + 3));
    const QString secondRun = checkRun(got, kLines + 3);
    QVERIFY2(secondRun.isEmpty(), qPrintable(secondRun));
    QVERIFY(follower.duplicatesSkipped() >= 0);
    follower.stop();
    QCOMPARE(follower.state(), LogFollower::State::Idle);
}

void TestLogFollower::noFollow_deliversTheWholeLogAndFinishes()
{
    LogFollower follower(m_host.connection(), *m_rules, {QStringLiteral("lab"), {}, -1, false, 20});
    QList<LogRecord> got;
    connect(&follower, &LogFollower::recordsArrived, this, [&got](const QList<LogRecord> &r) { got += r; });
    QSignalSpy finished(&follower, &LogFollower::finished);
    follower.start();
    QVERIFY(finished.wait(60000));
    QCOMPARE(follower.state(), LogFollower::State::Finished);
    QCOMPARE(got.size(), 2 * (kLines + 3)); // both runs: the log outlives a restart

    LogFollower tail(m_host.connection(), *m_rules,
                     {QStringLiteral("lab"), QStringLiteral("flashdeck-lab-b300x4-balanced-0"), 5, false, 20});
    QList<LogRecord> last;
    connect(&tail, &LogFollower::recordsArrived, this, [&last](const QList<LogRecord> &r) { last += r; });
    QSignalSpy tailDone(&tail, &LogFollower::finished);
    tail.start();
    QVERIFY(tailDone.wait(60000));
    QCOMPARE(last.size(), 5);
    QVERIFY(std::any_of(last.cbegin(), last.cend(),
                        [](const LogRecord &r) { return r.text == "The server is fired up and ready to roll!"; }));
}

void TestLogFollower::follow_aReplacedContainerStartsOver()
{
    // A redeploy (or an undeploy then a deploy) puts a new container under the same name and
    // label: its log is its own from its first line, never the old one's continued with since=.
    LogFollower follower(m_host.connection(), *m_rules, {QStringLiteral("lab"), {}, -1, true, 20});
    QList<LogRecord> got;
    QStringList replaced;
    connect(&follower, &LogFollower::recordsArrived, this, [&got](const QList<LogRecord> &r) { got += r; });
    connect(&follower, &LogFollower::containerReplaced, this, [&got, &replaced](const QString &name) {
        replaced << name;
        got.clear();
    });
    follower.start();
    QTRY_COMPARE_WITH_TIMEOUT(got.size(), 2 * (kLines + 3), 60000);
    QVERIFY(replaced.isEmpty());

    QCOMPARE(call("DELETE", QStringLiteral("/containers/%1?force=1").arg(m_id)).status, 204);
    m_id.clear();
    // Gone, and none in its place yet (an undeploy): said, with no name.
    QTRY_COMPARE_WITH_TIMEOUT(replaced, QStringList{QString()}, 30000);
    replaced.clear();
    const QString error = startContainer("echo 'new 1'; echo 'new 2'; exec sleep 3600");
    QVERIFY2(error.isEmpty(), qPrintable(error));

    QTRY_COMPARE_WITH_TIMEOUT(got.size(), 2, 60000);
    QCOMPARE(replaced, QStringList{QStringLiteral("flashdeck-lab-b300x4-balanced-0")});
    QCOMPARE(got.at(0).text, QByteArray("new 1"));
    QCOMPARE(got.at(1).text, QByteArray("new 2"));
    QCOMPARE(follower.state(), LogFollower::State::Following);
    follower.stop();
}

void TestLogFollower::noDeployment_saysSo()
{
    LogFollower once(m_host.connection(), *m_rules, {QStringLiteral("nobody"), {}, 10, false, 20});
    QSignalSpy finished(&once, &LogFollower::finished);
    once.start();
    QVERIFY(finished.wait(60000));
    QCOMPARE(once.state(), LogFollower::State::Failed);
    QCOMPARE(once.stateText(), QStringLiteral("No Flashdeck deployment on nobody."));

    LogFollower waiting(m_host.connection(), *m_rules, {QStringLiteral("nobody"), {}, 10, true, 20});
    waiting.start();
    QTRY_VERIFY_WITH_TIMEOUT(waiting.state() == LogFollower::State::Waiting, 60000);
    QVERIFY(waiting.stateText().contains(QLatin1String("Waiting for one to start")));
}

QTEST_GUILESS_MAIN(TestLogFollower)
#include "tst_logfollower.moc"
