#include "backend/ssh/socketreadahead.h"

#include <QTest>

#include <cerrno>
#include <memory>
#include <optional>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using flashdeck::ssh::SocketReadAhead;

namespace {

// A connected pair of stream sockets: [0] is read the way libssh reads its session socket, [1]
// is the server writing.
struct Pair
{
    int fd[2] = {-1, -1};
    Pair()
    {
        if (::socketpair(AF_UNIX, SOCK_STREAM, 0, fd) != 0) {
            qFatal("socketpair: %s", strerror(errno));
        }
        // Large enough that a megabyte written at once never blocks the writer.
        const int size = 4 << 20;
        ::setsockopt(fd[0], SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
        ::setsockopt(fd[1], SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    }
    ~Pair()
    {
        for (int f : fd) {
            if (f >= 0) {
                ::close(f);
            }
        }
    }
    void closeReader()
    {
        ::close(fd[0]);
        fd[0] = -1;
    }
    void closeWriter()
    {
        ::close(fd[1]);
        fd[1] = -1;
    }
};

std::vector<char> pattern(std::size_t n, unsigned seed)
{
    std::vector<char> v(n);
    unsigned x = seed * 2654435761u + 1;
    for (char &c : v) {
        x = x * 1103515245u + 12345u;
        c = static_cast<char>(x >> 16);
    }
    return v;
}

bool writeAll(int fd, const std::vector<char> &bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n <= 0) {
            return false;
        }
        done += std::size_t(n);
    }
    return true;
}

// Reads the way libssh does: poll for input, then one recv of `chunk` bytes; until EOF.
std::vector<char> readLikeLibssh(int fd, std::size_t chunk)
{
    std::vector<char> got;
    std::vector<char> buf(chunk);
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 10000) != 1) {
            qWarning("poll: nothing ready within 10 s");
            return got;
        }
        const ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
        if (n <= 0) {
            return got;
        }
        got.insert(got.end(), buf.data(), buf.data() + n);
    }
}

// Sends `bytes` and reads twice as libssh would (4 KiB after a poll each): the first read comes
// straight from the kernel and shows a stream flowing, the second brings the rest in ahead of the
// reader. True when both reads were whole.
bool sendAndReadTwice(int reader, int writer, const std::vector<char> &bytes)
{
    char buf[4096];
    return writeAll(writer, bytes) && ::recv(reader, buf, sizeof buf, 0) == ssize_t(sizeof buf) &&
        ::recv(reader, buf, sizeof buf, 0) == ssize_t(sizeof buf);
}

} // namespace

/** The read-ahead under libssh: every byte in order, poll() honest about bytes held, nothing
 *  left behind for a later descriptor with the same number. */
class TestSocketReadAhead : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { SocketReadAhead::setEnabled(true); }
    void stream_everyByteInOrder_data();
    void stream_everyByteInOrder();
    void readsAheadOnlyOnceAStreamFlows();
    void poll_reportsHeldBytes_withoutWaitingOnTheKernel();
    void poll_otherDescriptorsStillAnswered();
    void peek_doesNotConsume();
    void close_dropsHeldBytes_beforeTheNumberIsReused();
    void detach_returnsToPlainReads();
    void off_attachesNothing();
};

void TestSocketReadAhead::stream_everyByteInOrder_data()
{
    QTest::addColumn<int>("bytes");
    QTest::addColumn<int>("chunk");
    QTest::addColumn<bool>("attached");
    // libssh reads 4 KiB (MAX_BUF_SIZE); the others cover single bytes, reads that straddle the
    // held buffer's end, and reads larger than it (served by the kernel directly).
    QTest::newRow("1 MiB, 4 KiB reads") << (1 << 20) << 4096 << true;
    QTest::newRow("1 MiB + 7, 4 KiB reads") << (1 << 20) + 7 << 4096 << true;
    QTest::newRow("300 kB, 1-byte reads") << 300000 << 1 << true;
    QTest::newRow("1 MiB, 100 000-byte reads") << (1 << 20) << 100000 << true;
    QTest::newRow("1 MiB, reads above the capacity") << (1 << 20) << int(SocketReadAhead::kCapacity) + 1 << true;
    QTest::newRow("not attached: plain") << (1 << 20) << 4096 << false;
}

void TestSocketReadAhead::stream_everyByteInOrder()
{
    QFETCH(int, bytes);
    QFETCH(int, chunk);
    QFETCH(bool, attached);
    Pair pair;
    std::optional<SocketReadAhead> ahead;
    if (attached) {
        ahead.emplace(pair.fd[0]);
        QVERIFY(ahead->active());
    }
    const std::vector<char> sent = pattern(std::size_t(bytes), unsigned(chunk));
    QVERIFY(writeAll(pair.fd[1], sent));
    pair.closeWriter();
    const std::vector<char> got = readLikeLibssh(pair.fd[0], std::size_t(chunk));
    QCOMPARE(got.size(), sent.size());
    QVERIFY(got == sent);
    QCOMPARE(ahead ? ahead->buffered() : 0, std::size_t(0));
}

