#include "backend/ssh/tunnelserver.h"

#include "backend/logging/logging.h"

#include <QTcpServer>
#include <QTcpSocket>

#include <spdlog/logger.h>

#include <array>
#include <sys/socket.h>

namespace flashdeck::ssh {

namespace {
constexpr int kChunk = 64 * 1024;
// Stop reading from one side while the other side has this much queued.
constexpr qint64 kHighWater = 1024 * 1024;
constexpr qint64 kSocketReadBuffer = 256 * 1024;
} // namespace

struct TunnelServer::Link
{
    QTcpSocket *socket = nullptr;
    ChannelPtr channel;
    bool localEof = false;  // the local client finished sending
    bool eofSent = false;   // …and we told the server
    bool remoteEof = false; // the server finished sending
    bool shutdownSent = false;
    bool done = false;
};

TunnelServer::TunnelServer(quint64 id, Spec spec, ChannelOpener opener, QObject *parent)
    : QObject(parent)
    , m_id(id)
    , m_spec(std::move(spec))
    , m_opener(std::move(opener))
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &TunnelServer::onNewConnection);
}

TunnelServer::~TunnelServer()
{
    dropLinks();
}

bool TunnelServer::listen(QString *error)
{
    // Loopback only: the tunnel must never expose the remote service to the network.
    if (!m_server->listen(QHostAddress::LocalHost, 0)) {
        if (error) {
            *error = QStringLiteral("Cannot listen on 127.0.0.1: %1").arg(m_server->errorString());
        }
        return false;
    }
    return true;
}

quint16 TunnelServer::localPort() const
{
    return m_server->serverPort();
}

void TunnelServer::setSessionReady(bool ready)
{
    m_ready = ready;
    if (ready) {
        openPending();
    }
}

void TunnelServer::dropLinks()
{
    for (auto &link : m_links) {
        link->channel.reset();
        if (link->socket) {
            link->socket->disconnect(this);
            link->socket->abort();
            link->socket->deleteLater();
        }
    }
    m_links.clear();
}

void TunnelServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        socket->setReadBufferSize(kSocketReadBuffer); // back-pressure toward the local client
        auto link = std::make_unique<Link>();
        link->socket = socket;
        connect(socket, &QTcpSocket::readyRead, this, &TunnelServer::activity);
        connect(socket, &QTcpSocket::bytesWritten, this, &TunnelServer::activity);
        Link *raw = link.get();
        // The client shut down its sending side (half-close) or went away.
        connect(socket, &QTcpSocket::readChannelFinished, this, [this, raw] {
            raw->localEof = true;
            Q_EMIT activity();
        });
        connect(socket, &QTcpSocket::disconnected, this, &TunnelServer::activity);
        m_links.push_back(std::move(link));
    }
    openPending();
    Q_EMIT activity();
}

void TunnelServer::openPending()
{
    if (!m_ready) {
        return; // connections wait while the session reconnects
    }
    for (auto &link : m_links) {
        if (link->channel || link->done) {
            continue;
        }
        SshError error;
        link->channel = m_opener(m_spec, localPort(), error);
        if (!link->channel) {
            log::ssh().warn("tunnel {}: {} ({})", m_id, error.message.toStdString(), error.detail.toStdString());
            link->done = true;
            link->socket->abort();
        }
    }
}

bool TunnelServer::pumpLink(Link &link)
{
    bool progress = false;
    QTcpSocket *socket = link.socket;
    ssh_channel ch = link.channel.get();

    // Local → remote, no more than the channel window allows, so a write never blocks.
    while (!link.eofSent && socket->bytesAvailable() > 0) {
        const uint32_t window = ssh_channel_window_size(ch);
        if (window == 0) {
            break;
        }
        const qint64 want = std::min<qint64>({socket->bytesAvailable(), static_cast<qint64>(window), kChunk});
        const QByteArray data = socket->read(want);
        if (data.isEmpty()) {
            break;
        }
        if (ssh_channel_write(ch, data.constData(), static_cast<uint32_t>(data.size())) < 0) {
            link.done = true;
            return true;
        }
        progress = true;
    }
    if (link.localEof && !link.eofSent && socket->bytesAvailable() == 0) {
        ssh_channel_send_eof(ch);
        link.eofSent = true;
        progress = true;
    }

    // Remote → local, while the socket is not backed up.
    std::array<char, kChunk> buffer{};
    while (!link.remoteEof && socket->state() == QAbstractSocket::ConnectedState &&
           socket->bytesToWrite() < kHighWater) {
        const int n = ssh_channel_read_nonblocking(ch, buffer.data(), kChunk, 0);
        if (n > 0) {
            socket->write(buffer.data(), n);
            progress = true;
            continue;
        }
        if (n == SSH_ERROR) {
            link.done = true;
            return true;
        }
        if (n == SSH_EOF || (ssh_channel_is_eof(ch) && ssh_channel_poll(ch, 0) <= 0)) {
            link.remoteEof = true;
            progress = true;
        }
        break;
    }
    if (m_spec.kind == Kind::Stdio) {
        // The remote command's diagnostics: logged, never mixed into the byte stream.
        const int n = ssh_channel_read_nonblocking(ch, buffer.data(), kChunk, 1);
        if (n > 0) {
            log::ssh().debug("tunnel {} stderr: {}", m_id, std::string_view(buffer.data(), static_cast<size_t>(n)));
            progress = true;
        }
    }
    if (link.remoteEof && !link.shutdownSent && socket->bytesToWrite() == 0 &&
        socket->state() == QAbstractSocket::ConnectedState) {
        // Half-close toward the client: QTcpSocket has no shutdown(SHUT_WR) of its own.
        ::shutdown(static_cast<int>(socket->socketDescriptor()), SHUT_WR);
        link.shutdownSent = true;
        progress = true;
    }
    const bool localGone = socket->state() == QAbstractSocket::UnconnectedState;
    if ((link.eofSent && link.shutdownSent) || localGone || ssh_channel_is_closed(ch)) {
        link.done = true;
        progress = true;
    }
    return progress;
}

bool TunnelServer::pump()
{
    bool progress = false;
    for (auto &link : m_links) {
        if (link->channel && !link->done) {
            progress = pumpLink(*link) || progress;
        }
    }
    // Retire finished links.
    for (auto it = m_links.begin(); it != m_links.end();) {
        Link &link = **it;
        if (link.done) {
            link.channel.reset();
            link.socket->disconnect(this); // the lambdas above hold a pointer to this link
            if (link.socket->state() == QAbstractSocket::ConnectedState && link.socket->bytesToWrite() > 0) {
                link.socket->disconnectFromHost(); // flushes what is queued first
            } else {
                link.socket->abort();
            }
            link.socket->deleteLater();
            it = m_links.erase(it);
        } else {
            ++it;
        }
    }
    return progress;
}

} // namespace flashdeck::ssh
