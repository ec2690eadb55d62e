#pragma once

#include "backend/core/result.h"
#include "backend/recipe/deployment.h"

#include <QString>

#include <optional>

namespace flashdeck {

namespace recipe {
struct Recipe;
struct RecipeProfile;
} // namespace recipe

} // namespace flashdeck

namespace flashdeck::deploy {

/** The pins and facts of a deployment the runbook reproduces (from its manifest). */
struct RunbookInputs
{
    QString hostName;
    QString deploymentId;
    QString imageDigest;
    QString modelSha;
    QString hostHome;
    /** The offline folder on the host the weights load from (F27); empty: the Hub. */
    QString modelDir;
    /** SGLang's configuration generator's command the deployment runs; empty: the recipe's flags. */
    QString launchCommand;
    /** What an earlier start of these pins printed for qmul4: said when the script's start prints nothing. */
    std::optional<recipe::KernelVerdict> qmul4Seen;
};

/**
 * A POSIX shell script that reproduces the deployment without Flashdeck: the same pinned
 * digest and revision, the same flags, the API key read from $FLASHDECK_API_KEY (never written
 * into the script), and the plan's checks as commands with their expected output.
 */
[[nodiscard]] Result<QString> buildRunbook(const recipe::Recipe &recipe, const recipe::RecipeProfile &profile,
                                           const RunbookInputs &in);

/**
 * The runbook of a deployment from its manifest (deployments/HOST/manifest.json): its profile
 * (or `profileId` when given) with the image and GPUs it ran with, and its pins. A failure says
 * what is missing in words (no pinned deployment yet, an unknown profile).
 */
[[nodiscard]] Result<QString> runbookFromManifest(const recipe::Recipe &recipe, const QString &hostName,
                                                  const Result<recipe::Deployment> &deployment,
                                                  const QString &profileId = {});

} // namespace flashdeck::deploy
