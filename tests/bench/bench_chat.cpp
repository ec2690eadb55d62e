// The chat path end to end (`make bench`, issue 8): time to first token and stream rate of a
// streamed completion through Flashdeck's tunnel (ChatClient on the host's one SSH
// connection) against OpenSSH's `ssh -L`, to the same simulated SGLang server on
// the simulated host. Prints a table; figures go to docs/PERFORMANCE.md. Nothing asserts.

#include "backend/chat/chatcall.h"
#include "backend/chat/chatclient.h"
#include "backend/chat/chatrequest.h"
#include "backend/core/linkreply.h"
#include "backend/ssh/hostconnection.h"
#include "backend/ssh/tunnelreply.h"
#include "tests/bench/benchmachine.h"
#include "tests/bench/benchprocess.h"
#include "tests/simhost/simhostfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

using namespace flashdeck;
using flashdeck::bench::median;

namespace {

constexpr int kRuns = 30;

double mean(const std::vector<double> &v)
{
    double sum = 0;
    for (double x : v) {
        sum += x;
    }
    return v.empty() ? 0 : sum / double(v.size());
}

QProcess *startSshL(const ssh::SshTarget &t, quint16 local, quint16 remote, QObject *parent)
{
    auto *tunnel = new QProcess(parent);
    tunnel->start(QStringLiteral("ssh"),
                  {QStringLiteral("-N"), QStringLiteral("-L"), QStringLiteral("%1:127.0.0.1:%2").arg(local).arg(remote),
                   QStringLiteral("-i"), t.identityFile, QStringLiteral("-p"), QString::number(t.port),
                   QStringLiteral("-o"), QStringLiteral("UserKnownHostsFile=") + t.knownHostsFile, QStringLiteral("-o"),
                   QStringLiteral("StrictHostKeyChecking=yes"), QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
                   t.user + QStringLiteral("@") + t.host});
    for (int i = 0; i < 100; ++i) {
        QTcpSocket probe;
        probe.connectToHost(QStringLiteral("127.0.0.1"), local);
        if (probe.waitForConnected(200)) {
            break;
        }
        QTest::qWait(100);
    }
    return tunnel;
}

/**
 * What a new connection costs (a channel opened, one small request and answer): GET /health
 * over Flashdeck's private tunnel, its uid-checked listener (`flashdeck tunnel`) and `ssh -L`,
 * alternating. This is where a tunnel's per-connection delays show (a held packet: 40 ms).
 */
void benchNewConnections(test::SimHostFixture &sim, quint16 port)
{
    const quint16 local = test::freeLocalPort();
    QObject owner;
    QProcess *openssh = startSshL(sim.connection().target(), local, port, &owner);
    ssh::TunnelReply *privateTunnel = sim.connection().tunnelToPort(QStringLiteral("127.0.0.1"), port, &owner);
    ssh::TunnelReply *listener = sim.connection().tunnelToPort(QStringLiteral("127.0.0.1"), port, 0, &owner);
    // Both announce themselves from the event loop, so spies made now miss nothing.
    QSignalSpy privateReady(privateTunnel, &ssh::TunnelReply::ready);
    QSignalSpy listenerReady(listener, &ssh::TunnelReply::ready);
    if ((privateReady.isEmpty() && !privateReady.wait(10000)) ||
        (listenerReady.isEmpty() && !listenerReady.wait(10000))) {
        std::fprintf(stderr, "a tunnel never became ready\n");
        return;
    }
    const std::array<LinkOpener, 3> links{privateTunnel->link(), listener->link(), LinkOpener::loopback(local)};
    std::array<std::vector<double>, 3> ms;
    for (int i = 0; i < 5 + 50; ++i) {
        for (std::size_t k = 0; k < links.size(); ++k) {
            QElapsedTimer clock;
            clock.start();
            LinkReply reply(links[k], "GET", "/health", {}, {}, nullptr);
            QSignalSpy finished(&reply, &QNetworkReply::finished);
            if (!finished.wait(10000) || reply.error() != QNetworkReply::NoError) {
                std::fprintf(stderr, "GET /health failed: %s\n", qPrintable(reply.errorString()));
                return;
            }
            if (i >= 5) { // the first five warm both ends
                ms[k].push_back(double(clock.nsecsElapsed()) / 1e6);
            }
        }
    }
    openssh->terminate();
    openssh->waitForFinished(5000);
    bench::printMachine({QStringLiteral("aes"), QStringLiteral("pclmulqdq"), QStringLiteral("vaes"),
                         QStringLiteral("avx2"), QStringLiteral("avx512f")});
    std::printf("%-52s %14s %16s %16s\n", "new connection, GET /health, median of 50", "private", "uid-checked port",
                "ssh -L");
    std::printf("%-52s %14.2f %16.2f %16.2f\n", "ms", median(ms[0]), median(ms[1]), median(ms[2]));
    std::printf("%-52s %14.2f %16.2f %16.2f\n", "mean ms", mean(ms[0]), mean(ms[1]), mean(ms[2]));
}

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
    // 100 tokens a reply at 5 ms each after a 30 ms first token: SGLang-like pacing, fast enough
    // that the transport's share shows.
    QFile scenario(sim.simDir() + QStringLiteral("/scenario.json"));
    if (!scenario.open(QIODevice::ReadWrite)) {
        return 1;
    }
    QJsonObject sc = QJsonDocument::fromJson(scenario.readAll()).object();
    sc[QLatin1String("faults")] = QJsonObject{{QLatin1String("token_seconds"), 0.005}};
    scenario.resize(0);
    scenario.write(QJsonDocument(sc).toJson());
    scenario.close();
    const quint16 port = test::freeLocalPort();
    ssh::RemoteCommand launch;
    launch.commandLine = "FLASHDECK_SIM_TIME_FACTOR=0.1 exec sglang-sim --model-path MiniMaxAI/MiniMax-M3.1-Flash "
                         "--tp 4 --host 127.0.0.1 --port " +
        QByteArray::number(port) + " --reasoning-parser minimax-m3";
    const quint64 server = sim.connection().run(launch);
    if (!test::waitForCommandLine(sim.connection(), server, test::kServerReadyLine, 120000)) {
        std::fprintf(stderr, "the simulated server never became ready\n");
        return 1;
    }
    benchNewConnections(sim, port);

