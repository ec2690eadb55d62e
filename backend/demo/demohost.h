#pragma once

#include "backend/core/result.h"

#include <QList>
#include <QString>

#include <nlohmann/json_fwd.hpp>

namespace flashdeck {
class AppPaths;
namespace fleet {
class Inventory;
} // namespace fleet
} // namespace flashdeck

namespace flashdeck::demo {

/** One running simulated host of the demo. */
struct DemoHostInfo
{
    QString name; // inventory name: "demo", "demo-amd"
    QString scenario;
    QString description; // "simulated 4 × B300"
    QString user;
    quint16 port = 0;
    QString identityFile;
    QString knownHostsFile;
    qint64 sshdPid = 0;
    qint64 daemonPid = 0;
    /** simhost-netns: holds the host's own network namespace and relays `port` to its sshd. */
    qint64 namespacePid = 0;
    QString dir;

    /** The OpenSSH command line that reaches it. */
    QString sshCommand() const;
};

void to_json(nlohmann::json &j, const DemoHostInfo &h);
void from_json(const nlohmann::json &j, DemoHostInfo &h);

/** Where the simulated host's programs and data are (tests/simhost, built with the app). */
struct DemoResources
{
    QString toolsDir; // nvidia-smi, docker, sglang-sim, … (first on the demo sshd's PATH)
    QString daemon; // simhostd
    QString netns; // simhost-netns: each host gets a loopback of its own
    QString registry; // registry.json
    QString scenariosDir;

    /** The build tree's, or FLASHDECK_SIMHOST_DIR's layout (bin/, simhostd, registry.json, scenarios/). */
    static DemoResources locate();
    /** Empty when everything is there, else what is missing and how to get it. */
    QString missing() const;
    QStringList scenarios() const;
};

/**
 * `flashdeck demo` and `flashdeck --demo`: simulated GPU hosts on loopback, each a real
 * OpenSSH server (its own config, host key, authorised client key and port) in front of the
 * simulated host of tests/simhost, added to the inventory as simulated hosts whose keys are
 * already trusted (their own known_hosts file). Each host has a network namespace of its own
 * (simhost-netns), as a real server has its own loopback: its server's port 30000 is not the
 * machine's, so two demos, a demo and the test suite, or a demo and a local SGLang never
 * collide; only its SSH port is reachable, relayed from a free port of the machine's 127.0.0.1. Processes are detached,
 * so the demo outlives the command that started it; state.json under the data directory says what runs, and stop() ends
 * all of it, leaving no process behind.
 */
class DemoHosts final
{
public:
    DemoHosts(const AppPaths &paths, DemoResources resources);

    /** The hosts of a running demo (an empty list when none runs). */
    QList<DemoHostInfo> running() const;
    /**
     * Starts `demo` with `scenario` (and `demo-2` … `demo-N` alike when `hostCount` > 1: a fleet to
     * upgrade in turn) and `demo-amd` with mi355x-x8 (unless `scenario` is
     * AMD already), and adds them to `inventory` (saved). A demo already running is returned
     * as it is. `timeFactor` scales every simulated duration (1 = the pace of a real host).
     */
    [[nodiscard]] Result<QList<DemoHostInfo>> start(fleet::Inventory &inventory, const QString &scenario,
                                                    double timeFactor, int hostCount = 1);
    /** Stops every demo process and removes the demo hosts from `inventory` (saved). */
    [[nodiscard]] Status stop(fleet::Inventory &inventory);

private:
    QString stateDir() const;
    QString stateFile() const;
    [[nodiscard]] Result<DemoHostInfo> startHost(const QString &name, const QString &scenario, double timeFactor);
    // startHost's parts, in order: each stops what the earlier ones started when it fails.
    [[nodiscard]] Status writeScenario(DemoHostInfo &h, const QString &scenario, const QString &simDir) const;
    [[nodiscard]] Status startNamespace(DemoHostInfo &h) const;
    /** The daemon inside the host's namespace; the port of its Hugging Face Hub. */
    [[nodiscard]] Result<QByteArray> startDaemon(DemoHostInfo &h, const QString &simDir, double timeFactor) const;
    /** Its keys, its known_hosts entry, its configuration, then sshd inside the host's namespace. */
    [[nodiscard]] Status startSshd(DemoHostInfo &h, const QString &home, const QString &simDir,
                                   const QByteArray &hubPort) const;
    [[nodiscard]] Status saveState(const QList<DemoHostInfo> &hosts) const;

    const AppPaths &m_paths;
    DemoResources m_resources;
};

} // namespace flashdeck::demo
