#pragma once

#include "backend/core/result.h"
#include "backend/recipe/recipe.h"

#include <QString>

namespace flashdeck::recipe {

struct Deployment;

/**
 * What the operator chose on top of a profile, in the wizard or on the command line: the image
 * (the AMD profile has none on the deployment page, so it must be confirmed or supplied) and the
 * GPUs (the page's commands use 0-3 and say to change the list when those are busy).
 */
struct ProfileChoice
{
    QString image; // "NAME:TAG"; empty: the profile's own (refused where it must be confirmed)
    QString gpus; // "0,1,2,3" (tp × services, in order); empty: the profile's
    /** The port the server (or the router in front of it) listens on; 0: the profile's. */
    quint16 port = 0;

    /** The profile as it will run, or why not, in words for the operator (`flag` names the option). */
    [[nodiscard]] Result<RecipeProfile> apply(const Recipe &recipe, const RecipeProfile &profile) const;

    /** The profile's GPUs as the operator writes them: "0,1,2,3" (services in order). */
    static QString gpuList(const RecipeProfile &profile);
    /** Why `profile` wants its image confirmed: the suggestion and where it comes from; empty when not. */
    static QString imageToConfirm(const Recipe &recipe, const RecipeProfile &profile);
    /**
     * The port clients use: the router's where there is one, else the (first) server's; SGLang's
     * default, 30000, for an entry whose layout only the generator's command gives (H200, B200).
     */
    static quint16 servedPort(const RecipeProfile &profile);
    /**
     * For a host no profile fits (Recipe::profileForGpus gives none), the page's entry for its
     * GPU model whose flags only SGLang's configuration generator gives (H200, B200, GB200): the
     * most specific model in the first GPU's name ("GB200" over "B200"). Null when the page does
     * not name the model.
     */
    static const RecipeProfile *generatorEntryForGpus(const Recipe &recipe, const QStringList &gpuNames);
    /**
     * `profile` laid over `gpus`: one service per `tp` of them, in order, behind the Router of its
     * node layout when there are several; the entry point keeps the port clients use. Unchanged
     * when the profile has no node layout or `gpus` is not a multiple of two or more services.
     */
    static RecipeProfile overGpus(const RecipeProfile &profile, const QList<int> &gpus, quint16 entryPort = 0);
    /** How many services `profile` runs on a host with `hostGpus` GPUs of its model (1 without a node layout). */
    static int servicesOn(const RecipeProfile &profile, int hostGpus);
    /**
     * The profile a recorded deployment ran (`profileId`, else its own) with its image, GPUs and
     * port; a failure names the profile this build does not know.
     */
    [[nodiscard]] static Result<RecipeProfile> asDeployed(const Recipe &recipe, const Deployment &deployment,
                                                          const QString &profileId = {});
};

} // namespace flashdeck::recipe
