#include "backend/core/heldlock.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck;

/**
 * The lock an upgrade holds while it runs: seen held from this process (the window that runs the
 * upgrade asks too), never taken by asking, and gone with its holder — a file an interrupted run
 * left behind is no run.
 */
class TestHeldLock : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void heldWhileHeld_freeAfter_askingTakesNothing();
};

void TestHeldLock::heldWhileHeld_freeAfter_askingTakesNothing()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("upgrade.lock"));
    QVERIFY(!HeldLock::isHeld(path)); // no file: nobody runs
    {
        HeldLock lock(path);
        QVERIFY(lock.acquire().isOk());
        QVERIFY(HeldLock::isHeld(path)); // this process asks too (the window runs the upgrade)
        QVERIFY(HeldLock::isHeld(path)); // asking took nothing
        HeldLock second(path);
        const Status refused = second.acquire();
        QVERIFY(!refused.isOk());
        QVERIFY2(refused.message().contains(QLatin1String("held by another run")), qPrintable(refused.message()));
        QCOMPARE(QFile::permissions(path) & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());
    }
    QVERIFY(QFile::exists(path)); // left behind, as after a Ctrl+C …
    QVERIFY(!HeldLock::isHeld(path)); // … and not held
    HeldLock again(path);
    QVERIFY(again.acquire().isOk());
}

QTEST_GUILESS_MAIN(TestHeldLock)
#include "tst_heldlock.moc"
