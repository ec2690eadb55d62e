#include "backend/core/apppaths.h"
#include "backend/core/singleinstance.h"
#include "tests/integration/cli/clirun.h"
#include "tests/integration/cli/demoguard.h"
#include "tests/integration/cli/listenerprobe.h"
#include "tests/support/buildpaths.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

/**
 * Tunnels only the operator can use: `flashdeck tunnel HOST` against the demo's deployment (the
 * operator's requests get answers, user nobody's connection is closed before a byte; the one
 * port Flashdeck opens, because the operator asked for it). Everything else (deploy, status
 * --watch, logs --follow, chat and the window) speaks to the host's Docker and server only over
 * private links: found in /proc, it listens on no TCP port at all, and the window's Unix socket
 * gives nobody a byte.
 */
class TestTunnelCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void tunnel_operatorGetsAnswers_nobodyGetsNothing();
    void tunnel_localPort_exactOrTaken();
    void listeners_giveNobodyNothing_data();
    void listeners_giveNobodyNothing();
    void deployRunning_givesNobodyNothing();

private:
    /** Starts `flashdeck ARGS --config-dir CONFIG` in the background (offscreen, for the window). */
    static void start(QProcess &p, const QString &config, QStringList args);
    /** Stops a started process: SIGINT (Ctrl+C), then its exit. */
    static void stop(QProcess &p);
    /**
     * Waits until `p` listens on a TCP socket, then probes every TCP and Unix socket it listens
     * on as nobody: each must give no byte; at least one TCP listener must have accepted (and
     * closed) the probe's connection while it was still that process's.
     */
    static void verifyNobodyGetsNothing(const QProcess &p, const char *what, const QStringList &unixPaths = {});
    /**
     * For a process started with privateLog(): waits until its SSH log says a private tunnel
     * to `to` is ready (a port tunnel is "127.0.0.1:PORT", the Docker link "docker system
     * dial-stdio"), then verifies it listens on no TCP port at all, and that each Unix socket in
     * `unixPaths` gives nobody nothing.
     */
    static void verifyListensNowhere(QProcess &p, const QString &to, const char *what,
                                     const QStringList &unixPaths = {});
    /** The arguments and environment that make a started process log its tunnels on stderr. */
    static QStringList privateLog(QStringList args);

    QTemporaryDir m_config;
    std::unique_ptr<DemoGuard> m_demo;
};

void TestTunnelCli::initTestCase()
{
    QVERIFY(m_config.isValid());
    m_demo = std::make_unique<DemoGuard>(DemoGuard{m_config.path()});
    const CliRun demo = runFlashdeck(
        m_config.path(),
        {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--time-factor"), QStringLiteral("0.01")});
    QVERIFY2(demo.exitCode == 0, demo.err.constData());
    const CliRun deployed =
        runFlashdeck(m_config.path(),
                     {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
                      QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("60")});
    QVERIFY2(deployed.exitCode == 0, QByteArray(deployed.out + deployed.err).constData());
}

void TestTunnelCli::cleanupTestCase()
{
    (void)undeployDemo(m_config.path());
    m_demo.reset(); // stops the demo before the folder goes
}

void TestTunnelCli::start(QProcess &p, const QString &config, QStringList args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("FLASHDECK_LOG"), QStringLiteral("ssh=debug")); // where its tunnels go
    p.setProcessEnvironment(env);
    p.start(flashdeck::test::flashdeckBinary(), args << QStringLiteral("--config-dir") << config);
    QVERIFY2(p.waitForStarted(), qPrintable(p.errorString()));
}

void TestTunnelCli::stop(QProcess &p)
{
    if (p.state() == QProcess::NotRunning) {
        return;
    }
    ::kill(pid_t(p.processId()), SIGINT);
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
    }
}

