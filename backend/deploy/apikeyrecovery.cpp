#include "backend/deploy/apikeyrecovery.h"

#include "backend/core/jsonread.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/dockerendpoint.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

namespace flashdeck::deploy {

using nlohmann::json;

QString apiKeyOfContainer(const json &inspect)
{
    const json args = inspect.is_object() ? inspect.value("Args", json::array()) : json::array();
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
        if (args[i] == "--api-key" && args[i + 1].is_string()) {
            return QString::fromStdString(args[i + 1].get<std::string>());
        }
    }
    return {};
}

ApiKeyRecovery::ApiKeyRecovery(ssh::Transport &connection, QString deploymentId, QObject *parent)
    : QObject(parent)
    , m_conn(connection)
    , m_deploymentId(std::move(deploymentId))
{ }

ApiKeyRecovery::~ApiKeyRecovery() = default;

void ApiKeyRecovery::start()
{
    const auto gone = [this](const QString &message) {
        done(Status::failure(
            QCoreApplication::translate("Deploy", "Could not reach the host's Docker to read the server's API key: %1")
                .arg(message)));
    };
    docker::DockerEndpoint &endpoint = docker::DockerEndpoint::of(m_conn);
    m_docker = std::make_unique<docker::DockerClient>(endpoint);
    endpoint.whenOpen(
        this, [this] { inspect(); }, gone);
}

void ApiKeyRecovery::inspect()
{
    const QString container = QStringLiteral("flashdeck-%1-0").arg(m_deploymentId);
    m_docker->call(
        "GET", QStringLiteral("/containers/%1/json").arg(container), {},
        [this, container](const docker::DockerResponse &r) {
            if (r.status == 404) {
                done(Status::failure(
                    QCoreApplication::translate("Deploy",
                                                "The deployment's server container %1 is not on the host any more "
                                                "(removed): deploy again.")
                        .arg(container)));
                return;
            }
            if (!r.ok()) {
                done(Status::failure(
                    QCoreApplication::translate("Deploy", "The host's Docker did not show the server container %1: %2")
                        .arg(container,
                             r.transportError.isEmpty() ? QStringLiteral("dockerd: ") + r.message() : r.message())));
                return;
            }
            const json inspect = r.json();
            const json state = inspect.is_object() ? inspect.value("State", json::object()) : json();
            if (!state.is_object() || !state.value("Running", false)) {
                done(Status::failure(
                    QCoreApplication::translate("Deploy",
                                                "The server container %1 is not running (%2): run 'flashdeck deploy' "
                                                "for this host with --resume to start it again.")
                        .arg(container,
                             QString::fromStdString(state.is_object() ? jsonread::string(state, "Status")
                                                                      : std::string()))));
                return;
            }
            const QString key = apiKeyOfContainer(inspect);
            if (key.isEmpty()) {
                done(Status::failure(
                    QCoreApplication::translate("Deploy",
                                                "The server container %1 was started without --api-key: it asks "
                                                "for no key, or another tool started it.")
                        .arg(container)));
                return;
            }
            done(key);
        });
}

void ApiKeyRecovery::done(const Result<QString> &key)
{
    if (m_done) {
        return;
    }
    m_done = true;
    if (m_docker) {
        m_docker->close(); // the host's Docker tunnel closes if nothing else uses it
    }
    Q_EMIT finished(key);
}

} // namespace flashdeck::deploy
