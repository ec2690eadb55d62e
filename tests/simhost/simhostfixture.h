#pragma once

#include "backend/fleet/hostentry.h"
#include "backend/ssh/hostconnection.h"
#include "tests/support/sshdfixture.h"

#include <QProcess>
#include <QTemporaryDir>

#include <memory>

namespace flashdeck::test {

/**
 * A simulated GPU host behind a real sshd: the sim tools first on PATH, FLASHDECK_SIM_DIR and
 * HF_ENDPOINT set, the simulated Docker daemon running (as dockerd would be), and one connected
 * HostConnection. Tests switch scenarios and write the GPU load.
 *
 * Like a real server, the host has a loopback of its own (a network namespace made by
 * simhost-netns): its server's 127.0.0.1:30000 is not the machine's, so a demo or a local SGLang
 * on the machine's port 30000, or another test's host, never collides with it. From the machine,
 * tests reach its sshd at sshd().port(), and (tests only) its Docker API at dockerPort() and its
 * port 30000 at serverPort().
 */
class SimHostFixture final
{
public:
    SimHostFixture() = default;
    ~SimHostFixture() { stop(); }
    SimHostFixture(const SimHostFixture &) = delete;
    SimHostFixture &operator=(const SimHostFixture &) = delete;

    /**
     * Starts the daemon and sshd with `scenario` and connects; false with `error` when it
     * cannot. `timeFactor` scales every simulated duration of the daemon and its containers.
     */
    bool start(const QString &scenario, QString *error, double timeFactor = 0.01);
    void stop();

    ssh::HostConnection &connection() { return *m_conn; }
    /** An inventory entry named `name` that reaches this host as connection() does (simulated). */
    fleet::HostEntry hostEntry(const QString &name) const;
    /** Adds hostEntry(name) to the inventory of the configuration in `configDir`, as `hosts add` does. */
    [[nodiscard]] bool addToInventory(const QString &configDir, const QString &name) const;
    /** Copies scenarios/<name>.json to the host and clears the load. */
    bool useScenario(const QString &name);
    /** Writes gpu-load.json (atomically) with the same load on every listed GPU index. */
    bool writeLoad(const QList<int> &gpus, qint64 usedMiB, int utilization, double powerW = -1, int tempC = -1);
    void clearLoad();
    QString simDir() const { return m_sim->path(); }
    SshdFixture &sshd() { return *m_sshd; }
    /** The client's home (known_hosts, the authorised key id_sim). */
    QString clientHome() const { return m_home->path(); }
    QString clientKey() const { return m_key; }
    /** The daemon's Engine API, relayed to the machine's loopback. */
    quint16 dockerPort() const { return m_dockerPort; }
    /** The host's own 127.0.0.1:30000 (the default server port), relayed to the machine's loopback. */
    quint16 serverPort() const { return m_serverPort; }
    /**
     * A port of the host's own loopback (a server a test started there), relayed to a free
     * port of the machine's loopback; 0 when it cannot be.
     */
    quint16 relay(quint16 insidePort);
    /** The pid whose network namespace is the host's (`nsenter --net=/proc/PID/ns/net`). */
    qint64 namespacePid() const { return m_netnsPid; }
    /** What the daemon printed on stderr so far (for failure messages). */
    QString daemonLog();
    /**
     * What the daemon counts now (its `/_sim/counts`): "connections" (each dial-stdio is one;
     * this question is not counted) or "log_follows"; -1 when it did not answer.
     */
    int engineCount(const char *what);

private:
    bool startNamespace(QString *error);
    bool startDaemon(double timeFactor, QString *error);

    std::unique_ptr<QTemporaryDir> m_home;
    std::unique_ptr<QTemporaryDir> m_sim;
    std::unique_ptr<SshdFixture> m_sshd;
    std::unique_ptr<QProcess> m_netns;
    std::unique_ptr<QProcess> m_daemon;
    std::unique_ptr<ssh::HostConnection> m_conn;
    QString m_key;
    qint64 m_netnsPid = 0;
    quint16 m_sshPort = 0;
    quint16 m_dockerPort = 0;
    quint16 m_serverPort = 0;
    quint16 m_hubPort = 0; // inside the namespace
};

} // namespace flashdeck::test
