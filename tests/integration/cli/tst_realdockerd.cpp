#include "tests/integration/cli/clirun.h"
#include "tests/support/buildpaths.h"
#include "tests/support/sshdfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <memory>
#include <unistd.h>

using flashdeck::test::runProgram;
using flashdeck::test::SshdFixture;

/**
 * Flashdeck against Debian's own dockerd (docker.io), not our simulated daemon: deploy, rerun,
 * chat and undeploy over SSH, with every Engine API call answered by the real thing.
 *
 * The host is a network namespace of its own (simhost-netns) holding sshd, dockerd (root, a
 * private socket, data root and containerd namespace; no iptables, port publishing by
 * docker-proxy), Debian's docker-registry on the host's 127.0.0.1:5000 (a real pull of a real
 * image, by digest), and simhostd for its fake Hugging Face Hub only (the pin of the model
 * revision). The NVIDIA Container Toolkit is imitated the way it plugs into dockerd: its hook
 * `nvidia-container-runtime-hook` on dockerd's PATH (which is what makes dockerd accept `--gpus`,
 * moby daemon/nvidia_linux.go), injecting nvidia-smi into the container as the real hook injects
 * the driver's tools, and a runtime named `nvidia` (what `nvidia-ctk runtime configure` adds).
 *
 * The image is made once per run from files this machine has: the SGLang simulator and its
 * libraries, a `python3` that starts it, and sh; imported, pushed to the registry and removed, so
 * the deployment pulls it for real.
 */
class TestRealDockerd : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void deploy_rerun_chat_undeploy_onDebiansDockerd();

private:
    bool startHost(QString *error);
    bool buildImage(QString *error);
    /** Starts `program` in the host's namespace, its output to `logFile` (never a pipe left full). */
    QProcess *join(const QStringList &program, const QString &logFile, const QStringList &env = {});
    /** The docker CLI (Debian's) against the private daemon; exit code, output in `out`. */
    int docker(const QStringList &args, QString *out = nullptr);

    QTemporaryDir m_dir;
    QTemporaryDir m_config;
    QString m_socket;
    qint64 m_netnsPid = 0;
    quint16 m_sshPort = 0;
    QString m_image;
    std::unique_ptr<QProcess> m_netns;
    std::vector<std::unique_ptr<QProcess>> m_services; // registry, simhostd, dockerd (stopped in reverse)
    std::unique_ptr<SshdFixture> m_sshd;
};

namespace {

/** The failed steps of a deploy --json run and what the binary said on stderr, for a message. */
QByteArray failedSteps(const CliRun &run)
{
    QByteArray failed;
    for (const QByteArray &line : run.out.split('\n')) {
        if (line.contains("\"status\":\"fail\"")) {
            failed += line + '\n';
        }
    }
    return failed + run.err;
}

constexpr quint16 kSshInside = 2222;
const QString kDockerCli = QStringLiteral("/usr/bin/docker");
const QString kDockerd = QStringLiteral("/usr/sbin/dockerd");
const QString kRegistry = QStringLiteral("/usr/bin/docker-registry");

bool writeFile(const QString &path, const QByteArray &text, bool executable = false)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(text) != text.size()) {
        return false;
    }
    f.close();
    return !executable ||
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup |
                         QFile::ReadOther | QFile::ExeOther);
}

/** Copies a program and every library ldd says it loads into `root`, at the same paths. */
bool copyWithLibraries(const QString &program, const QString &as, const QString &root, QString *error)
{
    QString out;
    if (runProgram(QStringLiteral("ldd"), {program}, &out) != 0) {
        *error = QStringLiteral("ldd %1: %2").arg(program, out);
        return false;
    }
    QStringList files{program + QLatin1Char('=') + as};
    static const QRegularExpression lib(QStringLiteral(R"(^\s*(?:\S+ => )?(/\S+) \(0x)"));
    for (const QString &line : out.split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch m = lib.match(line);
        if (m.hasMatch()) {
            files.append(m.captured(1) + QLatin1Char('=') + m.captured(1));
        }
    }
    for (const QString &f : files) {
        const QString from = QFileInfo(f.section(QLatin1Char('='), 0, 0)).canonicalFilePath();
        const QString to = root + f.section(QLatin1Char('='), 1);
        QDir().mkpath(QFileInfo(to).path());
        if (!QFileInfo::exists(to) && !QFile::copy(from, to)) {
            *error = QStringLiteral("cannot copy %1 to %2").arg(from, to);
            return false;
        }
    }
    return true;
}

