#include "backend/recipe/profilechoice.h"

#include "backend/docker/imageref.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/importedlaunch.h"

#include <QCoreApplication>
#include <QSet>

#include <algorithm>

namespace flashdeck::recipe {

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
    // Not 0 for a generator-only entry: the window's Port box took it as its minimum, 1, and the
    // preview said the server would listen on port 1.
    constexpr quint16 kSglangDefaultPort = 30000; // F16
    return profile.routerPort != 0 ? profile.routerPort
                                   : (profile.replicas.isEmpty() ? kSglangDefaultPort : profile.replicas.first().port);
}

const RecipeProfile *ProfileChoice::generatorEntryForGpus(const Recipe &recipe, const QStringList &gpuNames)
{
    const RecipeProfile *best = nullptr;
    if (gpuNames.isEmpty()) {
        return best;
    }
    for (const RecipeProfile &p : recipe.profiles) {
        if (!p.generatorOnly() || p.gpuModel.isEmpty() || !gpuNames.first().contains(p.gpuModel, Qt::CaseInsensitive)) {
            continue;
        }
        if (!best || p.gpuModel.size() > best->gpuModel.size()) {
            best = &p; // "NVIDIA GB200" contains "B200" too
        }
    }
    return best;
}

int ProfileChoice::servicesOn(const RecipeProfile &profile, int hostGpus)
{
    if (profile.nodeRouterPort == 0 || profile.tp <= 0 || profile.replicas.size() != 1) {
        return 1;
    }
    return std::max(1, hostGpus / profile.tp);
}

RecipeProfile ProfileChoice::overGpus(const RecipeProfile &profile, const QList<int> &gpus, quint16 entryPort)
{
    const qsizetype services = profile.tp > 0 ? gpus.size() / profile.tp : 0;
    if (profile.nodeRouterPort == 0 || profile.replicas.size() != 1 || services < 2 || gpus.size() % profile.tp != 0) {
        return profile;
    }
    RecipeProfile out = profile;
    // The entry point is the Router: on the operator's port when one was given (clients look
    // there), else the node layout's. The services count up from the profile's own port.
    out.routerPort = entryPort != 0 ? entryPort : profile.nodeRouterPort;
    out.routerPolicy = profile.nodeRouterPolicy;
    const quint16 base = profile.replicas.first().port;
    out.replicas.clear();
    for (qsizetype s = 0; s < services; ++s) {
        RecipeReplica replica;
        replica.gpus = gpus.mid(s * profile.tp, profile.tp);
        replica.port = quint16(base + s);
        if (replica.port == out.routerPort) {
            replica.port = quint16(base + services + s); // never the Router's own
        }
        out.replicas.append(replica);
    }
    out.gpuCount = int(gpus.size());
    return out;
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
        if (profile.nodeRouterPort != 0 && profile.replicas.size() == 1 && ids.size() > wanted &&
            ids.size() % wanted == 0) {
            // A node's worth of GPUs: one service per TP group, behind the Router.
            const RecipeProfile laidOut = overGpus(profile, ids, port);
            out.replicas = laidOut.replicas;
            out.routerPort = laidOut.routerPort;
            out.routerPolicy = laidOut.routerPolicy;
            out.gpuCount = laidOut.gpuCount;
            return out;
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
                    : profile.nodeRouterPort != 0
                    ? QCoreApplication::translate("Recipe",
                                                  "%1 needs %2 GPUs (one per TP rank), not %3; or a multiple of %2 "
                                                  "for one service per %2 GPUs behind the SGLang Router.")
                          .arg(profile.title)
                          .arg(wanted)
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
    if (listed->generatorOnly() && !d.launchCommand.isEmpty()) {
        // A host without a verified command, deployed from the generator's: one service on its GPUs.
        const int gpus = int(d.gpus.split(QLatin1Char(','), Qt::SkipEmptyParts).size());
        if (gpus == 0) {
            return Status::failure(
                QCoreApplication::translate("Recipe", "The deployment's manifest names no GPUs: deploy again."));
        }
        const RecipeProfile laidOut = ImportedLaunch::layout(*listed, gpus, {});
        return ProfileChoice{d.image, d.gpus, d.port}.apply(recipe, laidOut);
    }
    // The image and GPUs it ran with (the operator's --image and --gpus, the AMD image confirmed).
    return ProfileChoice{d.image, d.gpus, d.port}.apply(recipe, *listed);
}

} // namespace flashdeck::recipe
