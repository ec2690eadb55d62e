#pragma once

#include "backend/core/result.h"

#include <QString>

namespace flashdeck {

struct Recipe;
struct RecipeProfile;

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
};

/**
 * A POSIX shell script that reproduces the deployment without Flashdeck: the same pinned
 * digest and revision, the same flags, the API key read from $FLASHDECK_API_KEY (never written
 * into the script), and the plan's checks as commands with their expected output.
 */
[[nodiscard]] Result<QString> buildRunbook(const Recipe &recipe, const RecipeProfile &profile, const RunbookInputs &in);

} // namespace flashdeck
