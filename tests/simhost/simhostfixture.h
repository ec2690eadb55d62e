#pragma once

#include "backend/ssh/hostconnection.h"
#include "tests/support/sshdfixture.h"

#include <QTemporaryDir>

#include <memory>

namespace flashdeck::test {

/**
 * A simulated GPU host behind a real sshd: the sim tools first on PATH, FLASHDECK_SIM_DIR set,
 * and one connected HostConnection. Tests switch scenarios and write the GPU load.
 */
class SimHostFixture final
{
public:
    /** Starts sshd with `scenario` and connects; false with `error` when it cannot. */
    bool start(const QString &scenario, QString *error);
    void stop();

    ssh::HostConnection &connection() { return *m_conn; }
    /** Copies scenarios/<name>.json to the host and clears the load. */
    bool useScenario(const QString &name);
    /** Writes gpu-load.json (atomically) with the same load on every listed GPU index. */
    bool writeLoad(const QList<int> &gpus, qint64 usedMiB, int utilization, double powerW = -1, int tempC = -1);
    void clearLoad();
    QString simDir() const { return m_sim->path(); }

private:
    std::unique_ptr<QTemporaryDir> m_home;
    std::unique_ptr<QTemporaryDir> m_sim;
    std::unique_ptr<SshdFixture> m_sshd;
    std::unique_ptr<ssh::HostConnection> m_conn;
};

} // namespace flashdeck::test
