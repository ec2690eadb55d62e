#include "backend/recipe/pins.h"

#include "backend/core/atomicfile.h"
#include "backend/recipe/deployment.h"

#include <QCryptographicHash>

#include <nlohmann/json.hpp>

namespace flashdeck {

Result<Pins> Pins::of(const Deployment &d)
{
    if (d.imageDigest.isEmpty() || d.modelSha.isEmpty()) {
        return Status::failure(
            QStringLiteral("The deployment on %1 never reached its pins (no %2 recorded): run 'flashdeck deploy %1' to "
                           "pin and deploy it.")
                .arg(d.host,
                     d.imageDigest.isEmpty() ? QStringLiteral("image digest") : QStringLiteral("model revision")));
    }
    Pins p;
    p.host = d.host;
    p.image = d.image;
    p.imageDigest = d.imageDigest;
    p.modelRevision = d.modelSha;
    p.profile = d.profile;
    p.launchSha256 = d.launch.isEmpty()
        ? QString()
        : QString::fromLatin1(QCryptographicHash::hash(d.launch.toUtf8(), QCryptographicHash::Sha256).toHex());
    p.deployedAt = d.finished;
    return p;
}

nlohmann::json Pins::toJson() const
{
    const auto orNull = [](const QString &s) {
        return s.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(s.toStdString());
    };
    return {{"host", host.toStdString()},
            {"image", orNull(image)},
            {"image_digest", imageDigest.toStdString()},
            {"model_revision", modelRevision.toStdString()},
            {"profile", orNull(profile)},
            {"launch_sha256", orNull(launchSha256)},
            {"deployed_at", orNull(deployedAt)}};
}

Status Pins::writeTo(const QString &path) const
{
    return writeFileAtomically(path, QByteArray::fromStdString(toJson().dump(2)) + '\n');
}

} // namespace flashdeck
