#include "backend/recipe/pins.h"

#include "backend/core/atomicfile.h"
#include "backend/core/jsonread.h"
#include "backend/recipe/deployment.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

namespace flashdeck::recipe {

Result<Pins> Pins::of(const Deployment &d)
{
    if (d.imageDigest.isEmpty() || d.modelSha.isEmpty()) {
        return Status::failure(
            QCoreApplication::translate(
                "Recipe",
                "The deployment on %1 never reached its pins (no %2 recorded): run 'flashdeck deploy %1' to "
                "pin and deploy it.")
                .arg(d.host,
                     d.imageDigest.isEmpty() ? QCoreApplication::translate("Recipe", "image digest")
                                             : QCoreApplication::translate("Recipe", "model revision")));
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
    p.launchCommand = d.launchCommand;
    return p;
}

nlohmann::json Pins::toJson() const
{
    const auto orNull = [](const QString &s) {
        return s.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(s.toStdString());
    };
    nlohmann::json j = {{"host", host.toStdString()},
                        {"image", orNull(image)},
                        {"image_digest", imageDigest.toStdString()},
                        {"model_revision", modelRevision.toStdString()},
                        {"profile", orNull(profile)},
                        {"launch_sha256", orNull(launchSha256)},
                        {"deployed_at", orNull(deployedAt)}};
    if (!launchCommand.isEmpty()) { // the operator's generator command: a deploy --pins runs it again
        j["launch_command"] = launchCommand.toStdString();
    }
    return j;
}

bool Pins::isImageDigest(const QString &text)
{
    static const QRegularExpression digest(QStringLiteral("^sha256:[0-9a-f]{64}$"));
    return digest.match(text).hasMatch();
}

bool Pins::isModelRevision(const QString &text)
{
    static const QRegularExpression commit(QStringLiteral("^[0-9a-f]{40}$"));
    return commit.match(text).hasMatch();
}

QString Pins::shortDigest(const QString &digest)
{
    return digest.left(19);
}

QString Pins::shortRevision(const QString &revision)
{
    return revision.left(12);
}

Result<Pins> Pins::fromJson(const nlohmann::json &j)
{
    if (!j.is_object()) {
        return Status::failure(QCoreApplication::translate("Recipe", "not a JSON object"));
    }
    const auto str = [&j](const char *k) { return QString::fromStdString(jsonread::string(j, k)); };
    Pins p;
    p.host = str("host");
    p.image = str("image");
    p.imageDigest = str("image_digest");
    p.modelRevision = str("model_revision");
    p.profile = str("profile");
    p.launchSha256 = str("launch_sha256");
    p.launchCommand = str("launch_command");
    p.deployedAt = str("deployed_at");
    if (!isImageDigest(p.imageDigest)) {
        return Status::failure(QCoreApplication::translate("Recipe", "\"image_digest\" is not a sha256 digest"));
    }
    if (!isModelRevision(p.modelRevision)) {
        return Status::failure(
            QCoreApplication::translate("Recipe", "\"model_revision\" is not a 40-character commit id"));
    }
    return p;
}

Result<Pins> Pins::readFrom(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return Status::failure(
            QCoreApplication::translate("Recipe", "Cannot read the pins file %1: %2.").arg(path, f.errorString()));
    }
    const QByteArray data = f.read(1 << 20);
    Result<Pins> pins = fromJson(jsonread::parse(data.constData(), data.constData() + data.size()));
    if (!pins) {
        return Status::failure(
            QCoreApplication::translate("Recipe", "The pins file %1 is not one 'flashdeck pins lock' writes: %2.")
                .arg(path, pins.message()));
    }
    return pins;
}

QStringList Pins::differencesFrom(const Pins &wanted) const
{
    QStringList out;
    if (imageDigest != wanted.imageDigest) {
        out.append(QCoreApplication::translate("Recipe", "image digest %1 where the pins say %2")
                       .arg(shortDigest(imageDigest), shortDigest(wanted.imageDigest)));
    }
    if (modelRevision != wanted.modelRevision) {
        out.append(QCoreApplication::translate("Recipe", "model revision %1 where the pins say %2")
                       .arg(shortRevision(modelRevision), shortRevision(wanted.modelRevision)));
    }
    if (!wanted.profile.isEmpty() && profile != wanted.profile) {
        out.append(
            QCoreApplication::translate("Recipe", "profile %1 where the pins say %2").arg(profile, wanted.profile));
    }
    return out;
}

Status Pins::writeTo(const QString &path) const
{
    return writeFileAtomically(path, QByteArray::fromStdString(toJson().dump(2)) + '\n');
}

} // namespace flashdeck::recipe
