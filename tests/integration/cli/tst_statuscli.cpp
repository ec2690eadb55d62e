#include "tests/integration/cli/clirun.h"
#include "tests/integration/cli/demoguard.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

/**
 * `flashdeck status` as a real process over real SSH: the JSON contract of issue 7 for the
 * demo's two hosts (before and after a deployment), null for what a host cannot give, and a
 * host that cannot be reached (exit 1, state and error say so).
 */
class TestStatusCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void jsonContract_beforeAndAfterADeployment();

private:
    using Run = CliRun;
    static Run run(const QString &config, QStringList args) { return runFlashdeck(config, std::move(args)); }
    static QMap<QString, QJsonObject> byHost(const QByteArray &lines) { return statusByHost(lines); }
};

void TestStatusCli::jsonContract_beforeAndAfterADeployment()
{
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    QCOMPARE(
        run(config.path(),
            {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--time-factor"), QStringLiteral("0.01")})
            .exitCode,
        0);
    const Run idle = run(config.path(), {QStringLiteral("status"), QStringLiteral("--json")});
    QCOMPARE(run(config.path(),
                 {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
                  QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("60")})
                 .exitCode,
             0);
    const Run deployed =
        run(config.path(), {QStringLiteral("status"), QStringLiteral("demo"), QStringLiteral("--json")});
    const Run text = run(config.path(), {QStringLiteral("status"), QStringLiteral("demo"), QStringLiteral("demo-amd")});
    const Run zh =
        run(config.path(),
            {QStringLiteral("--lang"), QStringLiteral("zh_CN"), QStringLiteral("status"), QStringLiteral("demo")});
    // A host whose sshd is gone: nothing listens on that port.
    QCOMPARE(run(config.path(),
                 {QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("gone"), QStringLiteral("--ssh"),
                  QStringLiteral("root@127.0.0.1:1")})
                 .exitCode,
             0);
    const Run gone = run(config.path(),
                         {QStringLiteral("status"), QStringLiteral("gone"), QStringLiteral("--json"),
                          QStringLiteral("--timeout"), QStringLiteral("20")});
    run(config.path(), {QStringLiteral("undeploy"), QStringLiteral("demo")});
    // After undeploy: no deployment, not a server that is down (and no alert about one).
    const Run undeployed =
        run(config.path(), {QStringLiteral("status"), QStringLiteral("demo"), QStringLiteral("--json")});
    const Run undeployedText = run(config.path(), {QStringLiteral("status"), QStringLiteral("demo")});
    run(config.path(), {QStringLiteral("demo"), QStringLiteral("stop")});
    const QJsonObject after = byHost(undeployed.out).value(QStringLiteral("demo"));
    QCOMPARE(after[QLatin1String("container")].toObject()[QLatin1String("state")].toString(), QStringLiteral("none"));
    QVERIFY2(after[QLatin1String("server")].isNull(), undeployed.out.constData());
    QVERIFY2(after[QLatin1String("alerts")].toArray().isEmpty(), undeployed.out.constData());
    QVERIFY2(undeployedText.out.contains("no deployment") && !undeployedText.out.contains(" down "),
             undeployedText.out.constData());

    QVERIFY2(idle.exitCode == 0, idle.err.constData());
    const auto before = byHost(idle.out);
    QCOMPARE(before.size(), 2);
    const QJsonObject amd = before.value(QStringLiteral("demo-amd"));
    QCOMPARE(amd[QLatin1String("state")].toString(), QStringLiteral("up"));
    QCOMPARE(amd[QLatin1String("gpus")].toArray().size(), 8);
    const QJsonObject gpu = amd[QLatin1String("gpus")].toArray().first().toObject();
    for (const char *key :
         {"index", "name", "memory_used_mib", "memory_total_mib", "utilization_pct", "temperature_c", "power_w"}) {
        QVERIFY2(gpu.contains(QLatin1String(key)), key);
    }
    QVERIFY(amd[QLatin1String("server")].isNull()); // no deployment: nothing invented
    QVERIFY(amd[QLatin1String("pins")].isNull());
    QCOMPARE(amd[QLatin1String("container")].toObject()[QLatin1String("state")].toString(), QStringLiteral("none"));
    QVERIFY(amd[QLatin1String("alerts")].toArray().isEmpty());

    QVERIFY2(deployed.exitCode == 0, deployed.err.constData());
    const QJsonObject demo = byHost(deployed.out).value(QStringLiteral("demo"));
    QCOMPARE(demo[QLatin1String("gpus")].toArray().size(), 4);
    QCOMPARE(demo[QLatin1String("container")].toObject()[QLatin1String("state")].toString(), QStringLiteral("running"));
    QCOMPARE(demo[QLatin1String("profile")].toString(), QStringLiteral("b300x4-balanced"));
    // The deployment's pins, as flashdeck pins prints them.
    const QJsonObject pins = demo[QLatin1String("pins")].toObject();
    QCOMPARE(pins[QLatin1String("image_digest")].toString(), demo[QLatin1String("image_digest")].toString());
    QVERIFY(pins[QLatin1String("image_digest")].toString().startsWith(QLatin1String("sha256:")));
    QCOMPARE(pins[QLatin1String("model_revision")].toString(), demo[QLatin1String("model_sha")].toString());
    QCOMPARE(pins[QLatin1String("launch_sha256")].toString().size(), 64);
    QCOMPARE(pins[QLatin1String("profile")].toString(), QStringLiteral("b300x4-balanced"));
    const QJsonObject server = demo[QLatin1String("server")].toObject();
    QCOMPARE(server[QLatin1String("health")].toString(), QStringLiteral("ok"));
    for (const char *key : {"health", "token_usage", "used_tokens", "max_tokens", "running", "queued", "gen_throughput",
                            "cache_hit_rate", "spec_accept_length", "ttft_p50_s", "ttft_p95_s"}) {
        QVERIFY2(server.contains(QLatin1String(key)), key);
    }
    QCOMPARE(server[QLatin1String("max_tokens")].toDouble(), 10400000.0);
    QVERIFY(server[QLatin1String("ttft_p95_s")].isNull()); // no requests seen in the window: null, not 0
    QVERIFY2(text.out.contains("demo") && text.out.contains("running") && text.out.contains("4× NVIDIA B300"),
             text.out.constData());
    // Every column lines up under its header, whatever the widths of the hosts' cells.
    const QStringList lines = QString::fromUtf8(text.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(lines.size() >= 3 && lines.first().startsWith(QLatin1String("HOST")));
    for (const char *column : {"STATE", "GPUS", "CONTAINER", "HEALTH", "KV", "TOK/S", "DISK", "ALERTS"}) {
        const qsizetype at = lines.first().indexOf(QLatin1String(column));
        QVERIFY2(at > 0, column);
        for (qsizetype row = 1; row < 3; ++row) { // the two hosts' rows
            const QString &l = lines.at(row);
            QVERIFY2(l.size() > at && l.at(at - 1) == QLatin1Char(' ') && l.at(at) != QLatin1Char(' '),
                     qPrintable(QStringLiteral("%1 in\n%2\n%3").arg(QLatin1String(column), lines.first(), l)));
        }
    }

    // In Chinese the headers and states are Chinese too (they were English beside Chinese words).
    const QString zhText = QString::fromUtf8(zh.out);
    QVERIFY2(zhText.startsWith(QStringLiteral("主机")) && zhText.contains(QStringLiteral("磁盘")) &&
                 zhText.contains(QStringLiteral("在线")) && !zhText.contains(QLatin1String("HOST")),
             qPrintable(zhText));

    QCOMPARE(gone.exitCode, 1);
    const QJsonObject g = byHost(gone.out).value(QStringLiteral("gone"));
    QVERIFY2(g[QLatin1String("state")].toString() != QLatin1String("up"), gone.out.constData());
    QVERIFY(!g[QLatin1String("error")].toString().isEmpty());
    QCOMPARE(g[QLatin1String("alerts")].toArray().first().toObject()[QLatin1String("id")].toString(),
             QStringLiteral("host-unreachable"));
}

QTEST_GUILESS_MAIN(TestStatusCli)
#include "tst_statuscli.moc"
