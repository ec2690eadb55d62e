#include "backend/demo/demohost.h"

#include "backend/core/apppaths.h"
#include "backend/core/atomicfile.h"
#include "backend/core/processtree.h"
#include "backend/core/shellquote.h"
#include "backend/fleet/hostentry.h"
#include "backend/fleet/inventory.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QThread>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <unistd.h>

namespace flashdeck::demo {

namespace {

QString userName()
{
    const QString user = qEnvironmentVariable("USER", qEnvironmentVariable("LOGNAME"));
    return user.isEmpty() && ::getuid() == 0 ? QStringLiteral("root") : user;
}

bool runQuiet(const QString &program, const QStringList &args, QString *error)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(30000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *error = QStringLiteral("%1 failed: %2").arg(program, QString::fromUtf8(p.readAllStandardError()).trimmed());
        return false;
    }
    return true;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &data)
{
    return writeFileAtomically(path, data).isOk();
}

/** sshd's port inside a demo host's own namespace (above 1024: the demo may run as a user). */
constexpr quint16 kDemoSshPort = 2222;

/** Waits for a file a detached process writes when it is ready. */
bool waitForFile(const QString &path, qint64 pid, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!QFileInfo::exists(path)) {
        if (deadline.hasExpired() || !processAlive(pid)) {
            return false;
        }
        QThread::msleep(20); // not our child: nothing to wait on but the file itself
    }
    return true;
}

QString sim(const QString &base, const char *leaf)
{
    return base + QLatin1Char('/') + QLatin1String(leaf);
}

} // namespace

QString DemoHostInfo::sshCommand() const
{
    return QStringLiteral("ssh -i %1 -o UserKnownHostsFile=%2 -o StrictHostKeyChecking=yes -p %3 %4@127.0.0.1")
        .arg(QString::fromUtf8(shellQuote(identityFile.toUtf8())),
             QString::fromUtf8(shellQuote(knownHostsFile.toUtf8())))
        .arg(port)
        .arg(user);
}

void to_json(nlohmann::json &j, const DemoHostInfo &h)
{
    j = {{"name", h.name.toStdString()},
         {"scenario", h.scenario.toStdString()},
         {"description", h.description.toStdString()},
         {"simulated", true},
         {"address", "127.0.0.1"},
         {"port", h.port},
         {"user", h.user.toStdString()},
         {"identity_file", h.identityFile.toStdString()},
         {"known_hosts_file", h.knownHostsFile.toStdString()},
         {"ssh_command", h.sshCommand().toStdString()},
         {"sshd_pid", h.sshdPid},
         {"daemon_pid", h.daemonPid},
         {"namespace_pid", h.namespacePid},
         {"dir", h.dir.toStdString()}};
}

void from_json(const nlohmann::json &j, DemoHostInfo &h)
{
    auto str = [&j](const char *key) { return QString::fromStdString(j.value(key, std::string())); };
    h.name = str("name");
    h.scenario = str("scenario");
    h.description = str("description");
    h.user = str("user");
    h.port = j.value("port", quint16(0));
    h.identityFile = str("identity_file");
    h.knownHostsFile = str("known_hosts_file");
    h.sshdPid = j.value("sshd_pid", qint64(0));
    h.daemonPid = j.value("daemon_pid", qint64(0));
    h.namespacePid = j.value("namespace_pid", qint64(0));
    h.dir = str("dir");
}

DemoResources DemoResources::locate()
{
    DemoResources r;
    QString root = qEnvironmentVariable("FLASHDECK_SIMHOST_DIR");
    if (root.isEmpty()) {
        // The package's layout (/usr/bin/flashdeck, /usr/lib/flashdeck/simhost); cleaned so that
        // paths shown to the user and written into the demo's sshd_config read /usr/lib/….
        const QString installed =
            QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/../lib/flashdeck/simhost"));
        if (QFileInfo::exists(installed + QStringLiteral("/simhostd"))) {
            root = installed;
        }
    }
    if (!root.isEmpty()) {
        r.toolsDir = sim(root, "bin");
        r.daemon = sim(root, "simhostd");
        r.netns = sim(root, "simhost-netns");
        r.registry = sim(root, "registry.json");
        r.scenariosDir = sim(root, "scenarios");
        return r;
    }
    r.toolsDir = QStringLiteral(FLASHDECK_DEMO_TOOLS);
    r.daemon = QStringLiteral(FLASHDECK_DEMO_DAEMON);
    r.netns = QStringLiteral(FLASHDECK_DEMO_NETNS);
    r.registry = QStringLiteral(FLASHDECK_DEMO_REGISTRY);
    r.scenariosDir = QStringLiteral(FLASHDECK_DEMO_SCENARIOS);
    return r;
}

