#pragma once

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

namespace flashdeck::ssh {

/** Where and how to reach one host. No secrets in here: it is saved in the inventory. */
struct SshTarget
{
    /** Host alias or address; `~/.ssh/config` may map it (HostName, User, Port, IdentityFile). */
    QString host;
    /** 0: from ~/.ssh/config, else 22. */
    quint16 port = 0;
    /** Empty: from ~/.ssh/config, else the local user name. */
    QString user;
    /** Tried before the config's and the default identities. */
    QString identityFile;
    /** Empty: ~/.ssh/known_hosts (as OpenSSH). */
    QString knownHostsFile;
    /** Empty: ~/.ssh/config. "none" turns config processing off. */
    QString configFile;
    int connectTimeoutMs = 15000;
    /**
     * Keepalives, as OpenSSH's ServerAliveInterval and ServerAliveCountMax: after `countMax`
     * intervals in a row with nothing at all from the server (not even a keepalive reply) the
     * connection counts as lost. Worst case from the last byte received: (countMax + 1)
     * intervals, 48 s here, so a silently dropped link is noticed within 60 s even on a busy
     * machine (issue 9).
     */
    int keepaliveIntervalMs = 12000;
    int keepaliveCountMax = 3;
    /** Reconnect back-off: first delay and cap (jittered ±20 %). */
    int reconnectBaseMs = 1000;
    int reconnectCapMs = 30000;
    bool reconnect = true;
};

/** One error vocabulary for the whole transport; CLI exit codes derive from it. */
enum class SshErrorCode {
    None,
    Unreachable, // refused, no route, name does not resolve
    TimedOut, // nothing answered in time
    HostKeyUnknown, // first contact and the key was not accepted
    HostKeyChanged, // known host, different key: refused
    HostKeyOther, // known host, key of another type: refused
    HostKeyRevoked, // the key is marked @revoked in known_hosts: refused
    HostKeyError, // known_hosts unreadable or not writable
    AuthNoMethod, // the server offers nothing we can use
    AuthDenied, // every method we could use was refused
    AuthCancelled, // the user cancelled a prompt
    ConnectionLost, // it was up and went away
    ChannelFailed, // the server refused a channel, exec or forward
    Cancelled, // our side cancelled (command cancel, disconnect)
    CommandTimedOut, // the command outlived its timeout
    Protocol, // anything else libssh reports
};

struct SshError
{
    SshErrorCode code = SshErrorCode::None;
    /** For the operator: what happened and what to do. */
    QString message;
    /** For the log: libssh's text and code. */
    QString detail;

    bool isError() const { return code != SshErrorCode::None; }
};

QString errorCodeName(SshErrorCode code);

enum class KnownHostState { Ok, Unknown, NotFound, Changed, Other, Revoked, Error };

/** What the server showed us, for the trust decision. */
struct HostKeyInfo
{
    QString host; // as written in known_hosts: "name" or "[name]:port"
    QString keyType; // "ssh-ed25519", "ecdsa-sha2-nistp256", …
    QString fingerprint; // "SHA256:…" (OpenSSH's form)
    KnownHostState state = KnownHostState::Unknown;
    QString knownHostsFile;
    /** For CHANGED/OTHER: "file:line" of the key we know, and its type; for REVOKED, of the @revoked line. */
    QString knownLine;
    QString knownKeyType;
};

struct PassphraseRequest
{
    QString identityFile;
    int attempt = 1;
    QString previousError;
};

struct KbdIntPrompt
{
    QString text;
    bool echo = false;
};

/** One round of keyboard-interactive prompts, shown together (RFC 4256 §3.3). */
struct KbdIntChallenge
{
    QString name;
    QString instruction;
    QList<KbdIntPrompt> prompts;
};

struct PasswordRequest
{
    QString user;
    QString host;
    int attempt = 1;
    QString previousError;
};

enum class ConnectionPhase { Disconnected, Connecting, Verifying, Authenticating, Ready, Reconnecting, Failed };

struct ConnectionState
{
    ConnectionPhase phase = ConnectionPhase::Disconnected;
    /** Reconnecting: seconds until the next attempt. */
    int retryInMs = 0;
    int attempt = 0;
    SshError error;
    /** Ready: "publickey (agent)", "password", … */
    QString authMethod;
    /** Ready: the negotiated cipher ("aes128-gcm@openssh.com"; "in / out" when they differ) and key exchange. */
    QString cipher;
    QString kex;

    QString describe() const;
};

struct RemoteCommand
{
    /** A complete shell command line; build it with shellJoin(). */
    QByteArray commandLine;
    /** 0: none. */
    int timeoutMs = 0;
    /** Emit output line by line in batches while it runs. */
    bool streamLines = true;
    /**
     * A streamed line longer than this is delivered cut at this length and the rest of it, up to
     * the next newline, dropped (counted in the result): a host printing an endless line must not
     * grow this process without bound (issue 9, hostile hosts).
     */
    qsizetype maxLineBytes = 1024 * 1024;
    /** Keep stdout/stderr in the result, up to captureLimit bytes each (the rest is counted). */
    bool capture = false;
    qsizetype captureLimit = 4 * 1024 * 1024;
    /** Written to the command's stdin, then EOF. Secrets go here, never in commandLine. */
    QByteArray stdinData;
};

struct CommandResult
{
    std::optional<int> exitCode;
    QString exitSignal;
    SshError error;
    QByteArray stdoutData;
    QByteArray stderrData;
    qint64 stdoutBytes = 0;
    qint64 stderrBytes = 0;
    /** Streamed lines cut at RemoteCommand::maxLineBytes (both streams). */
    qint64 linesCut = 0;
    qint64 elapsedMs = 0;

    bool succeeded() const { return !error.isError() && exitCode && *exitCode == 0; }
};

/**
 * What a batch of output lines costs in memory while it waits for its consumer (bytes plus a
 * QByteArray's own overhead): the worker stops reading a command's channel while too much of
 * its output is unconsumed (flow control: SSH's window then stops the remote writer).
 */
inline qint64 outputBatchCost(const QList<QByteArray> &stdoutLines, const QList<QByteArray> &stderrLines)
{
    qint64 cost = 0;
    for (const QList<QByteArray> *lines : {&stdoutLines, &stderrLines}) {
        for (const QByteArray &line : *lines) {
            cost += line.size() + 48;
        }
    }
    return cost;
}

} // namespace flashdeck::ssh

Q_DECLARE_METATYPE(flashdeck::ssh::SshError)
Q_DECLARE_METATYPE(flashdeck::ssh::HostKeyInfo)
Q_DECLARE_METATYPE(flashdeck::ssh::PassphraseRequest)
Q_DECLARE_METATYPE(flashdeck::ssh::KbdIntChallenge)
Q_DECLARE_METATYPE(flashdeck::ssh::PasswordRequest)
Q_DECLARE_METATYPE(flashdeck::ssh::ConnectionState)
Q_DECLARE_METATYPE(flashdeck::ssh::RemoteCommand)
Q_DECLARE_METATYPE(flashdeck::ssh::CommandResult)