QJsonObject firstJsonLine(QProcess &p)
{
    while (!p.canReadLine() && p.waitForReadyRead(30000)) { }
    return QJsonDocument::fromJson(p.readLine()).object();
}

QByteArray readLog(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/** Waits until the log of `p` holds `needle` (true), or `p` ends (false, its log in `error`). */
bool waitForLog(QProcess &p, const QString &log, const QByteArray &needle, const QString &what, QString *error)
{
    while (!readLog(log).contains(needle)) {
        if (p.waitForFinished(100)) { // the poll's pace: it returns at once when the process ends
            *error = QStringLiteral("%1 stopped: %2").arg(what, QString::fromUtf8(readLog(log).right(3000)));
            return false;
        }
    }
    return true;
}

} // namespace

QProcess *TestRealDockerd::join(const QStringList &program, const QString &logFile, const QStringList &env)
{
    auto p = std::make_unique<QProcess>();
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString &kv : env) {
        e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
    }
    p->setProcessEnvironment(e);
    p->setStandardOutputFile(logFile);
    p->setStandardErrorFile(logFile, QIODevice::Append);
    p->start(flashdeck::test::simNetns(),
             QStringList{QStringLiteral("join"), QString::number(m_netnsPid), QStringLiteral("--die-with-parent"),
                         QStringLiteral("--")} +
                 program);
    m_services.push_back(std::move(p));
    return m_services.back().get();
}

int TestRealDockerd::docker(const QStringList &args, QString *out)
{
    return runProgram(kDockerCli, args, out, {}, {QStringLiteral("DOCKER_HOST=unix://") + m_socket});
}

