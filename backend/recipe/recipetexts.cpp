#include "backend/recipe/recipetexts.h"

#include "backend/recipe/recipe.h"

#include <QCoreApplication>
#include <QStringList>

namespace flashdeck::recipe::texts {

QString hubParameterCount()
{
    // F04: the page's own explanation of the Hub's figure.
    return QCoreApplication::translate(
        "Recipe",
        "The Hugging Face file summary shows about 220B parameters, not 428B: the expert weights are packed FP4, two "
        "values in each byte, and the summary counts each byte as one parameter. About 23B parameters are active per "
        "token, but all the weights must be loaded or sharded across the GPUs, not only the active ones.");
}

QString gpuMemoryByModel(const Recipe &recipe)
{
    QStringList models;
    QStringList said;
    for (const RecipeProfile &p : recipe.profiles) {
        if (p.gpuMemoryGb <= 0 || models.contains(p.gpuModel)) {
            continue;
        }
        models.append(p.gpuModel);
        said.append(QCoreApplication::translate("Recipe", "%1 %2 GB").arg(p.gpuModel).arg(p.gpuMemoryGb));
    }
    return said.join(QStringLiteral(", "));
}

bool servesBatchOneOnly(const QString &profileId)
{
    return profileId.endsWith(QLatin1String("-low-latency"));
}

QString loadTestProfileWarning(const QString &profileId)
{
    if (!servesBatchOneOnly(profileId)) {
        return {};
    }
    // F25, F10: what MonoKernel does under load.
    return QCoreApplication::translate(
        "Recipe",
        "This deployment runs the Low-Latency profile: its MonoKernel serves batch-size-1 steps only, and larger "
        "batches take the standard path, so with several requests in flight it serves less than the Balanced "
        "profile. Plan capacity under concurrency with Balanced.");
}

QString publishedFiguresNote()
{
    return QCoreApplication::translate(
        "Recipe",
        "SGLang's published figures are upstream references, not a MiniMax guarantee, and none are published for the "
        "Balanced recipe: measure with your own prompt and output lengths, multimodal share and concurrency.");
}

} // namespace flashdeck::recipe::texts
