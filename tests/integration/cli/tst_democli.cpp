#include "backend/core/processtree.h"
#include "tests/support/buildpaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

/**
 * `flashdeck demo` as a new user meets it, run as a real process: start prints how to
 * connect, OpenSSH's own `ssh` reaches the simulated host with what was printed, the hosts
 * are in the inventory marked simulated, and stop leaves no process behind.
 */
class TestDemoCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanupTestCase() { run({QStringLiteral("demo"), QStringLiteral("stop")}); }
    void startConnectStop();

private:
    struct Run
    {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };
    Run run(QStringList args, const QString &program = flashdeck::test::flashdeckBinary());

    QTemporaryDir m_config;
};

TestDemoCli::Run TestDemoCli::run(QStringList args, const QString &program)
{
    if (program == flashdeck::test::flashdeckBinary()) {
        args << QStringLiteral("--config-dir") << m_config.path();
    }
    QProcess p;
    p.start(program, args);
    Run r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

void TestDemoCli::startConnectStop()
{
    const Run start = run({QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--json")});
    QVERIFY2(start.exitCode == 0, start.err.constData());
    const QJsonArray hosts = QJsonDocument::fromJson(start.out).object()[QLatin1String("hosts")].toArray();
    QCOMPARE(hosts.size(), 2);
    QList<qint64> pids;
    for (const QJsonValue &v : hosts) {
        const QJsonObject h = v.toObject();
        QVERIFY(h[QLatin1String("simulated")].toBool());
        pids << h[QLatin1String("sshd_pid")].toInteger() << h[QLatin1String("daemon_pid")].toInteger()
             << h[QLatin1String("namespace_pid")].toInteger();
    }
    const QJsonObject demo = hosts.at(0).toObject();
    QCOMPARE(demo[QLatin1String("name")].toString(), QStringLiteral("demo"));
    QCOMPARE(demo[QLatin1String("scenario")].toString(), QStringLiteral("b300x4"));

    // Starting again finds it running and says the same.
    const Run again = run({QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--json")});
    QCOMPARE(again.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(again.out).object()[QLatin1String("hosts")].toArray(), hosts);

    // OpenSSH's own client, with exactly what the demo printed (and no config of this machine).
    const QString target =
        QStringLiteral("%1@%2").arg(demo[QLatin1String("user")].toString(), demo[QLatin1String("address")].toString());
    const Run smi =
        run({QStringLiteral("-F"), QStringLiteral("/dev/null"), QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
             QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=yes"), QStringLiteral("-o"),
             QStringLiteral("UserKnownHostsFile=") + demo[QLatin1String("known_hosts_file")].toString(),
             QStringLiteral("-i"), demo[QLatin1String("identity_file")].toString(), QStringLiteral("-p"),
             QString::number(demo[QLatin1String("port")].toInt()), target, QStringLiteral("nvidia-smi -L")},
            QStringLiteral("ssh"));
    QVERIFY2(smi.exitCode == 0, smi.err.constData());
    QCOMPARE(smi.out.count("NVIDIA B300"), 4);
    QVERIFY(smi.out.startsWith("GPU 0: NVIDIA B300"));

    const Run list = run({QStringLiteral("hosts"), QStringLiteral("list"), QStringLiteral("--json")});
    QVERIFY(list.out.contains("\"name\":\"demo\""));
    QVERIFY(list.out.contains("\"simulated\":true"));

    const Run stop = run({QStringLiteral("demo"), QStringLiteral("stop")});
    QVERIFY2(stop.exitCode == 0, stop.err.constData());
    for (const qint64 pid : pids) {
        QVERIFY2(!flashdeck::processAlive(pid), qPrintable(QStringLiteral("pid %1 still alive").arg(pid)));
    }
    const Run after = run({QStringLiteral("hosts"), QStringLiteral("list"), QStringLiteral("--json")});
    QVERIFY(!after.out.contains("\"name\":\"demo\""));
    const Run status = run({QStringLiteral("demo"), QStringLiteral("status"), QStringLiteral("--json")});
    QCOMPARE(status.out.trimmed(), QByteArray(R"({"hosts":[]})"));
}

QTEST_GUILESS_MAIN(TestDemoCli)
#include "tst_democli.moc"
