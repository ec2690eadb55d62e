#pragma once

#include "backend/core/result.h"
#include "backend/fleet/hostentry.h"
#include "backend/recipe/deployment.h"
#include "backend/ssh/sshtypes.h"

#include <QObject>

#include <memory>
#include <optional>

namespace flashdeck {

namespace chat {
class ChatClient;
} // namespace chat
namespace deploy {
class ApiKeyRecovery;
class DeploySession;
class UpgradeSession;
} // namespace deploy
namespace docker {
class DockerEndpoint;
} // namespace docker
namespace logs {
class LogRules;
class SharedLog;
} // namespace logs
namespace metrics {
class HostMonitor;
class ServerSampler;
} // namespace metrics
namespace ssh {
class Transport;
} // namespace ssh

} // namespace flashdeck

namespace flashdeck::fleet {

/**
 * One host, once: its one SSH connection, shared by the host bar, every page, the monitor, the
 * deploy runner, chat and the log followers, and the monitor that watches it. Owned by the
 * FleetWatcher.
 *
 * Its prompts (host key, passphrase, password, keyboard-interactive) are refused while nobody is
 * there to answer them (the fleet connects every host in the background at start), and reach the
 * operator once they ask for the host (connectWithOperator): whoever listens to the connection's
 * prompt signals answers them then. An attempt that refused a prompt is made again once, so a key
 * with a passphrase and no agent is asked for once, and every page works after it (two connections
 * per host once let the host bar say "connected" while every page failed to log in).
 *
 * The window sees the host through this class only: its state and prompts (re-emitted here, each
 * prompt only once the operator asked for the host), the answers, and the parts built on its
 * transport (chat client, API key recovery, server sampler). The transport itself stays in the
 * backend. It also holds the host's running operation (a deployment or an upgrade started from the
 * window), so a page shows it and does not own it: a page made again finds the run here.
 */
class HostSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostSession)

public:
    /** The host over a real SSH connection (libssh on its own thread), reconnecting when it drops. */
    explicit HostSession(const HostEntry &entry, QObject *parent = nullptr);
    /** The host over `transport` (a test's scripted one: tests/support/faketransport). */
    HostSession(const HostEntry &entry, std::unique_ptr<ssh::Transport> transport, QObject *parent = nullptr);
    ~HostSession() override;

    const HostEntry &entry() const { return m_entry; }
    ssh::Transport &connection() const { return *m_connection; }
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

    /**
     * The host's deployment as its manifest says now, whoever wrote it (this window, another one, a
     * terminal): read once per change by the fleet, for every page. Not deployed, or unreadable:
     * the failure's words.
     */
    const Result<recipe::Deployment> &deployment() const { return m_deployment; }
    /** The manifest as read now (FleetWatcher, when the records say it changed). */
    void setDeployment(Result<recipe::Deployment> deployment);

    /** Whether prompts reach the operator (true once connectWithOperator was called). */
    bool asksOperator() const { return m_asksOperator; }
    /**
     * The operator wants this host: prompts reach them from now on, and the connection is made
     * (again) unless it is up or on its way. A connection that is up is never dropped: the pages'
     * commands and tunnels run on it.
     */
    void connectWithOperator();

    /** Where the host's one connection stands. */
    [[nodiscard]] ssh::ConnectionState state() const;
    /** Answers to the prompt signals below (each answers the connection's pending request). */
    void answerHostKey(bool accept);
    void answerPassphrase(std::optional<QString> passphrase);
    void answerPassword(std::optional<QString> password);
    void answerKeyboardInteractive(std::optional<QStringList> answers);

    /** A chat client for the server on `port` of the host, through this session's connection. */
    [[nodiscard]] chat::ChatClient *chatClient(quint16 port, QObject *parent);
    /** Reads the API key a running deployment was started with (not started yet: call start()). */
    [[nodiscard]] deploy::ApiKeyRecovery *apiKeyRecovery(const QString &deploymentId, QObject *parent);
    /** Samples the server on `port` (/metrics, /v1/loads) every `periodMs`; not started yet. */
    [[nodiscard]] std::unique_ptr<metrics::ServerSampler> serverSampler(quint16 port, const QString &apiKey,
                                                                        int periodMs);

    /**
     * Keeps `run` as the host's operation and starts it on this session's connection; start()'s
     * status (refused, nothing run, while another run of the host holds its lock). Refused while
     * this session's last operation still runs; a finished one is let go once control returns to
     * the event loop (it may be in its own signal).
     */
    [[nodiscard]] Status startDeploy(std::unique_ptr<deploy::DeploySession> run);
    [[nodiscard]] Status startUpgrade(std::unique_ptr<deploy::UpgradeSession> run);
    /** The host's last deployment run started from the window (null: none, or an upgrade since). */
    deploy::DeploySession *deploy() const { return m_deploy.get(); }
    /** The host's last upgrade started from the window (null: none, or a deployment since). */
    deploy::UpgradeSession *upgrade() const { return m_upgrade.get(); }
    /** Whether that deployment or upgrade still runs. */
    [[nodiscard]] bool operationRunning() const;

Q_SIGNALS:
    /** deployment() is what the manifest says now (made, redone, upgraded, undeployed). */
    void deploymentChanged();
    /** Another operation was started (deploy() or upgrade() changed). */
    void operationChanged();
    /** The operation started last has finished (whatever its outcome). */
    void operationFinished();
    void stateChanged(const flashdeck::ssh::ConnectionState &state);
    /** The prompts, once the operator asked for the host (before that they are refused here). */
    void hostKeyNeedsDecision(const flashdeck::ssh::HostKeyInfo &info);
    void passphraseNeeded(const flashdeck::ssh::PassphraseRequest &request);
    void passwordNeeded(const flashdeck::ssh::PasswordRequest &request);
    void keyboardInteractiveNeeded(const flashdeck::ssh::KbdIntChallenge &challenge);

private:
    void wirePrompts();
    /** Refuses while an operation runs; else lets the last one go (deleted later). */
    [[nodiscard]] Status letGoOfLastOperation();

    void onState(const ssh::ConnectionState &state);

    HostEntry m_entry;
    std::unique_ptr<ssh::Transport> m_connection;
    std::unique_ptr<metrics::HostMonitor> m_monitor;
    std::unique_ptr<logs::LogRules> m_logRules;
    std::unique_ptr<logs::SharedLog> m_log; // after the connection: destroyed before it
    std::unique_ptr<deploy::DeploySession> m_deploy; // runs on the connection: destroyed before it
    std::unique_ptr<deploy::UpgradeSession> m_upgrade;
    Result<recipe::Deployment> m_deployment{Status::failure(QString())};
    bool m_asksOperator = false;
    /** This attempt refused a prompt before the operator was there: try again when it ends. */
    bool m_refusedThisAttempt = false;
    bool m_operatorWaiting = false;
};

} // namespace flashdeck::fleet
