#pragma once

#include "backend/core/result.h"
#include "backend/docker/imageref.h"
#include "backend/probe/gpuvendor.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace flashdeck::recipe {

/** One SGLang service of a profile: its GPUs and its host port. */
struct RecipeReplica
{
    QList<int> gpus;
    quint16 port = 0;
};

/** A way to run the model on one kind of host (a recipe file's "profiles"). */
struct RecipeProfile
{
    QString id;
    QString title;
    /** "verified-upstream", "unverified" (say so) or "generator-only" (no launch: the generator). */
    QString status;
    probe::GpuVendor vendor = probe::GpuVendor::Nvidia; // "nvidia" or "amd" in the recipe file
    QString gpuModel; // matched by substring against the probed GPU name
    int gpuMemoryGb = 0; // per GPU, as the deployment page gives it for the verified hardware; 0: not given
    int gpuCount = 0;
    int tp = 0;
    QList<RecipeReplica> replicas;
    quint16 routerPort = 0; // 0: no router
    QString routerPolicy;
    /**
     * On a host with a multiple of `tp` GPUs of the profile's model, one service per `tp` GPUs behind
     * the SGLang Router on this port and policy (the recipe file's "node_layout"); 0: one service.
     * The page's commands use four of them; four idle B300s cost as much as the four in use.
     */
    quint16 nodeRouterPort = 0;
    QString nodeRouterPolicy;
    QString imageName; // empty: the recipe's image
    QString imageTag;
    /** Where the profile's image suggestion comes from, in words (empty: the deployment page). */
    QString imageSource;
    /** The page names no image for this profile: the operator supplies or confirms one. */
    bool imageConfirm = false;
    QString shmSize;
    QString ipc;
    double memFractionStatic = 0;
    qint64 kvTokensExpected = 0; // 0: no published expectation
    QMap<QString, QString> env;
    QStringList serverArgs;
    bool operatorFlagsRequired = false;
    QString note;
    QStringList facts; // what the deployment page says of this profile, in words (the recipe file's "facts")

    bool generatorOnly() const { return status == QLatin1String("generator-only"); }
    bool verified() const { return status == QLatin1String("verified-upstream"); }
};

/**
 * A deployment recipe: the model, its licence, the image and the profiles, loaded from JSON
 * and validated on load, so a bad file says which key is wrong and what was expected.
 */
struct Recipe
{
    QString id;
    QString title;
    QString status;
    QString statusNote;
    QString scopeNote; // what the recipe does not cover (other frameworks)
    QString modelRepo;
    QString modelRevision;
    qint64 weightsBytes = 0;
    QString modelscopeMirror;
    QString draftSubfolder;
    QString licenseId;
    QString licenseVersion;
    QString licenseName;
    QStringList licenseUses;
    QString imageName;
    QString imageTag;
    QString cudaRuntime;
    qint64 imageApproxBytes = 0; // unpacked, for the disk check before the pin knows the size
    double temperature = 0;
    double topP = 0;
    QString hfCache;
    QString minferCache;
    QList<RecipeProfile> profiles;

    /** Parses and validates; `source` names the file in error messages. */
    [[nodiscard]] static Result<Recipe> fromJson(const QByteArray &json, const QString &source);
    [[nodiscard]] static Result<Recipe> load(const QString &path);
    /** The image a profile runs: its own (the operator's choice, or AMD's), else the recipe's. */
    docker::ImageRef imageOf(const RecipeProfile &profile) const
    {
        return profile.imageName.isEmpty() ? docker::ImageRef{imageName, imageTag}
                                           : docker::ImageRef{profile.imageName, profile.imageTag};
    }
    /** The recipes shipped with Flashdeck (compiled in). */
    [[nodiscard]] static Result<QList<Recipe>> builtIn();

    const RecipeProfile *profile(const QString &id) const;
    /**
     * The profile made for a host with these GPUs (their names, as nvidia-smi or amd-smi give
     * them): its GPU model in the first name, no more GPUs than the host has, the most of them,
     * the first listed on a tie (Balanced before Low-Latency). Null when none fits.
     */
    const RecipeProfile *profileForGpus(const QStringList &gpuNames) const;

    /**
     * The deployment labels (io.flashdeck.deployment) Flashdeck gives `host`'s containers, one
     * per built-in profile: "<host>-<profile>". Matched exactly: a prefix would also match a
     * host named "<host>-…".
     */
    static QStringList deploymentIds(const QString &host);
};

} // namespace flashdeck::recipe
