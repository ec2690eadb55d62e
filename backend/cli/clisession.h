#pragma once

#include <functional>

namespace flashdeck {
struct HostEntry;
namespace ssh {
class HostConnection;
}
} // namespace flashdeck

namespace flashdeck::cli {

struct CliContext;

/**
 * Connects to `host` the way every host command does — a known host key only (an unknown
 * one points at `hosts check --accept-new-host-key`), authentication prompts at the terminal —
 * then runs `work` on the ready connection. `work` calls `done(exitCode)` when it has
 * finished. Returns that code, or the SSH exit code (3–6) when the connection failed.
 */
int runOnHost(const HostEntry &host, CliContext &context,
              const std::function<void(ssh::HostConnection &, std::function<void(int)> done)> &work);

} // namespace flashdeck::cli
