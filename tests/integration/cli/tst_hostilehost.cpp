#include "tests/support/sshdfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>

using namespace flashdeck::test;

/**
 * A hostile host (issue 9): its `nvidia-smi` prints garbage, an enormous line, invalid UTF-8,
 * ANSI escapes, an XML entity bomb, endless output, or nothing at all, or hangs. A real sshd
 * serves it (its PATH starts with the hostile tools). `flashdeck deploy` must fail the GPU
 * step with a clear, safe message in bounded time and bounded memory, and write no control
 * character anywhere the operator reads.
 */
class TestHostileHost : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void hostileNvidiaSmi_data();
    void hostileNvidiaSmi();

private:
    QTemporaryDir m_home;
    QTemporaryDir m_tools;
    QTemporaryDir m_config;
    std::unique_ptr<SshdFixture> m_sshd;
};

void TestHostileHost::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    isolateSshEnvironment(m_home.path());
    SshdFixture::Options options;
    options.pathPrefix = {m_tools.path()};
    m_sshd = std::make_unique<SshdFixture>(options);
    QString error;
    QVERIFY2(m_sshd->start(&error), qPrintable(error));
    const QString key = m_sshd->addClientKey(QStringLiteral("id_hostile"));
    QProcess add;
    add.start(QStringLiteral(FLASHDECK_BINARY),
              {QStringLiteral("--config-dir"), m_config.path(), QStringLiteral("hosts"), QStringLiteral("add"),
               QStringLiteral("hostile"), QStringLiteral("--ssh"),
               QStringLiteral("%1@127.0.0.1:%2").arg(SshdFixture::currentUser()).arg(m_sshd->port()),
               QStringLiteral("--identity"), key, QStringLiteral("--known-hosts"),
               m_home.filePath(QStringLiteral("known_hosts"))});
    QVERIFY(add.waitForFinished(60000));
    QCOMPARE(add.exitCode(), 0);
    QProcess check;
    check.start(QStringLiteral(FLASHDECK_BINARY),
                {QStringLiteral("--config-dir"), m_config.path(), QStringLiteral("hosts"), QStringLiteral("check"),
                 QStringLiteral("hostile"), QStringLiteral("--accept-new-host-key")});
    QVERIFY(check.waitForFinished(60000));
    QVERIFY2(check.exitCode() == 0, check.readAllStandardError().constData());
}

void TestHostileHost::cleanupTestCase()
{
    m_sshd.reset();
}

void TestHostileHost::hostileNvidiaSmi_data()
{
    QTest::addColumn<QByteArray>("script"); // the body of the hostile nvidia-smi (sh)
    QTest::addColumn<QString>("mentions"); // in the failed step's "seen"
    QTest::newRow("random garbage") << QByteArray("head -c 300000 /dev/urandom") << "does not parse";
    QTest::newRow("enormous line (100 MB, no newline)")
        << QByteArray("head -c 100000000 /dev/zero | tr '\\\\0' '<'") << "does not parse";
    QTest::newRow("invalid UTF-8 in the XML")
        << QByteArray("printf '<?xml version=\"1.0\"?>\\n<nvidia_smi_log><driver_version>\\377\\376</driver_version>'")
        << "does not parse";
    QTest::newRow("ANSI escapes on stderr, exit 9")
        << QByteArray("printf '\\033]0;pwned\\007\\033[2J\\033[31mNVIDIA-SMI has failed\\033[0m\\r\\n' >&2; exit 9")
        << "NVIDIA-SMI has failed";
    QTest::newRow("stderr flood (50 MB), exit 9")
        << QByteArray("yes 'Unable to determine the device handle' | head -c 50000000 >&2; exit 9")
        << "Unable to determine the device handle";
    QTest::newRow("XML entity bomb")
        << QByteArray("cat <<'X'\n<?xml version=\"1.0\"?>\n<!DOCTYPE l [<!ENTITY a \"aaaaaaaaaa\">"
                      "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">"
                      "<!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\"><!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\">"
                      "<!ENTITY f \"&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;\"><!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\">"
                      "<!ENTITY h \"&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;\"><!ENTITY i \"&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;\">]>\n"
                      "<nvidia_smi_log><driver_version>&i;</driver_version></nvidia_smi_log>\nX")
        << "nvidia-smi";
    QTest::newRow("endless output, never exits") << QByteArray("yes '<gpu>'") << "did not finish within 30 s";
    QTest::newRow("silent, never exits") << QByteArray("exec sleep 3600") << "did not finish within 30 s";
    QTest::newRow("nothing at all, exit 0") << QByteArray("exit 0") << "nvidia-smi";
}

