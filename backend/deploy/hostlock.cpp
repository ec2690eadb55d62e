#include "backend/deploy/hostlock.h"

#include "backend/deploy/deploysession.h"
#include "backend/recipe/deployment.h"

#include <QCoreApplication>
#include <QDir>

namespace flashdeck::deploy {

Result<std::unique_ptr<HeldLock>> claimHost(const AppPaths &paths, const QString &host)
{
    const QString directory = recipe::Deployment::directory(paths, host);
    QDir().mkpath(directory);
    auto held = std::make_unique<HeldLock>(DeploySession::lockOf(directory));
    if (const Status s = held->acquire(); !s) {
        if (const QString elsewhere = DeploySession::runningElsewhere(host, directory); !elsewhere.isEmpty()) {
            // Said for what this command is (the deploy's words name a deployment): it changed
            // nothing, and another change of the host runs.
            return Status::failure(QCoreApplication::translate("Cli",
                                                               "Another command is changing %1 right now (a deploy, "
                                                               "an upgrade, an expose or an unexpose, from a window "
                                                               "or a terminal): this one changed nothing. Wait for it "
                                                               "to end, then run this again.")
                                       .arg(host));
        }
        return std::unique_ptr<HeldLock>(); // no lock to take here: the command goes on unguarded
    }
    return held;
}

} // namespace flashdeck::deploy
