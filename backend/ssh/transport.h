#pragma once

#include "backend/ssh/sshtypes.h"

#include <QObject>
#include <QStringList>

#include <optional>

namespace flashdeck::ssh {

class CommandReply;
class TunnelReply;

/**
 * What the services need of a host: run a command, open a tunnel, know whether the link is
 * up. HostConnection is the real one (libssh on its own thread); tests substitute a scripted
 * fake (tests/support/faketransport) to drive the deploy runner, the log follower and the
 * monitor in milliseconds. Every call returns a reply that reports its own events only.
 */
class Transport : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Transport)

public:
    using QObject::QObject;
    ~Transport() override = default;

    virtual const SshTarget &target() const = 0;
    virtual ConnectionState state() const = 0;
    bool isReady() const { return state().phase == ConnectionPhase::Ready; }

    /**
     * Starts `command` (queued until connected). The reply is a child of `owner` (never null):
     * when the owner goes, an unfinished command is cancelled.
     */
    [[nodiscard]] virtual CommandReply *execute(const RemoteCommand &command, QObject *owner) = 0;
    /** A captured command (stdout and stderr collected into the result). */
    [[nodiscard]] CommandReply *execute(const QByteArray &commandLine, int timeoutMs, QObject *owner);
    /**
     * A tunnel to remoteHost:remotePort as seen from the host, for this process alone: connect
     * through the reply's link(). SSH's transport opens no port for it (each connection is a
     * socket pair), so no other local user can reach the server; a transport that cannot do
     * that (the tests' fake) opens a loopback port as below.
     */
    [[nodiscard]] virtual TunnelReply *tunnelToPort(const QString &remoteHost, quint16 remotePort, QObject *owner)
    {
        return tunnelToPort(remoteHost, remotePort, 0, owner);
    }
    /**
     * A listening port on 127.0.0.1:`localPort` exactly (0: any free port), for other programs
     * (curl, an IDE, a TLS client): it admits only the operator's own uid. A port another
     * program holds makes the reply fail, saying so.
     */
    [[nodiscard]] virtual TunnelReply *tunnelToPort(const QString &remoteHost, quint16 remotePort, quint16 localPort,
                                                    QObject *owner) = 0;
    /** A local port whose connections each run `command` on the host, bytes both ways. */
    [[nodiscard]] virtual TunnelReply *tunnelToCommand(const QByteArray &command, QObject *owner) = 0;

    /**
     * The login, as a conversation: connectToHost() starts it (again), and a prompt below waits
     * for its matching answer…() (nobody answering means the login waits). A HostSession drives
     * it the same way over the real connection and over a test's scripted one.
     */
    virtual void connectToHost() = 0;
    virtual void answerHostKey(bool accept) = 0;
    /** nullopt: the user declined; the next identity or method is tried. */
    virtual void answerPassphrase(std::optional<QString> passphrase) = 0;
    virtual void answerKeyboardInteractive(std::optional<QStringList> answers) = 0;
    virtual void answerPassword(std::optional<QString> password) = 0;

Q_SIGNALS:
    void stateChanged(const flashdeck::ssh::ConnectionState &state);
    void hostKeyNeedsDecision(const flashdeck::ssh::HostKeyInfo &info);
    void passphraseNeeded(const flashdeck::ssh::PassphraseRequest &request);
    void keyboardInteractiveNeeded(const flashdeck::ssh::KbdIntChallenge &challenge);
    void passwordNeeded(const flashdeck::ssh::PasswordRequest &request);
};

} // namespace flashdeck::ssh
