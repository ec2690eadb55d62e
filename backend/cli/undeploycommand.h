#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck undeploy HOST [--json]`: stops and removes the containers Flashdeck created on
 * HOST (label io.flashdeck.deployment=HOST-…), never any other. Exit 0 when they are gone.
 */
int runUndeployCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
