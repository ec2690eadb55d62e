#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck recipes list [--json]` and `flashdeck recipes show ID [--json]` (ID: a recipe or
 * one of its profiles). `args` starts with the program name, then "recipes".
 */
int runRecipesCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
