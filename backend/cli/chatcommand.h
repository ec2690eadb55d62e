#pragma once

#include <QStringList>

namespace flashdeck::cli {

struct CliContext;

/**
 * `flashdeck chat HOST --prompt TEXT [--system TEXT] [--no-thinking] [--image FILE]
 * [--temperature X] [--top-p X] [--max-tokens N] [--seed N] [--stop S] [--port N] [--json]`
 * (issue 8): one streamed chat completion with the host's deployment through the SSH tunnel.
 * The answer streams to stdout, the reasoning to stderr, then a stats line on stderr. With
 * --json, one object per line on stdout: {"type": "reasoning"|"content", "text"} deltas, then
 * {"type": "stats", "ttft_ms", "tokens_per_s", "prompt_tokens", "completion_tokens",
 * "reasoning_tokens", "finish_reason"} or {"type": "error", "message"}. The API key comes from
 * the keyring (the deployment's), else $SGLANG_API_KEY. Ctrl+C stops and keeps what came.
 * Exit 0; 1 when the server failed or refused; 2 on usage errors; 3–6 when SSH failed.
 */
int runChatCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
