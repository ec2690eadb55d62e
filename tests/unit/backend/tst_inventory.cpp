#include "backend/fleet/inventory.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using flashdeck::fleet::HostEntry;
using flashdeck::fleet::Inventory;

class TestInventory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void sshSpec_data();
    void sshSpec();
    void roundTrip_keepsEveryField();
    void missingFile_isEmpty();
    void malformedFile_isReportedAndLeftUntouched_data();
    void malformedFile_isReportedAndLeftUntouched();
    void duplicateAndUnknownNames_areRefused();
    void save_isOwnerOnlyAndHasNoSecrets();
};

void TestInventory::sshSpec_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("address");
    QTest::addColumn<int>("port");
    QTest::newRow("host") << QStringLiteral("b300-a") << true << QString() << QStringLiteral("b300-a") << 0;
    QTest::newRow("user@host:port") << QStringLiteral("ops@gpu1.example:2222") << true << QStringLiteral("ops")
                                    << QStringLiteral("gpu1.example") << 2222;
    QTest::newRow("ipv4") << QStringLiteral("root@127.0.0.1") << true << QStringLiteral("root")
                          << QStringLiteral("127.0.0.1") << 0;
    QTest::newRow("ipv6 bracketed with port")
        << QStringLiteral("[::1]:22") << true << QString() << QStringLiteral("::1") << 22;
    QTest::newRow("ipv6 bare") << QStringLiteral("fe80::1") << true << QString() << QStringLiteral("fe80::1") << 0;
    QTest::newRow("port zero") << QStringLiteral("h:0") << false << QString() << QString() << 0;
    QTest::newRow("port too big") << QStringLiteral("h:70000") << false << QString() << QString() << 0;
    QTest::newRow("port not a number") << QStringLiteral("h:ssh") << false << QString() << QString() << 0;
    QTest::newRow("empty") << QString() << false << QString() << QString() << 0;
    QTest::newRow("shell metacharacters") << QStringLiteral("h;rm -rf /") << false << QString() << QString() << 0;
    QTest::newRow("unclosed bracket") << QStringLiteral("[::1:22") << false << QString() << QString() << 0;
}

void TestInventory::sshSpec()
{
    QFETCH(QString, spec);
    QFETCH(bool, ok);
    QFETCH(QString, user);
    QFETCH(QString, address);
    QFETCH(int, port);
    const auto r = HostEntry::fromSshSpec(QStringLiteral("h"), spec);
    QCOMPARE(r.isOk(), ok);
    if (ok) {
        QCOMPARE(r.value().user, user);
        QCOMPARE(r.value().address, address);
        QCOMPARE(int(r.value().port), port);
        QCOMPARE(HostEntry::fromSshSpec(QStringLiteral("h"), r.value().sshSpec()).value().address, address);
    } else {
        QVERIFY(!r.message().isEmpty());
    }
}

void TestInventory::roundTrip_keepsEveryField()
{
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/hosts.json");
    HostEntry h;
    h.name = QStringLiteral("b300-a");
    h.address = QStringLiteral("gpu1.example");
    h.user = QStringLiteral("ops");
    h.port = 2222;
    h.identityFile = QStringLiteral("/keys/id");
    h.knownHostsFile = QStringLiteral("/keys/kh");
    h.vendorHint = QStringLiteral("nvidia");
    h.notes = QStringLiteral("rack 4 — «test»");
    h.simulated = true;
    {
        Inventory inv(path);
        QVERIFY(inv.add(h).isOk());
        QVERIFY(inv.save().isOk());
    }
    Inventory again(path);
    QVERIFY(again.load().isOk());
    QCOMPARE(again.hosts().size(), 1);
    const HostEntry &r = again.hosts().first();
    QCOMPARE(r.name, h.name);
    QCOMPARE(r.address, h.address);
    QCOMPARE(r.user, h.user);
    QCOMPARE(r.port, h.port);
    QCOMPARE(r.identityFile, h.identityFile);
    QCOMPARE(r.knownHostsFile, h.knownHostsFile);
    QCOMPARE(r.vendorHint, h.vendorHint);
    QCOMPARE(r.notes, h.notes);
    QCOMPARE(r.simulated, true);
}

void TestInventory::missingFile_isEmpty()
{
    Inventory inv(QStringLiteral("/nonexistent/dir/hosts.json"));
    QVERIFY(inv.load().isOk());
    QVERIFY(inv.hosts().isEmpty());
}

void TestInventory::malformedFile_isReportedAndLeftUntouched_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::newRow("truncated") << QByteArray("{\"version\":1,\"hosts\":[{\"name\":\"a\"");
    QTest::newRow("not an object") << QByteArray("[1,2,3]");
    QTest::newRow("missing address") << QByteArray("{\"version\":1,\"hosts\":[{\"name\":\"a\"}]}");
    QTest::newRow("wrong type") << QByteArray("{\"version\":1,\"hosts\":[{\"name\":\"a\",\"address\":5}]}");
    QTest::newRow("invalid name") << QByteArray("{\"version\":1,\"hosts\":[{\"name\":\"a b\",\"address\":\"x\"}]}");
    QTest::newRow("newer format") << QByteArray("{\"version\":99,\"hosts\":[]}");
    QTest::newRow("binary junk") << QByteArray("\x00\xff\xfe junk", 9);
    // Numbers a quint16 or an int cannot hold were converted by nlohmann: undefined behaviour
    // (fuzz_configfiles, regression-inventory-port-out-of-range).
    QTest::newRow("port far out of range")
        << QByteArray(R"({"version":1,"hosts":[{"name":"a","address":"x","port":2.2e54}]})");
    QTest::newRow("port 70000") << QByteArray(R"({"version":1,"hosts":[{"name":"a","address":"x","port":70000}]})");
    QTest::newRow("port 22.5") << QByteArray(R"({"version":1,"hosts":[{"name":"a","address":"x","port":22.5}]})");
    QTest::newRow("version far out of range") << QByteArray(R"({"version":1e300,"hosts":[]})");
}

void TestInventory::malformedFile_isReportedAndLeftUntouched()
{
    QFETCH(QByteArray, contents);
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/hosts.json");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(contents);
    f.close();
    Inventory inv(path);
    const auto status = inv.load();
    QVERIFY(!status.isOk());
    QVERIFY2(status.message().contains(path), qPrintable(status.message()));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), contents);
}

void TestInventory::duplicateAndUnknownNames_areRefused()
{
    QTemporaryDir dir; // add and remove write the file now
    Inventory inv(dir.path() + QStringLiteral("/hosts.json"));
    HostEntry h;
    h.name = QStringLiteral("a");
    h.address = QStringLiteral("x");
    QVERIFY(inv.add(h).isOk());
    QVERIFY(!inv.add(h).isOk());
    QVERIFY(!inv.remove(QStringLiteral("b")).isOk());
    QVERIFY(inv.remove(QStringLiteral("a")).isOk());
    h.name = QStringLiteral("-leading-dash");
    QVERIFY(!inv.add(h).isOk());
}

void TestInventory::save_isOwnerOnlyAndHasNoSecrets()
{
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/hosts.json");
    Inventory inv(path);
    HostEntry h;
    h.name = QStringLiteral("a");
    h.address = QStringLiteral("x");
    QVERIFY(inv.add(h).isOk());
    QVERIFY(inv.save().isOk());
    QCOMPARE(QFile(path).permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteOther),
             QFile::Permissions());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll().toLower();
    QVERIFY(!text.contains("password"));
    QVERIFY(!text.contains("passphrase"));
}

QTEST_GUILESS_MAIN(TestInventory)
#include "tst_inventory.moc"
