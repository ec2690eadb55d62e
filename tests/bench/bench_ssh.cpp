// SSH transport benchmarks (`make bench`): Flashdeck's one-connection transport against the
// OpenSSH client, on a throwaway loopback sshd. Prints a table; figures are recorded in
// docs/PERFORMANCE.md. Not a test: nothing here asserts a time.

#include "backend/ssh/hostconnection.h"
#include "backend/ssh/socketreadahead.h"
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

    // 1. Per-command latency: 200 sequential `true`.
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
        return 1;
    }
    rows.push_back({QStringLiteral("200 × `true`: Flashdeck, one connection"),
                    double(t.nsecsElapsed()) / 1e6 / kCommands, QStringLiteral("ms/cmd"),
                    QStringLiteral("channel per command")});
    rows.push_back({QStringLiteral("200 × `true`: OpenSSH ssh, new connection each"), runOpenSsh(base, dest, {}),
                    QStringLiteral("ms/cmd"), QStringLiteral("handshake + auth each time")});
    const QString control = home.path() + QStringLiteral("/cm.sock");
    QProcess master;
    master.start(QStringLiteral("ssh"),
                 base + QStringList{QStringLiteral("-M"), QStringLiteral("-S"), control, QStringLiteral("-N"), dest});
    (void)QTest::qWaitFor([&] { return QFile::exists(control); }, 10000);
    rows.push_back({QStringLiteral("200 × `true`: OpenSSH ControlMaster"),
                    runOpenSsh(base, dest, {QStringLiteral("-S"), control}), QStringLiteral("ms/cmd"),
                    QStringLiteral("multiplexed, a process per command")});
    master.terminate();
    master.waitForFinished();

    // 2. Tunnel throughput, remote → local, 1 GiB. Flashdeck's transport as it ships, and the
    // same with libssh reading its socket alone (4 KiB per recv, a poll before each): what the
    // read-ahead is worth on this machine. Alternated (off, on, off, on) on two connections of
    // their own, since a later transfer in one process ran up to 20 % slower than an earlier one
    // whichever it was; each figure is the mean of its two (OpenSSH's are single runs, not the best
    // of several, so nothing here is picked in our favour).
    ssh::SocketReadAhead::setEnabled(false);
    ssh::HostConnection plain(targetFor(sshd, knownHosts, key));
    ssh::SocketReadAhead::setEnabled(true); // a socket is attached as its session becomes ready
    if (connectAndWait(plain).phase != ssh::ConnectionPhase::Ready) {
        std::fprintf(stderr, "cannot connect\n");
        return 1;
    }
    const auto tunnelTransfer = [](ssh::HostConnection &c) {
        Source source(kTransferBytes);
        QSignalSpy ready(&c, &ssh::HostConnection::tunnelReady);
        c.openPortTunnel(QStringLiteral("127.0.0.1"), source.port());
        ready.wait(10000);
        return measureTransfer(QString(), static_cast<quint16>(ready.first().at(1).toUInt()));
    };
    Row tunnel{QStringLiteral("1 GiB through a tunnel: Flashdeck"), 0, QStringLiteral("MB/s"),
               QStringLiteral("cipher %1").arg(conn.state().cipher)};
    double withoutReadAhead = 0;
    for (int round = 0; round < 2; ++round) {
        withoutReadAhead += tunnelTransfer(plain).value / 2;
        const Row r = tunnelTransfer(conn);
        tunnel.value += r.value / 2;
        if (!r.note.isEmpty()) {
            tunnel.note = r.note; // a short read shows
        }
    }
    rows.push_back(tunnel);
    // OpenSSH with its defaults (chacha20-poly1305 first), then with the cipher Flashdeck chose:
    // the first is the tool a user would use instead, the second tells the cipher from the code.
    for (const QString &cipher : {QString(), conn.state().cipher}) {
        // ssh -L opens its listeners together: wait on a throwaway one (that probe
        // connection consumes `warm`), then time the real transfer.
        Source warm(1);
        Source source(kTransferBytes);
        const quint16 localWarm = freeLocalPort();
        const quint16 local = freeLocalPort();
        QProcess fwd;
        const QStringList chosen = cipher.isEmpty()
            ? QStringList()
            : QStringList{QStringLiteral("-c"), cipher.section(QLatin1Char(' '), 0, 0)};
        fwd.start(QStringLiteral("ssh"),
                  base + chosen +
                      QStringList{QStringLiteral("-N"), QStringLiteral("-L"),
                                  QStringLiteral("%1:127.0.0.1:%2").arg(localWarm).arg(warm.port()),
                                  QStringLiteral("-L"), QStringLiteral("%1:127.0.0.1:%2").arg(local).arg(source.port()),
                                  dest});
        (void)QTest::qWaitFor([&] { return portOpen(localWarm) || fwd.state() == QProcess::NotRunning; }, 10000);
        rows.push_back(measureTransfer(cipher.isEmpty()
                                           ? QStringLiteral("1 GiB through a tunnel: OpenSSH ssh -L")
                                           : QStringLiteral("1 GiB through a tunnel: ssh -L -c (the same)"),
                                       local));
        rows.back().note = cipher.isEmpty() ? QStringLiteral("its defaults") : QStringLiteral("cipher %1").arg(cipher);
        fwd.terminate();
        fwd.waitForFinished();
    }

    std::printf("\n%-52s %12s  %-7s %s\n", "benchmark", "result", "unit", "note");
    std::printf("%s\n", QByteArray(100, '-').constData());
    for (const Row &r : rows) {
        std::printf("%-52s %12.2f  %-7s %s\n", qPrintable(r.what), r.value, qPrintable(r.unit), qPrintable(r.note));
    }
    const double ours = rows[0].value;
    const double cm = rows[2].value;
    const double tunOurs = rows[3].value;
    const double tunSsh = rows[4].value;
    std::printf("\nper-command latency vs ControlMaster: %.2f× (goal ≤ 1.00×)\n", ours / cm);
    std::printf("tunnel throughput vs ssh -L:          %.2f× (goal ≥ 1.20×)\n", tunOurs / tunSsh);
    std::printf("the same vs ssh -L with our cipher:   %.2f×\n", tunOurs / rows[5].value);
    std::printf("Flashdeck without read-ahead:         %.2f MB/s, %.2f× ssh -L (read-ahead: %.2f×)\n", withoutReadAhead,
                withoutReadAhead / tunSsh, tunOurs / withoutReadAhead);
    return 0;
}
