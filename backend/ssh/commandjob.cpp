#include "backend/ssh/commandjob.h"

#include "backend/applog/logging.h"
#include "backend/core/shellquote.h"

#include <QCoreApplication>

#include <spdlog/logger.h>

#include <array>
#include <cstring>

namespace flashdeck::ssh {

namespace {
constexpr int kChunk = 64 * 1024;
// At most this much per stream per pump, so one chatty command cannot starve the others.
constexpr int kChunksPerPump = 16;
constexpr qint64 kBatchIntervalMs = 50;
constexpr qsizetype kBatchBytes = 256 * 1024;
// The login shell prints its PID before running the command. sshd makes that shell a
// session and process-group leader (setsid() in do_exec_no_pty), so its PID names the
// whole process tree of the command, which cancel() can then kill.
constexpr char kPidPrefix[] = "\x1e"
                              "FDPID:";
} // namespace

CommandJob::CommandJob(quint64 id, RemoteCommand command)
    : m_id(id)
    , m_command(std::move(command))
{
    m_clock.start();
}

CommandJob::~CommandJob()
{
    releaseChannel();
}

void CommandJob::releaseChannel()
{
    if (m_channel) {
        // ssh_channel_free only marks a channel the server has not closed yet; libssh keeps
        // it, callbacks included, until the server's CLOSE arrives. Unhook them first, or a
        // late exit-signal would call into a destroyed job (found by ASan).
        ssh_remove_channel_callbacks(m_channel.get(), &m_callbacks);
        m_channel.reset();
    }
}

void CommandJob::onExitStatus(ssh_session, ssh_channel, int status, void *userdata)
{
    static_cast<CommandJob *>(userdata)->m_exitCode = status;
}

void CommandJob::onExitSignal(ssh_session, ssh_channel, const char *signal, int, const char *, const char *,
                              void *userdata)
{
    static_cast<CommandJob *>(userdata)->m_exitSignal = QString::fromUtf8(signal ? signal : "");
}

SshError CommandJob::start(ssh_session session)
{
    m_channel.reset(ssh_channel_new(session));
    if (!m_channel) {
        return {SshErrorCode::ChannelFailed, QCoreApplication::translate("Ssh", "Could not create an SSH channel."),
                QString::fromUtf8(ssh_get_error(session))};
    }
    // Exit status and signal arrive as callbacks while packets are processed, so we never
    // call ssh_channel_get_exit_status, which "may block until a timeout (or never)".
    m_callbacks.size = sizeof(m_callbacks);
    m_callbacks.userdata = this;
    m_callbacks.channel_exit_status_function = &CommandJob::onExitStatus;
    m_callbacks.channel_exit_signal_function = &CommandJob::onExitSignal;
    ssh_set_channel_callbacks(m_channel.get(), &m_callbacks);

    if (ssh_channel_open_session(m_channel.get()) != SSH_OK) {
        return {SshErrorCode::ChannelFailed,
                QCoreApplication::translate("Ssh",
                                            "The server refused to open a session channel (it may limit sessions per "
                                            "connection: MaxSessions in sshd_config)."),
                QString::fromUtf8(ssh_get_error(session))};
    }
    // Run by /bin/sh whatever the login shell (fish, tcsh…): see loginShellSafe().
    const QByteArray wrapped = loginShellSafe(QByteArray("printf '\\036FDPID:%s\\n' \"$$\"; ") + m_command.commandLine);
    if (ssh_channel_request_exec(m_channel.get(), wrapped.constData()) != SSH_OK) {
        return {SshErrorCode::ChannelFailed,
                QCoreApplication::translate("Ssh", "The server refused to run the command."),
                QString::fromUtf8(ssh_get_error(session))};
    }
    m_clock.restart();
    return {};
}

void CommandJob::append(Stream &stream, const char *data, int size)
{
    if (&stream == &m_out && !m_pidLineSeen) {
        m_out.partial.append(data, size);
        const qsizetype nl = m_out.partial.indexOf('\n');
        if (nl < 0 && m_out.partial.size() < 64) {
            return; // wait for the whole marker line
        }
        m_pidLineSeen = true;
        QByteArray rest = std::move(m_out.partial);
        m_out.partial.clear();
        if (rest.startsWith(kPidPrefix) && nl > 0) {
            m_remotePid =
                rest.mid(qsizetype(sizeof(kPidPrefix) - 1), nl - qsizetype(sizeof(kPidPrefix) - 1)).toLongLong();
            rest.remove(0, nl + 1);
        }
        if (!rest.isEmpty()) {
            append(stream, rest.constData(), static_cast<int>(rest.size()));
        }
        return;
    }
    stream.total += size;
    if (m_command.capture) {
        const qsizetype room = m_command.captureLimit - stream.captured.size();
        if (room > 0) {
            stream.captured.append(data, std::min<qsizetype>(room, size));
        }
    }
    if (!m_command.streamLines) {
        return;
    }
    if (stream.dropping) {
        // The rest of a line that was cut: skip to its end.
        const void *nl = std::memchr(data, '\n', size_t(size));
        if (!nl) {
            return;
        }
        stream.dropping = false;
        const int skipped = int(static_cast<const char *>(nl) - data) + 1;
        data += skipped;
        size -= skipped;
    }
    stream.partial.append(data, size);
    qsizetype start = 0;
    for (;;) {
        const qsizetype nl = stream.partial.indexOf('\n', start);
        if (nl < 0) {
            if (stream.partial.size() - start > m_command.maxLineBytes) {
                stream.lines.append(stream.partial.mid(start, m_command.maxLineBytes));
                stream.pendingBytes += m_command.maxLineBytes;
                ++stream.linesCut;
                stream.dropping = true;
                start = stream.partial.size();
            }
            break;
        }
        qsizetype end = nl;
        if (end > start && stream.partial.at(end - 1) == '\r') {
            --end;
        }
        stream.lines.append(stream.partial.mid(start, end - start));
        stream.pendingBytes += nl - start + 1;
        start = nl + 1;
    }
    stream.partial.remove(0, start);
}

bool CommandJob::readStream(Stream &stream, int isStderr, bool &progress)
{
    // Not zero-filled: libssh writes what it returns, and 64 KiB cleared per stream per wake-up
    // showed in the fleet's profile.
    std::array<char, kChunk> buffer; // NOLINT(cppcoreguidelines-pro-type-member-init)
    for (int i = 0; i < kChunksPerPump && !stream.eof; ++i) {
        const int n = ssh_channel_read_nonblocking(m_channel.get(), buffer.data(), kChunk, isStderr);
        if (n > 0) {
            append(stream, buffer.data(), n);
            progress = true;
            continue;
        }
        if (n == SSH_ERROR) {
            m_failed = true;
            m_failure = QString::fromUtf8(ssh_get_error(ssh_channel_get_session(m_channel.get())));
            return false;
        }
        // 0 (nothing buffered) or SSH_EOF: the stream is over once the remote sent EOF and
        // nothing is left to read.
        if (n == SSH_EOF || (ssh_channel_is_eof(m_channel.get()) && ssh_channel_poll(m_channel.get(), isStderr) <= 0)) {
            stream.eof = true;
            if (!stream.partial.isEmpty()) {
                stream.lines.append(stream.partial);
                stream.pendingBytes += stream.partial.size();
                stream.partial.clear();
            }
            progress = true;
        }
        break;
    }
    return true;
}

bool CommandJob::writeStdin(bool &progress)
{
    if (m_stdinClosed) {
        return true;
    }
    const QByteArray &data = m_command.stdinData;
    while (m_stdinWritten < data.size()) {
        const uint32_t window = ssh_channel_window_size(m_channel.get());
        if (window == 0) {
            return true; // wait for the server's window adjust
        }
        const auto n = static_cast<uint32_t>(std::min<qsizetype>({data.size() - m_stdinWritten, window, kChunk}));
        const int written = ssh_channel_write(m_channel.get(), data.constData() + m_stdinWritten, n);
        if (written < 0) {
            m_failed = true;
            m_failure = QString::fromUtf8(ssh_get_error(ssh_channel_get_session(m_channel.get())));
            return false;
        }
        m_stdinWritten += written;
        progress = true;
    }
    // Like `ssh -n`: a command never waits on an input we will not send.
    ssh_channel_send_eof(m_channel.get());
    m_stdinClosed = true;
    m_command.stdinData.fill('\0'); // may hold a secret
    m_command.stdinData.clear();
    return true;
}

CommandJob::Pump CommandJob::pump()
{
    if (!m_channel) {
        return Pump::Finished;
    }
    bool progress = false;
    if (!writeStdin(progress)) {
        return Pump::Finished;
    }
    // A consumer that cannot keep up (a host printing without end) must not make this process
    // hold it all: leave the data in the channel, whose window then stops the sender (issue 9).
    if (isPaused()) {
        return Pump::Idle;
    }
    if (!readStream(m_out, 0, progress) || !readStream(m_err, 1, progress)) {
        return Pump::Finished;
    }
    // Done when both streams are drained and the server said how it ended (or closed).
    if (m_out.eof && m_err.eof && (m_exitCode || !m_exitSignal.isEmpty() || ssh_channel_is_closed(m_channel.get()))) {
        return Pump::Finished;
    }
    return progress ? Pump::Progress : Pump::Idle;
}

bool CommandJob::takeBatch(QList<QByteArray> &stdoutLines, QList<QByteArray> &stderrLines, bool force)
{
    if (m_out.lines.isEmpty() && m_err.lines.isEmpty()) {
        return false;
    }
    const qint64 now = m_clock.elapsed();
    // Batches, never a signal per line: at most ~20 a second per command, or when large.
    if (!force && now - m_lastBatchMs < kBatchIntervalMs && m_out.pendingBytes + m_err.pendingBytes < kBatchBytes) {
        return false;
    }
    m_lastBatchMs = now;
    stdoutLines.swap(m_out.lines);
    stderrLines.swap(m_err.lines);
    m_out.lines.clear();
    m_err.lines.clear();
    m_out.pendingBytes = m_err.pendingBytes = 0;
    m_unacknowledged += outputBatchCost(stdoutLines, stderrLines);
    return true;
}

QByteArray CommandJob::cancel()
{
    if (m_channel && !ssh_channel_is_closed(m_channel.get())) {
        // RFC 4254 §6.9; works for ordinary users, refused by sshd for root (see header).
        ssh_channel_request_send_signal(m_channel.get(), "TERM");
        ssh_channel_send_eof(m_channel.get());
        ssh_channel_close(m_channel.get());
    }
    if (m_remotePid <= 1) {
        return {};
    }
    const QByteArray pid = QByteArray::number(m_remotePid);
    // POSIX `kill -s TERM -- -PGID`: dash (Debian's /bin/sh, which runs our commands) refuses
    // `kill -TERM -- -PGID` ("Illegal number: -"), which bash accepted.
    return "kill -s TERM -- -" + pid + " 2>/dev/null || kill -s TERM " + pid + " 2>/dev/null; true";
}

bool CommandJob::isTimedOut() const
{
    return m_command.timeoutMs > 0 && m_clock.elapsed() > m_command.timeoutMs;
}

qint64 CommandJob::msUntilDue() const
{
    const qint64 now = m_clock.elapsed();
    qint64 due = -1;
    if (!m_out.lines.isEmpty() || !m_err.lines.isEmpty()) {
        due = std::max<qint64>(0, m_lastBatchMs + kBatchIntervalMs - now);
    }
    if (m_command.timeoutMs > 0) {
        const qint64 limit = std::max<qint64>(0, m_command.timeoutMs + 1 - now); // isTimedOut: past the limit
        due = due < 0 ? limit : std::min(due, limit);
    }
    return due;
}

CommandResult CommandJob::result(const SshError &error)
{
    CommandResult r;
    r.exitCode = m_exitCode;
    r.exitSignal = m_exitSignal;
    r.error = error;
    if (!r.error.isError() && m_failed) {
        r.error = {SshErrorCode::ConnectionLost,
                   QCoreApplication::translate("Ssh", "The connection failed while the command ran."), m_failure};
    }
    r.stdoutData = std::move(m_out.captured);
    r.stderrData = std::move(m_err.captured);
    r.stdoutBytes = m_out.total;
    r.stderrBytes = m_err.total;
    r.linesCut = m_out.linesCut + m_err.linesCut;
    r.elapsedMs = m_clock.elapsed();
    releaseChannel();
    return r;
}

} // namespace flashdeck::ssh