QString DemoResources::missing() const
{
    const QStringList needed{toolsDir + QStringLiteral("/nvidia-smi"),
                             toolsDir + QStringLiteral("/docker"),
                             daemon,
                             netns,
                             registry,
                             scenariosDir};
    for (const QString &path : needed) {
        if (!QFileInfo::exists(path)) {
            return QCoreApplication::translate(
                       "Demo",
                       "The simulated host is not built (%1 is missing). Build it with "
                       "'cmake --build build/release --target flashdeck_simhost' (make run does).")
                .arg(path);
        }
    }
    if (!QFileInfo::exists(QStringLiteral("/usr/sbin/sshd"))) {
        return QCoreApplication::translate(
            "Demo",
            "The demo runs a local OpenSSH server, and /usr/sbin/sshd is not installed. Install "
            "it with 'sudo apt-get install openssh-server' (scripts/bootstrap does).");
    }
    return {};
}

QStringList DemoResources::scenarios() const
{
    QStringList names;
    for (const QString &f : QDir(scenariosDir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        names.append(f.chopped(5));
    }
    return names;
}

DemoHosts::DemoHosts(const AppPaths &paths, DemoResources resources)
    : m_paths(paths)
    , m_resources(std::move(resources))
{ }

QString DemoHosts::stateDir() const
{
    return m_paths.dataDir() + QStringLiteral("/demo");
}

QString DemoHosts::stateFile() const
{
    return stateDir() + QStringLiteral("/state.json");
}

QList<DemoHostInfo> DemoHosts::running() const
{
    const QByteArray data = readAll(stateFile());
    const nlohmann::json j = nlohmann::json::parse(data.constData(), data.constData() + data.size(), nullptr, false);
    QList<DemoHostInfo> hosts;
    if (!j.is_object()) {
        return hosts;
    }
    for (const auto &h : j.value("hosts", nlohmann::json::array())) {
        DemoHostInfo info = h.get<DemoHostInfo>();
        if (processAlive(info.sshdPid) && processAlive(info.daemonPid) && processAlive(info.namespacePid)) {
            hosts.append(info);
        }
    }
    return hosts;
}

Status DemoHosts::saveState(const QList<DemoHostInfo> &hosts) const
{
    nlohmann::json list = nlohmann::json::array();
    for (const DemoHostInfo &h : hosts) {
        list.push_back(h);
    }
    const std::string text = nlohmann::json{{"hosts", list}}.dump(2);
    if (!writeFile(stateFile(), QByteArray::fromStdString(text))) {
        return Status::failure(QCoreApplication::translate("Demo", "Cannot write %1.").arg(stateFile()));
    }
    return Status::ok();
}

namespace {

/** simhost-netns's words for "run the rest inside the namespace `pid` holds". */
QStringList joinArgs(qint64 pid)
{
    return {QStringLiteral("join"), QString::number(pid), QStringLiteral("--")};
}

} // namespace

Result<DemoHostInfo> DemoHosts::startHost(const QString &name, const QString &scenario, double timeFactor)
{
    DemoHostInfo h;
    h.name = name;
    h.scenario = scenario;
    h.user = userName();
    h.dir = stateDir() + QLatin1Char('/') + name;
    QDir(h.dir).removeRecursively();
    const QString simDir = h.dir + QStringLiteral("/sim");
    const QString home = h.dir + QStringLiteral("/home");
    if (!QDir().mkpath(simDir) || !QDir().mkpath(home + QStringLiteral("/.cache/huggingface")) ||
        !QDir().mkpath(home + QStringLiteral("/.cache/minfer"))) {
        return Status::failure(QCoreApplication::translate("Demo", "Cannot create %1.").arg(h.dir));
    }
    if (const Status s = writeScenario(h, scenario, simDir); !s) {
        return s;
    }
    // The host's own network namespace first: the daemon and sshd run inside it. Only sshd's
    // port is relayed to the machine's loopback.
    if (const Status s = startNamespace(h); !s) {
        return s;
    }
    // Then the daemon: sshd's environment names the hub's port.
    const Result<QByteArray> hubPort = startDaemon(h, simDir, timeFactor);
    if (!hubPort) {
        return hubPort.status();
    }
    if (const Status s = startSshd(h, home, simDir, hubPort.value()); !s) {
        return s;
    }
    return h;
}

Status DemoHosts::writeScenario(DemoHostInfo &h, const QString &scenario, const QString &simDir) const
{
    const QByteArray scenarioJson =
        readAll(m_resources.scenariosDir + QLatin1Char('/') + scenario + QStringLiteral(".json"));
    const nlohmann::json sc =
        nlohmann::json::parse(scenarioJson.constData(), scenarioJson.constData() + scenarioJson.size(), nullptr, false);
    if (!sc.is_object()) {
        return Status::failure(QCoreApplication::translate("Demo", "No scenario named \"%1\". Scenarios: %2.")
                                   .arg(scenario, m_resources.scenarios().join(QStringLiteral(", "))));
    }
    writeFile(simDir + QStringLiteral("/scenario.json"), scenarioJson);
    const int gpus = static_cast<int>(sc.value("gpus", nlohmann::json::array()).size());
    const QString model = sc.value("gpus", nlohmann::json::array()).empty()
        ? QString()
        : QString::fromStdString(sc["gpus"][0].value("name", std::string()));
    h.description = QStringLiteral("simulated %1 × %2").arg(gpus).arg(model);
    return Status::ok();
}

Status DemoHosts::startNamespace(DemoHostInfo &h) const
{
    QProcess holder;
    holder.setStandardOutputFile(QProcess::nullDevice());
    holder.setStandardErrorFile(h.dir + QStringLiteral("/netns.log"));
    holder.setProgram(m_resources.netns);
    const QString netnsFile = h.dir + QStringLiteral("/netns.json");
    holder.setArguments({QStringLiteral("serve"), QStringLiteral("--forward"), QString::number(kDemoSshPort),
                         QStringLiteral("--ports-file"), netnsFile});
    if (!holder.startDetached(&h.namespacePid) || !waitForFile(netnsFile, h.namespacePid, 15000)) {
        return Status::failure(
            QCoreApplication::translate("Demo", "The simulated host's private network could not be set up."),
            QString::fromUtf8(readAll(h.dir + QStringLiteral("/netns.log"))).trimmed());
    }
    const QByteArray netnsJson = readAll(netnsFile);
    const nlohmann::json forwards =
        nlohmann::json::parse(netnsJson.constData(), netnsJson.constData() + netnsJson.size(), nullptr, false);
    h.port = forwards.is_object()
        ? forwards.value("forwards", nlohmann::json::object()).value(std::to_string(kDemoSshPort), quint16(0))
        : quint16(0);
    if (h.port == 0) {
        (void)stopProcessTree(h.namespacePid, 3000);
        return Status::failure(
            QCoreApplication::translate("Demo", "The simulated host's private network could not be set up."),
            QString::fromUtf8(netnsJson));
    }
    return Status::ok();
}

Result<QByteArray> DemoHosts::startDaemon(DemoHostInfo &h, const QString &simDir, double timeFactor) const
{
    const QStringList joinNamespace = joinArgs(h.namespacePid);
    QProcess daemon;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("FLASHDECK_SIM_TIME_FACTOR"), QString::number(timeFactor));
    daemon.setProcessEnvironment(env);
    daemon.setStandardOutputFile(h.dir + QStringLiteral("/simhostd.out"));
    daemon.setStandardErrorFile(h.dir + QStringLiteral("/simhostd.log"));
    daemon.setProgram(m_resources.netns);
    daemon.setArguments(joinNamespace +
                        QStringList{m_resources.daemon, QStringLiteral("--sim-dir"), simDir, QStringLiteral("--bin"),
                                    m_resources.toolsDir, QStringLiteral("--registry"), m_resources.registry});
    if (!daemon.startDetached(&h.daemonPid) || !waitForFile(simDir + QStringLiteral("/hub.port"), h.daemonPid, 15000)) {
        (void)stopProcessTree(h.namespacePid, 3000);
        return Status::failure(QCoreApplication::translate("Demo", "The simulated host's daemon did not start."),
                               QString::fromUtf8(readAll(h.dir + QStringLiteral("/simhostd.log"))));
    }
    return readAll(simDir + QStringLiteral("/hub.port")).trimmed();
}

