// The chat path end to end (`make bench`, issue 8): time to first token and stream rate of a
// streamed completion through Flashdeck's tunnel (ChatClient on the host's one SSH
// connection) against OpenSSH's `ssh -L`, to the same simulated SGLang server on
// the simulated host. Prints a table; figures go to docs/PERFORMANCE.md. Nothing asserts.

#include "backend/chat/chatcall.h"
#include "backend/chat/chatclient.h"
#include "backend/chat/chatrequest.h"
#include "backend/ssh/hostconnection.h"
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
#include <cstdio>
#include <vector>

using namespace flashdeck;

namespace {

constexpr int kRuns = 30;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

double mean(const std::vector<double> &v)
{
    double sum = 0;
    for (double x : v) {
        sum += x;
    }
    return v.empty() ? 0 : sum / double(v.size());
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
    const ssh::SshTarget t = sim.connection().target();
    const quint16 local = test::freeLocalPort();
    QProcess tunnel;
    tunnel.start(QStringLiteral("ssh"),
                 {QStringLiteral("-N"), QStringLiteral("-L"), QStringLiteral("%1:127.0.0.1:%2").arg(local).arg(port),
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
    tunnel.terminate();
    tunnel.waitForFinished(5000);
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
