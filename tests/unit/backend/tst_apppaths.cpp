#include "backend/core/apppaths.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using flashdeck::AppPaths;

class TestAppPaths : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void standard_locations_comeFromQStandardPaths();
    void configDir_override_rootsEverything();
    void configDir_relative_isMadeAbsolute();
    void ensureExists_createsPrivateFolders();
    void ensureExists_unwritableRoot_explains();
};

void TestAppPaths::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(QStringLiteral("flashdeck"));
}

void TestAppPaths::standard_locations_comeFromQStandardPaths()
{
    const AppPaths paths;
    QVERIFY(!paths.isOverridden());
    QCOMPARE(paths.configDir(), QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation));
    QCOMPARE(paths.dataDir(), QStandardPaths::writableLocation(QStandardPaths::AppDataLocation));
    QVERIFY(paths.logDir().startsWith(paths.dataDir()));
    // Test mode keeps us out of the developer's real ~/.config.
    QVERIFY2(paths.configDir().contains(QStringLiteral("qttest")), qPrintable(paths.configDir()));
}

void TestAppPaths::configDir_override_rootsEverything()
{
    QTemporaryDir root;
    QVERIFY(root.isValid());
    const AppPaths paths(root.path());
    QVERIFY(paths.isOverridden());
    for (const QString &p : {paths.configDir(), paths.dataDir(), paths.logDir(), paths.runtimeDir(),
                             paths.settingsFile(), paths.inventoryFile()}) {
        QVERIFY2(p.startsWith(root.path()), qPrintable(p));
    }
    QCOMPARE(paths.inventoryFile(), root.path() + QStringLiteral("/hosts.json"));
}

void TestAppPaths::configDir_relative_isMadeAbsolute()
{
    const AppPaths paths(QStringLiteral("some/relative/dir"));
    QVERIFY(QFileInfo(paths.configDir()).isAbsolute());
    QVERIFY(paths.configDir().endsWith(QStringLiteral("some/relative/dir")));
}

void TestAppPaths::ensureExists_createsPrivateFolders()
{
    QTemporaryDir root;
    const AppPaths paths(root.path() + QStringLiteral("/nested/cfg"));
    QString error;
    QVERIFY2(paths.ensureExists(&error), qPrintable(error));
    for (const QString &dir : {paths.configDir(), paths.dataDir(), paths.logDir(), paths.runtimeDir()}) {
        const QFileInfo info(dir);
        QVERIFY(info.isDir());
        QCOMPARE(info.permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());
    }
}

void TestAppPaths::ensureExists_unwritableRoot_explains()
{
    QTemporaryDir root;
    // A regular file where a folder must go fails for root and ordinary users alike.
    QFile blocker(root.path() + QStringLiteral("/file"));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const AppPaths paths(blocker.fileName() + QStringLiteral("/cfg"));
    QString error;
    QVERIFY(!paths.ensureExists(&error));
    QVERIFY2(error.contains(QStringLiteral("Cannot create the folder")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("--config-dir")), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestAppPaths)
#include "tst_apppaths.moc"
