#pragma once

#include <QString>

namespace flashdeck {
namespace recipe {
struct Recipe;
struct RecipeProfile;
} // namespace recipe
} // namespace flashdeck

namespace flashdeck::ui {

/**
 * The Deploy page's profile card, as rich text: the profile's title and how far it is verified,
 * what it needs (GPUs, disk, expected KV pool, router, image), then the recipe's notes and links.
 */
class ProfileCard final
{
public:
    /** `imageBytes` and `imageWord`: the image's measured size once a run measured it, else the recipe's estimate. */
    static QString html(const recipe::Recipe &r, const recipe::RecipeProfile &p, qint64 imageBytes,
                        const QString &imageWord);

private:
    /** Verified upstream, generator only, or unverified. */
    static QString status(const recipe::RecipeProfile &p);
    /** The model and recipe as a whole: upstream status, scope, GPU memory, parameters and links. */
    static QString recipeNotes(const recipe::Recipe &r);
};

} // namespace flashdeck::ui