bool TestRealDockerd::startHost(QString *error)
{
    m_netns = std::make_unique<QProcess>();
    m_netns->start(flashdeck::test::simNetns(),
                   {QStringLiteral("serve"), QStringLiteral("--forward"), QString::number(kSshInside),
                    QStringLiteral("--die-with-parent")});
    const QJsonObject ns = firstJsonLine(*m_netns);
    m_netnsPid = ns.value(QStringLiteral("pid")).toInteger();
    m_sshPort = quint16(ns.value(QStringLiteral("forwards")).toObject().value(QString::number(kSshInside)).toInt());
    if (m_netnsPid <= 0 || m_sshPort == 0) {
        *error = QStringLiteral("simhost-netns: %1").arg(QString::fromUtf8(m_netns->readAllStandardError()));
        return false;
    }

    // The NVIDIA Container Toolkit, imitated where it touches dockerd. The hook gets the OCI
    // state on stdin; the container's root is the bundle's rootfs (containerd's layout).
    const QString sim = m_dir.filePath(QStringLiteral("sim"));
    const QString toolkit = m_dir.filePath(QStringLiteral("toolkit"));
    if (!QDir().mkpath(sim) ||
        !QFile::copy(flashdeck::test::simScenarios(u"/b300x4.json"), sim + QStringLiteral("/scenario.json")) ||
        !writeFile(toolkit + QStringLiteral("/nvidia-container-runtime-hook"),
                   QByteArrayLiteral("#!/bin/sh\n"
                                     "exec 2>>\"$0.log\"; set -x\n" // what it did, for a failure's message
                                     "[ \"$1\" = prestart ] || exit 0\n"
                                     // dockerd's own graph driver mounts the root (config.json's
                                     // root.path, .../overlay2/ID/merged), not the bundle's rootfs.
                                     "bundle=$(sed -n 's/.*\"bundle\": *\"\\([^\"]*\\)\".*/\\1/p')\n"
                                     "root=$(sed -n 's/.*\"root\": *{ *\"path\": *\"\\([^\"]*\\)\".*/\\1/p' "
                                     "\"$bundle/config.json\")\n"
                                     "case \"$root\" in /*) ;; *) root=\"$bundle/$root\" ;; esac\n"
                                     "mkdir -p \"$root/usr/bin\" \"$root/etc/flashdeck-sim\" || exit 1\n"
                                     "cp \"") +
                       flashdeck::test::simBin().toUtf8() +
                       QByteArrayLiteral("/nvidia-smi\" \"$root/usr/bin/nvidia-smi\" || exit 1\n"
                                         "cp \"") +
                       sim.toUtf8() + QByteArrayLiteral("/scenario.json\" \"$root/etc/flashdeck-sim/\"\n"),
                   true) ||
        !writeFile(toolkit + QStringLiteral("/nvidia-container-runtime"),
                   QByteArrayLiteral("#!/bin/sh\nexec runc \"$@\"\n"), true)) {
        *error = QStringLiteral("cannot write the toolkit's stand-ins");
        return false;
    }

    const QString registryDir = m_dir.filePath(QStringLiteral("registry"));
    writeFile(registryDir + QStringLiteral("/config.yml"),
              QByteArrayLiteral("version: 0.1\nlog:\n  level: info\nstorage:\n  filesystem:\n    rootdirectory: ") +
                  registryDir.toUtf8() + QByteArrayLiteral("/data\nhttp:\n  addr: 127.0.0.1:5000\n"));
    const QString registryLog = registryDir + QStringLiteral("/log");
    QProcess *registry =
        join({kRegistry, QStringLiteral("serve"), registryDir + QStringLiteral("/config.yml")}, registryLog);
    if (!waitForLog(*registry, registryLog, "listening on 127.0.0.1:5000", QStringLiteral("docker-registry"), error)) {
        return false;
    }

    const QString hubLog = m_dir.filePath(QStringLiteral("simhostd.log"));
    QProcess *hub = join({flashdeck::test::simDaemon(), QStringLiteral("--sim-dir"), sim, QStringLiteral("--bin"),
                          flashdeck::test::simBin(), QStringLiteral("--registry"), flashdeck::test::simRegistry(),
                          QStringLiteral("--docker-port"), QStringLiteral("2376"), QStringLiteral("--die-with-parent")},
                         hubLog);
    // Its first line says where it listens.
    if (!waitForLog(*hub, hubLog, "\n", QStringLiteral("simhostd (the Hub)"), error)) {
        return false;
    }
    const quint16 hubPort = quint16(QJsonDocument::fromJson(readLog(hubLog).split('\n').first())
                                        .object()
                                        .value(QStringLiteral("hub_port"))
                                        .toInt());
    if (hubPort == 0) {
        *error = QStringLiteral("simhostd (the Hub) said: ") + QString::fromUtf8(readLog(hubLog));
        return false;
    }

    const QString d = m_dir.path();
    m_socket = d + QStringLiteral("/docker.sock");
    const QString tag = QString::number(::getpid());
    QProcess *dockerd =
        join({kDockerd, QStringLiteral("--host"), QStringLiteral("unix://") + m_socket, QStringLiteral("--data-root"),
              d + QStringLiteral("/data"), QStringLiteral("--exec-root"), d + QStringLiteral("/exec"),
              QStringLiteral("--pidfile"), d + QStringLiteral("/dockerd.pid"), QStringLiteral("--iptables=false"),
              QStringLiteral("--ip-masq=false"), QStringLiteral("--containerd-namespace"),
              QStringLiteral("flashdeck-test-") + tag, QStringLiteral("--containerd-plugins-namespace"),
              QStringLiteral("flashdeck-test-plugins-") + tag, QStringLiteral("--add-runtime"),
              QStringLiteral("nvidia=") + toolkit + QStringLiteral("/nvidia-container-runtime")},
             d + QStringLiteral("/dockerd.log"),
             {QStringLiteral("PATH=") + toolkit +
              QStringLiteral(":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")});
    // Ready when it answers (a condition, not a sleep): `docker version` reaches the server.
    QString out;
    QElapsedTimer clock;
    clock.start();
    while (docker({QStringLiteral("version"), QStringLiteral("--format"), QStringLiteral("{{.Server.Version}}")},
                  &out) != 0) {
        if (dockerd->state() == QProcess::NotRunning || clock.elapsed() > 60000) {
            *error = QStringLiteral("dockerd did not start: %1 %2")
                         .arg(out, QString::fromUtf8(readLog(d + QStringLiteral("/dockerd.log")).right(3000)));
            return false;
        }
        dockerd->waitForFinished(200); // the poll's pace: returns at once if dockerd ends
    }
    qInfo("dockerd %s on %s", qPrintable(out.trimmed()), qPrintable(m_socket));

    SshdFixture::Options options;
    // Debian's docker CLI first (dial-stdio as a Debian host runs it); the simulated GPU tools,
    // df and cat for the scenario's GPUs, disk and memory; never the simulated docker.
    const QString tools = m_dir.filePath(QStringLiteral("tools"));
    QDir().mkpath(tools);
    for (const QString &t : {QStringLiteral("nvidia-smi"), QStringLiteral("df"), QStringLiteral("cat")}) {
        QFile::link(flashdeck::test::simBin() + QLatin1Char('/') + t, tools + QLatin1Char('/') + t);
    }
    QFile::link(kDockerCli, tools + QStringLiteral("/docker"));
    options.pathPrefix = {tools};
    options.environment = {QStringLiteral("FLASHDECK_SIM_DIR=") + sim,
                           QStringLiteral("HF_ENDPOINT=http://127.0.0.1:") + QString::number(hubPort),
                           QStringLiteral("DOCKER_HOST=unix://") + m_socket};
    options.netns.helper = flashdeck::test::simNetns();
    options.netns.pid = m_netnsPid;
    options.netns.insidePort = kSshInside;
    options.netns.outsidePort = m_sshPort;
    m_sshd = std::make_unique<SshdFixture>(options);
    return m_sshd->start(error);
}

