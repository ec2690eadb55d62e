#include "backend/ssh/tunnelserver.h"

#include "backend/applog/logging.h"
#include "backend/ssh/peeruid.h"

#include <QCoreApplication>
#include <QSocketNotifier>
#include <QTcpServer>

#include <spdlog/logger.h>

#include <array>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace flashdeck::ssh {

namespace {
// Bytes moved per read or write: large enough that one wake-up carries many SSH packets (libssh
// hands over what its channel buffer holds, up to this), small enough to stay in cache.
constexpr int kTunnelChunk = 256 * 1024;
// Stop reading from one side while this much waits for the other.
constexpr qsizetype kHighWater = 1024 * 1024;
// Reads in a row of a channel that found nothing decrypted while the session's bytes were held,
// before the pump returns to the event loop anyway: 128 of libssh's 4 KiB socket reads, twice what the
// read-ahead holds at once, so a pump never spins on bytes libssh does not take.
constexpr int kMaxEmptyReads = 128;
} // namespace

/** Hands over accepted descriptors without wrapping them in QTcpSocket (see the header). */
class TunnelServer::Listener final : public QTcpServer
{
public:
    Listener(TunnelServer *owner)
        : QTcpServer(owner)
        , m_owner(owner)
    { }

protected:
    void incomingConnection(qintptr fd) override { m_owner->onNewConnection(fd); }

private:
    TunnelServer *m_owner;
};

struct TunnelServer::Link
{
    int fd = -1;
    QSocketNotifier *readable = nullptr;
    QSocketNotifier *writable = nullptr;
    ChannelPtr channel;
    QByteArray toRemote; // read from the client, not yet accepted by the channel window
    QByteArray toLocal; // read from the channel, not yet written to the client
    bool localEof = false; // the client finished sending
    bool eofSent = false; // …and the server was told
    bool remoteEof = false; // the server finished sending
    bool shutdownSent = false;
    bool done = false;
};

TunnelServer::TunnelServer(quint64 id, Spec spec, ChannelOpener opener, QObject *parent)
    : QObject(parent)
    , m_id(id)
    , m_spec(std::move(spec))
    , m_opener(std::move(opener))
    , m_server(new Listener(this))
{ }

TunnelServer::~TunnelServer()
{
    dropLinks();
}

bool TunnelServer::listen(quint16 port, QString *error)
{
    // Loopback only: a tunnel must never expose the remote service to the network.
    if (!m_server->listen(QHostAddress::LocalHost, port)) {
        if (error && m_server->serverError() == QAbstractSocket::AddressInUseError) {
            *error = QCoreApplication::translate("Ssh", "Port %1 of 127.0.0.1 is taken: another program listens there.")
                         .arg(port);
        } else if (error) {
            *error = QCoreApplication::translate("Ssh", "Cannot listen on 127.0.0.1: %1").arg(m_server->errorString());
        }
        return false;
    }
    return true;
}

quint16 TunnelServer::localPort() const
{
    return m_server->isListening() ? m_server->serverPort() : 0;
}

void TunnelServer::setSessionReady(bool ready)
{
    m_ready = ready;
    if (ready) {
        openPending();
    }
}

void TunnelServer::closeLink(Link &link)
{
    delete link.readable;
    delete link.writable;
    link.readable = link.writable = nullptr;
    link.channel.reset();
    if (link.fd >= 0) {
        ::close(link.fd);
        link.fd = -1;
    }
    link.done = true;
}

void TunnelServer::dropLinks()
{
    for (auto &link : m_links) {
        closeLink(*link);
    }
    m_links.clear();
}

bool TunnelServer::admits(int sock) const
{
    // Any local user can connect to 127.0.0.1 (`ss -ltn` lists the port), and behind a tunnel
    // is the host's Docker Engine API (root there) or its model server; OpenSSH's `ssh -L` lets
    // them through. Only a socket of our own user passes, before a byte is read or a channel
    // opened: the kernel's word on who owns the connecting socket, nothing the client says.
    const Result<uint> owner = PeerUid::ofAccepted(sock);
    const uint self = ::geteuid();
    if (owner && owner.value() == self) {
        return true;
    }
    if (owner) {
        applog::ssh().warn("tunnel {}: closed a connection from uid {} (only uid {} may use it)", m_id, owner.value(),
                           self);
    } else {
        applog::ssh().warn("tunnel {}: closed a connection whose owner is unknown: {} ({})", m_id,
                           owner.message().toStdString(), owner.status().detail().toStdString());
    }
    return false;
}

