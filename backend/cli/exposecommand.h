#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck expose HOST --allow CIDR… [options] [--preview] [--json]`: places a TLS gateway
 * (nginx, pinned by digest) beside the host's server, which lets in only the listed networks,
 * requires the API key, limits rate, concurrency and size, and refuses remote media URLs that
 * are not allowed. --preview prints what would be placed and changes nothing. Exit 0 when the
 * gateway listens; 1 when refused or failed (nothing left on the host); 2 for a usage error.
 */
int runExposeCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
