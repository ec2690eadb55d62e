#include "backend/ssh/peeruid.h"

#include <QHostAddress>
#include <QSysInfo>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <arpa/inet.h>
#include <cstring>
#include <unistd.h>

using flashdeck::ssh::PeerUid;

namespace {

PeerUid::Endpoint endpoint(const char *address, quint16 port)
{
    unsigned char bytes[16] = {};
    const bool v6 = std::strchr(address, ':') != nullptr;
    if (::inet_pton(v6 ? AF_INET6 : AF_INET, address, bytes) != 1) {
        qFatal("not an address: %s", address);
    }
    return {QByteArray(reinterpret_cast<const char *>(bytes), v6 ? 16 : 4), port};
}

// Captured on Linux 6.x (x86-64): root listening on 127.0.0.1:54931 (D693) and on the
// dual-stack [::]:57171 (DF53), user nobody (65534) connected from bash's /dev/tcp to the first,
// to [::1] and to 127.0.0.1 on the second. The accepted ends are root's (uid 0, inode 0:
// still in the accept queue). Trailing spaces as the kernel pads them.
const QByteArray kTcp =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode          "
    "                                           \n"
    "   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1172 1 "
    "00000000398956f8 100 0 0 10 0                      \n"
    "   1: 0100007F:D693 00000000:0000 0A 00000000:00000001 00:00000000 00000000     0        0 25124 2 "
    "00000000c22aa9b4 100 0 0 10 0                     \n"
    "   2: 0100007F:9778 0100007F:D693 01 00000000:00000000 00:00000000 00000000 65534        0 25140 2 "
    "00000000a5c48af3 20 0 0 10 -1                     \n"
    "   3: 0100007F:D693 0100007F:9778 01 00000000:00000000 00:00000000 00000000     0        0 0 1 "
    "0000000065077737 20 0 0 10 -1                         \n"
    "   4: 0100007F:8F5C 0100007F:DF53 01 00000000:00000000 00:00000000 00000000 65534        0 25142 2 "
    "000000003415daff 20 0 0 10 -1                     \n"
    // A closed connection's leftover (get_timewait4_sock prints uid 0 for every one of them).
    "   5: 0100007F:A000 0100007F:D693 06 00000000:00000000 03:00001770 00000000     0        0 0 3 "
    "0000000000000000\n";
const QByteArray kTcp6 =
    "  sl  local_address                         remote_address                        st tx_queue rx_queue tr "
    "tm->when retrnsmt   uid  timeout inode\n"
    "   0: 00000000000000000000000000000000:DF53 00000000000000000000000000000000:0000 0A 00000000:00000002 "
    "00:00000000 00000000     0        0 25125 3 00000000279d33e5 100 0 0 10 0\n"
    "   1: 00000000000000000000000001000000:8DE8 00000000000000000000000001000000:DF53 01 00000000:00000000 "
    "00:00000000 00000000 65534        0 25141 2 00000000e5d21832 20 0 0 10 -1\n"
    "   2: 0000000000000000FFFF00000100007F:DF53 0000000000000000FFFF00000100007F:8F5C 01 00000000:00000000 "
    "00:00000000 00000000     0        0 0 1 00000000ab7136f9 20 0 0 10 -1\n"
    "   3: 00000000000000000000000001000000:DF53 00000000000000000000000001000000:8DE8 01 00000000:00000000 "
    "00:00000000 00000000     0        0 0 1 000000008c9a7066 20 0 0 10 -1\n";

} // namespace

/** The peer-uid lookup of every tunnel's gate: the tables' layout, and the live kernel. */
class TestPeerUid : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void procText_data();
    void procText();
    void find_data();
    void find();
    void ofAccepted_ownConnection_data();
    void ofAccepted_ownConnection();
};

void TestPeerUid::procText_data()
{
    QTest::addColumn<QByteArray>("address");
    QTest::addColumn<int>("port");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("v4 loopback") << QByteArray("127.0.0.1") << 8080 << QByteArray("0100007F:1F90");
    QTest::newRow("v4 other") << QByteArray("10.1.2.3") << 30000 << QByteArray("0302010A:7530");
    QTest::newRow("v6 loopback") << QByteArray("::1") << 443 << QByteArray("00000000000000000000000001000000:01BB");
    QTest::newRow("v4-mapped") << QByteArray("::ffff:127.0.0.1") << 57171
                               << QByteArray("0000000000000000FFFF00000100007F:DF53");
    QTest::newRow("low port") << QByteArray("127.0.0.1") << 22 << QByteArray("0100007F:0016");
}

void TestPeerUid::procText()
{
    if (QSysInfo::ByteOrder != QSysInfo::LittleEndian) {
        QSKIP("the expected text is a little-endian machine's");
    }
    QFETCH(QByteArray, address);
    QFETCH(int, port);
    QFETCH(QByteArray, expected);
    QCOMPARE(PeerUid::procText(endpoint(address.constData(), quint16(port))), expected);
}

