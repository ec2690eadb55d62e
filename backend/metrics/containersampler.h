#pragma once

#include "backend/metrics/hoststatus.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <optional>

class QTimer;

namespace flashdeck {
namespace docker {
class DockerClient;
class DockerEndpoint;
} // namespace docker
namespace ssh {
class Transport;
} // namespace ssh
} // namespace flashdeck

namespace flashdeck::metrics {

/**
 * Flashdeck's server container on one host, every `periodMs`, through the Docker Engine API
 * on the host's one endpoint (DockerEndpoint: its dial-stdio tunnel, shared with every other
 * Engine API call of the process): the deployment's speaking server (not the GPU check, not the
 * router), or none. A broken tunnel is opened again at the next period.
 */
class ContainerSampler final : public QObject
{
    Q_OBJECT

public:
    /** A list that has not answered after `timeoutMs` is a failure, said (a hung dockerd). */
    static constexpr int kTimeoutMs = 30000;

    ContainerSampler(ssh::Transport &connection, QString hostName, int periodMs, QObject *parent = nullptr,
                     int timeoutMs = kTimeoutMs);
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
    void poll();
    void onListed(const nlohmann::json &list);

    QPointer<docker::DockerEndpoint> m_endpoint; // the transport's: gone with it
    QString m_hostName;
    QTimer *m_timer;
    std::unique_ptr<docker::DockerClient> m_docker;
    int m_timeoutMs;
    bool m_running = false;
    bool m_opening = false; // the endpoint is asked to open
    bool m_asking = false; // a list is on its way: never pile up
};

} // namespace flashdeck::metrics
