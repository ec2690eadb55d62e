#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck logs HOST [--follow] [--tail N] [--container NAME] [--highlights-only]
 * [--timestamps] [--json]`: the host's deployment log (its first server), classified with the
 * rules of host contract §6, the same stream as the Logs page; with --follow it continues
 * through reconnects and container restarts until Ctrl+C. `flashdeck logs --file PATH …`
 * classifies a saved log instead (an operator triaging a log someone sent them).
 * With --json, one object per line: {"line", "text", "rule", "severity"} (plus "time" and
 * "stream" for a host) and the parsed fields of decode and kv-pool lines (token_usage,
 * running, queued, gen_throughput, accept_len, kv_tokens). Without --json the qmul4 and
 * DSpark verdicts close the output on stderr. Exit 0; 1 when the file or the log cannot be
 * read; 2 on usage errors; 3–6 when the SSH connection failed.
 */
int runLogsCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
