#include "tests/simhost/simhostfixture.h"
#include "tests/support/sshdfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck;
using namespace flashdeck::test;

namespace {

const QString kImage = QStringLiteral("lmsysorg/sglang:dev-minimax-m31-flash");
const QString kDigest = QStringLiteral("sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500");

struct Cli
{
    int exitCode = -1;
    QString out;
    QString err;
};

/** One HTTP/1.1 exchange with the daemon, read to the end of the body (or `until` appears). */
QByteArray rawHttp(quint16 port, const QByteArray &method, const QByteArray &path, const QByteArray &body = {})
{
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!socket.waitForConnected(10000)) {
        return {};
    }
    socket.write(method + ' ' + path +
                 " HTTP/1.1\r\nHost: docker\r\nConnection: close\r\nContent-Type: "
                 "application/json\r\nContent-Length: " +
                 QByteArray::number(body.size()) + "\r\n\r\n" + body);
    QByteArray all;
    while (socket.state() == QAbstractSocket::ConnectedState && socket.waitForReadyRead(30000)) {
        all += socket.readAll();
    }
    return all + socket.readAll();
}

int statusOf(const QByteArray &response)
{
    return response.mid(9, 3).toInt();
}

QByteArray bodyOf(const QByteArray &response)
{
    return response.mid(response.indexOf("\r\n\r\n") + 4);
}

} // namespace

/**
 * The simulated Docker daemon with the real docker CLI as its client over ssh:// (the CLI
 * runs `ssh … docker system dial-stdio` through the real sshd, as it does against a real GPU
 * server), and the Engine API details real clients rely on, checked on the wire.
 */
class TestSimDocker : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void version_negotiatesTheApi();
    void pull_streamsProgressAndRecordsTheDigest();
    void pull_unknownTagFails();
    void distribution_resolvesTheTagWithoutPulling();
    void run_attachesWaitsAndAutoRemoves();
    void run_sglang_logsPsInspectStopRm();
    void wait_sendsHeadersAtOnceAndBodyAtExit();
    void kill_onAStoppedContainerIs409();
    void logs_useEightByteFramesAndHonourSince();
    void hub_answersTheRevisionPin();

private:
    Cli docker(const QStringList &args, int timeoutMs = 60000);

    SimHostFixture m_host;
    QTemporaryDir m_client;
    QString m_dockerCli;
};

void TestSimDocker::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_dockerCli = QStandardPaths::findExecutable(QStringLiteral("docker"));
    QVERIFY2(!m_dockerCli.isEmpty(), "no docker CLI on PATH: scripts/bootstrap installs Debian's docker.io");
    QString error;
    QVERIFY2(m_host.start(QStringLiteral("b300x4"), &error), qPrintable(error));

    // OpenSSH reads ~/.ssh from the passwd entry, not $HOME: give the CLI an `ssh` that uses
    // our own config, key and known_hosts (the fixture host's key, pinned in advance).
    const QString dir = m_client.path();
    QFile pub(m_host.sshd().dir() + QStringLiteral("/ssh_host_key.pub"));
    QVERIFY(pub.open(QIODevice::ReadOnly));
    const QByteArray hostKey = pub.readAll().trimmed();
    QFile known(dir + QStringLiteral("/known_hosts"));
    QVERIFY(known.open(QIODevice::WriteOnly));
    known.write("[127.0.0.1]:" + QByteArray::number(m_host.sshd().port()) + ' ' + hostKey + '\n');
    known.close();
    QFile config(dir + QStringLiteral("/ssh_config"));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(QStringLiteral("Host 127.0.0.1\n  IdentityFile %1\n  IdentitiesOnly yes\n  UserKnownHostsFile %2\n"
                                "  StrictHostKeyChecking yes\n  BatchMode yes\n")
                     .arg(m_host.clientKey(), known.fileName())
                     .toUtf8());
    config.close();
    QDir().mkpath(dir + QStringLiteral("/bin"));
    QFile wrapper(dir + QStringLiteral("/bin/ssh"));
    QVERIFY(wrapper.open(QIODevice::WriteOnly));
    wrapper.write(QStringLiteral("#!/bin/sh\nexec /usr/bin/ssh -F %1 \"$@\"\n").arg(config.fileName()).toUtf8());
    wrapper.close();
    wrapper.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

