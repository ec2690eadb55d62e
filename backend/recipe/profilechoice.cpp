#include "backend/recipe/profilechoice.h"

#include "backend/docker/imageref.h"
#include "backend/recipe/deployment.h"

#include <QCoreApplication>
#include <QSet>

namespace flashdeck {

QString ProfileChoice::gpuList(const RecipeProfile &profile)
{
    QStringList ids;
    for (const RecipeReplica &r : profile.replicas) {
        for (const int g : r.gpus) {
            ids.append(QString::number(g));
        }
    }
    return ids.join(QLatin1Char(','));
}

QString ProfileChoice::imageToConfirm(const Recipe &recipe, const RecipeProfile &profile)
{
    if (!profile.imageConfirm) {
        return {};
    }
    return QCoreApplication::translate("Recipe", "%1 runs an image you choose. Suggested: %2 — %3.")
        .arg(profile.title, recipe.imageOf(profile).reference(), profile.imageSource);
}

quint16 ProfileChoice::servedPort(const RecipeProfile &profile)
{
    return profile.routerPort != 0 ? profile.routerPort
                                   : (profile.replicas.isEmpty() ? 0 : profile.replicas.first().port);
}

Result<RecipeProfile> ProfileChoice::apply(const Recipe &recipe, const RecipeProfile &profile) const
{
    RecipeProfile out = profile;
    if (port != 0) {
        // The operator's port: the router's where there is one (the services behind it keep theirs),
        // else the server's. Below 1024 needs root inside the container; SGLang runs as it is told.
        if (profile.routerPort != 0) {
            for (const RecipeReplica &r : profile.replicas) {
                if (r.port == port) {
                    return Status::failure(
                        QCoreApplication::translate("Recipe",
                                                    "Port %1 is one of the services' behind the router: give "
                                                    "the router another.")
                            .arg(port));
                }
            }
            out.routerPort = port;
        } else if (!out.replicas.isEmpty()) {
            out.replicas.first().port = port;
        }
    }
    if (!image.trimmed().isEmpty()) {
        const auto ref = docker::ImageRef::parse(image);
        if (!ref) {
            return ref.status();
        }
        out.imageName = ref.value().name;
        out.imageTag = ref.value().tag;
        out.imageConfirm = false;
    } else if (profile.imageConfirm) {
        return Status::failure(imageToConfirm(recipe, profile));
    }
    if (!gpus.trimmed().isEmpty()) {
        const QStringList parts = gpus.split(QLatin1Char(','), Qt::SkipEmptyParts);
        const int wanted = profile.tp * int(profile.replicas.size());
        QList<int> ids;
        QSet<int> seen;
        for (const QString &p : parts) {
            bool ok = false;
            const int id = p.trimmed().toInt(&ok);
            if (!ok || id < 0 || id > 63) {
                return Status::failure(
                    QCoreApplication::translate(
                        "Recipe", "\"%1\" is not a GPU index: give the GPUs as nvidia-smi numbers them, e.g. 4,5,6,7.")
                        .arg(p.trimmed()));
            }
            if (seen.contains(id)) {
                return Status::failure(
                    QCoreApplication::translate("Recipe", "GPU %1 is listed twice: each rank needs a GPU of its own.")
                        .arg(id));
            }
            seen.insert(id);
            ids.append(id);
        }
        if (ids.size() != wanted) {
            return Status::failure(
                profile.replicas.size() > 1
                    ? QCoreApplication::translate("Recipe", "%1 needs %2 GPUs (%3 services × TP %4, in order), not %5.")
                          .arg(profile.title)
                          .arg(wanted)
                          .arg(profile.replicas.size())
                          .arg(profile.tp)
                          .arg(ids.size())
                    : QCoreApplication::translate("Recipe", "%1 needs %2 GPUs (one per TP rank), not %3.")
                          .arg(profile.title)
                          .arg(wanted)
                          .arg(ids.size()));
        }
        for (int r = 0; r < out.replicas.size(); ++r) {
            out.replicas[r].gpus = ids.mid(r * profile.tp, profile.tp);
        }
    }
    return out;
}

Result<RecipeProfile> ProfileChoice::asDeployed(const Recipe &recipe, const Deployment &d, const QString &profileId)
{
    const QString id = profileId.isEmpty() ? d.profile : profileId;
    const RecipeProfile *listed = recipe.profile(id);
    if (!listed) {
        return Status::failure(
            QCoreApplication::translate("Recipe",
                                        "No profile \"%1\" in this build's recipe (see 'flashdeck recipes "
                                        "list').")
                .arg(id));
    }
    // The image and GPUs it ran with (the operator's --image and --gpus, the AMD image confirmed).
    return ProfileChoice{d.image, d.gpus, d.port}.apply(recipe, *listed);
}

} // namespace flashdeck