void TestHostileHost::hostileNvidiaSmi()
{
    QFETCH(QByteArray, script);
    QFETCH(QString, mentions);
    QFile tool(m_tools.filePath(QStringLiteral("nvidia-smi")));
    QVERIFY(tool.open(QIODevice::WriteOnly | QIODevice::Truncate));
    tool.write("#!/bin/sh\n" + script + "\n");
    tool.close();
    tool.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

    QElapsedTimer clock;
    clock.start();
    QProcess deploy;
    deploy.start(QStringLiteral(FLASHDECK_BINARY),
                 {QStringLiteral("--config-dir"), m_config.path(), QStringLiteral("deploy"), QStringLiteral("hostile"),
                  QStringLiteral("--accept-license"), QStringLiteral("noncommercial"), QStringLiteral("--json")});
    QVERIFY(deploy.waitForFinished(180000));
    const qint64 ms = clock.elapsed();
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage); // the largest child waited for so far: a bound for every run
    const QByteArray out = deploy.readAllStandardOutput();
    const QByteArray err = deploy.readAllStandardError();
    qInfo("%s: %lld ms, peak RSS of any run so far %ld MiB", QTest::currentDataTag(), ms, usage.ru_maxrss / 1024);

    QCOMPARE(deploy.exitStatus(), QProcess::NormalExit);
    QCOMPARE(deploy.exitCode(), 1);
    QJsonObject gpus;
    for (const QByteArray &line : out.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o[QLatin1String("step")].toString() == QLatin1String("preflight.gpus")) {
            gpus = o;
        }
    }
    QCOMPARE(gpus[QLatin1String("status")].toString(), QStringLiteral("fail"));
    const QString seen = gpus[QLatin1String("seen")].toString();
    QVERIFY2(seen.contains(mentions), qPrintable(seen));
    QVERIFY2(seen.size() < 2000, qPrintable(QString::number(seen.size()))); // a message, not a dump
    QVERIFY(!gpus[QLatin1String("fix")].toString().isEmpty());
    // Nothing the operator reads carries a control character or an escape from the host.
    const QByteArray journal = [&] {
        QFile j(m_config.path() + QStringLiteral("/data/deployments/hostile/journal.jsonl"));
        return j.open(QIODevice::ReadOnly) ? j.readAll() : QByteArray();
    }();
    for (const QByteArray &text : {out, err, journal, seen.toUtf8()}) {
        QVERIFY(!text.contains('\x1b'));
        QVERIFY(!text.contains('\a'));
        QVERIFY(!text.contains('\r'));
    }
    QVERIFY(!seen.contains(QLatin1String("pwned")));
    // Bounded memory: the 100 MB line and the 50 MB flood are capped (4 MiB capture, 1 MiB line).
#if defined(__SANITIZE_ADDRESS__)
    const long boundKiB = 1024 * 1024; // AddressSanitizer's shadow and quarantine
#else
    const long boundKiB = 256 * 1024;
#endif
    QVERIFY2(usage.ru_maxrss < boundKiB, qPrintable(QString::number(usage.ru_maxrss)));
    // Bounded time: the GPU probe's own 30 s timeout, plus connecting and the steps before it.
    QVERIFY2(ms < 120000, qPrintable(QString::number(ms)));
}

QTEST_GUILESS_MAIN(TestHostileHost)
#include "tst_hostilehost.moc"
