#include "tests/integration/cli/clirun.h"
#include "tests/integration/cli/demoguard.h"
#include "tests/support/buildpaths.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

/**
 * `flashdeck logs HOST` as a real process over real SSH against the demo's deployment: the
 * JSON contract of issue 6 with Docker's time and stream, the badges' verdict, --tail, and a
 * --follow that keeps streaming until Ctrl+C and then exits cleanly.
 */
class TestLogsCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void deploymentLog_jsonTailAndFollow();

private:
    using Run = CliRun;
    static Run run(const QString &config, QStringList args) { return runFlashdeck(config, std::move(args)); }
    static QList<QJsonObject> objects(const QByteArray &lines)
    {
        QList<QJsonObject> out;
        for (const QByteArray &l : lines.split('\n')) {
            if (!l.isEmpty()) {
                out.append(QJsonDocument::fromJson(l).object());
            }
        }
        return out;
    }
};

void TestLogsCli::deploymentLog_jsonTailAndFollow()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    QCOMPARE(
        run(config.path(),
            {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--time-factor"), QStringLiteral("0.01")})
            .exitCode,
        0);
    const Run deployed =
        run(config.path(),
            {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
             QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("60")});
    QVERIFY2(deployed.exitCode == 0, deployed.err.constData());

    // With --polls every line of the log, numbered as it is; without, the health and metrics polls
    // are folded and the others keep their numbers.
    const Run all =
        run(config.path(),
            {QStringLiteral("logs"), QStringLiteral("demo"), QStringLiteral("--json"), QStringLiteral("--polls")});
    QVERIFY2(all.exitCode == 0, all.err.constData());
    const Run folded = run(config.path(), {QStringLiteral("logs"), QStringLiteral("demo"), QStringLiteral("--json")});
    QVERIFY2(folded.exitCode == 0, folded.err.constData());
    {
        qint64 last = 0;
        for (const QJsonObject &o : objects(folded.out)) {
            QVERIFY(o[QLatin1String("line")].toInteger() > last);
            last = o[QLatin1String("line")].toInteger();
            QVERIFY2(o[QLatin1String("rule")].toString() != QLatin1String("poll"),
                     qPrintable(o[QLatin1String("text")].toString()));
        }
        QVERIFY(objects(folded.out).size() < objects(all.out).size()); // the deploy's own /health polls
    }
    const QList<QJsonObject> lines = objects(all.out);
    QVERIFY(lines.size() > 10);
    QStringList rules;
    qint64 number = 0;
    for (const QJsonObject &o : lines) {
        QCOMPARE(o[QLatin1String("line")].toInteger(), ++number);
        QVERIFY(o.contains(QLatin1String("text")));
        QVERIFY(o[QLatin1String("time")].toString().endsWith(QLatin1Char('Z')));
        QVERIFY(o[QLatin1String("stream")].toString() == QLatin1String("stdout") ||
                o[QLatin1String("stream")].toString() == QLatin1String("stderr"));
        const QString severity = o[QLatin1String("severity")].toString();
        QVERIFY2(QStringList({QStringLiteral("ok"), QStringLiteral("info"), QStringLiteral("warn"),
                              QStringLiteral("error"), QStringLiteral("plain")})
                     .contains(severity),
                 qPrintable(severity));
        if (!o[QLatin1String("rule")].isNull()) {
            rules << o[QLatin1String("rule")].toString();
        }
        if (o[QLatin1String("rule")].toString() == QLatin1String("kv-pool")) {
            QVERIFY(o[QLatin1String("kv_tokens")].toInteger() > 0);
        }
    }
    for (const char *want : {"qmul4-ok", "dspark-ok", "ready", "kv-pool"}) {
        QVERIFY2(rules.contains(QLatin1String(want)), want);
    }

    const Run text =
        run(config.path(), {QStringLiteral("logs"), QStringLiteral("demo"), QStringLiteral("--highlights-only")});
    QVERIFY2(text.exitCode == 0, text.err.constData());
    QVERIFY2(text.err.contains("qmul4: fast path · DSpark: draft loaded"), text.err.constData());
    QVERIFY(text.out.contains("✓ ready"));

    const Run tail = run(config.path(),
                         {QStringLiteral("logs"), QStringLiteral("demo"), QStringLiteral("--tail"), QStringLiteral("3"),
                          QStringLiteral("--timestamps")});
    QVERIFY2(tail.exitCode == 0, tail.err.constData());
    QCOMPARE(tail.out.count('\n'), 3);
    QVERIFY(tail.out.startsWith(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-")).toUtf8()));

    // --follow keeps the stream open until Ctrl+C, then exits 0 with the verdict.
    QProcess follow;
    follow.start(flashdeck::test::flashdeckBinary(),
                 {QStringLiteral("logs"), QStringLiteral("demo"), QStringLiteral("--follow"), QStringLiteral("--tail"),
                  QStringLiteral("2"), QStringLiteral("--config-dir"), config.path()});
    QByteArray followed;
    QTRY_VERIFY_WITH_TIMEOUT((followed += follow.readAllStandardOutput()).count('\n') >= 2, 60000);
    QCOMPARE(follow.state(), QProcess::Running);
    ::kill(pid_t(follow.processId()), SIGINT);
    QVERIFY(follow.waitForFinished(30000));
    QCOMPARE(follow.exitStatus(), QProcess::NormalExit);
    QCOMPARE(follow.exitCode(), 0);

    QCOMPARE(run(config.path(), {QStringLiteral("logs"), QStringLiteral("nowhere")}).exitCode, 2);
    QCOMPARE(run(config.path(),
                 {QStringLiteral("logs"), QStringLiteral("demo"), QStringLiteral("--tail"), QStringLiteral("many")})
                 .exitCode,
             2);
    run(config.path(), {QStringLiteral("undeploy"), QStringLiteral("demo")});
}

QTEST_GUILESS_MAIN(TestLogsCli)
#include "tst_logscli.moc"
