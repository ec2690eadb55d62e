#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck unexpose HOST [--json]`: stops and removes the gateway `expose` placed (its
 * container and its folder with the certificate and key) and forgets its record. The server is
 * not touched. Exit 0 when no gateway is left (also when there was none).
 */
int runUnexposeCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
