// SSH transport benchmarks (`make bench`): Flashdeck's one-connection transport against the
// OpenSSH client, on a throwaway loopback sshd. Prints a table; figures are recorded in
// docs/PERFORMANCE.md. Not a test: nothing here asserts a time.

#include "backend/ssh/hostconnection.h"
#include "backend/ssh/socketreadahead.h"
#include "tests/bench/benchmachine.h"
#include "tests/support/sshdfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <arpa/inet.h>
#include <cstdio>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace flashdeck;
using namespace flashdeck::test;

namespace {

constexpr int kCommands = 200;
constexpr qint64 kTransferBytes = qint64(1) << 30; // 1 GiB

struct Row
{
    QString what;
    double value;
    QString unit;
    QString note;
};

// A loopback TCP source that sends `bytes` zeros to the first client, then closes.
class Source
{
public:
    explicit Source(qint64 bytes)
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_listen, reinterpret_cast<sockaddr *>(&a), sizeof a);
        ::listen(m_listen, 4);
        socklen_t len = sizeof a;
        ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&a), &len);
        m_port = ntohs(a.sin_port);
        m_thread = std::thread([this, bytes] {
            const int c = ::accept(m_listen, nullptr, nullptr);
            if (c < 0) {
                return; // the listener was shut down: nobody came
            }
            std::vector<char> buf(256 * 1024, 0);
            qint64 left = bytes;
            while (left > 0) {
                const ssize_t n = ::send(c, buf.data(), std::min<qint64>(left, qint64(buf.size())), MSG_NOSIGNAL);
                if (n <= 0) {
                    break;
                }
                left -= n;
            }
            ::close(c);
        });
    }
    ~Source()
    {
        // A client that never came (an `ssh -L` that failed to forward) leaves accept() waiting:
        // shutting the listener down wakes it, on Linux with EINVAL, and the thread ends.
        ::shutdown(m_listen, SHUT_RDWR);
        m_thread.join();
        ::close(m_listen);
    }
    quint16 port() const { return m_port; }

private:
    int m_listen = -1;
    quint16 m_port = 0;
    std::thread m_thread;
};

// Connects to 127.0.0.1:port and reads until EOF; returns bytes read.
qint64 sink(quint16 port)
{
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(s, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
        ::close(s);
        return -1;
    }
    std::vector<char> buf(256 * 1024);
    qint64 total = 0;
    for (;;) {
        const ssize_t n = ::recv(s, buf.data(), buf.size(), 0);
        if (n <= 0) {
            break;
        }
        total += n;
    }
    ::close(s);
    return total;
}

// Reads a whole transfer from the local end of a tunnel, timed; a short read is flagged.
Row measureTransfer(const QString &label, quint16 localPort)
{
    QElapsedTimer t;
    t.start();
    const qint64 got = sink(localPort);
    const double secs = double(t.nsecsElapsed()) / 1e9;
    return {label, double(got) / secs / 1e6, QStringLiteral("MB/s"),
            got == kTransferBytes ? QString() : QStringLiteral("SHORT READ")};
}

bool portOpen(quint16 port)
{
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = ::connect(s, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0;
    ::close(s);
    return ok;
}

QStringList sshArgs(const SshdFixture &sshd, const QString &key, const QString &knownHosts)
{
    return {QStringLiteral("-p"), QString::number(sshd.port()),
            QStringLiteral("-i"), key,
            QStringLiteral("-o"), QStringLiteral("UserKnownHostsFile=") + knownHosts,
            QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=yes"),
            QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
            QStringLiteral("-o"), QStringLiteral("IdentitiesOnly=yes"),
            QStringLiteral("-F"), QStringLiteral("/dev/null")};
}

double runOpenSsh(const QStringList &base, const QString &dest, const QStringList &extra)
{
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < kCommands; ++i) {
        QProcess p;
        p.start(QStringLiteral("ssh"), base + extra + QStringList{QStringLiteral("-n"), dest, QStringLiteral("true")});
        p.closeWriteChannel();
        if (!p.waitForFinished(30000)) {
            std::fprintf(stderr, "ssh hung: %s\n%s\n", qPrintable(p.arguments().join(QLatin1Char(' '))),
                         p.readAll().constData());
            p.kill();
            p.waitForFinished();
            return -1;
        }
        if (p.exitCode() != 0) {
            std::fprintf(stderr, "ssh failed: %s\n", p.readAllStandardError().constData());
            return -1;
        }
    }
    return double(t.nsecsElapsed()) / 1e6 / kCommands;
}

