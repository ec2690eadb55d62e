#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck prometheus rules [--output FILE] [--host-label LABEL]`: the fleet alerts as
 * Prometheus alerting rules with the thresholds of `[alerts]`.
 * `flashdeck prometheus targets [--output FILE] [--on-host]`: file_sd JSON for every deployment
 * Flashdeck made, with how a scrape reaches a server that listens on loopback said on stderr.
 * Exit 0, 2 for a usage error, 1 when the file cannot be written.
 */
int runPrometheusCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
