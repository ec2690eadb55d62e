#pragma once

#include <QString>

namespace flashdeck::recipe {

struct Recipe;
struct RecipeProfile;

/**
 * What the deployment page says about the model and its profiles that the recipe file holds no
 * field for, in words (translated): `recipes show`, the Deploy page's card and the load test
 * all say it the same way.
 */
namespace texts {

/**
 * Why the Hugging Face file summary shows about 220B parameters for a model of about 428B
 * (F04): packed FP4 expert weights, two values a byte, count each byte as one parameter; and
 * every weight has to be loaded, not only the 23B active ones.
 */
QString hubParameterCount();

/** "B300 288 GB, B200 192 GB, GB200 186 GB": each GPU model's memory the recipe gives (F08); empty if none. */
QString gpuMemoryByModel(const Recipe &recipe);

/**
 * The profile runs MonoKernel (the Low-Latency recipe), which serves batch-size-1 steps only
 * (F25). Told by the profile's id: ids are a contract (containers and keys are named after them).
 */
bool servesBatchOneOnly(const QString &profileId);

/** The load test's warning for such a profile (empty for any other). */
QString loadTestProfileWarning(const QString &profileId);

/** SGLang's published figures are upstream references, not a guarantee (F25). */
QString publishedFiguresNote();

} // namespace texts

} // namespace flashdeck::recipe
