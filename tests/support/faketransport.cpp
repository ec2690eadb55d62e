#include "faketransport.h"

#include "backend/ssh/commandreply.h"
#include "backend/ssh/tunnelreply.h"

#include <QTimer>

namespace flashdeck::testing {

using ssh::CommandReply;
using ssh::TunnelReply;

FakeTransport::FakeTransport(QString host, QObject *parent)
    : ssh::Transport(parent)
{
    m_target.host = std::move(host);
    m_target.user = QStringLiteral("root");
    m_state.phase = ssh::ConnectionPhase::Ready;
    m_state.authMethod = QStringLiteral("publickey");
}

FakeTransport::~FakeTransport() = default;

void FakeTransport::connectToHost()
{
    ++m_connects;
    if (m_loginError) {
        if (m_state.phase == ssh::ConnectionPhase::Disconnected || m_state.phase == ssh::ConnectionPhase::Failed ||
            m_state.phase == ssh::ConnectionPhase::Reconnecting) {
            m_state.error = {};
            setPhase(ssh::ConnectionPhase::Connecting);
            m_state.error = *m_loginError;
            setPhase(ssh::ConnectionPhase::Failed);
            // As SessionWorker::fail: what waited for the connection ends with its error.
            for (const Queued &q : std::exchange(m_queued, {})) {
                finishFailed(q.reply);
            }
        }
        return;
    }
    switch (m_state.phase) {
    case ssh::ConnectionPhase::Disconnected:
    case ssh::ConnectionPhase::Reconnecting:
    case ssh::ConnectionPhase::Failed:
        setPhase(ssh::ConnectionPhase::Ready);
        return;
    case ssh::ConnectionPhase::Connecting:
    case ssh::ConnectionPhase::Verifying:
    case ssh::ConnectionPhase::Authenticating:
    case ssh::ConnectionPhase::Ready:
        return;
    }
}

void FakeTransport::setPhase(ssh::ConnectionPhase phase)
{
    m_state.phase = phase;
    if (phase == ssh::ConnectionPhase::Ready) {
        m_state.error = {};
    }
    const ssh::ConnectionState state = m_state;
    QTimer::singleShot(0, this, [this, state] { Q_EMIT stateChanged(state); });
    if (phase == ssh::ConnectionPhase::Ready) {
        for (const Queued &q : std::exchange(m_queued, {})) {
            if (q.reply) {
                QTimer::singleShot(0, q.reply.data(), q.run);
            }
        }
    }
}

void FakeTransport::finishFailed(const QPointer<ssh::CommandReply> &reply)
{
    if (!reply) {
        return;
    }
    ssh::CommandResult failed;
    failed.error = m_state.error;
    QTimer::singleShot(0, reply.data(), [r = reply, failed] {
        if (r) {
            r->deliverFinished(failed);
        }
    });
}

void FakeTransport::refuseLogins(const ssh::SshError &error)
{
    m_loginError = error;
    m_state = {}; // Disconnected, as a connection not yet made: nobody listens yet, nothing is signalled
}

void FakeTransport::drop()
{
    ssh::CommandResult gone;
    gone.error = {ssh::SshErrorCode::Cancelled, QStringLiteral("Disconnected."), {}};
    for (const QPointer<CommandReply> &reply : std::as_const(m_running)) {
        if (reply) {
            reply->deliverFinished(gone);
        }
    }
    m_running.clear();
    for (const QPointer<TunnelReply> &tunnel : std::as_const(m_tunnels)) {
        if (tunnel) {
            tunnel->deliverFailed(QStringLiteral("Disconnected."));
        }
    }
    m_tunnels.clear();
    m_state.error = {ssh::SshErrorCode::ConnectionLost, QStringLiteral("The connection was lost."), {}};
    setPhase(ssh::ConnectionPhase::Reconnecting);
}

void FakeTransport::answer(const QByteArray &needle, Answer answer)
{
    this->answer(needle, [answer](const ssh::RemoteCommand &) { return answer; });
}

void FakeTransport::answer(const QByteArray &needle, Script script)
{
    m_rules.append({needle, std::move(script)});
}

FakeTransport::Answer FakeTransport::notFound(const ssh::RemoteCommand &command)
{
    Answer a;
    a.exitCode = 127;
    a.err = "bash: line 1: " + command.commandLine.split(' ').constFirst() + ": command not found\n";
    return a;
}

CommandReply *FakeTransport::execute(const ssh::RemoteCommand &command, QObject *owner)
{
    m_commands.append(command.commandLine);
    Answer a = notFound(command);
    for (const Rule &rule : std::as_const(m_rules)) {
        if (command.commandLine.contains(rule.needle)) {
            a = rule.script(command);
            break;
        }
    }
    // A cancel ends the command as the real worker does: finished, Cancelled.
    auto self = std::make_shared<QPointer<CommandReply>>();
    auto *reply = new CommandReply(
        [self] {
            if (CommandReply *r = self->data()) {
                ssh::CommandResult cancelled;
                cancelled.error = {ssh::SshErrorCode::Cancelled, QStringLiteral("Cancelled."), {}};
                QTimer::singleShot(0, r, [r, cancelled] { r->deliverFinished(cancelled); });
            }
        },
        owner);
    *self = reply;
    const auto run = [this, reply, command, a] {
        if (!a.lines.isEmpty() && command.streamLines) {
            reply->deliverOutput(a.lines, {});
        }
        if (a.keepRunning) {
            m_running.append(reply);
            if (a.repeatMs > 0 && command.streamLines) {
                auto *again = new QTimer(reply); // goes with the reply
                again->setInterval(a.repeatMs);
                connect(again, &QTimer::timeout, reply, [reply, again, a] {
                    if (reply->isFinished()) {
                        again->stop();
                        return;
                    }
                    reply->deliverOutput(a.repeat ? a.repeat() : a.lines, {});
                });
                again->start();
            }
            return;
        }
        ssh::CommandResult r;
        r.exitCode = a.exitCode;
        r.error = a.error;
        if (command.capture) {
            r.stdoutData = a.out.isEmpty() && !a.lines.isEmpty() ? a.lines.join('\n') + '\n' : a.out;
            r.stderrData = a.err;
        }
        r.stdoutBytes = r.stdoutData.size();
        r.stderrBytes = r.stderrData.size();
        reply->deliverFinished(r);
    };
    if (m_state.phase == ssh::ConnectionPhase::Ready) {
        QTimer::singleShot(0, reply, run);
    } else if (m_state.phase == ssh::ConnectionPhase::Failed && m_loginError) {
        finishFailed(reply); // as SessionWorker::runCommand on a failed connection
    } else {
        m_queued.append({reply, run}); // queued until connected, as the real transport does
    }
    return reply;
}

TunnelReply *FakeTransport::tunnelToPort(const QString &remoteHost, quint16 remotePort, quint16 localPort,
                                         QObject *owner)
{
    m_localPortsAsked.append(localPort);
    return openTunnel(remoteHost.toUtf8() + ':' + QByteArray::number(remotePort), owner);
}

TunnelReply *FakeTransport::tunnelToCommand(const QByteArray &command, QObject *owner)
{
    return openTunnel(command, owner);
}

TunnelReply *FakeTransport::openTunnel(const QByteArray &key, QObject *owner)
{
    auto *tunnel = new TunnelReply({}, owner);
    m_tunnels.append(tunnel);
    Route found{key, 0, QStringLiteral("channel open failed: connect failed (Connection refused)")};
    for (const Route &r : std::as_const(m_routes)) {
        if (key.contains(r.needle)) {
            found = r;
            break;
        }
    }
    QTimer::singleShot(0, tunnel, [tunnel, found] {
        if (found.port != 0) {
            tunnel->deliverReady(found.port);
        } else {
            tunnel->deliverFailed(found.refusal);
        }
    });
    return tunnel;
}

void FakeTransport::route(const QByteArray &needle, quint16 localPort)
{
    m_routes.prepend({needle, localPort, {}}); // the latest wins: a test may re-route
}

void FakeTransport::refuse(const QByteArray &needle, const QString &message)
{
    m_routes.prepend({needle, 0, message});
}

int FakeTransport::count(const QByteArray &needle) const
{
    int n = 0;
    for (const QByteArray &c : m_commands) {
        n += c.contains(needle) ? 1 : 0;
    }
    return n;
}

QList<CommandReply *> FakeTransport::running() const
{
    QList<CommandReply *> alive;
    for (const QPointer<CommandReply> &r : m_running) {
        // One read of the guarded pointer: testing it and then dereferencing it again made
        // GCC 12 at -O3 warn of a null dereference (-Wnull-dereference) in Release builds.
        if (CommandReply *reply = r.data(); reply != nullptr && !reply->isFinished()) {
            alive.append(reply);
        }
    }
    return alive;
}

void FakeTransport::feed(CommandReply *reply, const QList<QByteArray> &lines)
{
    reply->deliverOutput(lines, {});
}

void FakeTransport::finish(CommandReply *reply, const ssh::CommandResult &result)
{
    reply->deliverFinished(result);
}

int FakeTransport::openTunnels() const
{
    int n = 0;
    for (const QPointer<TunnelReply> &t : m_tunnels) {
        const TunnelReply *tunnel = t.data(); // one read (see running())
        n += tunnel != nullptr && tunnel->phase() == TunnelReply::Phase::Ready ? 1 : 0;
    }
    return n;
}

} // namespace flashdeck::testing
