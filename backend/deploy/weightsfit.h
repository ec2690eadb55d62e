#pragma once

#include "backend/probe/nvidiasmi.h"
#include "backend/recipe/recipe.h"

#include <QString>

namespace flashdeck::deploy::checks {

/** Whether the weights fit a service's static memory, and the KV pool that leaves, in words. */
struct WeightsFit
{
    bool fits = true;
    /** "each service's static memory (TP 4 × 307.9 GB × 0.8 = 985.3 GB) holds …"; empty: not judged. */
    QString words;
};

/**
 * Before anything is pulled: every service holds all the weights (about 252 GB, sharded over its
 * TP ranks) inside `--mem-fraction-static` of its GPUs' memory, and what is left of that is its
 * KV pool. A service whose static memory is smaller than the weights cannot start; SGLang would
 * say so only after the image pull and the weights download. Judged from the GPUs' total memory
 * as the tool reports it (`driver`: nvidia-smi's, or amd-smi's in the same shape).
 */
WeightsFit weightsFit(const recipe::RecipeProfile &profile, const probe::NvidiaDriver &driver, qint64 weightsBytes);

} // namespace flashdeck::deploy::checks
