#include "backend/chat/chattarget.h"

#include "backend/core/apppaths.h"
#include "backend/core/jsonread.h"
#include "backend/deploy/recipe.h"

#include <QFile>

#include <nlohmann/json.hpp>

namespace flashdeck::chat {

Result<ChatTarget> chatTargetFor(const AppPaths &paths, const QString &host)
{
    QFile f(paths.dataDir() + QStringLiteral("/deployments/") + host + QStringLiteral("/manifest.json"));
    if (!f.open(QIODevice::ReadOnly)) {
        return Status::failure(QStringLiteral("Flashdeck has not deployed to %1, so it does not know its server. "
                                              "Deploy first, or give the server's port on the host (--port).")
                                   .arg(host));
    }
    const QByteArray data = f.readAll();
    const auto m = nlohmann::json::parse(data.constData(), data.constData() + data.size(), nullptr, false);
    const QString profileId = m.is_object() ? QString::fromStdString(jsonread::string(m, "profile")) : QString();
    const QString recipeId = m.is_object() ? QString::fromStdString(jsonread::string(m, "recipe")) : QString();
    if (profileId.isEmpty()) {
        return Status::failure(QStringLiteral("The deployment manifest %1 is damaged (no profile). Deploy again, or "
                                              "give the server's port on the host (--port).")
                                   .arg(f.fileName()));
    }
    const auto recipes = Recipe::builtIn();
    if (!recipes) {
        return recipes.status();
    }
    for (const Recipe &r : recipes.value()) {
        if (!recipeId.isEmpty() && r.id != recipeId) {
            continue;
        }
        if (const RecipeProfile *p = r.profile(profileId)) {
            ChatTarget t;
            t.host = host;
            t.deploymentId = host + QLatin1Char('-') + profileId;
            t.profileTitle = p->title;
            t.model = r.modelRepo;
            t.router = p->routerPort != 0;
            t.port = t.router ? p->routerPort : (p->replicas.isEmpty() ? 0 : p->replicas.first().port);
            if (t.port == 0) {
                break;
            }
            return t;
        }
    }
    return Status::failure(QStringLiteral("%1 was deployed with profile \"%2\", which this Flashdeck does not know. "
                                          "Give the server's port on the host (--port).")
                               .arg(host, profileId));
}

} // namespace flashdeck::chat
