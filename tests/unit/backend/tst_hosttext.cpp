#include "backend/core/hosttext.h"

#include <QTest>

using namespace flashdeck;

/** Host output shown to the operator: no escapes, no controls, valid text, bounded (issue 9). */
class TestHostText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void clean_data();
    void clean();
    void enormous_keepsTheTail();
};

void TestHostText::clean_data()
{
    QTest::addColumn<QByteArray>("in");
    QTest::addColumn<QString>("out");
    QTest::newRow("plain") << QByteArray("  NVIDIA-SMI has failed\n") << QStringLiteral("NVIDIA-SMI has failed");
    QTest::newRow("colours") << QByteArray("\x1b[1;31merror\x1b[0m: no devices") << QStringLiteral("error: no devices");
    QTest::newRow("terminal title (OSC, BEL)") << QByteArray("\x1b]0;pwned\x07ok") << QStringLiteral("ok");
    QTest::newRow("OSC 8 hyperlink (ST)")
        << QByteArray("\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\") << QStringLiteral("click");
    QTest::newRow("cursor moves and clear") << QByteArray("a\x1b[2J\x1b[Hb") << QStringLiteral("ab");
    QTest::newRow("carriage return overwrite") << QByteArray("safe\rEVIL") << QStringLiteral("safe\uFFFDEVIL");
    QTest::newRow("backspaces") << QByteArray("ok\b\b") << QStringLiteral("ok\uFFFD\uFFFD");
    QTest::newRow("invalid UTF-8") << QByteArray("bad \xff\xfe bytes") << QStringLiteral("bad \uFFFD\uFFFD bytes");
    QTest::newRow("C1 CSI") << QByteArray("x\xc2\x9b"
                                          "31my")
                            << QStringLiteral("x\uFFFD31my");
    QTest::newRow("bidi override") << QByteArray("file\xe2\x80\xaegpj.exe") << QStringLiteral("file\uFFFDgpj.exe");
    QTest::newRow("escape at the very end") << QByteArray("tail\x1b") << QStringLiteral("tail");
    QTest::newRow("unterminated CSI") << QByteArray("tail\x1b[12;") << QStringLiteral("tail");
    QTest::newRow("newlines and tabs kept") << QByteArray("a\n\tb") << QStringLiteral("a\n\tb");
    QTest::newRow("CRLF line ends") << QByteArray("one\r\ntwo\r\n") << QStringLiteral("one\ntwo");
    QTest::newRow("nothing") << QByteArray() << QString();
}

void TestHostText::clean()
{
    QFETCH(QByteArray, in);
    QFETCH(QString, out);
    QCOMPARE(hostText(in), out);
}

void TestHostText::enormous_keepsTheTail()
{
    const QByteArray big = QByteArray(4 * 1024 * 1024, 'x') + "\nError: the real reason";
    const QString t = hostText(big, 100);
    QCOMPARE(t, QStringLiteral("…Error: the real reason")); // from a line start, not mid-line
    const QString lines = hostText(QByteArray("Unable to determine the device handle\n").repeated(100000), 100);
    QVERIFY(lines.startsWith(QStringLiteral("…Unable")));
    QVERIFY(lines.size() <= 101);
}

QTEST_GUILESS_MAIN(TestHostText)
#include "tst_hosttext.moc"
