#include "backend/chat/chatclient.h"

#include "backend/applog/logging.h"
#include "backend/chat/chatcall.h"
#include "backend/ssh/transport.h"
#include "backend/ssh/tunnelreply.h"

#include <QCoreApplication>

#include <spdlog/logger.h>

namespace flashdeck::chat {

ChatClient::ChatClient(ssh::Transport &connection, quint16 remotePort, QObject *parent)
    : QObject(parent)
    , m_conn(&connection)
    , m_remotePort(remotePort)
{ }

ChatClient::~ChatClient() = default; // the tunnel, a child, closes with it

void ChatClient::openTunnel()
{
    ssh::Transport *connection = m_conn.data(); // one read: GCC's -O3 takes each QPointer read as maybe null
    if (m_tunnel || !connection) {
        return;
    }
    m_ready = false;
    m_tunnel = connection->tunnelToPort(QStringLiteral("127.0.0.1"), m_remotePort, this);
    connect(m_tunnel, &ssh::TunnelReply::ready, this, [this] {
        m_ready = true;
        startPending();
    });
    const auto gone = [this](const QString &message) {
        dropTunnel();
        const QList<QPointer<ChatCall>> pending = std::exchange(m_pending, {});
        for (const QPointer<ChatCall> &c : pending) {
            if (c) {
                c->fail(QCoreApplication::translate("Chat", "Could not reach the server's port %1 on the host: %2")
                            .arg(m_remotePort)
                            .arg(message));
            }
        }
    };
    connect(m_tunnel, &ssh::TunnelReply::ended, this, gone);
}

void ChatClient::dropTunnel()
{
    if (m_tunnel) {
        m_tunnel->abandon();
        m_tunnel = nullptr;
    }
    m_ready = false;
}

ChatCall *ChatClient::send(const QByteArray &body, bool thinkingRequested)
{
    auto *call = new ChatCall(body, thinkingRequested, this);
    m_pending.append(call);
    startPending(); // now, or once the tunnel is ready
    return call;
}

void ChatClient::startPending()
{
    const ssh::TunnelReply *tunnel = m_tunnel.data(); // one read of the QPointer
    if (!tunnel || !m_ready) {
        openTunnel(); // the calls wait in m_pending for it
        return;
    }
    const LinkOpener link = tunnel->link();
    const QList<QPointer<ChatCall>> pending = std::exchange(m_pending, {});
    for (const QPointer<ChatCall> &pointer : pending) {
        ChatCall *c = pointer.data(); // one read: the loop body cannot delete it
        if (c == nullptr || c->isFinished()) {
            continue;
        }
        c->start(link, m_apiKey);
        applog::chat().debug("a request to the server's port {} started", m_remotePort);
        // A call that fails to connect (the tunnel went away with the connection) opens a new one next time.
        connect(c, &ChatCall::finished, this, [this](const ChatResult &r) {
            // Never the prompt or the reply: how it ended, and the HTTP status.
            applog::chat().info("a request to port {} {} (HTTP {})", m_remotePort,
                                r.outcome == ChatResult::Outcome::Completed     ? "completed"
                                    : r.outcome == ChatResult::Outcome::Stopped ? "was stopped"
                                                                                : "failed",
                                r.httpStatus);
            if (r.outcome == ChatResult::Outcome::Failed && r.httpStatus == 0) {
                dropTunnel();
            }
        });
    }
}

} // namespace flashdeck::chat
