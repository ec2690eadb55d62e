#include "backend/chat/chatclient.h"

#include "backend/chat/chatcall.h"
#include "backend/logging/logging.h"
#include "backend/ssh/transport.h"
#include "backend/ssh/tunnelreply.h"

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QNetworkProxy>

#include <spdlog/logger.h>

namespace flashdeck::chat {

namespace {
// Qt's HTTP/1.1 client opens at most six connections per host and port; more wait in line.
constexpr int kPerClient = 6;
} // namespace

ChatClient::ChatClient(ssh::Transport &connection, quint16 remotePort, QObject *parent)
    : QObject(parent)
    , m_conn(&connection)
    , m_remotePort(remotePort)
{ }

ChatClient::~ChatClient() = default; // the tunnel, a child, closes with it

void ChatClient::openTunnel()
{
    if (m_tunnel || !m_conn) {
        return;
    }
    m_localPort = 0;
    m_tunnel = m_conn->tunnelToPort(QStringLiteral("127.0.0.1"), m_remotePort, this);
    connect(m_tunnel, &ssh::TunnelReply::ready, this, [this](quint16 port) {
        m_localPort = port;
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
    m_localPort = 0;
}

QNetworkAccessManager &ChatClient::httpFor()
{
    std::size_t best = m_http.size();
    for (std::size_t i = 0; i < m_http.size(); ++i) {
        m_active[i].removeIf([](const QPointer<ChatCall> &c) {
            const ChatCall *call = c.data();
            return call == nullptr || call->isFinished();
        });
        if (m_active[i].size() < kPerClient && (best == m_http.size() || m_active[i].size() < m_active[best].size())) {
            best = i;
        }
    }
    if (best == m_http.size()) {
        auto http = std::make_unique<QNetworkAccessManager>();
        http->setProxy(QNetworkProxy::NoProxy); // the tunnel is on loopback; a desktop proxy must not see it
        m_http.push_back(std::move(http));
        m_active.emplace_back();
    }
    return *m_http[best];
}

ChatCall *ChatClient::send(const QByteArray &body, bool thinkingRequested)
{
    auto *call = new ChatCall(body, thinkingRequested, this);
    m_pending.append(call);
    if (m_localPort != 0) {
        startPending();
    } else {
        openTunnel();
    }
    return call;
}

void ChatClient::startPending()
{
    const QList<QPointer<ChatCall>> pending = std::exchange(m_pending, {});
    for (const QPointer<ChatCall> &pointer : pending) {
        ChatCall *c = pointer.data(); // one read: the loop body cannot delete it
        if (c == nullptr || c->isFinished()) {
            continue;
        }
        QNetworkAccessManager &http = httpFor();
        for (std::size_t i = 0; i < m_http.size(); ++i) {
            if (m_http[i].get() == &http) {
                m_active[i].append(c);
            }
        }
        c->start(http, m_localPort, m_apiKey);
        log::chat().debug("a request to the server's port {} started", m_remotePort);
        // A call that fails to connect (the tunnel went away with the connection) opens a new one next time.
        connect(c, &ChatCall::finished, this, [this](const ChatResult &r) {
            // Never the prompt or the reply: how it ended, and the HTTP status.
            log::chat().info("a request to port {} {} (HTTP {})", m_remotePort,
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
