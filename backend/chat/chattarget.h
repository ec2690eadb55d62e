#pragma once

#include "backend/core/result.h"

#include <QString>

namespace flashdeck {
class AppPaths;
namespace recipe {
struct Deployment;
} // namespace recipe
} // namespace flashdeck

namespace flashdeck::chat {

/** Where a host's chat requests go: its deployment's server (or router) on the host. */
struct ChatTarget
{
    QString host;
    QString deploymentId; // <host>-<profile>: names the API key in the keyring
    QString profileTitle;
    QString model; // the model id the server serves
    quint16 port = 0; // on the host's loopback, reached through the SSH tunnel
    bool router = false;
    QString profileId; // the deployment's profile ("b300x4-low-latency"); empty for a server given by port
};

/**
 * The target of `host` from its deployment manifest (deployments/<host>/manifest.json) and
 * the built-in recipe: the router's port for a multi-replica profile, else the server's. A
 * host Flashdeck has not deployed to gives a failure that says how to point at a server by
 * port instead.
 */
[[nodiscard]] Result<ChatTarget> chatTargetFor(const AppPaths &paths, const QString &host);

/**
 * The target of `host`'s deployment as a front end already holds it (the window's host session
 * reads the manifest once for every page). A deployment that could not be read, or whose profile
 * this Flashdeck does not know, fails with `otherwise` after the reason: what this front end
 * offers instead (the command line's --port, the window's Deploy page).
 */
[[nodiscard]] Result<ChatTarget> chatTargetOf(const QString &host, const Result<recipe::Deployment> &deployment,
                                              const QString &otherwise);

} // namespace flashdeck::chat
