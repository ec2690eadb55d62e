#include "backend/expose/gatewaycontainer.h"

#include "backend/expose/gatewayimage.h"

#include <nlohmann/json.hpp>

namespace flashdeck::expose {

QString GatewayContainer::name(const QString &host)
{
    return QStringLiteral("flashdeck-%1-gateway").arg(host);
}

QString GatewayContainer::hostDir(const QString &home)
{
    return home + QStringLiteral("/.flashdeck/gateway");
}

QString GatewayContainer::filter()
{
    return QStringLiteral(R"({"label":["%1"]})").arg(QLatin1String(kGatewayLabel));
}

QByteArray GatewayContainer::createBody(const QString &host, const QString &hostDir)
{
    const std::string conf = QString(mountPoint() + QStringLiteral("/nginx.conf")).toStdString();
    // The image's entrypoint script would first run its /docker-entrypoint.d helpers (they edit
    // conf.d, which this configuration does not read): nginx is started directly. "-e stderr":
    // errors before the configuration is read go to the container's log too.
    const nlohmann::json body{
        {"Image", GatewayImage::pinned().toStdString()},
        {"Entrypoint", {"nginx"}},
        {"Cmd", {"-c", conf, "-e", "stderr", "-g", "daemon off;"}},
        {"Labels", {{kGatewayLabel, host.toStdString()}, {kRoleLabel, "gateway"}}},
        {"Tty", false},
        // The host's network: it listens on the host's address and reaches the server on the
        // host's loopback, where the recipe publishes it (F16).
        {"HostConfig",
         {{"NetworkMode", "host"},
          {"Binds", {QString(hostDir + QLatin1Char(':') + mountPoint() + QStringLiteral(":ro")).toStdString()}},
          {"RestartPolicy", {{"Name", "no"}}}}}};
    return QByteArray::fromStdString(body.dump());
}

} // namespace flashdeck::expose