void TestSocketReadAhead::readsAheadOnlyOnceAStreamFlows()
{
    Pair pair;
    SocketReadAhead ahead(pair.fd[0]);
    QVERIFY(ahead.active());
    char buf[4096];
    // A small message (a keepalive reply, a line of a command's output) is read as it is.
    QVERIFY(writeAll(pair.fd[1], pattern(100, 1)));
    QCOMPARE(::recv(pair.fd[0], buf, sizeof buf, 0), ssize_t(100));
    QCOMPARE(ahead.buffered(), std::size_t(0));
    // A read that fills the caller's buffer: more is waiting, and the next read takes it all.
    QVERIFY(writeAll(pair.fd[1], pattern(64 * 1024, 2)));
    QCOMPARE(::recv(pair.fd[0], buf, sizeof buf, 0), ssize_t(sizeof buf));
    QCOMPARE(ahead.buffered(), std::size_t(0));
    QCOMPARE(::recv(pair.fd[0], buf, sizeof buf, 0), ssize_t(sizeof buf));
    QCOMPARE(ahead.buffered(), std::size_t(64 * 1024 - 2 * 4096));
    QCOMPARE(ahead.reserved(), SocketReadAhead::kCapacity);
    for (int i = 0; i < 14; ++i) {
        QCOMPARE(::recv(pair.fd[0], buf, sizeof buf, 0), ssize_t(sizeof buf));
    }
    QCOMPARE(ahead.buffered(), std::size_t(0));
    // The stream pauses: the next kernel read brings less than asked, and the memory goes back.
    QVERIFY(writeAll(pair.fd[1], pattern(100, 3)));
    QCOMPARE(::recv(pair.fd[0], buf, sizeof buf, 0), ssize_t(100));
    QCOMPARE(ahead.reserved(), std::size_t(0));
    // …until a read fills the caller's buffer again.
    QVERIFY(writeAll(pair.fd[1], pattern(20000, 4)));
    QCOMPARE(::recv(pair.fd[0], buf, sizeof buf, 0), ssize_t(sizeof buf));
    QCOMPARE(ahead.reserved(), std::size_t(0));
    QCOMPARE(::recv(pair.fd[0], buf, sizeof buf, 0), ssize_t(sizeof buf));
    QCOMPARE(ahead.reserved(), SocketReadAhead::kCapacity);
}

void TestSocketReadAhead::poll_reportsHeldBytes_withoutWaitingOnTheKernel()
{
    Pair pair;
    SocketReadAhead ahead(pair.fd[0]);
    QVERIFY(ahead.active());
    QVERIFY(sendAndReadTwice(pair.fd[0], pair.fd[1], pattern(20000, 3)));
    QVERIFY(ahead.buffered() > 0); // the kernel holds nothing now
    // Were the held bytes not reported, this would wait out its 10 s and find nothing.
    pollfd p{pair.fd[0], POLLIN, 0};
    QCOMPARE(::poll(&p, 1, 10000), 1);
    QCOMPARE(p.revents, short(POLLIN));
    // Asked for output too (libssh asks both while a tunnel flows): the input alone, with no
    // system call; the output is the kernel's answer once the held bytes are consumed.
    p = {pair.fd[0], short(POLLIN | POLLOUT), 0};
    QCOMPARE(::poll(&p, 1, 10000), 1);
    QCOMPARE(p.revents, short(POLLIN));
    // Not asked for input: the held bytes are not mentioned.
    p = {pair.fd[0], POLLOUT, 0};
    QCOMPARE(::poll(&p, 1, 0), 1);
    QCOMPARE(p.revents, short(POLLOUT));
    std::vector<char> rest(ahead.buffered());
    QCOMPARE(::recv(pair.fd[0], rest.data(), rest.size(), 0), ssize_t(rest.size()));
    p = {pair.fd[0], short(POLLIN | POLLOUT), 0};
    QCOMPARE(::poll(&p, 1, 0), 1);
    QCOMPARE(p.revents, short(POLLOUT));
}

