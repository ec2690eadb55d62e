#include "backend/deploy/hostlock.h"

#include "backend/deploy/deploysession.h"
#include "backend/recipe/deployment.h"

#include <QDir>

namespace flashdeck {

Result<std::unique_ptr<HeldLock>> claimHost(const AppPaths &paths, const QString &host)
{
    const QString directory = Deployment::directory(paths, host);
    QDir().mkpath(directory);
    auto held = std::make_unique<HeldLock>(DeploySession::lockOf(directory));
    if (const Status s = held->acquire(); !s) {
        if (const QString elsewhere = DeploySession::runningElsewhere(host, directory); !elsewhere.isEmpty()) {
            return Status::failure(elsewhere);
        }
        return std::unique_ptr<HeldLock>(); // no lock to take here: the command goes on unguarded
    }
    return held;
}

} // namespace flashdeck
