#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck logs --file PATH [--highlights-only] [--json]`: classifies a saved SGLang log
 * with the rules of host contract §6 (an operator triaging a log someone sent them). With
 * --json, one object per line: {"line", "text", "rule", "severity"} plus the parsed fields of
 * decode and kv-pool lines (token_usage, running, queued, gen_throughput, accept_len,
 * kv_tokens). Exit 0, 1 when the file cannot be read, 2 on usage errors. Following a host's
 * live log (`flashdeck logs HOST --follow`) comes with the Logs page.
 */
int runLogsCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
