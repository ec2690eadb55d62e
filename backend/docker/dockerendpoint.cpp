#include "backend/docker/dockerendpoint.h"

#include "backend/core/localhttpclient.h"
#include "backend/ssh/transport.h"
#include "backend/ssh/tunnelreply.h"

#include <QCoreApplication>
#include <QTimer>

namespace flashdeck::docker {

DockerEndpoint &DockerEndpoint::of(ssh::Transport &transport)
{
    if (auto *existing = transport.findChild<DockerEndpoint *>(QString(), Qt::FindDirectChildrenOnly)) {
        return *existing;
    }
    return *new DockerEndpoint(transport); // a child of the transport: it goes with the connection
}

DockerEndpoint::DockerEndpoint(ssh::Transport &transport)
    : QObject(&transport)
    , m_transport(transport)
{ }

DockerEndpoint::~DockerEndpoint() = default; // the tunnel and the call connection are children

int DockerEndpoint::callConnectionsOpened() const
{
    return m_closedConnections + (m_calls ? m_calls->connectionsOpened() : 0);
}

void DockerEndpoint::whenOpen(QObject *context, std::function<void()> ready,
                              std::function<void(const QString &)> failed)
{
    if (m_calls) {
        // Already open: still from the event loop, as a caller's code may not expect re-entry.
        QTimer::singleShot(0, context, std::move(ready));
        return;
    }
    m_waiters.push_back({context, std::move(ready), std::move(failed)});
    if (!m_tunnel) {
        open();
    }
}

void DockerEndpoint::detach()
{
    if (--m_clients == 0 && m_waiters.empty()) {
        closeUnused();
    }
}

void DockerEndpoint::closeUnused()
{
    // Nobody uses it: no dial-stdio, no channel left on the host. The calls still queued were
    // made by clients that are gone; nobody hears them.
    if (m_tunnel) {
        m_tunnel->abandon();
        m_tunnel = nullptr;
    }
    m_link = LinkOpener();
    if (LocalHttpClient *calls = std::exchange(m_calls, nullptr)) {
        m_closedConnections += calls->connectionsOpened();
        calls->abortAll();
        calls->deleteLater();
    }
}

void DockerEndpoint::open()
{
    m_tunnel = m_transport.tunnelToCommand("docker system dial-stdio", this);
    connect(m_tunnel, &ssh::TunnelReply::ready, this, &DockerEndpoint::onReady);
    connect(m_tunnel, &ssh::TunnelReply::ended, this, &DockerEndpoint::onEnded);
}

void DockerEndpoint::onReady()
{
    m_link = m_tunnel->link();
    m_calls = new LocalHttpClient(m_link, this);
    for (Waiter &w : std::exchange(m_waiters, {})) {
        if (QObject *context = w.context.data()) { // one read (GCC's -O3 flow analysis)
            QTimer::singleShot(0, context, std::move(w.ready));
        }
    }
}

void DockerEndpoint::onEnded(const QString &message)
{
    const bool wasOpen = m_calls != nullptr;
    m_tunnel->abandon();
    m_tunnel = nullptr;
    m_link = LinkOpener();
    if (LocalHttpClient *calls = std::exchange(m_calls, nullptr)) {
        m_closedConnections += calls->connectionsOpened();
        // Every call still queued hears it, in order; none is lost.
        calls->failAll(message);
        calls->deleteLater();
    }
    for (Waiter &w : std::exchange(m_waiters, {})) {
        if (w.context) {
            w.failed(message);
        }
    }
    if (wasOpen) {
        Q_EMIT closed(message);
    }
}

} // namespace flashdeck::docker
