#pragma once

#include "backend/core/linkopener.h"
#include "backend/ssh/transport.h"

#include <QHash>
#include <QPointer>

#include <atomic>

class QThread;

namespace flashdeck::ssh {

class CommandReply;
class SessionWorker;
class TunnelReply;

/**
 * One SSH connection to one host, with its own thread (conventions §6). Everything here is
 * safe to call from the owner's thread: calls are queued to the worker, results come back
 * as signals carrying value types. Prompts (host key, passphrase, keyboard-interactive,
 * password) are requests to answer with the matching answer…() call; nobody answering means
 * the connection waits, so a headless caller must answer or disconnect.
 */
class HostConnection final : public Transport
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostConnection)

public:
    explicit HostConnection(SshTarget target, QObject *parent = nullptr);
    ~HostConnection() override;

    const SshTarget &target() const override { return m_target; }
    ConnectionState state() const override { return m_state; }

    [[nodiscard]] CommandReply *execute(const RemoteCommand &command, QObject *owner) override;
    using Transport::execute;
    [[nodiscard]] TunnelReply *tunnelToPort(const QString &remoteHost, quint16 remotePort, QObject *owner) override;
    [[nodiscard]] TunnelReply *tunnelToPort(const QString &remoteHost, quint16 remotePort, quint16 localPort,
                                            QObject *owner) override;
    [[nodiscard]] TunnelReply *tunnelToCommand(const QByteArray &command, QObject *owner) override;

    void connectToHost() override;
    void disconnectFromHost();

    void answerHostKey(bool accept) override;
    void answerPassphrase(std::optional<QString> passphrase) override;
    void answerKeyboardInteractive(std::optional<QStringList> answers) override;
    void answerPassword(std::optional<QString> password) override;

    /**
     * The id-based forms: every listener of commandOutput/commandFinished/tunnel… sees every id.
     * Services use execute() and tunnelTo…() instead, whose replies see only their own.
     */
    quint64 run(const RemoteCommand &command);
    quint64 run(const QByteArray &commandLine, int timeoutMs = 0);
    void cancel(quint64 commandId);

    /**
     * A local 127.0.0.1 port (`localPort`, or any free one for 0) whose connections reach
     * remoteHost:remotePort from the host.
     */
    quint64 openPortTunnel(const QString &remoteHost, quint16 remotePort, quint16 localPort = 0);
    /** A local port whose connections each run `command` on the host, bytes both ways. */
    quint64 openStdioTunnel(const QByteArray &command);
    /**
     * The same without a port: each connection is a socket pair made by privateLink(), so no
     * other local user can reach the command (the host's Docker Engine is root there).
     */
    quint64 openPrivateStdioTunnel(const QByteArray &command);
    /** A port tunnel without a port: connections through privateLink() only. */
    quint64 openPrivatePortTunnel(const QString &remoteHost, quint16 remotePort);
    /** Opens connections to private tunnel `tunnelId` (see TunnelReply::link()). */
    LinkOpener privateLink(quint64 tunnelId);
    void closeTunnel(quint64 tunnelId);
Q_SIGNALS:
    void hostKeyVerified(const flashdeck::ssh::HostKeyInfo &info);
    // The prompts (hostKeyNeedsDecision, passphraseNeeded, …) are Transport's signals.
    void commandOutput(quint64 id, const QList<QByteArray> &stdoutLines, const QList<QByteArray> &stderrLines);
    void commandFinished(quint64 id, const flashdeck::ssh::CommandResult &result);
    void tunnelReady(quint64 id, quint16 localPort);
    void tunnelFailed(quint64 id, const QString &message);

private:
    TunnelReply *adoptTunnel(quint64 id, QObject *owner);

    SshTarget m_target;
    QThread *m_thread = nullptr;
    SessionWorker *m_worker = nullptr;
    ConnectionState m_state;
    std::atomic<quint64> m_nextId{1};
    QHash<quint64, QPointer<CommandReply>> m_commandReplies;
    QHash<quint64, QPointer<TunnelReply>> m_tunnelReplies;
};

} // namespace flashdeck::ssh
