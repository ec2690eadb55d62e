#include "backend/cli/outputtap.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cstdio>

using namespace flashdeck::cli;

/**
 * Under `--json` every line of stdout is one object, to the end: a run that printed its lines
 * and then failed in words only (a `logs --follow` cut off) closes with the error object, and
 * one whose last line already is its error gets no second.
 */
class TestOutputTap : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lastLine_acrossWrites();
    void lastLine_wherever_aWriteEnds_data();
    void lastLine_wherever_aWriteEnds();
    void keptSinceOther_startsOverWhenTheOtherWrites();
    void closingError_data();
    void closingError();
};

void TestOutputTap::lastLine_acrossWrites()
{
    FILE *sink = std::tmpfile();
    QVERIFY(sink);
    OutputTap tap(sink, false);
    tap.write("{\"line\":1}\n{\"li");
    QCOMPARE(tap.lastLine(), QByteArray("{\"line\":1}"));
    tap.write("ne\":2}");
    QCOMPARE(tap.lastLine(), QByteArray("{\"line\":1}"));
    tap.write("\n\n");
    QCOMPARE(tap.lastLine(), QByteArray("{\"line\":2}"));
    tap.write("{\"line\":3}\n{\"line\":4}\n");
    QCOMPARE(tap.lastLine(), QByteArray("{\"line\":4}"));
    QCOMPARE(tap.written(), qint64(std::ftell(sink)));
    std::fclose(sink);
}

void TestOutputTap::lastLine_wherever_aWriteEnds_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("last"); // the last line ended that is not blank
    QTest::newRow("lines") << QByteArray("{\"a\":1}\n{\"b\":2}\n") << QByteArray("{\"b\":2}");
    QTest::newRow("blank lines after") << QByteArray("{\"a\":1}\n\n  \n\t\n") << QByteArray("{\"a\":1}");
    QTest::newRow("unended tail") << QByteArray("one\ntwo\nthree") << QByteArray("two");
    QTest::newRow("spaces kept") << QByteArray("x\n  padded  \n") << QByteArray("  padded  ");
    QTest::newRow("CRLF") << QByteArray("one\r\ntwo\r\n\r\n") << QByteArray("two\r");
    QTest::newRow("nothing ended") << QByteArray("no newline at all") << QByteArray();
    QTest::newRow("only blanks") << QByteArray("\n \n\n") << QByteArray();
}

void TestOutputTap::lastLine_wherever_aWriteEnds()
{
    // Every way of cutting the text into two or three writes gives the same last line: the tap
    // looks for it from each write's end, and a line may begin in one write and end in the next.
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, last);
    for (qsizetype a = 0; a <= text.size(); ++a) {
        for (qsizetype b = a; b <= text.size(); ++b) {
            FILE *sink = std::tmpfile();
            QVERIFY(sink);
            OutputTap tap(sink, false);
            tap.write(text.left(a));
            tap.write(text.mid(a, b - a));
            tap.write(text.mid(b));
            QVERIFY2(
                tap.lastLine() == last,
                qPrintable(
                    QStringLiteral("cut at %1 and %2: \"%3\"").arg(a).arg(b).arg(QString::fromUtf8(tap.lastLine()))));
            std::fclose(sink);
        }
    }
}

void TestOutputTap::keptSinceOther_startsOverWhenTheOtherWrites()
{
    FILE *out = std::tmpfile();
    FILE *err = std::tmpfile();
    OutputTap outTap(out, false);
    OutputTap errTap(err, true);
    errTap.watch(&outTap);
    errTap.write("flashdeck logs: reconnecting\n");
    outTap.write("{\"line\":1}\n");
    errTap.write("flashdeck logs: the connection was lost\n");
    QCOMPARE(errTap.keptSinceOther(), QStringLiteral("flashdeck logs: the connection was lost\n"));
    QVERIFY(errTap.kept().startsWith(QLatin1String("flashdeck logs: reconnecting")));
    std::fclose(out);
    std::fclose(err);
}

void TestOutputTap::closingError_data()
{
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QByteArray>("lastLine");
    QTest::addColumn<QString>("said");
    QTest::addColumn<QString>("message"); // empty: no closing object

    const QString lost = QStringLiteral("flashdeck logs: the connection was lost\nthe connection was lost\n");
    QTest::newRow("cut off after its lines")
        << 1 << QByteArray("{\"line\":7,\"text\":\"x\"}") << lost << QStringLiteral("the connection was lost");
    QTest::newRow("succeeded") << 0 << QByteArray("{\"line\":7}") << lost << QString();
    QTest::newRow("failed, said nothing more") << 1 << QByteArray("{\"line\":7}") << QString() << QString();
    QTest::newRow("its error object last") << 1 << QByteArray(R"({"error":{"code":"failed"}})") << lost << QString();
    QTest::newRow("chat's error last") << 1 << QByteArray(R"({"type":"error","message":"401"})") << lost << QString();
    QTest::newRow("a failed step last") << 1 << QByteArray(R"({"step":"ready","status":"fail"})") << lost << QString();
    QTest::newRow("a passed step last") << 1 << QByteArray(R"({"step":"ready","status":"pass"})")
                                        << QStringLiteral("flashdeck deploy: stopped\n") << QStringLiteral("stopped");
    QTest::newRow("unreachable, not JSON last")
        << 6 << QByteArray("partial {") << QStringLiteral("Host gone.\n") << QStringLiteral("Host gone.");
}

void TestOutputTap::closingError()
{
    QFETCH(int, exitCode);
    QFETCH(QByteArray, lastLine);
    QFETCH(QString, said);
    QFETCH(QString, message);
    const QByteArray closing = jsonClosingError(exitCode, lastLine, said);
    if (message.isEmpty()) {
        QVERIFY2(closing.isEmpty(), closing.constData());
        return;
    }
    QVERIFY(closing.endsWith('\n'));
    QCOMPARE(closing.count('\n'), 1);
    const QJsonObject o = QJsonDocument::fromJson(closing).object();
    QCOMPARE(o[QLatin1String("exit_code")].toInt(), exitCode);
    QCOMPARE(o[QLatin1String("error")].toObject()[QLatin1String("message")].toString(), message);
    QCOMPARE(o[QLatin1String("error")].toObject()[QLatin1String("code")].toString(),
             QString::fromLatin1(exitCodeName(exitCode)));
}

QTEST_GUILESS_MAIN(TestOutputTap)
#include "tst_outputtap.moc"
