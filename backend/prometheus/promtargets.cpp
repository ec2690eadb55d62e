#include "backend/prometheus/promtargets.h"

#include <nlohmann/json.hpp>

namespace flashdeck::prom {

QByteArray fileSdTargets(const QList<TargetHost> &deployments, ScrapeFrom from)
{
    nlohmann::json groups = nlohmann::json::array();
    for (const TargetHost &t : deployments) {
        const recipe::Deployment &d = t.deployment;
        const quint16 port = d.port ? d.port : quint16(30000);
        const QString address = from == ScrapeFrom::OnHost ? QStringLiteral("127.0.0.1") : t.address;
        const QString target = address.contains(QLatin1Char(':')) ? QStringLiteral("[%1]:%2").arg(address).arg(port)
                                                                  : QStringLiteral("%1:%2").arg(address).arg(port);
        nlohmann::json labels = {{"host", t.name.toStdString()},
                                 {"flashdeck_deployment", d.id().toString().toStdString()},
                                 {"flashdeck_profile", d.profile.toStdString()}};
        // Labels with no value are left out: Prometheus drops empty labels anyway.
        const auto add = [&labels](const char *key, const QString &value) {
            if (!value.isEmpty()) {
                labels[key] = value.toStdString();
            }
        };
        add("flashdeck_image", d.image);
        add("flashdeck_image_digest", d.imageDigest);
        add("flashdeck_model_revision", d.modelSha);
        groups.push_back({{"targets", {target.toStdString()}}, {"labels", labels}});
    }
    return QByteArray::fromStdString(groups.dump(2)) + '\n';
}

} // namespace flashdeck::prom
