// SessionWorker, the connection's life: start and stop, connect, the host key, authentication, the
// Ready state, failure, reconnect and teardown (sessionworkercommands.cpp runs the commands,
// sessionworkertunnels.cpp keeps the tunnels, sessionworkerservice.cpp drives the I/O and keepalives).

#include "backend/ssh/sessionworker.h"

#include "backend/applog/logging.h"
#include "backend/ssh/commandjob.h"
#include "backend/ssh/knownhosts.h"
#include "backend/ssh/sessionsetup.h"
#include "backend/ssh/socketreadahead.h"
#include "backend/ssh/sshlibrary.h"
#include "backend/ssh/sshlog.h"
#include "backend/ssh/tunnelserver.h"

#include <QCoreApplication>
#include <QRandomGenerator>
#include <QSocketNotifier>
#include <QTimer>

#include <spdlog/logger.h>

namespace flashdeck::ssh {

namespace {

constexpr int kOperationTimeoutSec = 30;

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
    applog::ssh().info("connecting to {} as {} (attempt {})", where.toStdString(), m_effectiveUser.toStdString(),
                       m_attempt);
    if (ssh_connect(m_session.get()) != SSH_OK) {
        const SshError e = SessionSetup::connectError(m_session.get(), where);
        applog::ssh().warn("connect to {} failed: {}", where.toStdString(), e.detail.toStdString());
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
    applog::ssh().info("host key of {}: {} {} ({})", m_hostKey.host.toStdString(), m_hostKey.keyType.toStdString(),
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
    applog::ssh().info("host key of {} accepted and written to {}", m_hostKey.host.toStdString(),
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
    applog::ssh().warn("{}: {} [{}] {}", m_target.host.toStdString(), errorCodeName(error.code).toStdString(),
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
    applog::ssh().info("{}: reconnecting in {} ms", m_target.host.toStdString(), delay);
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

} // namespace flashdeck::ssh