struct Transfer
{
    double mbps = 0; // 0: a short read
    QString cipher; // server → client, as ssh -v names it
};

// One `ssh -N -L` process moving 1 GiB (with `-c cipher` unless empty). ssh -L opens its
// listeners together: a throwaway one is waited on first (that probe connection consumes
// `warm`), then the real transfer is timed. `-v` tells which cipher the key exchange chose
// ("debug1: kex: server->client cipher: … MAC: …", OpenSSH's kex.c).
Transfer openSshTransfer(const QStringList &base, const QString &dest, const QString &cipher)
{
    Source warm(1);
    Source source(kTransferBytes);
    const quint16 localWarm = freeLocalPort();
    const quint16 local = freeLocalPort();
    QProcess fwd;
    const QStringList chosen = cipher.isEmpty() ? QStringList() : QStringList{QStringLiteral("-c"), cipher};
    fwd.start(QStringLiteral("ssh"),
              base + chosen +
                  QStringList{QStringLiteral("-v"), QStringLiteral("-N"), QStringLiteral("-L"),
                              QStringLiteral("%1:127.0.0.1:%2").arg(localWarm).arg(warm.port()), QStringLiteral("-L"),
                              QStringLiteral("%1:127.0.0.1:%2").arg(local).arg(source.port()), dest});
    (void)QTest::qWaitFor([&] { return portOpen(localWarm) || fwd.state() == QProcess::NotRunning; }, 10000);
    const Row r = measureTransfer(QString(), local);
    fwd.terminate();
    fwd.waitForFinished();
    Transfer t{r.note.isEmpty() ? r.value : 0, QStringLiteral("?")};
    QByteArray lastWords; // what ssh said last: why, when its run is a zero
    for (const QByteArray &line : fwd.readAllStandardError().split('\n')) {
        const int at = line.indexOf("server->client cipher: ");
        if (at >= 0) {
            t.cipher = QString::fromUtf8(line.mid(at + 23).split(' ').first());
        }
        if (!line.trimmed().isEmpty() && !line.startsWith("debug1:")) {
            lastWords = line.trimmed();
        }
    }
    if (!r.note.isEmpty()) {
        std::fprintf(stderr, "ssh -L run failed: %s (ssh: %s)\n", qPrintable(r.note), lastWords.constData());
    }
    return t;
}

// One 1 GiB run of each program (a zero: a short read).
struct Run
{
    double ours = 0;
    double plainOurs = 0; // without the read-ahead (FLASHDECK_BENCH_SSH_READAHEAD_AB=1)
    Transfer defaults;
    Transfer sameCipher;
};

