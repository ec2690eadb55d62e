// SessionWorker, the tunnels: make one (its channel opener), keep it, open it with a listener or
// private (links adopted from socket pairs), and close it.

#include "backend/applog/logging.h"
#include "backend/core/shellquote.h"
#include "backend/ssh/sessionworker.h"
#include "backend/ssh/socketreadahead.h"
#include "backend/ssh/tunnelserver.h"

#include <QCoreApplication>

#include <spdlog/logger.h>

#include <unistd.h>

namespace flashdeck::ssh {

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
    auto tunnel = std::make_unique<TunnelServer>(id, std::move(spec), std::move(opener), this);
    tunnel->setBacklog([this] { return m_readAhead && m_readAhead->buffered() > 0; });
    return tunnel;
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
        applog::ssh().debug("{}: tunnel {} to {} listens on 127.0.0.1:{}", m_target.host.toStdString(), id, to, port);
    } else {
        applog::ssh().debug("{}: tunnel {} to {} ready, private (no port)", m_target.host.toStdString(), id, to);
    }
    Q_EMIT tunnelReady(id, port);
}

void SessionWorker::openTunnel(quint64 id, int kind, const QString &remoteHost, quint16 remotePort,
                               const QByteArray &command, quint16 localPort)
{
    std::unique_ptr<TunnelServer> tunnel = makeTunnel(id, kind, remoteHost, remotePort, command);
    QString error;
    if (!tunnel->listen(localPort, &error)) {
        applog::ssh().warn("{}: tunnel {} cannot listen: {}", m_target.host.toStdString(), id, error.toStdString());
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

} // namespace flashdeck::ssh
