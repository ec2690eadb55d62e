#include "backend/core/atomicfile.h"
#include "tests/support/tmpfsmount.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck;

/**
 * Every file Flashdeck replaces (host inventory, manifest, acknowledgements, chart history,
 * exports) goes through writeFileAtomically: on a really full disk the old file must survive
 * whole and the reason must be the system's (issue 9).
 */
class TestAtomicFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void replaces_andKeepsPermissions();
    void fullDisk_keepsTheOldFile_data();
    void fullDisk_keepsTheOldFile();
};

namespace {
QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}
} // namespace

void TestAtomicFile::replaces_andKeepsPermissions()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("hosts.json"));
    QVERIFY(writeFileAtomically(path, "one", QFile::ReadOwner | QFile::WriteOwner));
    QVERIFY(writeFileAtomically(path, "two", QFile::ReadOwner | QFile::WriteOwner));
    QCOMPARE(contents(path), QByteArray("two"));
    QCOMPARE(int(QFile::permissions(path)) & 0x7077, int(QFile::ReadOwner | QFile::WriteOwner)); // owner, group, other
}

void TestAtomicFile::fullDisk_keepsTheOldFile_data()
{
    QTest::addColumn<int>("newSize");
    // Small: it sits in QSaveFile's buffer until the flush, the case Qt 6.4's commit() misses
    // (it renamed an empty file over the old one and returned true). Large: write() fails first.
    QTest::newRow("buffered (3 KB)") << 3000;
    QTest::newRow("written through (200 KB)") << 200000;
}

void TestAtomicFile::fullDisk_keepsTheOldFile()
{
    QFETCH(int, newSize);
    QTemporaryDir dir;
    test::TmpfsMount disk(dir.filePath(QStringLiteral("disk")), 512);
    QVERIFY2(disk.isMounted(), qPrintable(disk.error()));
    const QString path = dir.filePath(QStringLiteral("disk/manifest.json"));
    QVERIFY(writeFileAtomically(path, "{\"ok\": true}\n"));
    QVERIFY(disk.fill() > 0);
    const Status s = writeFileAtomically(path, QByteArray(newSize, 'n'));
    QVERIFY(!s);
    QCOMPARE(s.message(), QStringLiteral("No space left on device"));
    QCOMPARE(contents(path), QByteArray("{\"ok\": true}\n"));
    QCOMPARE(QDir(dir.filePath(QStringLiteral("disk"))).entryList(QDir::Files | QDir::NoDotAndDotDot).size(),
             1); // no temporary file left behind
    disk.unfill();
    QVERIFY(writeFileAtomically(path, QByteArray(newSize, 'n')));
    QCOMPARE(contents(path).size(), newSize);
}

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomicfile.moc"