void TestPeerUid::find_data()
{
    QTest::addColumn<QByteArray>("table");
    QTest::addColumn<QByteArray>("localAddress");
    QTest::addColumn<int>("localPort");
    QTest::addColumn<QByteArray>("remoteAddress");
    QTest::addColumn<int>("remotePort");
    QTest::addColumn<int>("uid"); // -1: none

    QTest::newRow("v4 client is nobody") << kTcp << QByteArray("127.0.0.1") << 0x9778 << QByteArray("127.0.0.1")
                                         << 0xD693 << 65534;
    // The same connection seen from the listener's side is root's: the direction decides.
    QTest::newRow("v4 accepted end is ours")
        << kTcp << QByteArray("127.0.0.1") << 0xD693 << QByteArray("127.0.0.1") << 0x9778 << 0;
    QTest::newRow("v4 client of a dual-stack listener")
        << kTcp << QByteArray("127.0.0.1") << 0x8F5C << QByteArray("127.0.0.1") << 0xDF53 << 65534;
    QTest::newRow("listener is no client")
        << kTcp << QByteArray("127.0.0.1") << 0xD693 << QByteArray("0.0.0.0") << 0 << -1;
    QTest::newRow("time-wait leftover is skipped")
        << kTcp << QByteArray("127.0.0.1") << 0xA000 << QByteArray("127.0.0.1") << 0xD693 << -1;
    QTest::newRow("unknown port") << kTcp << QByteArray("127.0.0.1") << 0x9779 << QByteArray("127.0.0.1") << 0xD693
                                  << -1;
    QTest::newRow("v6 client is nobody") << kTcp6 << QByteArray("::1") << 0x8DE8 << QByteArray("::1") << 0xDF53
                                         << 65534;
    QTest::newRow("v6 accepted end is ours")
        << kTcp6 << QByteArray("::1") << 0xDF53 << QByteArray("::1") << 0x8DE8 << 0;
    QTest::newRow("v4-mapped accepted end")
        << kTcp6 << QByteArray("::ffff:127.0.0.1") << 0xDF53 << QByteArray("::ffff:127.0.0.1") << 0x8F5C << 0;
    QTest::newRow("v4 address not in tcp6")
        << kTcp6 << QByteArray("127.0.0.1") << 0x8DE8 << QByteArray("127.0.0.1") << 0xDF53 << -1;
    QTest::newRow("empty table") << QByteArray() << QByteArray("127.0.0.1") << 0x9778 << QByteArray("127.0.0.1")
                                 << 0xD693 << -1;
    QTest::newRow("header only") << kTcp.left(kTcp.indexOf('\n') + 1) << QByteArray("127.0.0.1") << 0x9778
                                 << QByteArray("127.0.0.1") << 0xD693 << -1;
}

void TestPeerUid::find()
{
    if (QSysInfo::ByteOrder != QSysInfo::LittleEndian) {
        QSKIP("the captured tables are a little-endian machine's");
    }
    QFETCH(QByteArray, table);
    QFETCH(QByteArray, localAddress);
    QFETCH(int, localPort);
    QFETCH(QByteArray, remoteAddress);
    QFETCH(int, remotePort);
    QFETCH(int, uid);
    const std::optional<uint> found = PeerUid::find(table, endpoint(localAddress.constData(), quint16(localPort)),
                                                    endpoint(remoteAddress.constData(), quint16(remotePort)));
    QCOMPARE(found.has_value(), uid >= 0);
    if (found) {
        QCOMPARE(*found, uint(uid));
    }
}

void TestPeerUid::ofAccepted_ownConnection_data()
{
    QTest::addColumn<QHostAddress>("listenOn");
    QTest::addColumn<QHostAddress>("connectTo");
    QTest::newRow("v4") << QHostAddress(QHostAddress::LocalHost) << QHostAddress(QHostAddress::LocalHost);
    QTest::newRow("v6") << QHostAddress(QHostAddress::LocalHostIPv6) << QHostAddress(QHostAddress::LocalHostIPv6);
    QTest::newRow("v4 client, dual-stack listener")
        << QHostAddress(QHostAddress::Any) << QHostAddress(QHostAddress::LocalHost);
}

void TestPeerUid::ofAccepted_ownConnection()
{
    QFETCH(QHostAddress, listenOn);
    QFETCH(QHostAddress, connectTo);
    QTcpServer server;
    if (!server.listen(listenOn, 0)) {
        QSKIP(
            qPrintable(QStringLiteral("cannot listen on %1 here: %2").arg(listenOn.toString(), server.errorString())));
    }
    QTcpSocket client;
    client.connectToHost(connectTo, server.serverPort());
    QVERIFY2(client.waitForConnected(10000), qPrintable(client.errorString()));
    QVERIFY(server.waitForNewConnection(10000));
    QTcpSocket *accepted = server.nextPendingConnection();
    QVERIFY(accepted);
    const auto uid = PeerUid::ofAccepted(int(accepted->socketDescriptor()));
    QVERIFY2(uid, qPrintable(uid.message() + QLatin1Char(' ') + uid.status().detail()));
    QCOMPARE(uid.value(), uint(::geteuid()));

    // A descriptor that is no connection: said, not guessed.
    const auto none = PeerUid::ofAccepted(int(server.socketDescriptor()));
    QVERIFY(!none);
}

QTEST_GUILESS_MAIN(TestPeerUid)
#include "tst_peeruid.moc"