// Every run, the medians and the ratios against the goals, after the machine they ran on.
void printTunnelRuns(const std::vector<Run> &results, const QString &ourCipher, const QString &gcm, bool readAheadAb)
{
    const int runs = static_cast<int>(results.size());
    const bench::Machine machine = bench::describeMachine(
        {QStringLiteral("aes"), QStringLiteral("pclmulqdq"), QStringLiteral("vaes"), QStringLiteral("vpclmulqdq"),
         QStringLiteral("avx2"), QStringLiteral("avx512f"), QStringLiteral("avx512vl")});
    std::printf("\n1 GiB remote → local through a tunnel, %d runs alternated\n", runs);
    std::printf("%s\n", qPrintable(bench::machineLine(machine)));
    std::printf("ciphers, server → client: Flashdeck %s; ssh -L %s; ssh -L -c %s\n", qPrintable(ourCipher),
                qPrintable(results.empty() ? QString() : results.front().defaults.cipher),
                qPrintable(results.empty() ? QString() : results.front().sameCipher.cipher));
    std::printf("%-6s %12s %12s %14s %10s %10s%s\n", "run", "Flashdeck", "ssh -L", "ssh -L -c gcm", "÷ ssh -L",
                "÷ -c gcm", readAheadAb ? "  no read-ahead" : "");
    std::vector<double> ours;
    std::vector<double> defaults;
    std::vector<double> same;
    std::vector<double> plainOurs;
    std::vector<double> ratioDefaults;
    std::vector<double> ratioSame;
    for (std::size_t i = 0; i < results.size(); ++i) {
        const Run &r = results[i];
        ours.push_back(r.ours);
        defaults.push_back(r.defaults.mbps);
        same.push_back(r.sameCipher.mbps);
        plainOurs.push_back(r.plainOurs);
        ratioDefaults.push_back(r.ours / r.defaults.mbps);
        ratioSame.push_back(r.ours / r.sameCipher.mbps);
        std::printf("%-6zu %12.0f %12.0f %14.0f %9.2f× %9.2f×", i + 1, r.ours, r.defaults.mbps, r.sameCipher.mbps,
                    ratioDefaults.back(), ratioSame.back());
        if (readAheadAb) {
            std::printf("  %12.0f", r.plainOurs);
        }
        const bool shortRead = r.ours <= 0 || r.defaults.mbps <= 0 || r.sameCipher.mbps <= 0;
        std::printf("%s\n", shortRead ? "  SHORT READ" : "");
    }
    std::printf("%-6s %12.0f %12.0f %14.0f %9.2f× %9.2f×", "median", bench::medianOf(ours), bench::medianOf(defaults),
                bench::medianOf(same), bench::medianOf(ratioDefaults), bench::medianOf(ratioSame));
    if (readAheadAb) {
        std::printf("  %12.0f", bench::medianOf(plainOurs));
    }
    std::printf("\n(MB/s; ratios are each run's, their median below)\n");
    std::printf("tunnel vs ssh -L, its defaults:       %.2f× at the median (goal ≥ 1.20×)\n",
                bench::medianOf(ratioDefaults));
    std::printf("tunnel vs ssh -L -c %s: %.2f× at the median (goal ≥ 1.00×)\n", qPrintable(gcm),
                bench::medianOf(ratioSame));
}

int envRuns(const char *name, int fallback)
{
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    return ok && v > 0 ? v : fallback;
}

