#include "backend/ssh/sessionworker.h"

#include "backend/logging/logging.h"
#include "backend/ssh/commandjob.h"
#include "backend/ssh/knownhosts.h"
#include "backend/ssh/sessionsetup.h"
#include "backend/ssh/shellquote.h"
#include "backend/ssh/socketreadahead.h"
#include "backend/ssh/sshlibrary.h"
#include "backend/ssh/sshlog.h"
#include "backend/ssh/tunnelserver.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QSocketNotifier>
#include <QTimer>

#include <libssh/server.h> // ssh_send_keepalive lives here but works for clients too
#include <spdlog/logger.h>

#include <unistd.h>

namespace flashdeck::ssh {

namespace {

constexpr int kOperationTimeoutSec = 30;
// While a command or a tunnel link is open the worker also wakes on its own, at most this long
// after its last service: a safety net for data libssh read into a channel's buffer during a
// blocking call that no service followed. Every blocking call we make is followed by one, so
// this rarely finds work. It was 50 ms, and with each host's GPU stream always open, 50 hosts
// woke 1 000 times a second for nothing (bench_fleet; docs/PERFORMANCE.md).
constexpr int kSafetyTickMs = 1000;

} // namespace

SessionWorker::SessionWorker(SshTarget target)
    : m_target(std::move(target))
{
    qRegisterMetaType<flashdeck::ssh::RemoteCommand>();
    qRegisterMetaType<flashdeck::ssh::CommandResult>();
    qRegisterMetaType<flashdeck::ssh::ConnectionState>();
    qRegisterMetaType<flashdeck::ssh::HostKeyInfo>();
    qRegisterMetaType<flashdeck::ssh::PassphraseRequest>();
    qRegisterMetaType<flashdeck::ssh::KbdIntChallenge>();
    qRegisterMetaType<flashdeck::ssh::PasswordRequest>();
}

SessionWorker::~SessionWorker()
{
    m_stopped = true;
    teardown();
    m_tunnels.clear();
    m_keyCache.clear();
    // Runs on the worker thread as it finishes (deleteLater on QThread::finished).
    releaseThreadState();
}

void SessionWorker::initThread()
{
    // libssh keeps its log level and callback per thread (src/log.c, LIBSSH_THREAD).
    installLibsshLogging();
    m_tick = new QTimer(this);
    m_tick->setSingleShot(true);
    connect(m_tick, &QTimer::timeout, this, &SessionWorker::service);
    m_keepalive = new QTimer(this);
    m_keepalive->setTimerType(Qt::PreciseTimer); // the 60 s bound counts whole intervals
    connect(m_keepalive, &QTimer::timeout, this, &SessionWorker::keepalive);
    m_reconnect = new QTimer(this);
    m_reconnect->setSingleShot(true);
    connect(m_reconnect, &QTimer::timeout, this, &SessionWorker::start);
}

void SessionWorker::setPhase(ConnectionPhase phase, const SshError &error)
{
    m_state.phase = phase;
    m_state.error = error;
    if (phase != ConnectionPhase::Reconnecting) {
        m_state.retryInMs = 0;
    }
    if (phase != ConnectionPhase::Ready) {
        m_state.authMethod.clear();
    }
    Q_EMIT stateChanged(m_state);
}

void SessionWorker::start()
{
    if (m_state.phase == ConnectionPhase::Ready || m_state.phase == ConnectionPhase::Connecting ||
        m_state.phase == ConnectionPhase::Verifying || m_state.phase == ConnectionPhase::Authenticating) {
        return;
    }
    m_stopped = false;
    ++m_attempt;
    setPhase(ConnectionPhase::Connecting);
    SshError error;
    m_session = SessionSetup::create(m_target, error, &m_effectiveUser, &m_effectiveHost);
    if (!m_session) {
        fail(error);
        return;
    }
    unsigned int port = 22;
    (void)ssh_options_get_port(m_session.get(), &port);
    const QString where = QStringLiteral("%1:%2").arg(m_effectiveHost).arg(port);
    log::ssh().info("connecting to {} as {} (attempt {})", where.toStdString(), m_effectiveUser.toStdString(),
                    m_attempt);
    if (ssh_connect(m_session.get()) != SSH_OK) {
        const SshError e = SessionSetup::connectError(m_session.get(), where);
        log::ssh().warn("connect to {} failed: {}", where.toStdString(), e.detail.toStdString());
        m_session.reset();
        if (m_wasReady && m_target.reconnect && !m_stopped) {
            connectionLost(e); // keep trying: it was up before
        } else {
            fail(e);
        }
        return;
    }
    verifyHostKey();
}

void SessionWorker::verifyHostKey()
{
    setPhase(ConnectionPhase::Verifying);
    m_hostKey = KnownHosts::inspect(m_session.get(), SessionSetup::knownHostsPath(m_target));
    log::ssh().info("host key of {}: {} {} ({})", m_hostKey.host.toStdString(), m_hostKey.keyType.toStdString(),
                    m_hostKey.fingerprint.toStdString(), static_cast<int>(m_hostKey.state));
    switch (m_hostKey.state) {
    case KnownHostState::Ok:
        Q_EMIT hostKeyVerified(m_hostKey);
        authenticate();
        return;
    case KnownHostState::Unknown:
    case KnownHostState::NotFound:
        Q_EMIT hostKeyNeedsDecision(m_hostKey); // answered by answerHostKey()
        return;
    case KnownHostState::Changed:
    case KnownHostState::Other:
    case KnownHostState::Revoked:
    case KnownHostState::Error: {
        SshError e = KnownHosts::refusal(m_hostKey);
        e.detail = QString::fromUtf8(ssh_get_error(m_session.get()));
        m_wasReady = false; // never retry a refused key
        fail(e);
        return;
    }
    }
}

void SessionWorker::answerHostKey(bool accept)
{
    if (m_state.phase != ConnectionPhase::Verifying || !m_session) {
        return;
    }
    if (!accept) {
        fail(KnownHosts::refusal(m_hostKey));
        return;
    }
    if (const Status status = KnownHosts::accept(m_session.get(), SessionSetup::knownHostsPath(m_target)); !status) {
        fail({SshErrorCode::HostKeyError, status.message(), status.detail()});
        return;
    }
    log::ssh().info("host key of {} accepted and written to {}", m_hostKey.host.toStdString(),
                    SessionSetup::knownHostsPath(m_target).toStdString());
    m_hostKey.state = KnownHostState::Ok;
    Q_EMIT hostKeyVerified(m_hostKey);
    authenticate();
}

void SessionWorker::authenticate()
{
    setPhase(ConnectionPhase::Authenticating);
    Authenticator::Hooks hooks;
    hooks.passphrase = [this](const PassphraseRequest &r) { Q_EMIT passphraseNeeded(r); };
    hooks.keyboardInteractive = [this](const KbdIntChallenge &c) { Q_EMIT keyboardInteractiveNeeded(c); };
    hooks.password = [this](const PasswordRequest &r) { Q_EMIT passwordNeeded(r); };
    m_auth =
        std::make_unique<Authenticator>(m_session.get(), m_effectiveUser, m_effectiveHost,
                                        SessionSetup::identityCandidates(m_target), true, m_keyCache, std::move(hooks));
    onAuthProgress(m_auth->begin());
}

void SessionWorker::onAuthProgress(Authenticator::Progress progress)
{
    switch (progress) {
    case Authenticator::Progress::Waiting:
        return;
    case Authenticator::Progress::Done:
        m_state.authMethod = m_auth->method();
        m_auth.reset();
        becomeReady();
        return;
    case Authenticator::Progress::Failed: {
        const SshError e = m_auth->error();
        m_auth.reset();
        m_wasReady = false; // a refused login is not retried on its own
        fail(e);
        return;
    }
    }
}

void SessionWorker::answerPassphrase(const QByteArray &passphrase, bool given)
{
    if (m_auth) {
        onAuthProgress(m_auth->answerPassphrase(given ? std::optional<QByteArray>(passphrase) : std::nullopt));
    }
}

void SessionWorker::answerKeyboardInteractive(const QList<QByteArray> &answers, bool given)
{
    if (m_auth) {
        onAuthProgress(
            m_auth->answerKeyboardInteractive(given ? std::optional<QList<QByteArray>>(answers) : std::nullopt));
    }
}

void SessionWorker::answerPassword(const QByteArray &password, bool given)
{
    if (m_auth) {
        onAuthProgress(m_auth->answerPassword(given ? std::optional<QByteArray>(password) : std::nullopt));
    }
}

void SessionWorker::becomeReady()
{
    ssh_session s = m_session.get();
    const long opTimeout = kOperationTimeoutSec;
    ssh_options_set(s, SSH_OPTIONS_TIMEOUT, &opTimeout);

    m_event.reset(ssh_event_new());
    ssh_event_add_session(m_event.get(), s);
    // From here on the socket carries channel data: read it in large pieces (libssh alone reads
    // 4 KiB per system call pair; docs/PERFORMANCE.md, the tunnel).
    m_readAhead = std::make_unique<SocketReadAhead>(ssh_get_fd(s));
    m_notifier = new QSocketNotifier(ssh_get_fd(s), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &SessionWorker::service);

    m_wasReady = true;
    m_attempt = 0;
    m_state.attempt = 0;
    const QString method = m_state.authMethod;
    m_state.phase = ConnectionPhase::Ready;
    m_state.error = {};
    m_state.authMethod = method;
    const QString in = QString::fromLatin1(ssh_get_cipher_in(s));
    const QString out = QString::fromLatin1(ssh_get_cipher_out(s));
    m_state.cipher = in == out ? in : in + QStringLiteral(" / ") + out;
    m_state.kex = QString::fromLatin1(ssh_get_kex_algo(s));
    Q_EMIT stateChanged(m_state);
    if (m_target.keepaliveIntervalMs > 0) {
        // Counted from here: the socket counter sees every packet, a keepalive reply included.
        m_counters = std::make_unique<ssh_counter_struct>();
        ssh_set_counters(s, m_counters.get(), nullptr);
        m_bytesAtKeepalive = 0;
        m_keepalivesUnanswered = 0;
        m_keepaliveSent = false;
        m_keepalive->start(m_target.keepaliveIntervalMs);
    }
    for (auto &[id, tunnel] : m_tunnels) {
        tunnel->setSessionReady(true);
    }
    while (!m_queued.empty()) {
        std::unique_ptr<CommandJob> job = std::move(m_queued.front());
        m_queued.pop_front();
        startCommand(std::move(job));
    }
    scheduleService();
}

void SessionWorker::fail(const SshError &error)
{
    log::ssh().warn("{}: {} [{}] {}", m_target.host.toStdString(), errorCodeName(error.code).toStdString(),
                    error.message.toStdString(), error.detail.toStdString());
    teardown();
    for (auto &job : m_queued) {
        Q_EMIT commandFinished(job->id(), job->result(error));
    }
    m_queued.clear();
    setPhase(ConnectionPhase::Failed, error);
}

void SessionWorker::connectionLost(const SshError &error)
{
    teardown();
    if (m_stopped || !m_target.reconnect) {
        setPhase(ConnectionPhase::Failed, error);
        return;
    }
    // Capped exponential back-off with ±20 % jitter, so a fleet does not reconnect in step.
    const int exponent = std::min(m_attempt, 16);
    const double base = std::min<double>(m_target.reconnectCapMs, m_target.reconnectBaseMs * double(1 << exponent));
    const double jitter = 0.8 + 0.4 * QRandomGenerator::global()->generateDouble();
    const int delay = std::max(1, static_cast<int>(base * jitter));
    m_state.retryInMs = delay;
    m_state.attempt = m_attempt + 1;
    setPhase(ConnectionPhase::Reconnecting, error);
    log::ssh().info("{}: reconnecting in {} ms", m_target.host.toStdString(), delay);
    m_reconnect->start(delay);
}

void SessionWorker::teardown()
{
    const SshError lost{
        SshErrorCode::ConnectionLost,
        QCoreApplication::translate("Ssh",
                                    "The connection to %1 was lost while the command ran; it did not finish "
                                    "here. Run it again once the host is back.")
            .arg(m_target.host),
        {}};
    for (auto &[id, job] : m_commands) {
        if (m_internal.remove(id)) {
            continue;
        }
        Q_EMIT commandFinished(
            id,
            job->result(m_stopped
                            ? SshError{SshErrorCode::Cancelled, QCoreApplication::translate("Ssh", "Disconnected."), {}}
                            : lost));
    }
    m_commands.clear();
    for (auto &[id, tunnel] : m_tunnels) {
        tunnel->setSessionReady(false);
        tunnel->dropLinks();
    }
    if (m_tick) {
        m_tick->stop();
    }
    if (m_keepalive) {
        m_keepalive->stop();
    }
    delete m_notifier;
    m_notifier = nullptr;
    m_auth.reset();
    if (m_event && m_session) {
        ssh_event_remove_session(m_event.get(), m_session.get());
    }
    m_readAhead.reset();
    m_event.reset();
    m_session.reset();
}

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

void SessionWorker::stop()
{
    m_stopped = true;
    if (m_reconnect) {
        m_reconnect->stop();
    }
    stopRemoteCommands();
    teardown();
    for (auto &[id, tunnel] : m_tunnels) {
        Q_EMIT tunnelFailed(id, QCoreApplication::translate("Ssh", "Disconnected."));
    }
    m_tunnels.clear();
    for (auto &job : m_queued) {
        Q_EMIT commandFinished(
            job->id(), job->result({SshErrorCode::Cancelled, QCoreApplication::translate("Ssh", "Disconnected."), {}}));
    }
    m_queued.clear();
    setPhase(ConnectionPhase::Disconnected);
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
    log::ssh().debug("{}: run #{}: {}", m_target.host.toStdString(), id, job->command().commandLine.toStdString());
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

std::unique_ptr<TunnelServer> SessionWorker::makeTunnel(quint64 id, int kind, const QString &remoteHost,
                                                        quint16 remotePort, const QByteArray &command)
{
    TunnelServer::Spec spec{static_cast<TunnelServer::Kind>(kind), remoteHost, remotePort, command};
    auto opener = [this](const TunnelServer::Spec &s, quint16 listenPort, SshError &error) -> ChannelPtr {
        if (!m_session) {
            error = {SshErrorCode::ConnectionLost, QStringLiteral("Not connected."), {}};
            return {};
        }
        ChannelPtr ch(ssh_channel_new(m_session.get()));
        int rc = SSH_ERROR;
        if (ch && s.kind == TunnelServer::Kind::Port) {
            const QByteArray host = s.remoteHost.toUtf8();
            rc = ssh_channel_open_forward(ch.get(), host.constData(), s.remotePort, "127.0.0.1", listenPort);
        } else if (ch) {
            rc = ssh_channel_open_session(ch.get());
            if (rc == SSH_OK) {
                // Run by /bin/sh whatever the login shell (fish, tcsh…): see loginShellSafe().
                rc = ssh_channel_request_exec(ch.get(), loginShellSafe(s.command).constData());
            }
        }
        scheduleService();
        if (rc != SSH_OK) {
            error = {SshErrorCode::ChannelFailed,
                     s.kind == TunnelServer::Kind::Port
                         ? QCoreApplication::translate(
                               "Ssh",
                               "The server refused to forward to %1:%2 (AllowTcpForwarding, or nothing "
                               "listens there).")
                               .arg(s.remoteHost)
                               .arg(s.remotePort)
                         : QCoreApplication::translate("Ssh", "The server refused to run the tunnel command."),
                     QString::fromUtf8(ssh_get_error(m_session.get()))};
            return {};
        }
        return ch;
    };
    return std::make_unique<TunnelServer>(id, std::move(spec), std::move(opener), this);
}

void SessionWorker::keepTunnel(std::unique_ptr<TunnelServer> tunnel)
{
    connect(tunnel.get(), &TunnelServer::activity, this, &SessionWorker::scheduleService);
    tunnel->setSessionReady(m_state.phase == ConnectionPhase::Ready);
    const quint64 id = tunnel->id();
    const quint16 port = tunnel->localPort();
    const TunnelServer::Spec &spec = tunnel->spec();
    const std::string to = spec.kind == TunnelServer::Kind::Port
        ? QStringLiteral("%1:%2").arg(spec.remoteHost).arg(spec.remotePort).toStdString()
        : spec.command.toStdString();
    m_tunnels.emplace(id, std::move(tunnel));
    if (port != 0) {
        log::ssh().debug("{}: tunnel {} to {} listens on 127.0.0.1:{}", m_target.host.toStdString(), id, to, port);
    } else {
        log::ssh().debug("{}: tunnel {} to {} ready, private (no port)", m_target.host.toStdString(), id, to);
    }
    Q_EMIT tunnelReady(id, port);
}

void SessionWorker::openTunnel(quint64 id, int kind, const QString &remoteHost, quint16 remotePort,
                               const QByteArray &command, quint16 localPort)
{
    std::unique_ptr<TunnelServer> tunnel = makeTunnel(id, kind, remoteHost, remotePort, command);
    QString error;
    if (!tunnel->listen(localPort, &error)) {
        log::ssh().warn("{}: tunnel {} cannot listen: {}", m_target.host.toStdString(), id, error.toStdString());
        Q_EMIT tunnelFailed(id, error);
        return;
    }
    keepTunnel(std::move(tunnel));
}

void SessionWorker::openPrivateTunnel(quint64 id, int kind, const QString &remoteHost, quint16 remotePort,
                                      const QByteArray &command)
{
    keepTunnel(makeTunnel(id, kind, remoteHost, remotePort, command));
}

void SessionWorker::adoptLink(quint64 id, int fd)
{
    const auto it = m_tunnels.find(id);
    if (it == m_tunnels.end()) {
        ::close(fd); // the tunnel closed meanwhile: the client reads an end at once
        return;
    }
    it->second->adopt(fd);
}

void SessionWorker::closeTunnel(quint64 id)
{
    m_tunnels.erase(id);
}

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