void TestSocketReadAhead::poll_otherDescriptorsStillAnswered()
{
    Pair held;
    Pair quiet;
    Pair busy;
    SocketReadAhead ahead(held.fd[0]);
    QVERIFY(ahead.active());
    QVERIFY(sendAndReadTwice(held.fd[0], held.fd[1], pattern(20000, 4)));
    QVERIFY(writeAll(busy.fd[1], pattern(10, 5)));
    pollfd p[3] = {{quiet.fd[0], POLLIN, 0}, {held.fd[0], POLLIN, 0}, {busy.fd[0], POLLIN, 0}};
    QCOMPARE(::poll(p, 3, 10000), 2);
    QCOMPARE(p[0].revents, short(0));
    QCOMPARE(p[1].revents, short(POLLIN));
    QCOMPARE(p[2].revents, short(POLLIN));
}

void TestSocketReadAhead::peek_doesNotConsume()
{
    Pair pair;
    SocketReadAhead ahead(pair.fd[0]);
    QVERIFY(ahead.active());
    const std::vector<char> sent = pattern(20000, 6);
    QVERIFY(writeAll(pair.fd[1], sent));
    char buf[4096];
    QCOMPARE(::recv(pair.fd[0], buf, sizeof buf, 0), ssize_t(sizeof buf));
    QCOMPARE(::recv(pair.fd[0], buf, sizeof buf, 0), ssize_t(sizeof buf));
    char peeked[16];
    QCOMPARE(::recv(pair.fd[0], peeked, sizeof peeked, MSG_PEEK), ssize_t(sizeof peeked));
    QCOMPARE(::recv(pair.fd[0], buf, sizeof peeked, 0), ssize_t(sizeof peeked));
    QCOMPARE(QByteArray(peeked, sizeof peeked), QByteArray(buf, sizeof peeked));
    QCOMPARE(QByteArray(buf, sizeof peeked), QByteArray(sent.data() + 8192, sizeof peeked));
}

void TestSocketReadAhead::close_dropsHeldBytes_beforeTheNumberIsReused()
{
    auto first = std::make_unique<Pair>();
    SocketReadAhead ahead(first->fd[0]);
    QVERIFY(ahead.active());
    char buf[4096];
    QVERIFY(sendAndReadTwice(first->fd[0], first->fd[1], pattern(20000, 7)));
    const int number = first->fd[0];
    QVERIFY(ahead.buffered() > 0);
    // As libssh closes its socket on the server's EOF or an error, without telling us.
    first->closeReader();
    QVERIFY(!ahead.active());
    QCOMPARE(ahead.buffered(), std::size_t(0));
    // The lowest free number comes back to the next descriptor: it must read its own bytes.
    Pair second;
    QCOMPARE(second.fd[0], number);
    QVERIFY(writeAll(second.fd[1], {'o', 'k'}));
    second.closeWriter();
    pollfd p{second.fd[0], POLLIN, 0};
    QCOMPARE(::poll(&p, 1, 10000), 1);
    QCOMPARE(::recv(second.fd[0], buf, sizeof buf, 0), ssize_t(2));
    QCOMPARE(QByteArray(buf, 2), QByteArray("ok"));
    // And a new attachment to that number works, the old object notwithstanding.
    SocketReadAhead again(second.fd[0]);
    QVERIFY(again.active());
}

void TestSocketReadAhead::detach_returnsToPlainReads()
{
    Pair pair;
    char buf[4096];
    {
        SocketReadAhead ahead(pair.fd[0]);
        QVERIFY(ahead.active());
        QVERIFY(sendAndReadTwice(pair.fd[0], pair.fd[1], pattern(20000, 8)));
        QVERIFY(ahead.buffered() > 0);
    }
    // What was held is gone with the session; the kernel has nothing: a plain non-blocking read.
    QCOMPARE(::recv(pair.fd[0], buf, sizeof buf, MSG_DONTWAIT), ssize_t(-1));
    QVERIFY(errno == EAGAIN || errno == EWOULDBLOCK);
    // Attached again, the socket is read ahead from scratch.
    SocketReadAhead again(pair.fd[0]);
    QVERIFY(again.active());
    QCOMPARE(again.buffered(), std::size_t(0));
}

void TestSocketReadAhead::off_attachesNothing()
{
    SocketReadAhead::setEnabled(false);
    QVERIFY(!SocketReadAhead::enabled());
    Pair pair;
    SocketReadAhead ahead(pair.fd[0]);
    QVERIFY(!ahead.active());
    char buf[4096];
    QVERIFY(sendAndReadTwice(pair.fd[0], pair.fd[1], pattern(20000, 9)));
    QCOMPARE(ahead.buffered(), std::size_t(0));
    // The kernel still holds the rest: nothing was read ahead.
    QCOMPARE(::recv(pair.fd[0], buf, sizeof buf, MSG_DONTWAIT), ssize_t(sizeof buf));
}

QTEST_GUILESS_MAIN(TestSocketReadAhead)
#include "tst_socketreadahead.moc"
