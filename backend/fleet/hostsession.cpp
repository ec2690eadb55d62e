#include "backend/fleet/hostsession.h"

#include "backend/docker/dockerendpoint.h"
#include "backend/logging/logging.h"
#include "backend/logs/logrules.h"
#include "backend/logs/sharedlog.h"
#include "backend/metrics/hostmonitor.h"
#include "backend/ssh/hostconnection.h"

#include <spdlog/logger.h>

namespace flashdeck {

HostSession::HostSession(const HostEntry &entry, QObject *parent)
    : QObject(parent)
    , m_entry(entry)
{
    ssh::SshTarget target = entry.toTarget();
    target.reconnect = true;
    m_connection = std::make_unique<ssh::HostConnection>(target);
    ssh::HostConnection *conn = m_connection.get();
    connect(conn, &ssh::HostConnection::stateChanged, this, &HostSession::onState);
    // Until the operator asks for this host, nobody is there to answer: refuse, and say so in the
    // host's state (the next method or identity is tried, then the attempt fails with why).
    const auto refused = [this] {
        m_refusedThisAttempt = true;
        log::ssh().info("{}: a prompt was refused: nobody asked for this host yet", m_entry.name.toStdString());
    };
    connect(conn, &ssh::HostConnection::hostKeyNeedsDecision, this, [this, conn, refused](const ssh::HostKeyInfo &) {
        if (!m_asksOperator) {
            refused();
            conn->answerHostKey(false);
        }
    });
    connect(conn, &ssh::HostConnection::passphraseNeeded, this, [this, conn, refused](const ssh::PassphraseRequest &) {
        if (!m_asksOperator) {
            refused();
            conn->answerPassphrase(std::nullopt);
        }
    });
    connect(conn, &ssh::HostConnection::passwordNeeded, this, [this, conn, refused](const ssh::PasswordRequest &) {
        if (!m_asksOperator) {
            refused();
            conn->answerPassword(std::nullopt);
        }
    });
    connect(conn, &ssh::HostConnection::keyboardInteractiveNeeded, this,
            [this, conn, refused](const ssh::KbdIntChallenge &) {
                if (!m_asksOperator) {
                    refused();
                    conn->answerKeyboardInteractive(std::nullopt);
                }
            });
}

HostSession::~HostSession()
{
    // The monitor runs on the connection: it goes first.
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

logs::SharedLog *HostSession::logStream()
{
    if (!m_log) {
        auto rules = logs::LogRules::builtIn();
        if (!rules) {
            log::ssh().error("{}: {}", m_entry.name.toStdString(), rules.message().toStdString());
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
        log::ssh().info("{}: connecting again, now with the operator there to answer", m_entry.name.toStdString());
        m_connection->connectToHost();
    } else if (state.phase == ssh::ConnectionPhase::Ready) {
        m_operatorWaiting = false;
    }
}

} // namespace flashdeck
