#pragma once

#include "backend/core/heldlock.h"
#include "backend/core/result.h"

#include <QString>

#include <memory>

namespace flashdeck {

class AppPaths;

} // namespace flashdeck

namespace flashdeck::deploy {

/**
 * Takes the host's run lock (the deploy lock every deploy, upgrade and expose of the host holds,
 * from any window or terminal) for a command that changes the host; refused, in words, while
 * another run of the host holds it. A file system without locks runs on, as a deployment does:
 * then null, and only the guard is missing.
 */
[[nodiscard]] Result<std::unique_ptr<HeldLock>> claimHost(const AppPaths &paths, const QString &host);

} // namespace flashdeck::deploy
