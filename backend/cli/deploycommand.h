#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck deploy HOST [--profile ID] [--accept-license noncommercial|commercial|commercial-authorized]
 * [--resume] [--json] [--ready-timeout SECONDS]`. With --json, one object per step transition
 * ({"step","status","title","expected","seen","fix","command"}) plus {"progress": …} objects.
 * Exit 0 when no step failed, 1 otherwise, and the SSH codes (3 host key unknown, 4 refused,
 * 5 authentication, 6 unreachable).
 */
int runDeployCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
