#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck pins HOST [--json]`: what HOST runs, pinned (image digest, model revision, profile,
 * launch line's sha256, when), from its deployment's manifest. `flashdeck pins lock HOST --output
 * FILE` writes the same as a pins file.
 */
/**
 * Why --image-digest or --model-revision (deploy, upgrade) cannot be a pin, as a usage message;
 * empty when each is unset or well-formed.
 */
QString pinOptionsProblem(const QString &imageDigest, const QString &modelRevision);

int runPinsCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