Status DemoHosts::startSshd(DemoHostInfo &h, const QString &home, const QString &simDir,
                            const QByteArray &hubPort) const
{
    const QStringList joinNamespace = joinArgs(h.namespacePid);
    QString error;
    const QString hostKey = h.dir + QStringLiteral("/ssh_host_ed25519_key");
    h.identityFile = h.dir + QStringLiteral("/id_demo");
    if (!runQuiet(QStringLiteral("ssh-keygen"),
                  {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                   QString(), QStringLiteral("-C"), QStringLiteral("flashdeck-demo-host"), QStringLiteral("-f"),
                   hostKey},
                  &error) ||
        !runQuiet(QStringLiteral("ssh-keygen"),
                  {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                   QString(), QStringLiteral("-C"), QStringLiteral("flashdeck-demo"), QStringLiteral("-f"),
                   h.identityFile},
                  &error)) {
        (void)stopProcessTree(h.daemonPid, 5000); // nothing of a host half started stays behind
        (void)stopProcessTree(h.namespacePid, 3000);
        return Status::failure(QCoreApplication::translate("Demo", "Cannot generate the demo's SSH keys."), error);
    }
    writeFile(h.dir + QStringLiteral("/authorized_keys"), readAll(h.identityFile + QStringLiteral(".pub")));
    h.knownHostsFile = h.dir + QStringLiteral("/known_hosts");
    // Trusted in advance: this key was made here a moment ago (host contract §1 still checks it).
    const QList<QByteArray> pub = readAll(hostKey + QStringLiteral(".pub")).split(' ');
    writeFile(h.knownHostsFile,
              "[127.0.0.1]:" + QByteArray::number(h.port) + ' ' + pub.value(0) + ' ' + pub.value(1) + '\n');

    const QStringList config{
        QStringLiteral("Port %1").arg(kDemoSshPort), // inside the host's namespace; relayed from h.port
        QStringLiteral("ListenAddress 127.0.0.1"),
        QStringLiteral("HostKey %1").arg(hostKey),
        QStringLiteral("PidFile %1/sshd.pid").arg(h.dir),
        QStringLiteral("AuthorizedKeysFile %1/authorized_keys").arg(h.dir),
        QStringLiteral("AllowUsers %1").arg(h.user),
        QStringLiteral("StrictModes no"),
        QStringLiteral("PubkeyAuthentication yes"),
        QStringLiteral("PasswordAuthentication no"),
        QStringLiteral("KbdInteractiveAuthentication no"),
        QStringLiteral("UsePAM no"),
        QStringLiteral("PermitRootLogin prohibit-password"),
        QStringLiteral("AllowTcpForwarding local"),
        QStringLiteral("MaxSessions 64"),
        QStringLiteral("PrintMotd no"),
        QStringLiteral("SetEnv HOME=%1 PATH=%2:/usr/local/bin:/usr/bin:/bin FLASHDECK_SIM_DIR=%3 "
                       "HF_ENDPOINT=http://127.0.0.1:%4")
            .arg(home, m_resources.toolsDir, simDir, QString::fromLatin1(hubPort)),
    };
    writeFile(h.dir + QStringLiteral("/sshd_config"), config.join(QLatin1Char('\n')).toUtf8() + '\n');
    if (::getuid() == 0) {
        QDir().mkpath(QStringLiteral("/run/sshd")); // sshd's privilege separation directory
    }
    QProcess sshd;
    sshd.setProgram(m_resources.netns); // `join` executes sshd in place: the pid is sshd's
    sshd.setArguments(joinNamespace +
                      QStringList{QStringLiteral("/usr/sbin/sshd"), QStringLiteral("-D"), QStringLiteral("-f"),
                                  h.dir + QStringLiteral("/sshd_config"), QStringLiteral("-E"),
                                  h.dir + QStringLiteral("/sshd.log")});
    // A detached process inherits our stdout and stderr: `json=$(flashdeck demo start --json)`
    // would then wait for the demo's sshd to exit. Its log goes to -E; its streams go nowhere.
    sshd.setStandardOutputFile(QProcess::nullDevice());
    sshd.setStandardErrorFile(QProcess::nullDevice());
    if (!sshd.startDetached(&h.sshdPid) || !waitForFile(h.dir + QStringLiteral("/sshd.pid"), h.sshdPid, 15000)) {
        (void)stopProcessTree(h.daemonPid, 5000);
        (void)stopProcessTree(h.namespacePid, 3000);
        return Status::failure(QCoreApplication::translate("Demo", "The demo's OpenSSH server did not start."),
                               QString::fromUtf8(readAll(h.dir + QStringLiteral("/sshd.log"))));
    }
    return Status::ok();
}

