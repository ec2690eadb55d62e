#pragma once

#include "backend/ssh/sshhandles.h"
#include "backend/ssh/sshtypes.h"

#include <QElapsedTimer>

#include <libssh/callbacks.h>

#include <algorithm>

namespace flashdeck::ssh {

/**
 * One remote command on its own channel (libssh: "In a single channel, only ONE command can
 * be executed!"). Reads stdout and stderr alike, since both share the channel's window
 * (RFC 4254 §5.2): a command that floods stderr must not stall its stdout. Lives on the
 * host's worker thread only.
 */
class CommandJob final
{
public:
    CommandJob(quint64 id, RemoteCommand command);
    ~CommandJob();
    CommandJob(const CommandJob &) = delete;
    CommandJob &operator=(const CommandJob &) = delete;

    quint64 id() const { return m_id; }
    const RemoteCommand &command() const { return m_command; }

    /** Opens the channel and starts the command (blocking for one round trip each). */
    SshError start(ssh_session session);

    enum class Pump { Idle, Progress, Finished };
    /** Moves whatever is available; never blocks. */
    Pump pump();

    /** Complete lines gathered since the last call, if a batch is due (or `force`). */
    bool takeBatch(QList<QByteArray> &stdoutLines, QList<QByteArray> &stderrLines, bool force);
    /** The consumer is done with `cost` (outputBatchCost) of what takeBatch gave out. */
    void acknowledge(qint64 cost) { m_unacknowledged = std::max<qint64>(0, m_unacknowledged - cost); }
    /** Too much output waits for its consumer: stop reading the channel until it catches up. */
    bool isPaused() const { return m_unacknowledged >= kMaxUnacknowledged; }

    /**
     * Asks the remote side to stop, then closes the channel. Returns the command line that
     * kills the command's process group, to run on a fresh channel (empty if its PID is not
     * known yet): sshd refuses "signal" requests on root logins ("session signalling
     * requires privilege separation", OpenSSH session.c), so a signal alone is not enough.
     */
    QByteArray cancel();

    bool isTimedOut() const;
    /**
     * Milliseconds until this job needs a service of its own (a batch of lines falls due, or its
     * time limit passes), whether or not anything arrives; -1 when nothing is pending.
     */
    qint64 msUntilDue() const;
    /** The result; `error` overrides (cancel, timeout, lost connection). */
    CommandResult result(const SshError &error);

private:
    static constexpr qint64 kMaxUnacknowledged = 8 * 1024 * 1024;
    qint64 m_unacknowledged = 0;

    struct Stream
    {
        QByteArray partial;
        QList<QByteArray> lines;
        qsizetype pendingBytes = 0;
        QByteArray captured;
        qint64 total = 0;
        /** Inside a line already cut at maxLineBytes: drop bytes up to its newline. */
        bool dropping = false;
        qint64 linesCut = 0;
        bool eof = false;
    };
    bool readStream(Stream &stream, int isStderr, bool &progress);
    void append(Stream &stream, const char *data, int size);
    void releaseChannel();
    bool writeStdin(bool &progress);

    static void onExitStatus(ssh_session, ssh_channel, int status, void *userdata);
    static void onExitSignal(ssh_session, ssh_channel, const char *signal, int, const char *, const char *,
                             void *userdata);

    quint64 m_id;
    RemoteCommand m_command;
    ChannelPtr m_channel;
    ssh_channel_callbacks_struct m_callbacks{};
    Stream m_out;
    Stream m_err;
    qint64 m_remotePid = 0;
    bool m_pidLineSeen = false;
    qsizetype m_stdinWritten = 0;
    bool m_stdinClosed = false;
    std::optional<int> m_exitCode;
    QString m_exitSignal;
    bool m_failed = false;
    QString m_failure;
    QElapsedTimer m_clock;
    qint64 m_lastBatchMs = 0;
};

} // namespace flashdeck::ssh
