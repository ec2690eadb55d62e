#pragma once

#include "backend/ssh/transport.h"

#include <QList>
#include <QPointer>

#include <functional>
#include <optional>

namespace flashdeck::ssh {
class CommandReply;
class TunnelReply;
} // namespace flashdeck::ssh

namespace flashdeck::testing {

/**
 * A scripted host for unit tests of the services (deploy runner, log follower, monitor, samplers):
 * commands get the answers a test gave for them, tunnels lead to local ports the test serves
 * (a FakeHttpServer standing in for dockerd or SGLang). Every event arrives queued, as from the
 * real transport's thread, so callers meet the same ordering. No SSH, no processes: milliseconds.
 */
class FakeTransport final : public ssh::Transport
{
    Q_OBJECT

public:
    struct Answer
    {
        QByteArray out;
        QByteArray err;
        std::optional<int> exitCode = 0;
        ssh::SshError error;
        /** Streamed to RemoteCommand::streamLines callers as output batches before the end. */
        QList<QByteArray> lines;
        /** Left running after `lines`: the test ends it (finish()) or the caller cancels it. */
        bool keepRunning = false;
        /**
         * With keepRunning: more output every `repeatMs` while it runs, as a tool that samples in
         * a loop prints it (nvidia-smi -lms N): what `repeat` returns then, else `lines` again. Only
         * for a command that streams its lines (`RemoteCommand::streamLines`); ignored otherwise.
         */
        int repeatMs = 0;
        std::function<QList<QByteArray>()> repeat = {};
    };
    using Script = std::function<Answer(const ssh::RemoteCommand &)>;

    explicit FakeTransport(QString host = QStringLiteral("fake-host"), QObject *parent = nullptr);
    ~FakeTransport() override;

    const ssh::SshTarget &target() const override { return m_target; }
    ssh::ConnectionState state() const override { return m_state; }
    [[nodiscard]] ssh::CommandReply *execute(const ssh::RemoteCommand &command, QObject *owner) override;
    using Transport::execute;
    using Transport::tunnelToPort;
    /** A requested `localPort` is recorded (localPortsAsked()); the tunnel leads to the route's port. */
    [[nodiscard]] ssh::TunnelReply *tunnelToPort(const QString &remoteHost, quint16 remotePort, quint16 localPort,
                                                 QObject *owner) override;
    [[nodiscard]] ssh::TunnelReply *tunnelToCommand(const QByteArray &command, QObject *owner) override;

    /**
     * The login: counted; a transport that is not Ready or on its way becomes Ready (a test
     * scripts a prompt by emitting passphraseNeeded() etc. itself and reads the answers below).
     */
    void connectToHost() override;
    void answerHostKey(bool accept) override
    {
        m_answers.append(accept ? QStringLiteral("host key: accept") : QStringLiteral("host key: refuse"));
    }
    void answerPassphrase(std::optional<QString> passphrase) override
    {
        m_answers.append(passphrase ? QStringLiteral("passphrase: ") + *passphrase
                                    : QStringLiteral("passphrase: declined"));
    }
    void answerKeyboardInteractive(std::optional<QStringList> answers) override
    {
        m_answers.append(answers ? QStringLiteral("keyboard-interactive: ") + answers->join(QLatin1Char(','))
                                 : QStringLiteral("keyboard-interactive: declined"));
    }
    void answerPassword(std::optional<QString> password) override
    {
        m_answers.append(password ? QStringLiteral("password: ") + *password : QStringLiteral("password: declined"));
    }
    int connects() const { return m_connects; }
    /** Every answer to a prompt, in order ("passphrase: declined", "host key: accept", …). */
    const QStringList &answers() const { return m_answers; }

    /** Ready by default; a change is signalled (queued) like the real one. */
    void setPhase(ssh::ConnectionPhase phase);
    /**
     * A host nobody answers for: the transport starts Disconnected, and every connectToHost()
     * goes Connecting, then Failed with `error` (the real transport's words for that fault, e.g.
     * a refused TCP connect). Call it before the transport is used.
     */
    void refuseLogins(const ssh::SshError &error);
    /**
     * The session drops: running commands end Cancelled ("Disconnected."), open tunnels close,
     * the phase goes to Reconnecting.
     */
    void drop();

    /** A command line containing `needle` gets `answer` (the first script added that matches wins). */
    void answer(const QByteArray &needle, Answer answer);
    void answer(const QByteArray &needle, Script script);
    /** Nothing matched: what a shell says (exit 127, "command not found"). */
    static Answer notFound(const ssh::RemoteCommand &command);

    /** Tunnels to "host:port" or to a command containing `needle` lead to this local port. */
    void route(const QByteArray &needle, quint16 localPort);
    /** …or fail with this message (libssh's words, or the worker's). */
    void refuse(const QByteArray &needle, const QString &message);

    /** Every command line run, in order. */
    const QList<QByteArray> &commands() const { return m_commands; }
    int count(const QByteArray &needle) const;
    /** The commands still running (keepRunning), oldest first. */
    QList<ssh::CommandReply *> running() const;
    /** Streams lines to a running command, or ends it. */
    void feed(ssh::CommandReply *reply, const QList<QByteArray> &lines);
    void finish(ssh::CommandReply *reply, const ssh::CommandResult &result);
    int openTunnels() const;
    /** The local ports port tunnels asked for, in order (0: any free one). */
    const QList<quint16> &localPortsAsked() const { return m_localPortsAsked; }

private:
    struct Rule
    {
        QByteArray needle;
        Script script;
    };
    struct Route
    {
        QByteArray needle;
        quint16 port = 0;
        QString refusal;
    };
    struct Queued
    {
        QPointer<ssh::CommandReply> reply;
        std::function<void()> run;
    };
    ssh::TunnelReply *openTunnel(const QByteArray &key, QObject *owner);
    /** Ends a command with the failed login's error, from the event loop, as the real worker does. */
    void finishFailed(const QPointer<ssh::CommandReply> &reply);

    ssh::SshTarget m_target;
    ssh::ConnectionState m_state;
    std::optional<ssh::SshError> m_loginError;
    int m_connects = 0;
    QStringList m_answers;
    QList<Rule> m_rules;
    QList<Route> m_routes;
    QList<QByteArray> m_commands;
    QList<QPointer<ssh::CommandReply>> m_running;
    QList<Queued> m_queued;
    QList<QPointer<ssh::TunnelReply>> m_tunnels;
    QList<quint16> m_localPortsAsked;
};

} // namespace flashdeck::testing
