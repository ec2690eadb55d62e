#include "backend/expose/gatewayremoval.h"

#include "backend/core/jsonread.h"
#include "backend/docker/dockerclient.h"
#include "backend/expose/gatewaycontainer.h"
#include "backend/ssh/commandreply.h"
#include "backend/ssh/transport.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

namespace flashdeck::expose {

GatewayRemoval::GatewayRemoval(ssh::Transport &transport, docker::DockerClient &docker, QObject *parent)
    : QObject(parent)
    , m_transport(transport)
    , m_docker(docker)
{ }

void GatewayRemoval::start(Done done)
{
    m_done = std::move(done);
    m_docker.call(
        "GET", QStringLiteral("/containers/json?all=1&filters=") + docker::DockerClient::q(GatewayContainer::filter()),
        {}, [this](const docker::DockerResponse &list) {
            if (!list.ok()) {
                m_done(Status::failure(
                    QCoreApplication::translate("Expose", "The host's Docker did not list its containers: %1")
                        .arg(list.message())));
                return;
            }
            const nlohmann::json j = list.json();
            for (const nlohmann::json &c : j.is_array() ? j : nlohmann::json::array()) {
                m_todo.append(QString::fromStdString(jsonread::string(c, "Id")));
                const auto names = c.find("Names");
                QString name = QStringLiteral("?");
                if (names != c.end() && names->is_array()) {
                    for (const nlohmann::json &n : *names) { // the first name, without its '/'
                        name = n.is_string() ? QString::fromStdString(n.get<std::string>()).mid(1) : name;
                        break;
                    }
                }
                m_removed.append(name);
            }
            removeNext();
        });
}

void GatewayRemoval::removeNext()
{
    if (m_todo.isEmpty()) {
        removeFolder();
        return;
    }
    const QString id = m_todo.takeFirst();
    // nginx stops at SIGTERM at once (fast shutdown); 10 s covers a long answer being cut.
    m_docker.call("POST", QStringLiteral("/containers/%1/stop?t=10").arg(id), {},
                  [this, id](const docker::DockerResponse &stopped) {
                      if (!stopped.ok() && stopped.status != 304 && stopped.status != 404) {
                          m_error = stopped.message();
                      }
                      m_docker.call("DELETE", QStringLiteral("/containers/%1?force=1").arg(id), {},
                                    [this](const docker::DockerResponse &gone) {
                                        if (!gone.ok() && gone.status != 404) {
                                            m_error = gone.message();
                                        }
                                        removeNext();
                                    });
                  });
}

void GatewayRemoval::removeFolder()
{
    if (!m_error.isEmpty()) {
        m_done(Status::failure(m_error));
        return;
    }
    // The key goes with the folder; "$HOME" expands on the host (GatewayContainer::hostDir).
    ssh::CommandReply *reply = m_transport.execute("rm -rf \"$HOME/.flashdeck/gateway\"", 60000, this);
    connect(reply, &ssh::CommandReply::finished, this, [this, reply](const ssh::CommandResult &r) {
        reply->abandon();
        if (!r.succeeded()) {
            m_done(Status::failure(QCoreApplication::translate("Expose", "Could not remove the gateway's folder: %1")
                                       .arg(r.error.isError() ? r.error.message : QString::fromUtf8(r.stderrData))));
            return;
        }
        m_done(m_removed);
    });
}

} // namespace flashdeck::expose
