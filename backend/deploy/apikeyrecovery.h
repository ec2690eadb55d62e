#pragma once

#include "backend/core/result.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <nlohmann/json_fwd.hpp>

#include <memory>

namespace flashdeck {

namespace docker {
class DockerClient;
} // namespace docker
namespace ssh {
class Transport;
} // namespace ssh

} // namespace flashdeck

namespace flashdeck::deploy {

/** The key a container was started with (`--api-key` in its inspected Args), or empty. */
QString apiKeyOfContainer(const nlohmann::json &inspect);

/**
 * Finds the API key a deployment's server was started with from its running container, over
 * the host's Docker (`docker inspect`'s Args of flashdeck-<id>-0): what `chat`, `loadtest`,
 * `status` and the Playground use when the keyring holds none (a machine without a Secret
 * Service: an SSH session, a headless server, a minimal desktop), as a rerun of `deploy` does.
 * The key is never printed or logged. finished() carries the key, or what prevented it, in words
 * an operator can act on: the container is gone, it is stopped, it has no key, Docker answered
 * no. Deletes nothing; delete it after finished().
 */
class ApiKeyRecovery final : public QObject
{
    Q_OBJECT

public:
    ApiKeyRecovery(ssh::Transport &connection, QString deploymentId, QObject *parent = nullptr);
    ~ApiKeyRecovery() override;

    void start();

Q_SIGNALS:
    void finished(const flashdeck::Result<QString> &key);

private:
    void inspect();
    void done(const Result<QString> &key);

    ssh::Transport &m_conn;
    QString m_deploymentId;
    std::unique_ptr<docker::DockerClient> m_docker; // on the host's one Docker endpoint
    bool m_done = false;
};

} // namespace flashdeck::deploy