void TestTunnelCli::verifyNobodyGetsNothing(const QProcess &p, const char *what, const QStringList &unixPaths)
{
    const qint64 pid = p.processId();
    const auto hasTcp = [pid] {
        const QList<ListenerSocket> all = listenersOf(pid);
        return std::any_of(all.begin(), all.end(), [](const ListenerSocket &l) { return l.tcp; });
    };
    QTRY_VERIFY2_WITH_TIMEOUT(hasTcp(), what, 120000);
    int accepted = 0;
    QStringList seen;
    for (const ListenerSocket &l : listenersOf(pid)) {
        const QByteArray got = probeAsNobody(l);
        // A tunnel closed meanwhile proves nothing either way (its port may be another's now).
        const QList<ListenerSocket> after = listenersOf(pid);
        const bool stillListening =
            std::any_of(after.begin(), after.end(), [&l](const ListenerSocket &a) { return a.inode == l.inode; });
        seen << QStringLiteral("%1: %2%3")
                    .arg(l.text(), QString::fromUtf8(got), stillListening ? QString() : QStringLiteral(" (gone)"));
        if (!stillListening) {
            continue;
        }
        const bool nothing = got.startsWith("connected bytes=0 ") || got.startsWith("refused ");
        QVERIFY2(nothing, qPrintable(QStringLiteral("%1 gave nobody bytes: %2").arg(QLatin1String(what), seen.last())));
        accepted += l.tcp && got.startsWith("connected") ? 1 : 0;
    }
    // Unix sockets /proc names by the path they were bound to, which QLocalServer renames into
    // place (UserAccessOption binds in a private folder first): the final paths, probed too.
    for (const QString &path : unixPaths) {
        const QByteArray got = probeAsNobody({false, {}, 0, path, 0});
        seen << QStringLiteral("%1: %2").arg(path, QString::fromUtf8(got));
        QVERIFY2(got.startsWith("connected bytes=0 ") || got.startsWith("refused "), qPrintable(seen.last()));
    }
    QVERIFY2(accepted > 0, qPrintable(QLatin1String(what) + QStringLiteral(": ") + seen.join(QStringLiteral("; "))));
    qInfo("%s: %s", what, qPrintable(seen.join(QStringLiteral("; "))));
}

QStringList TestTunnelCli::privateLog(QStringList args)
{
    return args << QStringLiteral("--log-stderr");
}

void TestTunnelCli::verifyListensNowhere(QProcess &p, const QString &to, const char *what, const QStringList &unixPaths)
{
    const QByteArray ready = " to " + to.toUtf8();
    QByteArray err;
    const auto privateReady = [&] {
        err += p.readAllStandardError();
        for (const QByteArray &line : err.split('\n')) {
            if (line.contains(ready) && line.contains("ready, private (no port)")) {
                return true;
            }
        }
        return false;
    };
    QTRY_VERIFY2_WITH_TIMEOUT(privateReady() || p.state() != QProcess::Running, what, 120000);
    QVERIFY2(privateReady(),
             qPrintable(QLatin1String(what) + QStringLiteral(": ") + QString::fromUtf8(err.right(2000))));
    QCOMPARE(p.state(), QProcess::Running);
    QStringList seen;
    for (const ListenerSocket &l : listenersOf(p.processId())) {
        if (l.tcp) {
            seen << l.text();
        }
    }
    QVERIFY2(seen.isEmpty(),
             qPrintable(QLatin1String(what) + QStringLiteral(" listens: ") + seen.join(QStringLiteral("; "))));
    for (const QString &path : unixPaths) {
        const QByteArray got = probeAsNobody({false, {}, 0, path, 0});
        QVERIFY2(got.startsWith("connected bytes=0 ") || got.startsWith("refused "),
                 qPrintable(path + QStringLiteral(": ") + QString::fromUtf8(got)));
    }
    // Never a prompt, key or payload in what it logged about its tunnels.
    QVERIFY(!err.contains("Bearer"));
}

