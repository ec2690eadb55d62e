#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck pins HOST [--json]`: what HOST runs, pinned (image digest, model revision, profile,
 * launch line's sha256, when), from its deployment's manifest. `flashdeck pins lock HOST --output
 * FILE` writes the same as a pins file.
 */
int runPinsCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
