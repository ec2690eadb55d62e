// SessionWorker, the commands: run, queue, cancel, acknowledge output and finish them, and the
// kills that stop a command's process group on the host (internal commands of their own).

#include "backend/applog/logging.h"
#include "backend/ssh/commandjob.h"
#include "backend/ssh/sessionworker.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <spdlog/logger.h>

namespace flashdeck::ssh {

void SessionWorker::stopRemoteCommands()
{
    if (!m_session || m_state.phase != ConnectionPhase::Ready) {
        return;
    }
    // Nothing of ours stays running on the host: a command that writes nothing while idle
    // would not even notice the closed channel (no SIGPIPE), so kill each process group, and
    // give those kills a moment to run before the connection goes.
    QList<QByteArray> kills;
    for (auto &[id, job] : m_commands) {
        if (!m_internal.contains(id)) {
            kills.append(job->cancel());
        }
    }
    for (const QByteArray &kill : kills) {
        killRemote(kill);
    }
    QElapsedTimer clock;
    clock.start();
    while (!m_internal.isEmpty() && clock.elapsed() < 2000 && m_session && sessionAlive()) {
        ssh_event_dopoll(m_event.get(), 20);
        service();
    }
}

void SessionWorker::runCommand(quint64 id, const RemoteCommand &command)
{
    auto job = std::make_unique<CommandJob>(id, command);
    if (m_state.phase == ConnectionPhase::Ready) {
        startCommand(std::move(job));
        scheduleService();
    } else if (m_state.phase == ConnectionPhase::Failed ||
               (m_state.phase == ConnectionPhase::Disconnected && m_stopped)) {
        const SshError e = m_state.error.isError()
            ? m_state.error
            : SshError{SshErrorCode::Cancelled,
                       QCoreApplication::translate("Ssh", "Not connected to %1.").arg(m_target.host),
                       {}};
        Q_EMIT commandFinished(id, job->result(e));
    } else {
        m_queued.push_back(std::move(job)); // runs once the connection is ready
    }
}

void SessionWorker::startCommand(std::unique_ptr<CommandJob> job)
{
    const quint64 id = job->id();
    applog::ssh().debug("{}: run #{}: {}", m_target.host.toStdString(), id, job->command().commandLine.toStdString());
    const SshError error = job->start(m_session.get());
    if (error.isError()) {
        Q_EMIT commandFinished(id, job->result(error));
        if (!sessionAlive()) {
            connectionLost({SshErrorCode::ConnectionLost,
                            QCoreApplication::translate("Ssh", "The connection to %1 was lost.").arg(m_target.host),
                            error.detail});
        }
        return;
    }
    m_commands.emplace(id, std::move(job));
    scheduleService(); // opening the channel was a blocking call: see kSafetyTickMs
}

void SessionWorker::acknowledgeOutput(quint64 id, qint64 cost)
{
    if (const auto it = m_commands.find(id); it != m_commands.end()) {
        const bool wasPaused = it->second->isPaused();
        it->second->acknowledge(cost);
        if (wasPaused && !it->second->isPaused()) {
            scheduleService();
        }
    }
}

void SessionWorker::cancelCommand(quint64 id)
{
    if (const auto it = m_commands.find(id); it != m_commands.end()) {
        killRemote(it->second->cancel());
        finishCommand(id, {SshErrorCode::Cancelled, QCoreApplication::translate("Ssh", "Cancelled."), {}});
        return;
    }
    for (auto it = m_queued.begin(); it != m_queued.end(); ++it) {
        if ((*it)->id() == id) {
            Q_EMIT commandFinished(
                id, (*it)->result({SshErrorCode::Cancelled, QCoreApplication::translate("Ssh", "Cancelled."), {}}));
            m_queued.erase(it);
            return;
        }
    }
}

void SessionWorker::killRemote(const QByteArray &killCommand)
{
    if (killCommand.isEmpty() || !m_session) {
        return;
    }
    // Internal ids count down from the top, far from HostConnection's ids.
    RemoteCommand command;
    command.commandLine = killCommand;
    command.streamLines = false;
    command.timeoutMs = 10000;
    const quint64 id = m_nextInternalId--;
    m_internal.insert(id);
    startCommand(std::make_unique<CommandJob>(id, command));
}

void SessionWorker::finishCommand(quint64 id, const SshError &error)
{
    const auto it = m_commands.find(id);
    if (it == m_commands.end()) {
        return;
    }
    std::unique_ptr<CommandJob> job = std::move(it->second);
    m_commands.erase(it);
    if (m_internal.remove(id)) {
        return;
    }
    QList<QByteArray> out;
    QList<QByteArray> err;
    if (job->takeBatch(out, err, true)) {
        Q_EMIT commandOutput(id, out, err);
    }
    Q_EMIT commandFinished(id, job->result(error));
}

} // namespace flashdeck::ssh
