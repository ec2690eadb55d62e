#include "backend/fleet/hostsession.h"

#include "backend/applog/logging.h"
#include "backend/chat/chatclient.h"
#include "backend/deploy/apikeyrecovery.h"
#include "backend/deploy/deploysession.h"
#include "backend/deploy/upgradesession.h"
#include "backend/docker/dockerendpoint.h"
#include "backend/logs/logrules.h"
#include "backend/logs/sharedlog.h"
#include "backend/metrics/hostmonitor.h"
#include "backend/metrics/serversampler.h"
#include "backend/ssh/hostconnection.h"

#include <QCoreApplication>

#include <spdlog/logger.h>

namespace flashdeck::fleet {

namespace {

std::unique_ptr<ssh::Transport> connectionTo(const HostEntry &entry)
{
    ssh::SshTarget target = entry.toTarget();
    target.reconnect = true;
    return std::make_unique<ssh::HostConnection>(target);
}

} // namespace

HostSession::HostSession(const HostEntry &entry, QObject *parent)
    : HostSession(entry, connectionTo(entry), parent)
{ }

HostSession::HostSession(const HostEntry &entry, std::unique_ptr<ssh::Transport> transport, QObject *parent)
    : QObject(parent)
    , m_entry(entry)
    , m_connection(std::move(transport))
{
    ssh::Transport *conn = m_connection.get();
    connect(conn, &ssh::Transport::stateChanged, this, &HostSession::onState);
    connect(conn, &ssh::Transport::stateChanged, this, &HostSession::stateChanged);
    wirePrompts();
}

void HostSession::wirePrompts()
{
    ssh::Transport *conn = m_connection.get();
    // Until the operator asks for this host, nobody is there to answer: refuse, and say so in the
    // host's state (the next method or identity is tried, then the attempt fails with why). Once
    // they asked, the prompt goes to whoever listens to this session (the host bar's dialogs).
    const auto refused = [this] {
        m_refusedThisAttempt = true;
        applog::ssh().info("{}: a prompt was refused: nobody asked for this host yet", m_entry.name.toStdString());
    };
    connect(conn, &ssh::Transport::hostKeyNeedsDecision, this, [this, conn, refused](const ssh::HostKeyInfo &i) {
        if (!m_asksOperator) {
            refused();
            conn->answerHostKey(false);
            return;
        }
        Q_EMIT hostKeyNeedsDecision(i);
    });
    connect(conn, &ssh::Transport::passphraseNeeded, this, [this, conn, refused](const ssh::PassphraseRequest &r) {
        if (!m_asksOperator) {
            refused();
            conn->answerPassphrase(std::nullopt);
            return;
        }
        Q_EMIT passphraseNeeded(r);
    });
    connect(conn, &ssh::Transport::passwordNeeded, this, [this, conn, refused](const ssh::PasswordRequest &r) {
        if (!m_asksOperator) {
            refused();
            conn->answerPassword(std::nullopt);
            return;
        }
        Q_EMIT passwordNeeded(r);
    });
    connect(conn, &ssh::Transport::keyboardInteractiveNeeded, this,
            [this, conn, refused](const ssh::KbdIntChallenge &c) {
                if (!m_asksOperator) {
                    refused();
                    conn->answerKeyboardInteractive(std::nullopt);
                    return;
                }
                Q_EMIT keyboardInteractiveNeeded(c);
            });
}

HostSession::~HostSession()
{
    // The operation and the monitor run on the connection: they go first.
    m_upgrade.reset();
    m_deploy.reset();
    if (m_monitor) {
        m_monitor->stop();
    }
    m_monitor.reset();
    m_log.reset();
}

docker::DockerEndpoint &HostSession::docker() const
{
    return docker::DockerEndpoint::of(*m_connection);
}

void HostSession::setMonitor(std::unique_ptr<metrics::HostMonitor> monitor)
{
    if (m_monitor) {
        m_monitor->stop();
    }
    m_monitor = std::move(monitor);
}

void HostSession::setDeployment(Result<recipe::Deployment> deployment)
{
    m_deployment = std::move(deployment);
    Q_EMIT deploymentChanged();
}

void HostSession::connectWithOperator()
{
    m_asksOperator = true;
    switch (m_connection->state().phase) {
    case ssh::ConnectionPhase::Ready:
        return;
    case ssh::ConnectionPhase::Connecting:
    case ssh::ConnectionPhase::Verifying:
    case ssh::ConnectionPhase::Authenticating:
        // On its way: if it already refused a prompt it will fail, and onState starts it again.
        m_operatorWaiting = m_refusedThisAttempt;
        return;
    case ssh::ConnectionPhase::Disconnected:
    case ssh::ConnectionPhase::Reconnecting:
    case ssh::ConnectionPhase::Failed:
        m_connection->connectToHost();
        return;
    }
}

ssh::ConnectionState HostSession::state() const
{
    return m_connection->state();
}

void HostSession::answerHostKey(bool accept)
{
    m_connection->answerHostKey(accept);
}

void HostSession::answerPassphrase(std::optional<QString> passphrase)
{
    m_connection->answerPassphrase(std::move(passphrase));
}

void HostSession::answerPassword(std::optional<QString> password)
{
    m_connection->answerPassword(std::move(password));
}

void HostSession::answerKeyboardInteractive(std::optional<QStringList> answers)
{
    m_connection->answerKeyboardInteractive(std::move(answers));
}

chat::ChatClient *HostSession::chatClient(quint16 port, QObject *parent)
{
    return new chat::ChatClient(*m_connection, port, parent);
}

deploy::ApiKeyRecovery *HostSession::apiKeyRecovery(const QString &deploymentId, QObject *parent)
{
    return new deploy::ApiKeyRecovery(*m_connection, deploymentId, parent);
}

std::unique_ptr<metrics::ServerSampler> HostSession::serverSampler(quint16 port, const QString &apiKey, int periodMs)
{
    return std::make_unique<metrics::ServerSampler>(*m_connection, port, apiKey, periodMs);
}

Status HostSession::startDeploy(std::unique_ptr<deploy::DeploySession> run)
{
    if (Status refused = letGoOfLastOperation(); !refused) {
        return refused;
    }
    m_deploy = std::move(run);
    connect(m_deploy.get(), &deploy::DeploySession::finished, this, &HostSession::operationFinished);
    Q_EMIT operationChanged(); // whoever shows the host follows the run before its first step
    return m_deploy->start(*m_connection);
}

Status HostSession::startUpgrade(std::unique_ptr<deploy::UpgradeSession> run)
{
    if (Status refused = letGoOfLastOperation(); !refused) {
        return refused;
    }
    m_upgrade = std::move(run);
    connect(m_upgrade.get(), &deploy::UpgradeSession::finished, this, &HostSession::operationFinished);
    Q_EMIT operationChanged();
    return m_upgrade->start(*m_connection);
}

Status HostSession::letGoOfLastOperation()
{
    // One operation at a time: a running one is never dropped under its steps (its lock, its
    // journal and its containers would be left half-done with nobody watching).
    if (operationRunning()) {
        return Status::failure(
            QCoreApplication::translate(
                "Fleet", "A deployment or upgrade of %1 is running in this window: wait for it or stop it first.")
                .arg(m_entry.name));
    }
    // The page that asks may be in the last run's finished signal: that run is deleted later.
    if (m_deploy) {
        m_deploy.release()->deleteLater();
    }
    if (m_upgrade) {
        m_upgrade.release()->deleteLater();
    }
    return Status::ok();
}

bool HostSession::operationRunning() const
{
    return (m_deploy && m_deploy->running()) || (m_upgrade && m_upgrade->running());
}

logs::SharedLog *HostSession::logStream()
{
    if (!m_log) {
        auto rules = logs::LogRules::builtIn();
        if (!rules) {
            applog::ssh().error("{}: {}", m_entry.name.toStdString(), rules.message().toStdString());
            return nullptr;
        }
        m_logRules = std::make_unique<logs::LogRules>(rules.value());
        m_log = std::make_unique<logs::SharedLog>(*m_connection, *m_logRules, m_entry.name);
    }
    return m_log.get();
}

void HostSession::onState(const ssh::ConnectionState &state)
{
    if (state.phase == ssh::ConnectionPhase::Connecting) {
        m_refusedThisAttempt = false;
    } else if (state.phase == ssh::ConnectionPhase::Failed && m_operatorWaiting) {
        m_operatorWaiting = false;
        applog::ssh().info("{}: connecting again, now with the operator there to answer", m_entry.name.toStdString());
        m_connection->connectToHost();
    } else if (state.phase == ssh::ConnectionPhase::Ready) {
        m_operatorWaiting = false;
    }
}

} // namespace flashdeck::fleet
