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
    HostEntry hostEntry(const QString &name) const;
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
    quint16 dockerPort() const { return m_dockerPort; }
    quint16 hubPort() const { return m_hubPort; }
    /** What the daemon printed on stderr so far (for failure messages). */
    QString daemonLog();

private:
    bool startDaemon(double timeFactor, QString *error);

    std::unique_ptr<QTemporaryDir> m_home;
    std::unique_ptr<QTemporaryDir> m_sim;
    std::unique_ptr<SshdFixture> m_sshd;
    std::unique_ptr<QProcess> m_daemon;
    std::unique_ptr<ssh::HostConnection> m_conn;
    QString m_key;
    quint16 m_dockerPort = 0;
    quint16 m_hubPort = 0;
};

} // namespace flashdeck::test
