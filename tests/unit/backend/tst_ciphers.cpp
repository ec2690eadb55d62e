#include "backend/ssh/cipherpreference.h"

#include <QTest>

using flashdeck::ssh::CipherPreference;

/** Which ciphers Flashdeck offers, and in what order, for which CPU. */
class TestCiphers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cpuInfo_data();
    void cpuInfo();
    void order_andNothingWeak_data();
    void order_andNothingWeak();
};

void TestCiphers::cpuInfo_data()
{
    QTest::addColumn<QByteArray>("cpuinfo");
    QTest::addColumn<bool>("aes");
    QTest::newRow("x86 with AES-NI") << QByteArray("processor\t: 0\nflags\t\t: fpu sse2 pclmulqdq ssse3 aes avx2\n")
                                     << true;
    QTest::newRow("x86 without") << QByteArray("processor\t: 0\nflags\t\t: fpu sse2 ssse3\n") << false;
    QTest::newRow("x86 AES without carry-less multiply") << QByteArray("flags\t\t: fpu aes\n") << false;
    QTest::newRow("arm64 with crypto") << QByteArray("processor\t: 0\nFeatures\t: fp asimd aes pmull sha1 sha2\n")
                                       << true;
    QTest::newRow("arm64 without") << QByteArray("Features\t: fp asimd\n") << false;
    QTest::newRow("a word that contains aes") << QByteArray("flags\t\t: vaes_x pclmulqdq\n") << false;
    QTest::newRow("unreadable") << QByteArray() << false;
}

void TestCiphers::cpuInfo()
{
    QFETCH(QByteArray, cpuinfo);
    QFETCH(bool, aes);
    QCOMPARE(CipherPreference::cpuInfoHasAes(cpuinfo), aes);
}

void TestCiphers::order_andNothingWeak_data()
{
    QTest::addColumn<bool>("aes");
    QTest::addColumn<QByteArray>("first");
    QTest::newRow("AES instructions") << true << QByteArray("aes128-gcm@openssh.com");
    QTest::newRow("none") << false << QByteArray("chacha20-poly1305@openssh.com");
}

void TestCiphers::order_andNothingWeak()
{
    QFETCH(bool, aes);
    QFETCH(QByteArray, first);
    const QList<QByteArray> list = CipherPreference::list(aes).split(',');
    QCOMPARE(list.first(), first);
    QVERIFY(list.contains("chacha20-poly1305@openssh.com") && list.contains("aes256-gcm@openssh.com"));
    for (const QByteArray &c : list) {
        QVERIFY2(!c.contains("cbc") && !c.contains("3des") && !c.contains("arcfour") && !c.contains("blowfish") &&
                     c != "none",
                 c.constData());
    }
}

QTEST_GUILESS_MAIN(TestCiphers)
#include "tst_ciphers.moc"
