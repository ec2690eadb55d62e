#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck status [HOST…] [--json] [--watch] [--interval S] [--timeout S]`: every host (or
 * the ones named) at a glance — GPUs, Flashdeck's container, the server's health, KV pool,
 * queue, throughput, latency, disk, alerts — over each host's SSH connection. With --json, one
 * object per host (issue 7's contract; unknowns are null). It never prompts: hosts whose key is
 * not yet trusted say so (accept it with `hosts check`). Exit 0 when every host answered,
 * 1 when one could not be reached, 2 on usage errors.
 */
int runStatusCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