    chat::ChatParams params;
    params.maxTokens = 100;
    const QByteArray body = chat::buildChatBody(
        {{QStringLiteral("user"), QStringLiteral("Tell me about the KV cache."), {}, {}}}, params, QStringLiteral("m"));

    // Flashdeck: the tunnel through the host's connection (opened once, as the page does).
    chat::ChatClient client(sim.connection(), port);
    std::vector<double> oursTtft;
    std::vector<double> oursRate;
    for (int i = 0; i < kRuns + 2; ++i) {
        chat::ChatCall *call = client.send(body, true);
        QSignalSpy finished(call, &chat::ChatCall::finished);
        if (!finished.wait(60000)) {
            std::fprintf(stderr, "a Flashdeck request timed out\n");
            return 1;
        }
        const auto r = finished.first().first().value<chat::ChatResult>();
        if (i >= 2) { // the first two warm the tunnel and the server
            oursTtft.push_back(double(r.stats.ttftMs));
            oursRate.push_back(r.stats.tokensPerSecond);
        }
        call->deleteLater();
    }

    // OpenSSH: ssh -L to the same port, then curl, timing the first byte and the end.
    const quint16 local = test::freeLocalPort();
    QObject sshOwner;
    QProcess *tunnel = startSshL(sim.connection().target(), local, port, &sshOwner);
    // The same client code on both paths (ChatCall: the first text chunk, the token count), so
    // only the transport differs; curl's time_starttransfer would time the headers, which SGLang
    // sends before the first token.
    std::vector<double> sshTtft;
    std::vector<double> sshRate;
    const LinkOpener direct = LinkOpener::loopback(local);
    for (int i = 0; i < kRuns + 2; ++i) {
        chat::ChatCall call(body, true);
        QSignalSpy finished(&call, &chat::ChatCall::finished);
        call.start(direct, QString());
        if (!finished.wait(60000)) {
            std::fprintf(stderr, "a request through ssh -L timed out\n");
            return 1;
        }
        const auto r = finished.first().first().value<chat::ChatResult>();
        if (r.outcome != chat::ChatResult::Outcome::Completed) {
            std::fprintf(stderr, "through ssh -L: %s\n", qPrintable(r.error));
            return 1;
        }
        if (i >= 2) {
            sshTtft.push_back(double(r.stats.ttftMs));
            sshRate.push_back(r.stats.tokensPerSecond);
        }
    }
    tunnel->terminate();
    tunnel->waitForFinished(5000);
    sim.connection().cancel(server);

    const double ttftOurs = median(oursTtft);
    const double ttftSsh = median(sshTtft);
    std::printf("%-52s %14s %16s\n", "streamed chat, median of 30", "Flashdeck", "ssh -L");
    std::printf("%-52s %14.1f %16.1f\n", "time to first token, ms", ttftOurs, ttftSsh);
    std::printf("%-52s %14.1f %16.1f\n", "time to first token, mean ms", mean(oursTtft), mean(sshTtft));
    std::printf("%-52s %14.1f %16.1f\n", "stream rate after it, tokens/s", median(oursRate), median(sshRate));
    std::printf("%-52s %14.1f %16.1f\n", "stream rate after it, mean tokens/s", mean(oursRate), mean(sshRate));
    std::printf("%-52s %14.2f   (goal <= 1.1)\n", "TTFT ratio, Flashdeck / OpenSSH",
                ttftSsh > 0 ? ttftOurs / ttftSsh : 0);
    std::printf("%-52s %14.2f   (goal >= 1.0, no loss)\n", "rate ratio, Flashdeck / OpenSSH",
                median(sshRate) > 0 ? median(oursRate) / median(sshRate) : 0);
    return 0;
}
