#pragma once

#include "backend/fleet/hostentry.h"
#include "backend/ssh/sshtypes.h"

#include <QObject>

#include <memory>

namespace flashdeck {

namespace ssh {
class HostConnection;
}
namespace docker {
class DockerEndpoint;
}
namespace metrics {
class HostMonitor;
}
namespace logs {
class LogRules;
class SharedLog;
} // namespace logs

/**
 * One host, once: its one SSH connection, shared by the host bar, every page, the monitor, the
 * deploy runner, chat and the log followers, and the monitor that watches it. Owned by the
 * FleetWatcher.
 *
 * Its prompts (host key, passphrase, password, keyboard-interactive) are refused while nobody is
 * there to answer them (the fleet connects every host in the background at start), and reach the
 * operator once they ask for the host (connectWithOperator): whoever listens to the connection's
 * prompt signals answers them then. An attempt that refused a prompt is made again once, so a key
 * with a passphrase and no agent is asked for once, and every page works after it (issue 22: two
 * connections per host let the host bar say "connected" while every page failed to log in).
 */
class HostSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostSession)

public:
    explicit HostSession(const HostEntry &entry, QObject *parent = nullptr);
    ~HostSession() override;

    const HostEntry &entry() const { return m_entry; }
    ssh::HostConnection &connection() const { return *m_connection; }
    /**
     * The host's one way to its Docker Engine: one dial-stdio tunnel and one kept-alive call
     * connection that the monitor, the log, the deploy runner and the API key share (every part
     * given this session's connection reaches the same one).
     */
    docker::DockerEndpoint &docker() const;
    metrics::HostMonitor *monitor() const { return m_monitor.get(); }
    void setMonitor(std::unique_ptr<metrics::HostMonitor> monitor);
    /**
     * The deployment's log, followed once for every page that reads it (made on first use);
     * null only if the built-in log rules cannot be read, which a build test rules out.
     */
    logs::SharedLog *logStream();

    /** Whether prompts reach the operator (true once connectWithOperator was called). */
    bool asksOperator() const { return m_asksOperator; }
    /**
     * The operator wants this host: prompts reach them from now on, and the connection is made
     * (again) unless it is up or on its way. A connection that is up is never dropped: the pages'
     * commands and tunnels run on it.
     */
    void connectWithOperator();

private:
    void onState(const ssh::ConnectionState &state);

    HostEntry m_entry;
    std::unique_ptr<ssh::HostConnection> m_connection;
    std::unique_ptr<metrics::HostMonitor> m_monitor;
    std::unique_ptr<logs::LogRules> m_logRules;
    std::unique_ptr<logs::SharedLog> m_log; // after the connection: destroyed before it
    bool m_asksOperator = false;
    /** This attempt refused a prompt before the operator was there: try again when it ends. */
    bool m_refusedThisAttempt = false;
    bool m_operatorWaiting = false;
};

} // namespace flashdeck
