#pragma once

#include "backend/ssh/authenticator.h"
#include "backend/ssh/sshhandles.h"
#include "backend/ssh/sshtypes.h"

#include <QObject>
#include <QSet>

#include <deque>
#include <map>
#include <memory>

class QSocketNotifier;
class QTimer;
struct ssh_counter_struct;

namespace flashdeck::ssh {

class CommandJob;
class SocketReadAhead;
class TunnelServer;

/**
 * Owns one libssh session and everything on it; lives on its host's own QThread and is only
 * ever called through queued invocations (libssh: a session and its channels must not be
 * shared between threads). HostConnection is its public face.
 *
 * Connect and authenticate block this thread (bounded by the timeout), as KIO does; after
 * that, I/O is driven by a socket notifier on the session's descriptor plus a short safety
 * tick, never a busy loop. Prompts are signals; answers come back as slots.
 */
class SessionWorker final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionWorker)

public:
    explicit SessionWorker(SshTarget target);
    ~SessionWorker() override;

public Q_SLOTS:
    void initThread();
    void start();
    void stop();
    void answerHostKey(bool accept);
    void answerPassphrase(const QByteArray &passphrase, bool given);
    void answerKeyboardInteractive(const QList<QByteArray> &answers, bool given);
    void answerPassword(const QByteArray &password, bool given);
    void runCommand(quint64 id, const flashdeck::ssh::RemoteCommand &command);
    void cancelCommand(quint64 id);
    /** The consumer has handled `cost` of the command's output (flow control). */
    void acknowledgeOutput(quint64 id, qint64 cost);
    /** `localPort`: the 127.0.0.1 port to listen on, 0 for any free one. */
    void openTunnel(quint64 id, int kind, const QString &remoteHost, quint16 remotePort, const QByteArray &command,
                    quint16 localPort);
    /** The same without a listener: its connections come through adoptLink() (port 0 is reported). */
    void openPrivateTunnel(quint64 id, int kind, const QString &remoteHost, quint16 remotePort,
                           const QByteArray &command);
    /** One end of a socket pair for private tunnel `id`; closed if that tunnel is gone. */
    void adoptLink(quint64 id, int fd);
    void closeTunnel(quint64 id);

Q_SIGNALS:
    void stateChanged(const flashdeck::ssh::ConnectionState &state);
    void hostKeyVerified(const flashdeck::ssh::HostKeyInfo &info);
    void hostKeyNeedsDecision(const flashdeck::ssh::HostKeyInfo &info);
    void passphraseNeeded(const flashdeck::ssh::PassphraseRequest &request);
    void keyboardInteractiveNeeded(const flashdeck::ssh::KbdIntChallenge &challenge);
    void passwordNeeded(const flashdeck::ssh::PasswordRequest &request);
    void commandOutput(quint64 id, const QList<QByteArray> &stdoutLines, const QList<QByteArray> &stderrLines);
    void commandFinished(quint64 id, const flashdeck::ssh::CommandResult &result);
    void tunnelReady(quint64 id, quint16 localPort);
    void tunnelFailed(quint64 id, const QString &message);

private:
    std::unique_ptr<TunnelServer> makeTunnel(quint64 id, int kind, const QString &remoteHost, quint16 remotePort,
                                             const QByteArray &command);
    void keepTunnel(std::unique_ptr<TunnelServer> tunnel);
    void setPhase(ConnectionPhase phase, const SshError &error = {});
    void verifyHostKey();
    void authenticate();
    void onAuthProgress(Authenticator::Progress progress);
    void becomeReady();
    void fail(const SshError &error);
    void connectionLost(const SshError &error);
    void teardown();
    void stopRemoteCommands();
    void startCommand(std::unique_ptr<CommandJob> job);
    void finishCommand(quint64 id, const SshError &error);
    void killRemote(const QByteArray &killCommand);
    void scheduleService();
    void service();
    void keepalive();
    bool sessionAlive();

    SshTarget m_target;
    SessionPtr m_session;
    EventPtr m_event;
    QSocketNotifier *m_notifier = nullptr;
    QTimer *m_tick = nullptr;
    QTimer *m_keepalive = nullptr;
    QTimer *m_reconnect = nullptr;
    bool m_serviceQueued = false;
    /** libssh's socket counters for the session: what arrived tells a live link from a dead one. */
    std::unique_ptr<ssh_counter_struct> m_counters;
    std::unique_ptr<SocketReadAhead> m_readAhead; // while Ready: the socket read in large pieces
    /** Bytes received when the last keepalive went out. */
    quint64 m_bytesAtKeepalive = 0;
    int m_keepalivesUnanswered = 0;
    bool m_keepaliveSent = false;

    ConnectionState m_state;
    bool m_wasReady = false;
    bool m_stopped = false;
    int m_attempt = 0;
    QString m_effectiveUser;
    QString m_effectiveHost;
    HostKeyInfo m_hostKey;

    std::unique_ptr<Authenticator> m_auth;
    std::map<QString, KeyPtr> m_keyCache;

    std::map<quint64, std::unique_ptr<CommandJob>> m_commands;
    std::deque<std::unique_ptr<CommandJob>> m_queued;
    QSet<quint64> m_internal;
    quint64 m_nextInternalId = ~quint64(0);
    std::map<quint64, std::unique_ptr<TunnelServer>> m_tunnels;
};

} // namespace flashdeck::ssh
