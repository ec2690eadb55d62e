#include "backend/chat/chattarget.h"

#include "backend/core/apppaths.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/profilechoice.h"
#include "backend/recipe/recipe.h"

#include <QCoreApplication>

namespace flashdeck::chat {

Result<ChatTarget> chatTargetFor(const AppPaths &paths, const QString &host)
{
    if (!recipe::Deployment::exists(paths, host)) {
        return Status::failure(
            QCoreApplication::translate("Chat",
                                        "Flashdeck has not deployed to %1, so it does not know its server. "
                                        "Deploy first, or give the server's port on the host (--port).")
                .arg(host));
    }
    return chatTargetOf(host, recipe::Deployment::read(paths, host),
                        QCoreApplication::translate("Chat", " Give the server's port on the host (--port) instead."));
}

Result<ChatTarget> chatTargetOf(const QString &host, const Result<recipe::Deployment> &deployment,
                                const QString &otherwise)
{
    if (!deployment) {
        return Status::failure(deployment.message() + otherwise);
    }
    const QString profileId = deployment.value().profile;
    const QString recipeId = deployment.value().recipe;
    const auto recipes = recipe::Recipe::builtIn();
    if (!recipes) {
        return recipes.status();
    }
    for (const recipe::Recipe &r : recipes.value()) {
        if (!recipeId.isEmpty() && r.id != recipeId) {
            continue;
        }
        if (const recipe::RecipeProfile *p = r.profile(profileId)) {
            ChatTarget t;
            t.host = host;
            t.deploymentId = recipe::DeploymentId(host, profileId).toString();
            t.profileTitle = p->title;
            t.profileId = p->id;
            t.model = r.modelRepo;
            // A node's services behind the Router count too: the profile as it was laid out.
            const Result<recipe::RecipeProfile> laid = recipe::ProfileChoice::asDeployed(r, deployment.value());
            t.router = laid ? laid.value().routerPort != 0 : p->routerPort != 0;
            // The port it was deployed with (deploy --port), else the profile's.
            t.port = deployment.value().port != 0
                ? deployment.value().port
                : (t.router ? p->routerPort : (p->replicas.isEmpty() ? 0 : p->replicas.first().port));
            if (t.port == 0) {
                break;
            }
            return t;
        }
    }
    return Status::failure(QCoreApplication::translate("Chat",
                                                       "%1 was deployed with profile \"%2\", which this Flashdeck "
                                                       "does not know.")
                               .arg(host, profileId) +
                           otherwise);
}

} // namespace flashdeck::chat