bool TestRealDockerd::buildImage(QString *error)
{
    // What the image holds: sh, sleep (a bystander), the SGLang simulator as python3 would run it.
    const QString root = m_dir.filePath(QStringLiteral("rootfs"));
    if (!copyWithLibraries(QStringLiteral("/bin/dash"), QStringLiteral("/bin/sh"), root, error) ||
        !copyWithLibraries(QStringLiteral("/bin/sleep"), QStringLiteral("/bin/sleep"), root, error) ||
        !copyWithLibraries(flashdeck::test::simBin() + QStringLiteral("/sglang-sim"),
                           QStringLiteral("/opt/sim/sglang-sim"), root, error) ||
        // The libraries of the nvidia-smi the toolkit's hook injects (the real one injects the driver's).
        !copyWithLibraries(flashdeck::test::simBin() + QStringLiteral("/nvidia-smi"),
                           QStringLiteral("/opt/sim/.nvidia-smi-libs"), root, error)) {
        return false;
    }
    QFile::remove(root + QStringLiteral("/opt/sim/.nvidia-smi-libs"));
    if (!writeFile(
            root + QStringLiteral("/usr/bin/python3"),
            QByteArrayLiteral("#!/bin/sh\n"
                              "# python3 -m sglang.launch_server | sglang_router.launch_router ARGS\n"
                              "[ \"$1\" = -m ] || { echo \"python3: only -m MODULE here\" >&2; exit 2; }\n"
                              "case \"$2\" in\n"
                              "sglang.launch_server) shift 2; exec /opt/sim/sglang-sim \"$@\" ;;\n"
                              "sglang_router.launch_router) shift 2; exec /opt/sim/sglang-sim --router \"$@\" ;;\n"
                              "esac\n"
                              "echo \"/usr/bin/python3: No module named $2\" >&2; exit 1\n"),
            true) ||
        !QDir().mkpath(root + QStringLiteral("/tmp")) || !QDir().mkpath(root + QStringLiteral("/root"))) {
        *error = QStringLiteral("cannot write the image's python3");
        return false;
    }
    const QString tarball = m_dir.filePath(QStringLiteral("rootfs.tar"));
    QString out;
    if (runProgram(QStringLiteral("tar"),
                   {QStringLiteral("-C"), root, QStringLiteral("-cf"), tarball, QStringLiteral(".")}, &out) != 0) {
        *error = QStringLiteral("tar: ") + out;
        return false;
    }
    m_image = QStringLiteral("127.0.0.1:5000/flashdeck/sglang-sim:test");
    const QStringList changes{
        QStringLiteral("ENV PATH=/usr/bin:/bin"), QStringLiteral("ENV FLASHDECK_SIM_DIR=/etc/flashdeck-sim"),
        QStringLiteral("ENV FLASHDECK_SIM_TIME_FACTOR=0.01"), QStringLiteral("ENV ASAN_OPTIONS=detect_leaks=0")};
    QStringList import{QStringLiteral("import")};
    for (const QString &c : changes) {
        import << QStringLiteral("--change") << c;
    }
    import << tarball << m_image;
    if (docker(import, &out) != 0) {
        *error = QStringLiteral("docker import: ") + out;
        return false;
    }
    // Into the registry, then out of the daemon: the deployment's pull is a real one.
    if (docker({QStringLiteral("push"), m_image}, &out) != 0 || docker({QStringLiteral("rmi"), m_image}, &out) != 0) {
        *error = QStringLiteral("docker push/rmi: ") + out;
        return false;
    }
    return true;
}

