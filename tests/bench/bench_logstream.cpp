// The log stream end to end (`make bench`, issue 6): a container's whole log fetched over SSH
// by Flashdeck (Docker's log API through its one connection, decoded, split and classified)
// against OpenSSH running `docker logs` on the host with the output thrown away, on the
// simulated host. Prints a table; figures go to docs/PERFORMANCE.md. Nothing here asserts.

#include "backend/docker/dockerclient.h"
#include "backend/logs/logfollower.h"
#include "backend/logs/logrules.h"
#include "tests/bench/benchmachine.h"
#include "tests/simhost/simhostfixture.h"
#include "tests/support/sshdfixture.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cstdio>

using namespace flashdeck;

namespace {
const QString kImage = QStringLiteral("lmsysorg/sglang:dev-minimax-m31-flash");
const QString kDigest = QStringLiteral("sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500");
constexpr int kLines = 300000;
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    test::SimHostFixture sim;
    QString error;
    if (!sim.start(QStringLiteral("b300x4"), &error)) {
        std::fprintf(stderr, "simulated host: %s\n", qPrintable(error));
        return 1;
    }
    QSignalSpy ready(&sim.connection(), &ssh::HostConnection::tunnelReady);
    sim.connection().openStdioTunnel("docker system dial-stdio");
    if (!ready.wait(30000)) {
        std::fprintf(stderr, "no docker tunnel\n");
        return 1;
    }
    docker::DockerClient docker(ready.first().at(1).value<quint16>());
    QNetworkReply *pull = docker.stream("POST",
                                        QStringLiteral("/images/create?fromImage=%1")
                                            .arg(docker::DockerClient::q(kImage + QLatin1Char('@') + kDigest)));
    QSignalSpy pulled(pull, &QNetworkReply::finished);
    (void)pulled.wait(120000);
    std::optional<docker::DockerResponse> created;
    const nlohmann::json body = {
        {"Image", QString(kImage + QLatin1Char('@') + kDigest).toStdString()},
        {"Cmd",
         {"sh", "-c",
          "yes '[2026-11-30 08:40:12 TP0] Decode batch. #running-req: 37, #token: 412032, token usage: 0.04, "
          "accept len: 3.12, cuda graph: True, gen throughput (token/s): 1635.22, #queue-req: 0, ' | head -n " +
              std::to_string(kLines) + "; exec sleep 3600"}},
        {"Labels", {{"io.flashdeck.deployment", "bench-b300x4-balanced"}}}};
    docker.call("POST", QStringLiteral("/containers/create?name=flashdeck-bench-b300x4-balanced-0"),
                QByteArray::fromStdString(body.dump()), [&created](const docker::DockerResponse &r) { created = r; });
    (void)QTest::qWaitFor([&] { return created.has_value(); }, 30000);
    if (!created || created->status != 201) {
        std::fprintf(stderr, "create: %s\n", created ? qPrintable(created->message()) : "timed out");
        return 1;
    }
    const QString id = QString::fromStdString(created->json()["Id"].get<std::string>());
    bool started = false;
    docker.call("POST", QStringLiteral("/containers/%1/start").arg(id), {},
                [&started](const docker::DockerResponse &) { started = true; });
    (void)QTest::qWaitFor([&] { return started; }, 30000);

    const auto rules = logs::LogRules::builtIn();
    auto fetchAll = [&](qint64 *lines) {
        logs::LogFollower f(sim.connection(), rules.value(), {QStringLiteral("bench"), {}, -1, false, 50});
        qint64 n = 0;
        QObject::connect(&f, &logs::LogFollower::recordsArrived,
                         [&n](const QList<logs::LogRecord> &r) { n += r.size(); });
        QSignalSpy done(&f, &logs::LogFollower::finished);
        QElapsedTimer t;
        t.start();
        f.start();
        (void)done.wait(300000);
        *lines = n;
        return double(t.nsecsElapsed()) / 1e9;
    };
    // Wait until the container has written every line (the first fetches also warm up).
    qint64 lines = 0;
    for (int i = 0; i < 120 && lines < kLines; ++i) {
        fetchAll(&lines);
        if (lines < kLines) {
            QTest::qWait(500);
        }
    }
    const ssh::SshTarget t = sim.connection().target();
    auto openSsh = [&]() -> double { // -1: ssh failed (said on stderr)
        QProcess ssh;
        ssh.setStandardOutputFile(QProcess::nullDevice());
        QElapsedTimer timer;
        timer.start();
        ssh.start(QStringLiteral("ssh"),
                  {QStringLiteral("-i"), t.identityFile, QStringLiteral("-p"), QString::number(t.port),
                   QStringLiteral("-o"), QStringLiteral("UserKnownHostsFile=") + t.knownHostsFile, QStringLiteral("-o"),
                   QStringLiteral("StrictHostKeyChecking=yes"), QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
                   t.user + QStringLiteral("@") + t.host, QStringLiteral("docker logs ") + id});
        ssh.waitForFinished(300000);
        if (ssh.exitCode() != 0) {
            std::fprintf(stderr, "ssh docker logs: exit %d: %s\n", ssh.exitCode(),
                         ssh.readAllStandardError().constData());
            return -1;
        }
        return double(timer.nsecsElapsed()) / 1e9;
    };
    // Alternated, every run printed, the medians compared (issue 45's way of measuring).
    const int runs = qEnvironmentVariableIntValue("FLASHDECK_BENCH_LOGSTREAM_RUNS") > 0
        ? qEnvironmentVariableIntValue("FLASHDECK_BENCH_LOGSTREAM_RUNS")
        : 5;
    bench::printMachine({QStringLiteral("aes"), QStringLiteral("pclmulqdq"), QStringLiteral("vaes"),
                         QStringLiteral("avx2"), QStringLiteral("avx512f")});
    std::printf("%-6s %12s %16s %8s\n", "run", "Flashdeck s", "ssh docker logs s", "ratio");
    std::vector<double> ours;
    std::vector<double> openssh;
    for (int run = 1; run <= runs; ++run) {
        ours.push_back(fetchAll(&lines));
        const double o = openSsh();
        if (o < 0) {
            return 1;
        }
        openssh.push_back(o);
        std::printf("%-6d %12.2f %16.2f %7.2fx\n", run, ours.back(), openssh.back(), openssh.back() / ours.back());
    }
    const double oursS = bench::medianOf(ours);
    const double opensshS = bench::medianOf(openssh);
    std::printf("\n%-58s %14s %14s\n",
                qPrintable(QStringLiteral("log stream over SSH, whole log (medians of %1)").arg(runs)), "Flashdeck",
                "ssh docker logs");
    std::printf("%-58s %14.2f %14.2f\n", qPrintable(QStringLiteral("%1 lines: seconds").arg(lines)), oursS, opensshS);
    std::printf("%-58s %14.0f %14.0f\n", "lines per second", double(lines) / oursS, double(lines) / opensshS);
    std::printf("%-58s %14.2f\n", "ratio (goal >= 0.8 of OpenSSH's speed)", opensshS / oursS);
    bool removed = false;
    docker.call("DELETE", QStringLiteral("/containers/%1?force=1").arg(id), {},
                [&removed](const docker::DockerResponse &) { removed = true; });
    (void)QTest::qWaitFor([&] { return removed; }, 30000);
    return 0;
}
