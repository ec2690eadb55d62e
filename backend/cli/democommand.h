#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck demo start [--scenario NAME] [--time-factor X] [--json]`, `demo stop`,
 * `demo status [--json]`: simulated GPU hosts on loopback for trying Flashdeck without a GPU
 * server. `args` starts with the program name, then "demo". Returns the exit code.
 */
int runDemoCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
