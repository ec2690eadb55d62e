// SessionWorker, the I/O: the service loop that pumps every command and tunnel once Ready, its
// own wake-ups, the liveness check, and the keepalives that tell a silent dead link.

#include "backend/ssh/commandjob.h"
#include "backend/ssh/sessionworker.h"
#include "backend/ssh/socketreadahead.h"
#include "backend/ssh/tunnelserver.h"

#include <QCoreApplication>
#include <QTimer>

#include <libssh/server.h> // ssh_send_keepalive lives here but works for clients too

namespace flashdeck::ssh {

namespace {

// While a command or a tunnel link is open the worker also wakes on its own, at most this long
// after its last service: a safety net for data libssh read into a channel's buffer during a
// blocking call that no service followed. Every blocking call we make is followed by one, so
// this rarely finds work. It was 50 ms, and with each host's GPU stream always open, 50 hosts
// woke 1 000 times a second for nothing (bench_fleet; docs/PERFORMANCE.md).
constexpr int kSafetyTickMs = 1000;

} // namespace

void SessionWorker::scheduleService()
{
    if (!m_serviceQueued) {
        m_serviceQueued = true;
        QMetaObject::invokeMethod(this, &SessionWorker::service, Qt::QueuedConnection);
    }
}

bool SessionWorker::sessionAlive()
{
    if (!m_session) {
        return false;
    }
    const int status = ssh_get_status(m_session.get());
    return ssh_is_connected(m_session.get()) && !(status & (SSH_CLOSED | SSH_CLOSED_ERROR));
}

void SessionWorker::service()
{
    m_serviceQueued = false;
    if (!m_session || m_state.phase != ConnectionPhase::Ready) {
        return;
    }
    // Let libssh read and dispatch whatever arrived; channel data lands in channel buffers.
    ssh_event_dopoll(m_event.get(), 0);
    if (!sessionAlive()) {
        connectionLost({SshErrorCode::ConnectionLost,
                        QCoreApplication::translate("Ssh", "The connection to %1 was lost.").arg(m_target.host),
                        QString::fromUtf8(ssh_get_error(m_session.get()))});
        return;
    }
    bool progress = false;
    std::vector<std::pair<quint64, SshError>> finished;
    for (auto &[id, job] : m_commands) {
        const CommandJob::Pump p = job->pump();
        QList<QByteArray> out;
        QList<QByteArray> err;
        if (job->takeBatch(out, err, false)) {
            Q_EMIT commandOutput(id, out, err);
        }
        if (p == CommandJob::Pump::Finished) {
            finished.emplace_back(id, SshError{});
        } else if (job->isTimedOut()) {
            killRemote(job->cancel());
            finished.emplace_back(
                id,
                SshError{SshErrorCode::CommandTimedOut,
                         QCoreApplication::translate("Ssh", "The command did not finish within %1 s and was stopped.")
                             .arg(job->command().timeoutMs / 1000.0),
                         {}});
        }
        progress = progress || p == CommandJob::Pump::Progress;
    }
    for (const auto &[id, error] : finished) {
        finishCommand(id, error);
        progress = true;
    }
    for (auto &[id, tunnel] : m_tunnels) {
        progress = tunnel->pump() || progress;
    }
    if (!sessionAlive()) {
        connectionLost({SshErrorCode::ConnectionLost,
                        QCoreApplication::translate("Ssh", "The connection to %1 was lost.").arg(m_target.host),
                        QString::fromUtf8(ssh_get_error(m_session.get()))});
        return;
    }
    bool busy = !m_commands.empty();
    for (auto &[id, tunnel] : m_tunnels) {
        busy = busy || tunnel->linkCount() > 0;
    }
    // The next wake of our own: a batch of lines due, a command's time limit, or the safety net.
    qint64 wake = busy ? kSafetyTickMs : -1;
    for (const auto &[id, job] : m_commands) {
        if (const qint64 due = job->msUntilDue(); due >= 0 && (wake < 0 || due < wake)) {
            wake = due;
        }
    }
    if (wake >= 0) {
        m_tick->start(int(wake));
    } else {
        m_tick->stop();
    }
    // Bytes read ahead of libssh are not in the kernel: no notifier fires for them.
    if (progress || (m_readAhead && m_readAhead->buffered() > 0)) {
        scheduleService();
    }
}

void SessionWorker::keepalive()
{
    if (!m_session || m_state.phase != ConnectionPhase::Ready) {
        return;
    }
    // A link that drops silently (a NAT entry expiring, a cable pulled upstream, a proxy that
    // stops forwarding) leaves the TCP connection "up": writes succeed and nothing ever comes
    // back. Like OpenSSH's ServerAliveInterval/ServerAliveCountMax, count the intervals in which
    // nothing at all arrived although a keepalive had been sent.
    ssh_event_dopoll(m_event.get(), 0);
    const quint64 received = m_counters ? m_counters->in_bytes : 0;
    if (m_keepaliveSent && received == m_bytesAtKeepalive) {
        ++m_keepalivesUnanswered;
    } else {
        m_keepalivesUnanswered = 0;
    }
    // Lost after keepaliveCountMax silent intervals: at most (count + 1) intervals after the
    // last packet, 60 s with the defaults.
    if (m_keepalivesUnanswered >= m_target.keepaliveCountMax) {
        const int silentS = (m_keepalivesUnanswered * m_target.keepaliveIntervalMs) / 1000;
        connectionLost(
            {SshErrorCode::ConnectionLost,
             QCoreApplication::translate("Ssh",
                                         "%1 stopped answering: nothing came back for over %2 s although the "
                                         "connection looks open (a network drop or a stalled link). Reconnecting.")
                 .arg(m_target.host)
                 .arg(silentS),
             QCoreApplication::translate("Ssh", "%1 keepalives unanswered").arg(m_keepalivesUnanswered)});
        return;
    }
    // keepalive@openssh.com with want-reply, as OpenSSH's ServerAliveInterval sends. Counted
    // before sending: a reply that libssh reads inside the call still shows as "arrived".
    m_bytesAtKeepalive = received;
    m_keepaliveSent = m_counters != nullptr;
    // Non-blocking for this call: blocking, libssh waits up to the operation timeout (30 s) for
    // the reply, stalling every channel of the host on a dead link. Non-blocking, a call that
    // finds the previous request answered only collects that answer and sends nothing, so when
    // nothing went out, call again to send this interval's keepalive.
    ssh_session s = m_session.get();
    ssh_set_blocking(s, 0);
    const quint64 sentBefore = m_counters ? m_counters->out_bytes : 0;
    ssh_send_keepalive(s);
    if (m_counters && m_counters->out_bytes == sentBefore) {
        ssh_send_keepalive(s);
    }
    ssh_set_blocking(s, 1);
    if (!sessionAlive()) {
        connectionLost({SshErrorCode::ConnectionLost,
                        QCoreApplication::translate("Ssh", "%1 stopped answering keepalives.").arg(m_target.host),
                        QString::fromUtf8(ssh_get_error(m_session.get()))});
        return;
    }
    scheduleService();
}

} // namespace flashdeck::ssh
