#include "backend/core/format.h"

#include <QTest>

using namespace flashdeck;

namespace {

/** The narrow no-break space the formatter groups digits with. */
QString n(QString s)
{
    return s.replace(QLatin1Char('_'), QChar(0x202F));
}

} // namespace

/**
 * The one formatter the window and the command line share: GiB for memory (from the MiB the GPU
 * tools count), GB for bytes on disk, labelled, and a dash for what is not known. The window's
 * Fleet table and `status` once said 1 843 / 2 304 GiB and 1 758 / 2 197 GiB of the same GPUs.
 */
class TestFormat : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void memory_data();
    void memory();
    void disk_data();
    void disk();
    void unknownIsADash();
};

void TestFormat::memory_data()
{
    QTest::addColumn<double>("usedMib");
    QTest::addColumn<double>("totalMib");
    QTest::addColumn<QString>("pair");
    QTest::addColumn<QString>("exact");
    // 4 × B300 as nvidia-smi counts them (562 500 MiB each is 549.3 GiB; 288 GB the page's).
    QTest::newRow("four B300, mostly full")
        << 1800000.0 << 2250000.0 << n(QStringLiteral("1_758 / 2_197 GiB")) << n(QStringLiteral("1757.8 GiB"));
    QTest::newRow("one H200") << 130000.0 << 143771.0 << n(QStringLiteral("127 / 140 GiB"))
                              << n(QStringLiteral("127.0 GiB"));
    QTest::newRow("a little") << 7680.0 << 8192.0 << n(QStringLiteral("7.5 / 8.0 GiB")) << n(QStringLiteral("7.5 GiB"));
    QTest::newRow("idle") << 0.0 << 143771.0 << n(QStringLiteral("0.0 / 140 GiB")) << n(QStringLiteral("0.0 GiB"));
}

void TestFormat::memory()
{
    QFETCH(double, usedMib);
    QFETCH(double, totalMib);
    QFETCH(QString, pair);
    QFETCH(QString, exact);
    QCOMPARE(fmt::gibOf(usedMib, totalMib), pair);
    QCOMPARE(fmt::gibExact(usedMib), exact);
    // Each figure alone is the compact one, so the pair and a lone figure never disagree.
    QCOMPARE(fmt::gib(usedMib).chopped(4) + QStringLiteral(" / ") + fmt::gib(totalMib), pair);
}

void TestFormat::disk_data()
{
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<QString>("compact");
    QTest::addColumn<QString>("exact");
    QTest::addColumn<QString>("automatic");
    QTest::newRow("a 3.84 TB disk") << qint64(3840000000000) << n(QStringLiteral("3_840 GB"))
                                    << QStringLiteral("3840.0 GB") << QStringLiteral("3.84 TB");
    QTest::newRow("the weights") << qint64(252000000000) << n(QStringLiteral("252 GB")) << QStringLiteral("252.0 GB")
                                 << QStringLiteral("252 GB");
    QTest::newRow("a pull") << qint64(14200000000) << n(QStringLiteral("14 GB")) << QStringLiteral("14.2 GB")
                            << QStringLiteral("14.2 GB");
    QTest::newRow("a draft model") << qint64(412000000) << n(QStringLiteral("0 GB")) << QStringLiteral("0.4 GB")
                                   << QStringLiteral("412 MB");
}

void TestFormat::disk()
{
    QFETCH(qint64, bytes);
    QFETCH(QString, compact);
    QFETCH(QString, exact);
    QFETCH(QString, automatic);
    QCOMPARE(fmt::gigabytes(bytes), compact);
    QCOMPARE(fmt::gbExact(bytes), exact);
    QCOMPARE(fmt::bytes(bytes), automatic);
    QCOMPARE(fmt::gbNumber(bytes) + QStringLiteral(" GB"), exact);
}

void TestFormat::unknownIsADash()
{
    QCOMPARE(fmt::gib(std::nullopt), QStringLiteral("–"));
    QCOMPARE(fmt::gigabytes(std::nullopt), QStringLiteral("–"));
    QCOMPARE(fmt::bytes(std::nullopt), QStringLiteral("–"));
    QCOMPARE(fmt::percent(std::nullopt), QStringLiteral("–"));
}

QTEST_GUILESS_MAIN(TestFormat)
#include "tst_format.moc"
