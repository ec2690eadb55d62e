#include "backend/chat/chatclient.h"

#include "backend/chat/chatcall.h"
#include "backend/logging/logging.h"
#include "backend/ssh/hostconnection.h"

#include <QNetworkAccessManager>
#include <QNetworkProxy>

#include <spdlog/logger.h>

namespace flashdeck::chat {

namespace {
// Qt's HTTP/1.1 client opens at most six connections per host and port; more wait in line.
constexpr int kPerClient = 6;
} // namespace

ChatClient::ChatClient(ssh::HostConnection &connection, quint16 remotePort, QObject *parent)
    : QObject(parent)
    , m_conn(&connection)
    , m_remotePort(remotePort)
{
    connect(&connection, &ssh::HostConnection::tunnelReady, this, [this](quint64 id, quint16 port) {
        if (id == m_tunnelId) {
            m_localPort = port;
            startPending();
        }
    });
    connect(&connection, &ssh::HostConnection::tunnelFailed, this, [this](quint64 id, const QString &message) {
        if (id != m_tunnelId) {
            return;
        }
        m_tunnelId = 0;
        m_localPort = 0;
        const QList<QPointer<ChatCall>> pending = std::exchange(m_pending, {});
        for (const QPointer<ChatCall> &c : pending) {
            if (c) {
                c->fail(QStringLiteral("Could not reach the server's port %1 on the host: %2")
                            .arg(m_remotePort)
                            .arg(message));
            }
        }
    });
}

ChatClient::~ChatClient()
{
    if (m_tunnelId && m_conn) {
        m_conn->closeTunnel(m_tunnelId);
    }
}

void ChatClient::openTunnel()
{
    if (m_tunnelId == 0 && m_conn) {
        m_localPort = 0;
        m_tunnelId = m_conn->openPortTunnel(QStringLiteral("127.0.0.1"), m_remotePort);
    }
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
            ssh::HostConnection *conn = m_conn.data();
            if (r.outcome == ChatResult::Outcome::Failed && r.httpStatus == 0 && m_tunnelId != 0 && conn) {
                conn->closeTunnel(m_tunnelId);
                m_tunnelId = 0;
                m_localPort = 0;
            }
        });
    }
}

} // namespace flashdeck::chat