void TestRealDockerd::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    if (::geteuid() != 0) {
        QSKIP("dockerd runs as root (CI is root); this test starts its own on a private socket");
    }
    for (const QString &tool : {kDockerd, kDockerCli, kRegistry}) {
        QVERIFY2(QFileInfo(tool).isExecutable(),
                 qPrintable(tool +
                            QStringLiteral(" is missing: install docker.io and docker-registry ("
                                           "scripts/bootstrap does)")));
    }
    QVERIFY(m_dir.isValid() && m_config.isValid());
    flashdeck::test::isolateSshEnvironment(m_dir.filePath(QStringLiteral("client")));
    QString error;
    QVERIFY2(startHost(&error), qPrintable(error));
    QVERIFY2(buildImage(&error), qPrintable(error));

    const QString key = m_sshd->addClientKey(QStringLiteral("id_real"));
    const CliRun add = runFlashdeck(
        m_config.path(),
        {QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("real"), QStringLiteral("--ssh"),
         QStringLiteral("%1@127.0.0.1:%2").arg(SshdFixture::currentUser()).arg(m_sshPort), QStringLiteral("--identity"),
         key, QStringLiteral("--known-hosts"), m_dir.filePath(QStringLiteral("known_hosts"))});
    QVERIFY2(add.exitCode == 0, add.err.constData());
    const CliRun check = runFlashdeck(m_config.path(),
                                      {QStringLiteral("hosts"), QStringLiteral("check"), QStringLiteral("real"),
                                       QStringLiteral("--accept-new-host-key")});
    QVERIFY2(check.exitCode == 0, QByteArray(check.out + check.err).constData());
}

void TestRealDockerd::cleanupTestCase()
{
    if (!m_socket.isEmpty()) {
        QString out;
        docker({QStringLiteral("rm"), QStringLiteral("-f"), QStringLiteral("bystander")}, &out);
    }
    m_sshd.reset();
    // dockerd last in, first out: SIGTERM lets it stop its containers and unmount its layers.
    for (auto it = m_services.rbegin(); it != m_services.rend(); ++it) {
        (*it)->terminate();
        if (!(*it)->waitForFinished(30000)) {
            (*it)->kill();
            (*it)->waitForFinished(5000);
        }
    }
    m_services.clear();
    if (m_netns) {
        m_netns->terminate();
        m_netns->waitForFinished(5000);
    }
}

