#include "backend/applog/levelspec.h"

#include <QTest>

using namespace flashdeck::applog;

class TestLevelSpec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_valid_data();
    void parse_valid();
    void parse_invalid_data();
    void parse_invalid();
};

void TestLevelSpec::parse_valid_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("defaultLevel"); // empty: none given
    QTest::addColumn<QString>("ssh");
    QTest::addColumn<QString>("deploy");

    QTest::newRow("empty") << QString() << QString() << QString() << QString();
    QTest::newRow("issue example") << QStringLiteral("ssh=debug,deploy=info") << QString() << QStringLiteral("debug")
                                   << QStringLiteral("info");
    QTest::newRow("default only") << QStringLiteral("warn") << QStringLiteral("warn") << QString() << QString();
    QTest::newRow("mixed, spaces, case") << QStringLiteral(" SSH = Trace , error ") << QStringLiteral("error")
                                         << QStringLiteral("trace") << QString();
    QTest::newRow("warning alias and trailing comma")
        << QStringLiteral("deploy=warning,") << QString() << QString() << QStringLiteral("warn");
    QTest::newRow("off") << QStringLiteral("ssh=off") << QString() << QStringLiteral("off") << QString();
}

void TestLevelSpec::parse_valid()
{
    QFETCH(QString, spec);
    QFETCH(QString, defaultLevel);
    QFETCH(QString, ssh);
    QFETCH(QString, deploy);

    const auto result = parseLevelSpec(spec);
    QVERIFY2(result.isOk(), qPrintable(result.message()));
    const LevelSpec &parsed = result.value();
    QCOMPARE(parsed.defaultLevel ? levelName(*parsed.defaultLevel) : QString(), defaultLevel);
    const auto get = [&parsed](const char *name) {
        const auto it = parsed.perSubsystem.find(name);
        return it == parsed.perSubsystem.end() ? QString() : levelName(it->second);
    };
    QCOMPARE(get("ssh"), ssh);
    QCOMPARE(get("deploy"), deploy);
}

void TestLevelSpec::parse_invalid_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("mentions");

    QTest::newRow("unknown level") << QStringLiteral("ssh=loud") << QStringLiteral("\"loud\"");
    QTest::newRow("unknown subsystem") << QStringLiteral("sshd=debug") << QStringLiteral("\"sshd\"");
    QTest::newRow("two defaults") << QStringLiteral("debug,info") << QStringLiteral("more than one default");
    QTest::newRow("empty level") << QStringLiteral("ssh=") << QStringLiteral("Unknown log level");
}

void TestLevelSpec::parse_invalid()
{
    QFETCH(QString, spec);
    QFETCH(QString, mentions);
    const auto result = parseLevelSpec(spec);
    QVERIFY(!result.isOk());
    QVERIFY2(result.message().contains(mentions), qPrintable(result.message()));
}

QTEST_GUILESS_MAIN(TestLevelSpec)
#include "tst_levelspec.moc"