void TestSimDocker::cleanupTestCase()
{
    m_host.stop();
}

Cli TestSimDocker::docker(const QStringList &args, int timeoutMs)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PATH"), m_client.path() + QStringLiteral("/bin:") + env.value(QStringLiteral("PATH")));
    env.insert(QStringLiteral("DOCKER_HOST"),
               QStringLiteral("ssh://%1@127.0.0.1:%2").arg(SshdFixture::currentUser()).arg(m_host.sshd().port()));
    env.insert(QStringLiteral("DOCKER_CONFIG"), m_client.path() + QStringLiteral("/docker-config"));
    env.remove(QStringLiteral("DOCKER_CONTEXT"));
    p.setProcessEnvironment(env);
    p.start(m_dockerCli, args);
    Cli r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out: docker ") + args.join(QLatin1Char(' '));
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

void TestSimDocker::version_negotiatesTheApi()
{
    const Cli r = docker({QStringLiteral("version"), QStringLiteral("--format"),
                          QStringLiteral("{{.Server.Version}} {{.Server.APIVersion}}")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(r.out.trimmed(), QStringLiteral("27.5.1 1.47"));
    const Cli info = docker({QStringLiteral("info"), QStringLiteral("--format"), QStringLiteral("{{json .Runtimes}}")});
    QVERIFY2(info.exitCode == 0, qPrintable(info.err));
    QVERIFY(info.out.contains(QLatin1String("\"nvidia\""))); // host contract §2: NVIDIA hosts
}

void TestSimDocker::pull_streamsProgressAndRecordsTheDigest()
{
    const Cli r = docker({QStringLiteral("pull"), kImage});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
    QVERIFY(r.out.contains(QStringLiteral("Digest: ") + kDigest));
    QVERIFY(r.out.contains(QStringLiteral("Status: Downloaded newer image for ") + kImage));
    QVERIFY(r.out.contains(QLatin1String("Pull complete")));

    const Cli inspect = docker({QStringLiteral("image"), QStringLiteral("inspect"), QStringLiteral("--format"),
                                QStringLiteral("{{json .RepoDigests}} {{.Size}}"), kImage});
    QVERIFY2(inspect.exitCode == 0, qPrintable(inspect.err));
    QVERIFY(inspect.out.contains(QStringLiteral("lmsysorg/sglang@") + kDigest));
    QVERIFY(inspect.out.trimmed().endsWith(QLatin1String(" 31600000000")));

    // Pulling the pinned reference again finds it present.
    const Cli pinned = docker({QStringLiteral("pull"), kImage + QLatin1Char('@') + kDigest});
    QVERIFY2(pinned.exitCode == 0, qPrintable(pinned.err));
    QVERIFY(pinned.out.contains(QLatin1String("Image is up to date for lmsysorg/sglang@") + kDigest));

    // The stream itself, on the wire: docker.io/ prefix, per-layer byte counts.
    const QByteArray wire =
        rawHttp(m_host.dockerPort(), "POST",
                "/v1.47/images/create?fromImage=docker.io%2Flmsysorg%2Fsglang&tag=" + kDigest.toLatin1());
    QCOMPARE(statusOf(wire), 200);
    QVERIFY(wire.contains("\"Already exists\""));
    const QByteArray upToDate = "Status: Image is up to date for lmsysorg/sglang@" + kDigest.toLatin1();
    QVERIFY(wire.contains(upToDate));
}

void TestSimDocker::pull_unknownTagFails()
{
    const Cli r = docker({QStringLiteral("pull"), QStringLiteral("lmsysorg/sglang:no-such-tag")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QLatin1String("manifest for lmsysorg/sglang:no-such-tag not found")), qPrintable(r.err));
}

void TestSimDocker::distribution_resolvesTheTagWithoutPulling()
{
    const QByteArray wire =
        rawHttp(m_host.dockerPort(), "GET", "/v1.47/distribution/lmsysorg/sglang:dev-minimax-m31-flash/json");
    QCOMPARE(statusOf(wire), 200);
    const QJsonObject d = QJsonDocument::fromJson(bodyOf(wire)).object();
    QCOMPARE(d[QLatin1String("Descriptor")].toObject()[QLatin1String("digest")].toString(), kDigest);
    QCOMPARE(statusOf(rawHttp(m_host.dockerPort(), "GET", "/v1.47/distribution/lmsysorg/sglang:nope/json")), 404);
}

void TestSimDocker::run_attachesWaitsAndAutoRemoves()
{
    const Cli hello = docker({QStringLiteral("run"), QStringLiteral("--rm"), kImage, QStringLiteral("echo"),
                              QStringLiteral("hello from the container")});
    QVERIFY2(hello.exitCode == 0, qPrintable(hello.err));
    QCOMPARE(hello.out, QStringLiteral("hello from the container\n"));

    const Cli failing = docker({QStringLiteral("run"), QStringLiteral("--rm"), kImage, QStringLiteral("sh"),
                                QStringLiteral("-c"), QStringLiteral("echo to-stderr >&2; exit 3")});
    QCOMPARE(failing.exitCode, 3);
    QVERIFY(failing.err.contains(QLatin1String("to-stderr")));

    // F15: nvidia-smi inside the image sees exactly the GPUs asked for, renumbered from 0.
    const Cli gpus =
        docker({QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--gpus"),
                QStringLiteral("\"device=0,1,2,3\""), kImage, QStringLiteral("nvidia-smi"), QStringLiteral("-L")});
    QVERIFY2(gpus.exitCode == 0, qPrintable(gpus.err));
    QCOMPARE(gpus.out.count(QLatin1String("NVIDIA B300")), 4);
    const Cli badGpu = docker({QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--gpus"),
                               QStringLiteral("\"device=0,9\""), kImage, QStringLiteral("nvidia-smi")});
    QCOMPARE(badGpu.exitCode, 125);
    QVERIFY(badGpu.err.contains(QLatin1String("nvidia-container-cli: device error: 9: unknown device")));

    const Cli left = docker({QStringLiteral("ps"), QStringLiteral("-aq")});
    QVERIFY2(left.exitCode == 0, qPrintable(left.err));
    QCOMPARE(left.out, QString()); // --rm removed every one of them
}

void TestSimDocker::run_sglang_logsPsInspectStopRm()
{
    const quint16 port = freeLocalPort();
    const QString publish = QStringLiteral("127.0.0.1:%1:30000").arg(port);
    // The launch of host contract §4 (key and port aside).
    const Cli run = docker({QStringLiteral("run"),
                            QStringLiteral("-d"),
                            QStringLiteral("--name"),
                            QStringLiteral("fd-sglang"),
                            QStringLiteral("--label"),
                            QStringLiteral("io.flashdeck.deployment=t1"),
                            QStringLiteral("--gpus"),
                            QStringLiteral("\"device=0,1,2,3\""),
                            QStringLiteral("--shm-size"),
                            QStringLiteral("32g"),
                            QStringLiteral("--ipc=host"),
                            QStringLiteral("-p"),
                            publish,
                            QStringLiteral("-v"),
                            QStringLiteral("/root/.cache/huggingface:/root/.cache/huggingface"),
                            QStringLiteral("-e"),
                            QStringLiteral("FMHA_SM100_ALLOW_JIT=1"),
                            kImage + QLatin1Char('@') + kDigest,
                            QStringLiteral("python3"),
                            QStringLiteral("-m"),
                            QStringLiteral("sglang.launch_server"),
                            QStringLiteral("--model-path"),
                            QStringLiteral("MiniMaxAI/MiniMax-M3.1-Flash"),
                            QStringLiteral("--tp"),
                            QStringLiteral("4"),
                            QStringLiteral("--trust-remote-code"),
                            QStringLiteral("--host"),
                            QStringLiteral("0.0.0.0"),
                            QStringLiteral("--port"),
                            QStringLiteral("30000"),
                            QStringLiteral("--speculative-algorithm"),
                            QStringLiteral("DSPARK"),
                            QStringLiteral("--reasoning-parser"),
                            QStringLiteral("minimax-m3"),
                            QStringLiteral("--enable-metrics")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(QRegularExpression(QStringLiteral("^[0-9a-f]{64}\n$")).match(run.out).hasMatch());

    // logs -f with timestamps until the ready line (F19): the follow ends with the container,
    // so stop it from a second command once ready has been seen.
    QProcess follow;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PATH"), m_client.path() + QStringLiteral("/bin:") + env.value(QStringLiteral("PATH")));
    env.insert(QStringLiteral("DOCKER_HOST"),
               QStringLiteral("ssh://%1@127.0.0.1:%2").arg(SshdFixture::currentUser()).arg(m_host.sshd().port()));
    env.insert(QStringLiteral("DOCKER_CONFIG"), m_client.path() + QStringLiteral("/docker-config"));
    follow.setProcessEnvironment(env);
    follow.setProcessChannelMode(QProcess::MergedChannels);
    follow.start(
        m_dockerCli,
        {QStringLiteral("logs"), QStringLiteral("-f"), QStringLiteral("--timestamps"), QStringLiteral("fd-sglang")});
    QByteArray log;
    while (!log.contains("The server is fired up and ready to roll!")) {
        QVERIFY2(follow.waitForReadyRead(60000), log.constData());
        log += follow.readAll();
    }
    QVERIFY(log.contains("nvfp4_to_fp8 backend=qmul4"));
    QVERIFY(log.contains("Initialized DSpark draft runner"));
    QVERIFY(QRegularExpression(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d+Z \\[.* TP0\\] "),
                               QRegularExpression::MultilineOption)
                .match(QString::fromUtf8(log))
                .hasMatch());

    const Cli ps =
        docker({QStringLiteral("ps"), QStringLiteral("--filter"), QStringLiteral("label=io.flashdeck.deployment=t1"),
                QStringLiteral("--format"), QStringLiteral("{{.Names}} {{.State}} {{.Ports}}")});
    QVERIFY2(ps.exitCode == 0, qPrintable(ps.err));
    QCOMPARE(ps.out.trimmed(), QStringLiteral("fd-sglang running 127.0.0.1:%1->30000/tcp").arg(port));
    const Cli none = docker({QStringLiteral("ps"), QStringLiteral("-q"), QStringLiteral("--filter"),
                             QStringLiteral("label=io.flashdeck.deployment=other")});
    QCOMPARE(none.out, QString());

    const Cli inspect = docker({QStringLiteral("inspect"), QStringLiteral("--format"),
                                QStringLiteral("{{.State.Running}} {{.HostConfig.ShmSize}} {{.HostConfig.IpcMode}} "
                                               "{{index .Config.Labels \"io.flashdeck.deployment\"}}"),
                                QStringLiteral("fd-sglang")});
    QVERIFY2(inspect.exitCode == 0, qPrintable(inspect.err));
    QCOMPARE(inspect.out.trimmed(), QStringLiteral("true 34359738368 host t1"));

    // The server answers on the published loopback port of the host.
    const ssh::CommandResult health =
        runAndWait(m_host.connection(),
                   "curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:" + QByteArray::number(port) + "/health");
    QCOMPARE(health.stdoutData, QByteArray("200"));
    const ssh::CommandResult smi =
        runAndWait(m_host.connection(), "nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits");
    QVERIFY(smi.stdoutData.split('\n').first().toLongLong() > 200000); // weights + KV pool at 0.8

    const Cli stop = docker({QStringLiteral("stop"), QStringLiteral("fd-sglang")});
    QVERIFY2(stop.exitCode == 0, qPrintable(stop.err));
    QVERIFY(follow.waitForFinished(30000)); // the follow ended with the container
    const Cli state = docker({QStringLiteral("inspect"), QStringLiteral("--format"),
                              QStringLiteral("{{.State.Status}} {{.State.ExitCode}}"), QStringLiteral("fd-sglang")});
    QCOMPARE(state.out.trimmed(), QStringLiteral("exited 143"));
    const ssh::CommandResult idle =
        runAndWait(m_host.connection(), "nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits");
    QCOMPARE(idle.stdoutData.split('\n').first().toLongLong(), 0); // the memory went with the process
    const Cli rm = docker({QStringLiteral("rm"), QStringLiteral("fd-sglang")});
    QVERIFY2(rm.exitCode == 0, qPrintable(rm.err));
    const Cli gone = docker({QStringLiteral("inspect"), QStringLiteral("fd-sglang")});
    QCOMPARE(gone.exitCode, 1);
    QVERIFY(gone.err.contains(QLatin1String("No such object: fd-sglang")));
}

void TestSimDocker::wait_sendsHeadersAtOnceAndBodyAtExit()
{
    const quint16 api = m_host.dockerPort();
    const QByteArray created = rawHttp(
        api, "POST", "/v1.47/containers/create?name=fd-sleeper",
        R"({"Image":"lmsysorg/sglang:dev-minimax-m31-flash","Cmd":["sleep","300"],"HostConfig":{"AutoRemove":true}})");
    QCOMPARE(statusOf(created), 201);
    QCOMPARE(statusOf(rawHttp(api, "POST", "/v1.47/containers/fd-sleeper/start")), 204);
    QCOMPARE(statusOf(rawHttp(api, "POST", "/v1.47/containers/fd-sleeper/start")), 304);

    QTcpSocket wait;
    wait.connectToHost(QStringLiteral("127.0.0.1"), api);
    QVERIFY(wait.waitForConnected(10000));
    wait.write("POST /v1.47/containers/fd-sleeper/wait?condition=removed HTTP/1.1\r\nHost: d\r\nContent-Length: "
               "0\r\n\r\n");
    QByteArray got;
    while (!got.contains("\r\n\r\n")) {
        QVERIFY(wait.waitForReadyRead(10000)); // headers while the container still runs
        got += wait.readAll();
    }
    QVERIFY(got.startsWith("HTTP/1.1 200 OK"));
    QVERIFY(!got.contains("StatusCode"));

    QCOMPARE(statusOf(rawHttp(api, "POST", "/v1.47/containers/fd-sleeper/kill?signal=SIGKILL")), 204);
    while (!got.contains("StatusCode")) {
        QVERIFY(wait.waitForReadyRead(10000));
        got += wait.readAll();
    }
    QVERIFY2(got.contains("{\"Error\":null,\"StatusCode\":137}"), got.constData());
    QCOMPARE(statusOf(rawHttp(api, "GET", "/v1.47/containers/fd-sleeper/json")), 404); // AutoRemove
}

void TestSimDocker::kill_onAStoppedContainerIs409()
{
    const quint16 api = m_host.dockerPort();
    QCOMPARE(statusOf(rawHttp(api, "POST", "/v1.47/containers/create?name=fd-once",
                              R"({"Image":"lmsysorg/sglang:dev-minimax-m31-flash","Cmd":["true"]})")),
             201);
    QCOMPARE(statusOf(rawHttp(api, "POST", "/containers/fd-once/start")), 204);
    const QByteArray waited = rawHttp(api, "POST", "/containers/fd-once/wait");
    QVERIFY(bodyOf(waited).contains("\"StatusCode\":0"));
    const QByteArray kill = rawHttp(api, "POST", "/containers/fd-once/kill");
    QCOMPARE(statusOf(kill), 409);
    QVERIFY(bodyOf(kill).contains("is not running"));
    QCOMPARE(statusOf(rawHttp(api, "POST", "/containers/fd-once/stop")), 304);
    QCOMPARE(statusOf(rawHttp(api, "DELETE", "/containers/fd-once")), 204);
    QCOMPARE(statusOf(rawHttp(api, "DELETE", "/containers/fd-once")), 404);
}

void TestSimDocker::logs_useEightByteFramesAndHonourSince()
{
    const quint16 api = m_host.dockerPort();
    QCOMPARE(statusOf(rawHttp(api, "POST", "/v1.47/containers/create?name=fd-talker",
                              R"({"Image":"lmsysorg/sglang:dev-minimax-m31-flash",
                                  "Cmd":["sh","-c","echo one; echo two >&2"]})")),
             201);
    QCOMPARE(statusOf(rawHttp(api, "POST", "/containers/fd-talker/start")), 204);
    QVERIFY(bodyOf(rawHttp(api, "POST", "/containers/fd-talker/wait")).contains("\"StatusCode\":0"));
    const QByteArray logs = rawHttp(api, "GET", "/v1.47/containers/fd-talker/logs?stdout=1&stderr=1&follow=1");
    QVERIFY(logs.contains("Content-Type: application/vnd.docker.multiplexed-stream"));
    // Undo the chunked transfer coding, then read the frames: [stream 0 0 0 size(BE32)] payload.
    QByteArray body = bodyOf(logs);
    QByteArray frames;
    while (!body.isEmpty()) {
        const int nl = body.indexOf("\r\n");
        const int size = body.left(nl).toInt(nullptr, 16);
        frames += body.mid(nl + 2, size);
        body = body.mid(nl + 2 + size + 2);
        if (size == 0) {
            break;
        }
    }
    QMap<int, QByteArray> streams;
    int pos = 0;
    while (pos + 8 <= frames.size()) {
        const auto *h = reinterpret_cast<const unsigned char *>(frames.constData() + pos);
        QCOMPARE(int(h[1]) | int(h[2]) | int(h[3]), 0);
        const int size = (h[4] << 24) | (h[5] << 16) | (h[6] << 8) | h[7];
        streams[h[0]] += frames.mid(pos + 8, size);
        pos += 8 + size;
    }
    QCOMPARE(pos, frames.size());
    QCOMPARE(streams.value(1), QByteArray("one\n"));
    QCOMPARE(streams.value(2), QByteArray("two\n"));
    const QByteArray later = rawHttp(api, "GET",
                                     "/containers/fd-talker/logs?stdout=1&stderr=1&since=" +
                                         QByteArray::number(QDateTime::currentSecsSinceEpoch() + 60));
    QCOMPARE(statusOf(later), 200);
    QCOMPARE(bodyOf(later), QByteArray("0\r\n\r\n")); // nothing since a minute from now
    QCOMPARE(statusOf(rawHttp(api, "DELETE", "/containers/fd-talker")), 204);
}

void TestSimDocker::hub_answersTheRevisionPin()
{
    // The pin step's command of host contract §2, through HF_ENDPOINT as sshd sets it.
    const ssh::CommandResult pin = runAndWait(
        m_host.connection(),
        R"(curl -fsS "${HF_ENDPOINT:-https://huggingface.co}/api/models/MiniMaxAI/MiniMax-M3.1-Flash/revision/main")");
    QVERIFY2(pin.succeeded(), pin.stderrData.constData());
    const QJsonObject model = QJsonDocument::fromJson(pin.stdoutData).object();
    QCOMPARE(model[QLatin1String("sha")].toString().size(), 40);
    QCOMPARE(model[QLatin1String("id")].toString(), QStringLiteral("MiniMaxAI/MiniMax-M3.1-Flash"));
    const ssh::CommandResult bad = runAndWait(
        m_host.connection(), R"(curl -fsS "$HF_ENDPOINT/api/models/MiniMaxAI/MiniMax-M3.1-Flash/revision/nope")");
    QCOMPARE(bad.exitCode.value_or(-1), 22); // curl -f on HTTP 404
}

QTEST_GUILESS_MAIN(TestSimDocker)
#include "tst_simdocker.moc"