// 200 sequential `true`: Flashdeck on its live connection, OpenSSH anew each time, OpenSSH through
// a ControlMaster. Appends three rows; false when a command failed.
bool commandLatency(ssh::HostConnection &conn, const QStringList &base, const QString &dest, const QString &home,
                    std::vector<Row> &rows)
{
    for (int i = 0; i < 5; ++i) {
        (void)runAndWait(conn, "true"); // warm-up
    }
    // Wait on the signal itself: QTest::qWaitFor polls every 10 ms, which would swamp the
    // figure we want.
    QEventLoop loop;
    bool ok = true;
    QObject::connect(&conn, &ssh::HostConnection::commandFinished, &loop, [&](quint64, const ssh::CommandResult &r) {
        ok = ok && r.succeeded();
        loop.quit();
    });
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < kCommands && ok; ++i) {
        conn.run("true");
        loop.exec();
    }
    if (!ok) {
        std::fprintf(stderr, "command failed\n");
        return false;
    }
    rows.push_back({QStringLiteral("200 × `true`: Flashdeck, one connection"),
                    double(t.nsecsElapsed()) / 1e6 / kCommands, QStringLiteral("ms/cmd"),
                    QStringLiteral("channel per command")});
    rows.push_back({QStringLiteral("200 × `true`: OpenSSH ssh, new connection each"), runOpenSsh(base, dest, {}),
                    QStringLiteral("ms/cmd"), QStringLiteral("handshake + auth each time")});
    const QString control = home + QStringLiteral("/cm.sock");
    QProcess master;
    master.start(QStringLiteral("ssh"),
                 base + QStringList{QStringLiteral("-M"), QStringLiteral("-S"), control, QStringLiteral("-N"), dest});
    (void)QTest::qWaitFor([&] { return QFile::exists(control); }, 10000);
    rows.push_back({QStringLiteral("200 × `true`: OpenSSH ControlMaster"),
                    runOpenSsh(base, dest, {QStringLiteral("-S"), control}), QStringLiteral("ms/cmd"),
                    QStringLiteral("multiplexed, a process per command")});
    master.terminate();
    master.waitForFinished();

    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir home;
    isolateSshEnvironment(home.path());
    SshdFixture sshd;
    QString error;
    if (!sshd.start(&error)) {
        std::fprintf(stderr, "cannot start sshd: %s\n", qPrintable(error));
        return 1;
    }
    const QString key = sshd.addClientKey(QStringLiteral("id_bench"));
    const QString knownHosts = home.path() + QStringLiteral("/known_hosts");
    ssh::HostConnection conn(targetFor(sshd, knownHosts, key));
    if (connectAndWait(conn).phase != ssh::ConnectionPhase::Ready) {
        std::fprintf(stderr, "cannot connect\n");
        return 1;
    }
    const QString dest = SshdFixture::currentUser() + QStringLiteral("@127.0.0.1");
    const QStringList base = sshArgs(sshd, key, knownHosts);
    std::vector<Row> rows;
    std::fprintf(stderr, "running benchmarks against sshd on port %u…\n", sshd.port());

    // 1. Per-command latency: 200 sequential `true` (FLASHDECK_BENCH_SSH_COMMANDS=0: the tunnel alone).
    if (qEnvironmentVariable("FLASHDECK_BENCH_SSH_COMMANDS") != QStringLiteral("0") &&
        !commandLatency(conn, base, dest, home.path(), rows)) {
        return 1;
    }

    // 2. Tunnel throughput, remote → local, 1 GiB: Flashdeck's port tunnel, `ssh -L` with its
    // defaults (the tool a user would use instead) and `ssh -L -c aes128-gcm@openssh.com` (the
    // same cipher as Flashdeck where it chose that one: tells the cipher from the code). The
    // programs take turns run by run, so a noisy moment of this shared machine falls on all of
    // them alike, and every run is printed before the medians.
    const int runs = envRuns("FLASHDECK_BENCH_TUNNEL_RUNS", 5);
    const bool readAheadAb = qEnvironmentVariableIntValue("FLASHDECK_BENCH_SSH_READAHEAD_AB") == 1;
    ssh::SocketReadAhead::setEnabled(false);
    ssh::HostConnection plain(targetFor(sshd, knownHosts, key));
    ssh::SocketReadAhead::setEnabled(true); // a socket is attached as its session becomes ready
    if (readAheadAb && connectAndWait(plain).phase != ssh::ConnectionPhase::Ready) {
        std::fprintf(stderr, "cannot connect\n");
        return 1;
    }
    const auto flashdeckTransfer = [](ssh::HostConnection &c) {
        Source source(kTransferBytes);
        QSignalSpy ready(&c, &ssh::HostConnection::tunnelReady);
        const quint64 id = c.openPortTunnel(QStringLiteral("127.0.0.1"), source.port());
        ready.wait(10000);
        const Row r = measureTransfer(QString(), static_cast<quint16>(ready.first().at(1).toUInt()));
        c.closeTunnel(id);
        return r.note.isEmpty() ? r.value : 0.0;
    };
    const QString ourCipher = conn.state().cipher;
    const QString gcm = QStringLiteral("aes128-gcm@openssh.com");
    std::vector<Run> results;
    for (int i = 0; i < runs; ++i) {
        Run r;
        r.ours = flashdeckTransfer(conn);
        r.defaults = openSshTransfer(base, dest, QString());
        r.sameCipher = openSshTransfer(base, dest, gcm);
        if (readAheadAb) {
            r.plainOurs = flashdeckTransfer(plain);
        }
        std::fprintf(stderr, "run %d: Flashdeck %.0f, ssh -L %.0f, ssh -L -c %.0f MB/s\n", i + 1, r.ours,
                     r.defaults.mbps, r.sameCipher.mbps);
        results.push_back(r);
    }

    if (!rows.empty()) {
        std::printf("\n%-52s %12s  %-7s %s\n", "benchmark", "result", "unit", "note");
        std::printf("%s\n", QByteArray(100, '-').constData());
        for (const Row &r : rows) {
            std::printf("%-52s %12.2f  %-7s %s\n", qPrintable(r.what), r.value, qPrintable(r.unit), qPrintable(r.note));
        }
        std::printf("\nper-command latency vs ControlMaster: %.2f× (goal ≤ 1.00×)\n", rows[0].value / rows[2].value);
    }

    printTunnelRuns(results, ourCipher, gcm, readAheadAb);
    return 0;
}
