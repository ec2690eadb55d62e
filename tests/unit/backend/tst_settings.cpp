#include "backend/core/apppaths.h"
#include "backend/core/settings.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

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
};

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

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
