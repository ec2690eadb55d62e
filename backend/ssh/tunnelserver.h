#pragma once

#include "backend/ssh/sshhandles.h"
#include "backend/ssh/sshtypes.h"

#include <QObject>

#include <functional>
#include <memory>
#include <vector>

class QSocketNotifier;
class QTcpServer;

namespace flashdeck::ssh {

/**
 * A tunnel's local end: connections handed over by adopt() (a private link's socket pair), or
 * a listener on 127.0.0.1 (ephemeral port) whose every accepted connection from this
 * process's own user (PeerUid; any other user's is closed unread) gets its own
 * SSH channel: either `direct-tcpip` to a remote host:port, or a session channel running a
 * command (stdio tunnel, e.g. `docker system dial-stdio`). Bytes are pumped both ways with
 * back-pressure on each side and a clean half-close. Lives on the host's worker thread.
 *
 * Accepted connections are plain non-blocking descriptors, not QTcpSockets: QAbstractSocket
 * closes the whole connection when the peer shuts down its sending side, which would turn
 * every half-close (an HTTP client done sending, `docker` closing stdin) into a reset.
 */
class TunnelServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TunnelServer)

public:
    enum class Kind { Port, Stdio };
    struct Spec
    {
        Kind kind = Kind::Port;
        QString remoteHost;
        quint16 remotePort = 0;
        QByteArray command;
    };
    /** Opens the channel for one accepted connection (the worker owns the session). */
    using ChannelOpener = std::function<ChannelPtr(const Spec &, quint16 localPort, SshError &error)>;

    TunnelServer(quint64 id, Spec spec, ChannelOpener opener, QObject *parent = nullptr);
    ~TunnelServer() override;

    /** Listens on 127.0.0.1:`port` (0: any free port). A private tunnel never listens. */
    bool listen(quint16 port, QString *error);
    /**
     * Takes `fd`, this process's end of a socket pair (a private link: no port, nothing another
     * local user could open), as one more connection; closed when the link ends.
     */
    void adopt(int fd);
    quint16 localPort() const;
    quint64 id() const { return m_id; }
    const Spec &spec() const { return m_spec; }

    /** Channels can be opened (true) or not (reconnecting: connections wait). */
    void setSessionReady(bool ready);
    /** The session is gone: every open link is closed; listening continues. */
    void dropLinks();
    /** Moves what can move; true when anything did. */
    bool pump();
    int linkCount() const { return static_cast<int>(m_links.size()); }
    /**
     * Whether the session's bytes are already read into this process but not yet decrypted
     * (SocketReadAhead holds some): then a pump keeps reading its channels instead of returning
     * to the event loop, where no socket notifier would fire for those bytes anyway.
     */
    void setBacklog(std::function<bool()> backlog) { m_backlog = std::move(backlog); }

Q_SIGNALS:
    /** Socket activity: the worker should pump soon. */
    void activity();

private:
    struct Link;
    class Listener;
    void onNewConnection(qintptr fd);
    void addLink(int sock);
    /** Whether the connecting socket belongs to this process's user (see PeerUid). */
    bool admits(int sock) const;
    void openPending();
    /** What one direction of a link's pump did: nothing, moved bytes (or an end), or ended the link. */
    enum class Step { Idle, Moved, Ended };
    bool pumpLink(Link &link);
    Step clientToBuffer(Link &link);
    Step bufferToChannel(Link &link);
    Step channelToClient(Link &link);
    Step bufferToClient(Link &link);
    void closeLink(Link &link);

    quint64 m_id;
    Spec m_spec;
    ChannelOpener m_opener;
    Listener *m_server = nullptr;
    bool m_ready = false;
    std::vector<std::unique_ptr<Link>> m_links;
    std::vector<char> m_buffer; // the pumps' scratch buffer (kTunnelChunk)
    std::function<bool()> m_backlog;
};

} // namespace flashdeck::ssh
