#pragma once

#include <QByteArray>
#include <QString>

namespace flashdeck::expose {

/**
 * The gateway's container and its folder on the host, named in one place for `expose`,
 * `unexpose` and the simulated host's tests.
 *
 * Its labels are not the deployment's (io.flashdeck.deployment): everything that looks for a
 * deployment's containers (the monitor, undeploy, the deploy runner's rerun, the GPU check)
 * must never take the gateway for a server. It carries io.flashdeck.role=gateway and
 * io.flashdeck.gateway=HOST instead.
 */
struct GatewayContainer
{
    static constexpr const char *kGatewayLabel = "io.flashdeck.gateway";
    static constexpr const char *kRoleLabel = "io.flashdeck.role";
    /** Where the folder is bound inside the container (the paths GatewayFiles names). */
    static QString mountPoint() { return QStringLiteral("/etc/nginx/flashdeck"); }

    /** "flashdeck-HOST-gateway". */
    static QString name(const QString &host);
    /** The host's folder for the configuration, script and certificate: ~/.flashdeck/gateway. */
    static QString hostDir(const QString &home);
    /** The `filters=` value of GET /containers/json for a host's gateway (any state). */
    static QString filter();
    /** The Engine API's create body: the pinned image, host network, the folder read-only. */
    static QByteArray createBody(const QString &host, const QString &hostDir);
};

} // namespace flashdeck::expose
