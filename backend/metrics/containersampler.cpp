#include "backend/metrics/containersampler.h"

#include "backend/core/localhttpclient.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/ourcontainers.h"
#include "backend/recipe/recipe.h"
#include "backend/ssh/transport.h"
#include "backend/ssh/tunnelreply.h"

#include <QTimer>
#include <QUrl>

#include <nlohmann/json.hpp>

namespace flashdeck::metrics {

ContainerSampler::ContainerSampler(ssh::Transport &connection, QString hostName, int periodMs, QObject *parent)
    : QObject(parent)
    , m_conn(connection)
    , m_hostName(std::move(hostName))
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(periodMs);
    connect(m_timer, &QTimer::timeout, this, &ContainerSampler::poll);
}

ContainerSampler::~ContainerSampler()
{
    stop();
}

void ContainerSampler::start()
{
    if (m_running) {
        return;
    }
    m_running = true;
    openTunnel();
    m_timer->start();
}

void ContainerSampler::stop()
{
    m_running = false;
    m_timer->stop();
    dropTunnel();
}

void ContainerSampler::openTunnel()
{
    m_tunnel = m_conn.tunnelToCommand("docker system dial-stdio", this);
    connect(m_tunnel, &ssh::TunnelReply::ready, this, [this] {
        m_docker = std::make_unique<LocalHttpClient>(m_tunnel->link());
        poll();
    });
    const auto gone = [this](const QString &message) {
        dropTunnel();
        Q_EMIT failed(message, true);
    };
    connect(m_tunnel, &ssh::TunnelReply::ended, this, gone);
}

void ContainerSampler::dropTunnel()
{
    if (m_docker) {
        m_docker->abortAll();
        m_docker.release()->deleteLater(); // this may run inside one of its callbacks
    }
    if (m_tunnel) {
        m_tunnel->abandon();
        m_tunnel = nullptr;
    }
}

void ContainerSampler::poll()
{
    if (!m_running) {
        return;
    }
    if (!m_docker) {
        if (!m_tunnel) {
            openTunnel(); // after a failure: try again
        }
        return;
    }
    if (!m_docker->idle()) {
        return; // the last poll has not answered yet: never pile up
    }
    // A plain keep-alive GET rather than DockerClient (QNetworkAccessManager): this runs every 5 s
    // for every host watched (see LocalHttpClient). "Host: docker" as the docker CLI sends it.
    const QByteArray path =
        "/containers/json?all=1&filters=" + QUrl::toPercentEncoding(docker::OurContainers::filter());
    m_docker->get(path, {{QByteArrayLiteral("Host"), QByteArrayLiteral("docker")}}, kTimeoutMs,
                  [this](const LocalHttpResponse &r) {
                      const docker::DockerResponse res{
                          r.status, r.body, r.status == 0 ? docker::DockerClient::noAnswer(r.error) : QString()};
                      if (!res.ok() || !res.json().is_array()) {
                          if (res.status == 0) { // the tunnel is gone: open a new one next time
                              dropTunnel();
                          }
                          Q_EMIT failed(res.message(), false);
                          return;
                      }
                      std::optional<ContainerStatus> ours;
                      if (const auto server = docker::OurContainers::speakingServer(
                              docker::OurContainers::parse(res.json()), Recipe::deploymentIds(m_hostName))) {
                          ours = ContainerStatus{server->name, server->state, server->status, server->deployment};
                      }
                      Q_EMIT listed(ours);
                  });
}

} // namespace flashdeck::metrics