Result<QList<DemoHostInfo>> DemoHosts::start(fleet::Inventory &inventory, const QString &scenario, double timeFactor,
                                             int hostCount)
{
    if (const QList<DemoHostInfo> already = running(); !already.isEmpty()) {
        return already;
    }
    if (const QString missing = m_resources.missing(); !missing.isEmpty()) {
        return Status::failure(missing);
    }
    if (!QDir().mkpath(stateDir())) {
        return Status::failure(QCoreApplication::translate("Demo", "Cannot create %1.").arg(stateDir()));
    }
    QList<std::pair<QString, QString>> wanted{{QStringLiteral("demo"), scenario}};
    for (int i = 2; i <= hostCount; ++i) {
        wanted.append({QStringLiteral("demo-%1").arg(i), scenario});
    }
    if (!scenario.startsWith(QLatin1String("mi3"))) {
        wanted.append({QStringLiteral("demo-amd"), QStringLiteral("mi355x-x8")});
    }
    QList<DemoHostInfo> hosts;
    for (const auto &[name, sc] : wanted) {
        Result<DemoHostInfo> h = startHost(name, sc, timeFactor);
        if (!h) {
            for (const DemoHostInfo &started : hosts) {
                (void)stopProcessTree(started.sshdPid, 3000);
                (void)stopProcessTree(started.daemonPid, 10000);
                (void)stopProcessTree(started.namespacePid, 3000);
            }
            return h.status();
        }
        hosts.append(h.value());
    }
    if (Status s = saveState(hosts); !s) {
        return s;
    }
    QList<fleet::HostEntry> entries;
    for (const DemoHostInfo &h : hosts) {
        fleet::HostEntry entry;
        entry.name = h.name;
        entry.address = QStringLiteral("127.0.0.1");
        entry.port = h.port;
        entry.user = h.user;
        entry.identityFile = h.identityFile;
        entry.knownHostsFile = h.knownHostsFile;
        entry.vendorHint =
            h.scenario.startsWith(QLatin1String("mi3")) ? QStringLiteral("amd") : QStringLiteral("nvidia");
        entry.notes = QCoreApplication::translate("Demo", "Demo: %1 (scenario %2). Nothing here is a real GPU.")
                          .arg(h.description, h.scenario);
        entry.simulated = true;
        entries.append(entry);
    }
    // One change to the file as it is now: the operator's own hosts, added meanwhile, stay.
    const auto added = inventory.change([&entries](QList<fleet::HostEntry> &list) {
        for (const fleet::HostEntry &entry : entries) {
            const auto it = std::find_if(list.begin(), list.end(),
                                         [&entry](const fleet::HostEntry &h) { return h.name == entry.name; });
            if (it != list.end()) {
                *it = entry;
            } else {
                list.append(entry);
            }
        }
        return Status::ok();
    });
    if (!added) {
        return added.status();
    }
    return hosts;
}

