#pragma once

#include <QStringList>

namespace flashdeck::cli {

struct CliContext;

/**
 * `flashdeck loadtest HOST --concurrency N --prompt-tokens P --output-tokens O --duration S
 * [--json] [--csv FILE] [--no-thinking] [--port N]` (issue 8, F25): N streamed requests kept in
 * flight for S seconds through the SSH tunnel. A progress line each second on stderr (in
 * flight, done, TTFT p50, tokens/s, the server's KV use and queue), then the summary on
 * stdout, or one JSON object with --json: {"concurrency", "prompt_tokens", "output_tokens",
 * "duration_s", "elapsed_s", "completed", "failed", "ttft_p50_ms", "ttft_p95_ms", "itl_p50_ms",
 * "itl_p95_ms", "tokens_per_s", "requests_per_s", "errors", "timeline"}. --csv writes one row
 * per request. Exit 0 when every request completed; 1 when any failed; 2 on usage errors;
 * 3–6 when SSH failed.
 */
int runLoadTestCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
