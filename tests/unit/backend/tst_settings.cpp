#include "backend/core/apppaths.h"
#include "backend/core/settings.h"
#include "tests/support/releasetogether.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

using flashdeck::AppPaths;
using flashdeck::Settings;

class TestSettings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void values_roundTripThroughTheConfigDir();
    void twoConfigDirs_areIndependent();
    void defaults_whenFileMissing();
    void sync_unwritableFile_explains();
    void concurrentProcesses_eachSetsItsKey_noneLost();
};

namespace {
/** A child process: waits for "go" on stdin, then sets its one key and writes the file. */
int setOneKey(const QString &root, const QString &key, double value)
{
    std::string go;
    std::getline(std::cin, go);
    Settings settings{AppPaths(root)};
    settings.setAlertThreshold(key, value);
    QString error;
    if (!settings.sync(&error)) {
        std::cerr << error.toStdString() << '\n';
        return 1;
    }
    return 0;
}
} // namespace

void TestSettings::values_roundTripThroughTheConfigDir()
{
    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    {
        Settings settings(paths);
        settings.setLogLevels(QStringLiteral("ssh=debug"));
        settings.setLastHost(QStringLiteral("b300-a"));
        settings.setLastPage(3);
        QVERIFY(settings.sync());
        QCOMPARE(settings.fileName(), root.path() + QStringLiteral("/flashdeck.ini"));
    }
    QVERIFY(QFile::exists(root.path() + QStringLiteral("/flashdeck.ini")));
    Settings reread(paths);
    QCOMPARE(reread.logLevels(), QStringLiteral("ssh=debug"));
    QCOMPARE(reread.lastHost(), QStringLiteral("b300-a"));
    QCOMPARE(reread.lastPage(), 3);
}

void TestSettings::twoConfigDirs_areIndependent()
{
    QTemporaryDir a;
    QTemporaryDir b;
    Settings first{AppPaths(a.path())};
    Settings second{AppPaths(b.path())};
    first.setLastHost(QStringLiteral("alpha"));
    QVERIFY(first.sync());
    QVERIFY(second.lastHost().isEmpty());
}

void TestSettings::defaults_whenFileMissing()
{
    QTemporaryDir root;
    Settings settings{AppPaths(root.path())};
    QCOMPARE(settings.lastPage(), 0);
    QVERIFY(settings.logLevels().isEmpty());
    QVERIFY(settings.windowGeometry().isEmpty());
}

void TestSettings::sync_unwritableFile_explains()
{
    QTemporaryDir root;
    // The settings "file" is a folder: no user, root included, can write it.
    QVERIFY(QDir(root.path()).mkpath(QStringLiteral("flashdeck.ini")));
    Settings settings{AppPaths(root.path())};
    settings.setLastHost(QStringLiteral("x"));
    QString error;
    QVERIFY(!settings.sync(&error));
    QVERIFY2(error.contains(QStringLiteral("Could not save settings")), qPrintable(error));
}

void TestSettings::concurrentProcesses_eachSetsItsKey_noneLost()
{
    // Each writer sets its one key, never a snapshot read earlier (issue 40): QSettings re-reads
    // the file under its lock file (QLockFile, <file>.lock) at sync() and writes only the keys
    // this object changed. Twelve processes at once, and the window's own Settings, read before
    // them and written after: every key is there.
    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    Settings window(paths);
    QCOMPARE(window.lastPage(), 0);
    std::vector<std::unique_ptr<QProcess>> children;
    for (int i = 0; i < 12; ++i) {
        auto p = std::make_unique<QProcess>();
        p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p->start(QCoreApplication::applicationFilePath(),
                 {QStringLiteral("--set"), root.path(), QStringLiteral("key%1").arg(i), QString::number(i)});
        QVERIFY2(p->waitForStarted(), qPrintable(p->errorString()));
        children.push_back(std::move(p));
    }
    const QString released = flashdeck::test::releaseTogether(children);
    QVERIFY2(released.isEmpty(), qPrintable(released));
    window.setLastPage(4);
    QVERIFY(window.sync());
    const Settings reread(paths);
    QCOMPARE(reread.lastPage(), 4);
    for (int i = 0; i < 12; ++i) {
        QCOMPARE(reread.alertThreshold(QStringLiteral("key%1").arg(i), -1), double(i));
    }
}

int main(int argc, char **argv)
{
    if (argc == 5 && qstrcmp(argv[1], "--set") == 0) {
        // As in flashdeck itself, an application object first: QSettings' lock file
        // (QLockFile) records the application's name and takes a lock whose holder's process name
        // differs from it for a stale one.
        QCoreApplication app(argc, argv);
        return setOneKey(QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[3]), std::atof(argv[4]));
    }
    QCoreApplication app(argc, argv);
    TestSettings test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_settings.moc"
