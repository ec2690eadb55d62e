#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck runbook HOST [--profile ID] [--output FILE]`: the POSIX shell script that
 * reproduces HOST's deployment (its pins come from the deployment's manifest).
 */
int runRunbookCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