void TestRealDockerd::deploy_rerun_chat_undeploy_onDebiansDockerd()
{
    QString out;
    struct Undeploy
    {
        std::function<void()> run;
        ~Undeploy() { run(); }
    } undeployAnyway{[this] { runFlashdeck(m_config.path(), {QStringLiteral("undeploy"), QStringLiteral("real")}); }};

    const QStringList deployArgs{QStringLiteral("deploy"),
                                 QStringLiteral("real"),
                                 QStringLiteral("--image"),
                                 m_image,
                                 QStringLiteral("--accept-license"),
                                 QStringLiteral("noncommercial"),
                                 QStringLiteral("--ready-timeout"),
                                 QStringLiteral("120"),
                                 QStringLiteral("--json")};
    const CliRun first = runFlashdeck(m_config.path(), deployArgs, 300000, Session::Headless);
    QMap<QString, QJsonObject> steps = deploySteps(first.out);
    QVERIFY2(first.exitCode == 0, failedSteps(first).constData());
    const auto seen = [&steps](const char *step) {
        return steps.value(QLatin1String(step)).value(QLatin1String("seen")).toString();
    };
    // dockerd's own answers: its version, the registry's digest, a pull of the layer.
    QVERIFY2(seen("preflight.docker").startsWith(QLatin1String("Docker 20.10")), qPrintable(seen("preflight.docker")));
    QVERIFY2(seen("pin.image").startsWith(m_image + QStringLiteral("@sha256:")), qPrintable(seen("pin.image")));
    QVERIFY2(seen("pull").startsWith(QLatin1String("pulled")), qPrintable(seen("pull")));
    QVERIFY2(seen("verify.gpus").count(QStringLiteral("NVIDIA B300")) == 4, qPrintable(seen("verify.gpus")));
    for (const char *step : {"launch", "ready", "verify.text"}) {
        QVERIFY2(steps.value(QLatin1String(step)).value(QLatin1String("status")).toString() == QLatin1String("pass"),
                 qPrintable(QString::fromUtf8(step) + QStringLiteral(": ") + seen(step)));
    }
    QVERIFY(docker({QStringLiteral("inspect"), QStringLiteral("--format"), QStringLiteral("{{.State.Running}}"),
                    QStringLiteral("flashdeck-real-b300x4-balanced-0")},
                   &out) == 0 &&
            out.trimmed() == QLatin1String("true"));
    QVERIFY(
        docker({QStringLiteral("ps"), QStringLiteral("-a"), QStringLiteral("--format"), QStringLiteral("{{.Names}}")},
               &out) == 0);
    QVERIFY2(!out.contains(QLatin1String("gpucheck")), qPrintable(out)); // the GPU check's container is gone

    // Another workload on the same daemon: undeploy must spare it.
    QVERIFY2(docker({QStringLiteral("run"), QStringLiteral("-d"), QStringLiteral("--name"), QStringLiteral("bystander"),
                     QStringLiteral("--entrypoint"), QStringLiteral("/bin/sleep"), m_image, QStringLiteral("3600")},
                    &out) == 0,
             qPrintable(out));
    // A rerun reuses: no second pull, no second container.
    const CliRun again = runFlashdeck(m_config.path(), deployArgs, 300000, Session::Headless);
    steps = deploySteps(again.out);
    QVERIFY2(again.exitCode == 0, failedSteps(again).constData());
    QVERIFY2(seen("pull").contains(QLatin1String("already present")), qPrintable(seen("pull")));
    QVERIFY(docker({QStringLiteral("ps"), QStringLiteral("-a"), QStringLiteral("--filter"),
                    QStringLiteral("label=io.flashdeck.deployment"), QStringLiteral("--format"),
                    QStringLiteral("{{.Names}}")},
                   &out) == 0);
    QCOMPARE(out.trimmed(), QStringLiteral("flashdeck-real-b300x4-balanced-0"));

    // Through docker-proxy's published port, with the key recovered from the container (no keyring).
    const CliRun chat = runFlashdeck(
        m_config.path(),
        {QStringLiteral("chat"), QStringLiteral("real"), QStringLiteral("--prompt"), QStringLiteral("Say hello.")},
        120000, Session::Headless);
    QVERIFY2(chat.exitCode == 0 && !chat.out.trimmed().isEmpty(), QByteArray(chat.out + chat.err).constData());

    const CliRun undeploy =
        runFlashdeck(m_config.path(), {QStringLiteral("undeploy"), QStringLiteral("real"), QStringLiteral("--json")});
    QVERIFY2(undeploy.exitCode == 0, QByteArray(undeploy.out + undeploy.err).constData());
    QVERIFY2(undeploy.out.contains("\"removed\":[\"flashdeck-real-b300x4-balanced-0\"]"), undeploy.out.constData());
    QVERIFY(
        docker({QStringLiteral("ps"), QStringLiteral("-a"), QStringLiteral("--format"), QStringLiteral("{{.Names}}")},
               &out) == 0);
    QCOMPARE(out.trimmed(), QStringLiteral("bystander"));
    QVERIFY(docker({QStringLiteral("inspect"), QStringLiteral("--format"), QStringLiteral("{{.State.Running}}"),
                    QStringLiteral("bystander")},
                   &out) == 0 &&
            out.trimmed() == QLatin1String("true"));
}

QTEST_GUILESS_MAIN(TestRealDockerd)
#include "tst_realdockerd.moc"
