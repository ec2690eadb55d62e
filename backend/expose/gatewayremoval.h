#pragma once

#include "backend/core/result.h"

#include <QObject>
#include <QStringList>

#include <functional>

namespace flashdeck::ssh {
class Transport;
} // namespace flashdeck::ssh

namespace flashdeck::docker {
class DockerClient;
} // namespace flashdeck::docker

namespace flashdeck::expose {

/**
 * `unexpose`: stops and removes the host's gateway containers (label io.flashdeck.gateway,
 * never any other) and the folder ~/.flashdeck/gateway with its certificate and key. The
 * server, its image and the gateway's image stay as they are.
 */
class GatewayRemoval final : public QObject
{
    Q_OBJECT

public:
    /** The names of the containers removed (none: there was no gateway), or why it failed. */
    using Done = std::function<void(const Result<QStringList> &)>;

    GatewayRemoval(ssh::Transport &transport, docker::DockerClient &docker, QObject *parent = nullptr);
    void start(Done done);

private:
    void removeNext();
    void removeFolder();

    ssh::Transport &m_transport;
    docker::DockerClient &m_docker;
    Done m_done;
    QStringList m_todo; // ids
    QStringList m_removed; // names
    QString m_error;
};

} // namespace flashdeck::expose