void TestTunnelCli::tunnel_operatorGetsAnswers_nobodyGetsNothing()
{
    QProcess tunnel;
    start(tunnel, m_config.path(), {QStringLiteral("tunnel"), QStringLiteral("demo"), QStringLiteral("--json")});
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT(
        (out += tunnel.readAllStandardOutput()).contains('\n') || tunnel.state() == QProcess::NotRunning, 60000);
    QVERIFY2(out.contains('\n'), tunnel.readAllStandardError().constData());
    const QJsonObject o = QJsonDocument::fromJson(out.left(out.indexOf('\n'))).object();
    const int local = o[QLatin1String("local_port")].toInt();
    QVERIFY(local > 0);
    QCOMPARE(o[QLatin1String("url")].toString(), QStringLiteral("http://127.0.0.1:%1").arg(local));
    QCOMPARE(o[QLatin1String("remote_port")].toInt(), 30000); // the demo profile's server port

    // The operator's own request: an answer from the server's /health, through the tunnel.
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, quint16(local));
    QVERIFY(socket.waitForConnected(10000));
    socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    QByteArray answer;
    QTRY_VERIFY_WITH_TIMEOUT((answer += socket.readAll()).contains("\r\n\r\n"), 30000);
    QVERIFY2(answer.startsWith("HTTP/1.1 200"), answer.constData());

    // User nobody on the same port: the connection is closed before a byte comes back.
    const QByteArray nobody = probeAsNobody({true, QStringLiteral("127.0.0.1"), quint16(local), {}, 0});
    QVERIFY2(nobody.startsWith("connected bytes=0 "), nobody.constData());
    QVERIFY2(nobody.contains("end=eof") || nobody.contains("end=reset"), nobody.constData());

    // …and the operator still gets answers after it.
    QTcpSocket again;
    again.connectToHost(QHostAddress::LocalHost, quint16(local));
    QVERIFY(again.waitForConnected(10000));
    again.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    QByteArray second;
    QTRY_VERIFY_WITH_TIMEOUT((second += again.readAll()).contains("\r\n\r\n"), 30000);
    QVERIFY2(second.startsWith("HTTP/1.1 200"), second.constData());

    stop(tunnel);
    QCOMPARE(tunnel.exitStatus(), QProcess::NormalExit);
    QCOMPARE(tunnel.exitCode(), 0);

    // The refusal is in the log: who, which tunnel, never a byte of the payload.
    bool logged = false;
    for (QDirIterator it(m_config.path(), {QStringLiteral("*.log")}, QDir::Files, QDirIterator::Subdirectories);
         it.hasNext();) {
        QFile f(it.next());
        logged = logged || (f.open(QIODevice::ReadOnly) && f.readAll().contains("connection from uid 65534"));
    }
    QVERIFY(logged);
}

void TestTunnelCli::tunnel_localPort_exactOrTaken()
{
    // Taken: another program holds the port.
    QTcpServer squatter;
    QVERIFY(squatter.listen(QHostAddress::LocalHost, 0));
    const CliRun taken = runFlashdeck(m_config.path(),
                                      {QStringLiteral("tunnel"), QStringLiteral("demo"), QStringLiteral("--local-port"),
                                       QString::number(squatter.serverPort())},
                                      60000);
    QCOMPARE(taken.exitCode, 1);
    QVERIFY2(taken.err.contains("is taken") && taken.err.contains("--local-port"), taken.err.constData());

    // Free: a port this test found free a moment ago, bound exactly.
    quint16 wanted = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        wanted = probe.serverPort();
    }
    QProcess tunnel;
    start(tunnel, m_config.path(),
          {QStringLiteral("tunnel"), QStringLiteral("demo"), QStringLiteral("--local-port"), QString::number(wanted)});
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT(
        (out += tunnel.readAllStandardOutput()).contains('\n') || tunnel.state() == QProcess::NotRunning, 60000);
    const QByteArray expected = QStringLiteral("Forwarding http://127.0.0.1:%1 → demo:30000 (only you can connect; "
                                               "Ctrl-C stops)\n")
                                    .arg(wanted)
                                    .toUtf8();
    QVERIFY2(out == expected, QByteArray(out + tunnel.readAllStandardError()).constData());
    stop(tunnel);
    QCOMPARE(tunnel.exitCode(), 0);

    QCOMPARE(runFlashdeck(m_config.path(),
                          {QStringLiteral("tunnel"), QStringLiteral("demo"), QStringLiteral("--local-port"),
                           QStringLiteral("70000")})
                 .exitCode,
             2);
    QCOMPARE(runFlashdeck(m_config.path(), {QStringLiteral("tunnel"), QStringLiteral("nowhere")}).exitCode, 2);
}

