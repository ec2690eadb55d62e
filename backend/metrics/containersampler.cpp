#include "backend/metrics/containersampler.h"

#include "backend/docker/dockerclient.h"
#include "backend/docker/dockerendpoint.h"
#include "backend/docker/ourcontainers.h"
#include "backend/recipe/recipe.h"

#include <QTimer>
#include <QUrl>

#include <nlohmann/json.hpp>

namespace flashdeck::metrics {

ContainerSampler::ContainerSampler(ssh::Transport &connection, QString hostName, int periodMs, QObject *parent,
                                   int timeoutMs)
    : QObject(parent)
    , m_endpoint(&docker::DockerEndpoint::of(connection))
    , m_hostName(std::move(hostName))
    , m_timer(new QTimer(this))
    , m_timeoutMs(timeoutMs)
{
    m_timer->setInterval(periodMs);
    connect(m_timer, &QTimer::timeout, this, &ContainerSampler::poll);
    connect(m_endpoint, &docker::DockerEndpoint::closed, this, [this](const QString &message) {
        if (m_running) {
            Q_EMIT failed(message, true);
        }
    });
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
    if (docker::DockerEndpoint *endpoint = m_endpoint.data()) { // one read: GCC's -O3 flow analysis
        m_docker = std::make_unique<docker::DockerClient>(*endpoint); // keeps its tunnel open
    }
    poll();
    m_timer->start();
}

void ContainerSampler::stop()
{
    m_running = false;
    m_timer->stop();
    m_docker.reset(); // its calls unheard; the tunnel closes if nobody else uses it
    m_asking = false;
    m_opening = false;
}

void ContainerSampler::poll()
{
    docker::DockerEndpoint *endpoint = m_endpoint.data(); // one read of the QPointer (see start())
    if (!m_running || m_asking || m_opening || endpoint == nullptr || !m_docker) {
        return;
    }
    if (!endpoint->isOpen()) {
        // Opened for the first time, or again after the tunnel broke.
        m_opening = true;
        endpoint->whenOpen(
            this,
            [this] {
                m_opening = false;
                poll();
            },
            [this](const QString &message) {
                m_opening = false;
                if (m_running) {
                    Q_EMIT failed(message, true);
                }
            });
        return;
    }
    m_asking = true;
    const QString path = QStringLiteral("/containers/json?all=1&filters=") +
        QString::fromLatin1(QUrl::toPercentEncoding(docker::OurContainers::filter()));
    m_docker->call(
        "GET", path, {},
        [this](const docker::DockerResponse &res) {
            m_asking = false;
            const docker::DockerEndpoint *now = m_endpoint.data(); // one read
            if (res.status == 0 && (now == nullptr || !now->isOpen())) {
                return; // the tunnel closed under it: closed() says so
            }
            const nlohmann::json list = res.json(); // parsed once
            if (!res.ok() || !list.is_array()) {
                Q_EMIT failed(res.message(), false);
                return;
            }
            onListed(list);
        },
        m_timeoutMs);
}

void ContainerSampler::onListed(const nlohmann::json &list)
{
    std::optional<ContainerStatus> ours;
    if (const auto server = docker::OurContainers::speakingServer(docker::OurContainers::parse(list),
                                                                  recipe::Recipe::deploymentIds(m_hostName))) {
        ours = ContainerStatus{server->name, server->state, server->status, server->deployment};
    }
    Q_EMIT listed(ours);
}

} // namespace flashdeck::metrics
