#include "backend/core/heldlock.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

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
    void anotherUser_cannotOpenIt();
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

void TestHeldLock::anotherUser_cannotOpenIt()
{
    // Whoever can hold it can make the fleet read an outage as planned: only its owner opens it,
    // even in a folder others may enter (the data folder is 0700 besides).
    QTemporaryDir dir;
    QVERIFY(QFile::setPermissions(dir.path(),
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther |
                                      QFile::ExeOther | QFile::ReadGroup | QFile::ExeGroup));
    const QString path = dir.filePath(QStringLiteral("upgrade.lock"));
    HeldLock lock(path);
    QVERIFY(lock.acquire().isOk());
    QCOMPARE(QFile::permissions(path) & ~(QFile::ReadUser | QFile::WriteUser), QFile::ReadOwner | QFile::WriteOwner);
    const QString runuser = QStandardPaths::findExecutable(QStringLiteral("runuser"));
    if (::geteuid() != 0 || runuser.isEmpty()) {
        return; // the mode above is what keeps others out; as root, tried below as nobody
    }
    QProcess other;
    other.start(runuser,
                {QStringLiteral("-u"), QStringLiteral("nobody"), QStringLiteral("--"), QStringLiteral("sh"),
                 QStringLiteral("-c"), QStringLiteral("exec 3<\"$1\" && echo opened"), QStringLiteral("sh"), path});
    QVERIFY(other.waitForFinished(30000));
    QVERIFY2(other.exitCode() != 0, other.readAllStandardOutput().constData());
    QVERIFY2(other.readAllStandardError().contains("Permission denied"), "another user's open was not refused");
}

QTEST_GUILESS_MAIN(TestHeldLock)
#include "tst_heldlock.moc"
