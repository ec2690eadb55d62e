#pragma once

#include "backend/metrics/hoststatus.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <memory>
#include <optional>

class QTimer;

namespace flashdeck {
class LocalHttpClient;
namespace ssh {
class Transport;
class TunnelReply;
} // namespace ssh
} // namespace flashdeck

namespace flashdeck::metrics {

/**
 * Flashdeck's server container on one host, every `periodMs`, through the Docker Engine API
 * over a `docker system dial-stdio` tunnel: the deployment's speaking server (not the GPU check,
 * not the router), or none. A broken tunnel is opened again at the next period.
 */
class ContainerSampler final : public QObject
{
    Q_OBJECT

public:
    ContainerSampler(ssh::Transport &connection, QString hostName, int periodMs, QObject *parent = nullptr);
    ~ContainerSampler() override;

    void start();
    void stop();

Q_SIGNALS:
    /** Docker answered: our server container, or none on the host. */
    void listed(const std::optional<flashdeck::metrics::ContainerStatus> &container);
    /**
     * Docker could not be asked (the message says why, in the words of whoever failed):
     * `unreachable` when the tunnel to it did not open or broke, else dockerd refused the list.
     */
    void failed(const QString &message, bool unreachable);

private:
    void openTunnel();
    void dropTunnel();
    void poll();

    ssh::Transport &m_conn;
    QString m_hostName;
    QTimer *m_timer;
    QPointer<ssh::TunnelReply> m_tunnel;
    std::unique_ptr<LocalHttpClient> m_docker; // on the tunnel's local port, while it is up
    static constexpr int kTimeoutMs = 30000;
    bool m_running = false;
};

} // namespace flashdeck::metrics