void TunnelServer::onNewConnection(qintptr fd)
{
    const int sock = static_cast<int>(fd);
    if (!admits(sock)) {
        ::close(sock); // the client reads an end (or a reset), never a byte
        return;
    }
    // What arrives from the channel is written at once: with Nagle's algorithm on, the second
    // small write of an answer (headers, then a streamed token) can wait for the client's delayed
    // ACK, up to 40 ms on Linux. OpenSSH does the same for the sockets its -L accepts (set_nodelay()
    // in channels.c's channel_post_port_listener).
    const int one = 1;
    (void)::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    addLink(sock);
}

void TunnelServer::adopt(int fd)
{
    addLink(fd); // ours: the worker made the pair for a client of this process
}

void TunnelServer::addLink(int sock)
{
    const qintptr fd = sock;
    ::fcntl(sock, F_SETFL, ::fcntl(sock, F_GETFL) | O_NONBLOCK);
    auto link = std::make_unique<Link>();
    link->fd = sock;
    link->readable = new QSocketNotifier(fd, QSocketNotifier::Read, this);
    link->writable = new QSocketNotifier(fd, QSocketNotifier::Write, this);
    link->writable->setEnabled(false);
    connect(link->readable, &QSocketNotifier::activated, this, &TunnelServer::activity);
    connect(link->writable, &QSocketNotifier::activated, this, &TunnelServer::activity);
    // Until its channel is open, the client's bytes wait in the kernel.
    link->readable->setEnabled(false);
    m_links.push_back(std::move(link));
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
            applog::ssh().warn("tunnel {}: {} ({})", m_id, error.message.toStdString(), error.detail.toStdString());
            closeLink(*link);
            continue;
        }
        link->readable->setEnabled(true);
    }
}

TunnelServer::Step TunnelServer::clientToBuffer(Link &link)
{
    // While the buffer is not backed up.
    Step step = Step::Idle;
    while (!link.localEof && link.toRemote.size() < kHighWater) {
        const ssize_t n = ::read(link.fd, m_buffer.data(), m_buffer.size());
        if (n > 0) {
            link.toRemote.append(m_buffer.data(), n);
            step = Step::Moved;
        } else if (n == 0) {
            link.localEof = true; // half-close from the client
            step = Step::Moved;
        } else if (errno == EINTR) {
            continue;
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            break;
        } else {
            return Step::Ended; // reset by the client
        }
    }
    return step;
}

TunnelServer::Step TunnelServer::bufferToChannel(Link &link)
{
    // No more than the window allows, so a write never blocks.
    ssh_channel ch = link.channel.get();
    Step step = Step::Idle;
    while (!link.toRemote.isEmpty()) {
        const uint32_t window = ssh_channel_window_size(ch);
        if (window == 0) {
            break;
        }
        const auto n =
            static_cast<uint32_t>(std::min<qsizetype>({link.toRemote.size(), qsizetype(window), kTunnelChunk}));
        const int written = ssh_channel_write(ch, link.toRemote.constData(), n);
        if (written < 0) {
            return Step::Ended;
        }
        link.toRemote.remove(0, written);
        step = Step::Moved;
    }
    if (link.localEof && !link.eofSent && link.toRemote.isEmpty()) {
        ssh_channel_send_eof(ch);
        link.eofSent = true;
        step = Step::Moved;
    }
    return step;
}