void TestTunnelCli::listeners_giveNobodyNothing_data()
{
    QTest::addColumn<QStringList>("args");
    // Empty: it listens where the operator asked (probed as nobody). Otherwise the private tunnel
    // it must have opened before it is checked for listening on nothing: each talks to the host's
    // Docker and server only through socket pairs.
    QTest::addColumn<QString>("privateTo");
    const QString server = QStringLiteral("127.0.0.1:30000"); // the demo profile's server port
    QTest::newRow("tunnel") << QStringList{QStringLiteral("tunnel"), QStringLiteral("demo")} << QString();
    QTest::newRow("logs --follow") << QStringList{QStringLiteral("logs"), QStringLiteral("demo"),
                                                  QStringLiteral("--follow"), QStringLiteral("--tail"),
                                                  QStringLiteral("1")}
                                   << QStringLiteral("docker system dial-stdio");
    QTest::newRow("status --watch") << QStringList{QStringLiteral("status"), QStringLiteral("demo"),
                                                   QStringLiteral("--watch")}
                                    << server;
    // Chat's client, kept busy long enough to be looked at.
    QTest::newRow("loadtest") << QStringList{QStringLiteral("loadtest"),        QStringLiteral("demo"),
                                             QStringLiteral("--concurrency"),   QStringLiteral("2"),
                                             QStringLiteral("--prompt-tokens"), QStringLiteral("16"),
                                             QStringLiteral("--output-tokens"), QStringLiteral("16"),
                                             QStringLiteral("--duration"),      QStringLiteral("600")}
                              << server;
    QTest::newRow("window") << QStringList{} << server; // no command: the window, offscreen
}

void TestTunnelCli::listeners_giveNobodyNothing()
{
    QFETCH(QStringList, args);
    QFETCH(QString, privateTo);
    QProcess p;
    struct Stop
    {
        QProcess &p;
        ~Stop() { stop(p); }
    } stopAtEnd{p};
    start(p, m_config.path(), privateTo.isEmpty() ? args : privateLog(args));
    QStringList unixPaths;
    if (args.isEmpty()) {
        // The window's single-instance socket, where its second start connects.
        const QString socket = QDir::tempPath() + QLatin1Char('/') +
            flashdeck::SingleInstance::keyFor(flashdeck::AppPaths(m_config.path()).configDir());
        QTRY_VERIFY2_WITH_TIMEOUT(QFileInfo::exists(socket), qPrintable(socket), 60000);
        unixPaths << socket;
    }
    if (!privateTo.isEmpty()) {
        verifyListensNowhere(p, privateTo, QTest::currentDataTag(), unixPaths);
        return;
    }
    verifyNobodyGetsNothing(p, QTest::currentDataTag(), unixPaths);
}

void TestTunnelCli::deployRunning_givesNobodyNothing()
{
    // A server that never gets ready: the deployment keeps its tunnels open while it waits.
    QTemporaryDir config;
    const DemoGuard guard{config.path()};
    const CliRun demo =
        runFlashdeck(config.path(),
                     {QStringLiteral("demo"), QStringLiteral("start"), QStringLiteral("--scenario"),
                      QStringLiteral("never-ready"), QStringLiteral("--time-factor"), QStringLiteral("0.01")});
    QVERIFY2(demo.exitCode == 0, demo.err.constData());
    QProcess deploy;
    struct Stop
    {
        QProcess &p;
        ~Stop() { stop(p); }
    } stopAtEnd{deploy};
    start(deploy, config.path(),
          privateLog({QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--accept-license"),
                      QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("600")}));
    // Its health checks go through a private tunnel to the server's port, its Engine API calls
    // through private links: nothing listens.
    verifyListensNowhere(deploy, QStringLiteral("127.0.0.1:30000"), "deploy");
    stop(deploy);
    (void)undeployDemo(config.path());
}

QTEST_GUILESS_MAIN(TestTunnelCli)
#include "tst_tunnelcli.moc"
