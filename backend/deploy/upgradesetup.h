#pragma once

#include "backend/core/result.h"
#include "backend/deploy/deployrunner.h"
#include "backend/deploy/upgradeplan.h"

#include <optional>

namespace flashdeck {

class AppPaths;
namespace recipe {
class LicenseTerms;
} // namespace recipe

} // namespace flashdeck

namespace flashdeck::deploy {

/** What to move a host to: a pins file's digest and commit, or either alone; or resume. */
struct UpgradeTarget
{
    bool resume = false; // continue the recorded upgrade (the rest is ignored)
    std::optional<recipe::Pins> pinsFile;
    QString imageDigest;
    QString modelRevision;
};

/**
 * One host's upgrade, ready to run: the profile as deployed (image, GPUs, port), the deployment's
 * options (licence, flags, model source), and the plan from its pins to the target's. The CLI and
 * the Deploy page both make it here.
 */
struct UpgradeSetup
{
    recipe::RecipeProfile profile;
    DeployOptions options;
    UpgradePlan plan;
    bool unchanged = false; // the host runs these pins already: nothing to do

    /**
     * Fails, in words, when the host has no finished deployment, an upgrade is unfinished (unless
     * resuming) or there is none to resume, the pins file is for another profile, or no
     * acknowledgement of the licence is recorded for the host.
     */
    [[nodiscard]] static Result<UpgradeSetup> prepare(const AppPaths &paths, const QString &host,
                                                      const recipe::Recipe &recipe, const recipe::LicenseTerms &terms,
                                                      const UpgradeTarget &target);
};

} // namespace flashdeck::deploy