TunnelServer::Step TunnelServer::channelToClient(Link &link)
{
    // While the client keeps up. libssh reads the session's socket 4 KiB at a time (MAX_BUF_SIZE
    // in its socket.c), so each read here returns at most what one 4 KiB read completed: gather
    // them into one buffer and hand the client one large send instead of one per packet.
    ssh_channel ch = link.channel.get();
    Step step = Step::Idle;
    // At most kHighWater per pump: with the read-ahead refilling as fast as the network delivers,
    // one busy link would otherwise keep the session's thread (its other links, the Docker
    // endpoint, the log, commands and their timeouts) until the transfer ends. Having moved bytes,
    // the pump is queued again at once.
    qsizetype budget = kHighWater;
    while (!link.remoteEof && link.toLocal.size() < kHighWater && budget > 0) {
        qsizetype filled = 0;
        bool failed = false;
        bool ended = false;
        int emptyReads = 0;
        while (filled < kTunnelChunk) {
            const int n =
                ssh_channel_read_nonblocking(ch, m_buffer.data() + filled, uint32_t(kTunnelChunk - filled), 0);
            if (n > 0) {
                filled += n;
                emptyReads = 0;
                continue;
            }
            failed = n == SSH_ERROR;
            ended = n == SSH_EOF || (!failed && ssh_channel_is_eof(ch) && ssh_channel_poll(ch, 0) <= 0);
            // Nothing decrypted yet, but the session's bytes are already read (SocketReadAhead):
            // the rest of the packet is a function call away, not a wake-up of the event loop.
            if (n == 0 && !ended && ++emptyReads < kMaxEmptyReads && m_backlog && m_backlog()) {
                continue;
            }
            break;
        }
        if (filled > 0) {
            step = Step::Moved;
            budget -= filled;
            // Straight to the client when nothing waits before it: one copy fewer, and no
            // buffer to shift afterwards; only what the socket does not take is kept.
            ssize_t sent = 0;
            if (link.toLocal.isEmpty()) {
                sent = ::send(link.fd, m_buffer.data(), static_cast<size_t>(filled), MSG_NOSIGNAL);
                if (sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                    return Step::Ended; // the client went away
                }
                sent = std::max<ssize_t>(sent, 0);
            }
            if (sent < filled) {
                link.toLocal.append(m_buffer.data() + sent, filled - sent);
            }
        }
        if (failed) {
            return Step::Ended;
        }
        if (ended) {
            link.remoteEof = true;
            step = Step::Moved;
        }
        if (filled < kTunnelChunk) {
            break; // libssh has nothing more buffered for now
        }
    }
    if (m_spec.kind == Kind::Stdio) {
        // The remote command's diagnostics: logged, never mixed into the byte stream.
        const int n = ssh_channel_read_nonblocking(ch, m_buffer.data(), kTunnelChunk, 1);
        if (n > 0) {
            applog::ssh().debug("tunnel {} stderr: {}", m_id,
                                std::string_view(m_buffer.data(), static_cast<size_t>(n)));
            step = Step::Moved;
        }
    }
    return step;
}

TunnelServer::Step TunnelServer::bufferToClient(Link &link)
{
    Step step = Step::Idle;
    while (!link.toLocal.isEmpty()) {
        const ssize_t n =
            ::send(link.fd, link.toLocal.constData(), static_cast<size_t>(link.toLocal.size()), MSG_NOSIGNAL);
        if (n > 0) {
            link.toLocal.remove(0, n);
            step = Step::Moved;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            break;
        } else {
            return Step::Ended; // the client went away
        }
    }
    if (link.remoteEof && link.toLocal.isEmpty() && !link.shutdownSent) {
        ::shutdown(link.fd, SHUT_WR); // half-close toward the client
        link.shutdownSent = true;
        step = Step::Moved;
    }
    return step;
}

bool TunnelServer::pumpLink(Link &link)
{
    // One buffer for every pump (not a fresh zero-filled array per call: that cost a memset of
    // the whole chunk on every wake-up).
    if (m_buffer.size() != std::size_t(kTunnelChunk)) {
        m_buffer.resize(kTunnelChunk);
    }
    bool progress = false;
    for (Step (TunnelServer::*direction)(Link &) : {&TunnelServer::clientToBuffer, &TunnelServer::bufferToChannel,
                                                    &TunnelServer::channelToClient, &TunnelServer::bufferToClient}) {
        const Step step = (this->*direction)(link);
        if (step == Step::Ended) {
            link.done = true;
            return true;
        }
        progress = progress || step == Step::Moved;
    }
    link.readable->setEnabled(!link.localEof && link.toRemote.size() < kHighWater);
    link.writable->setEnabled(!link.toLocal.isEmpty());

    const bool channelGone = ssh_channel_is_closed(link.channel.get()) && link.toLocal.isEmpty();
    if ((link.eofSent && link.shutdownSent) || channelGone) {
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
    for (auto it = m_links.begin(); it != m_links.end();) {
        if ((*it)->done) {
            closeLink(**it);
            it = m_links.erase(it);
        } else {
            ++it;
        }
    }
    return progress;
}

} // namespace flashdeck::ssh
