#pragma once

#include "backend/core/linkopener.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <vector>

namespace flashdeck {
class LocalHttpClient;
namespace ssh {
class Transport;
class TunnelReply;
} // namespace ssh
} // namespace flashdeck

namespace flashdeck::docker {

/**
 * A host's one way to its Docker Engine: one `docker system dial-stdio` tunnel (a private
 * link: no port another local user could open) and, on it, one kept-alive connection that
 * every Engine API call of the process shares, one at a time in the order asked (the runner's,
 * the container sampler's, the API key's, the log follower's lookups). A stream (a pull, a
 * log follow) needs a connection of its own, as HTTP/1.1 cannot carry a call beside a body
 * that never ends: it opens one through link().
 *
 * Before this, each of those parts opened its own tunnel, so a watched host ran up to five
 * dial-stdio processes at once (issue 42). One endpoint per transport: of() finds or makes it
 * as a child of the transport, so everything given the same connection (a HostSession's, a
 * CLI command's) shares it, and it goes with that connection. The tunnel stays open while a
 * DockerClient is made on the endpoint or someone waits for it, and closes with the last.
 */
class DockerEndpoint final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DockerEndpoint)

public:
    /** The transport's endpoint, made (as its child) on first use. */
    static DockerEndpoint &of(ssh::Transport &transport);

    ~DockerEndpoint() override;

    /**
     * Runs `ready` once the tunnel is open (from the event loop, never inside this call), or
     * `failed` with the transport's words if it could not open; neither once `context` is gone.
     * Opens the tunnel if it is not open or on its way (again, after it closed).
     */
    void whenOpen(QObject *context, std::function<void()> ready, std::function<void(const QString &)> failed);
    bool isOpen() const { return m_calls != nullptr; }
    /** Opens connections of their own (streams); a null opener while closed. */
    LinkOpener link() const { return m_link; }
    /** The shared call connection; null while the tunnel is not open. */
    LocalHttpClient *calls() const { return m_calls; }
    /** Call connections opened over this endpoint's life (tests: one while the tunnel lasts). */
    int callConnectionsOpened() const;

Q_SIGNALS:
    /** The tunnel was open and is gone (the SSH session dropped): open it again with whenOpen(). */
    void closed(const QString &message);

private:
    friend class DockerClient; // a client on the endpoint keeps its tunnel open
    void attach() { ++m_clients; }
    void detach();
    void closeUnused();

    explicit DockerEndpoint(ssh::Transport &transport);
    void open();
    void onReady();
    void onEnded(const QString &message);

    struct Waiter
    {
        QPointer<QObject> context;
        std::function<void()> ready;
        std::function<void(const QString &)> failed;
    };

    ssh::Transport &m_transport;
    ssh::TunnelReply *m_tunnel = nullptr;
    LinkOpener m_link;
    LocalHttpClient *m_calls = nullptr;
    std::vector<Waiter> m_waiters;
    int m_closedConnections = 0; // call connections of tunnels that closed
    int m_clients = 0; // DockerClients made on it
};

} // namespace flashdeck::docker
