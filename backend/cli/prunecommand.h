#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck prune HOST [--dry-run] [--json]`: removes the images Flashdeck pulled onto the host
 * that nothing uses (no container, not the deployment's pins, not an unfinished upgrade's), and
 * says how much it freed. An image Flashdeck did not pull is never touched. Exit 0 when nothing
 * failed, 1 when dockerd refused a removal, 3–6 as for SSH.
 */
int runPruneCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
