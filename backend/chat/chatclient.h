#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

namespace flashdeck::ssh {
class Transport;
class TunnelReply;
} // namespace flashdeck::ssh

namespace flashdeck::chat {

class ChatCall;

/**
 * Talks to one deployment's OpenAI-compatible API through the host's one SSH connection: a
 * private tunnel to the server's loopback port (no local port: each call is a socket pair the
 * SSH worker carries), opened on first use and again after it fails, and as many calls at once
 * as asked, each on its own connection. The API key is held in memory only and sent as a
 * Bearer token.
 */
class ChatClient final : public QObject
{
    Q_OBJECT

public:
    ChatClient(ssh::Transport &connection, quint16 remotePort, QObject *parent = nullptr);
    ~ChatClient() override;

    void setApiKey(const QString &key) { m_apiKey = key; }
    quint16 remotePort() const { return m_remotePort; }

    /** Starts a call with a body from buildChatBody(); the call is a child of this client. */
    ChatCall *send(const QByteArray &body, bool thinkingRequested);

private:
    void openTunnel();
    void dropTunnel();
    void startPending();

    // Guarded: a client may be the connection's child, deleted after the connection's own destructor ran.
    QPointer<ssh::Transport> m_conn;
    quint16 m_remotePort;
    QString m_apiKey;
    QPointer<ssh::TunnelReply> m_tunnel;
    bool m_ready = false;
    QList<QPointer<ChatCall>> m_pending;
};

} // namespace flashdeck::chat