Status DemoHosts::stop(fleet::Inventory &inventory)
{
    const QByteArray data = readAll(stateFile());
    const nlohmann::json j = nlohmann::json::parse(data.constData(), data.constData() + data.size(), nullptr, false);
    bool clean = true;
    QStringList names{QStringLiteral("demo"), QStringLiteral("demo-amd")};
    if (j.is_object()) {
        for (const auto &item : j.value("hosts", nlohmann::json::array())) {
            const DemoHostInfo h = item.get<DemoHostInfo>();
            names.append(h.name);
            // sshd first (no new sessions), then the daemon, which stops its containers.
            clean = stopProcessTree(h.sshdPid, 3000) && clean;
            clean = stopProcessTree(h.daemonPid, 15000) && clean;
            clean = stopProcessTree(h.namespacePid, 3000) && clean;
        }
    }
    const auto removed = inventory.change([&names](QList<fleet::HostEntry> &list) {
        // Never a real host that happens to be called "demo".
        list.removeIf([&names](const fleet::HostEntry &h) { return h.simulated && names.contains(h.name); });
        return Status::ok();
    });
    const Status saved = removed ? Status::ok() : removed.status();
    if (!clean) {
        return Status::failure(
            QCoreApplication::translate("Demo", "Some demo processes did not stop. Their pids are in %1.")
                .arg(stateFile()));
    }
    QDir(stateDir()).removeRecursively();
    return saved;
}

} // namespace flashdeck::demo
