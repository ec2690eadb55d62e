#pragma once

#include "backend/fleet/hostentry.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace flashdeck {
namespace fleet {
class HostSession;
} // namespace fleet
} // namespace flashdeck

namespace flashdeck::cli {

struct CliContext;

/**
 * Connects to `host` the way every host command does — a known host key only (an unknown
 * one points at `hosts check --accept-new-host-key`), authentication prompts at the terminal —
 * then runs `work` on the ready connection. `work` calls `done(exitCode)` when it has
 * finished. Returns that code, or the SSH exit code (3–6) when the connection failed.
 */
/**
 * The same without waiting: connects, runs `work`, and calls `finished(code)` once from the
 * event loop (several hosts at a time: a rolling upgrade). Keep the connection until then.
 */
std::unique_ptr<fleet::HostSession>
startOnHost(const fleet::HostEntry &host, CliContext &context,
            const std::function<void(fleet::HostSession &, std::function<void(int)> done)> &work,
            const std::function<void(int)> &finished);

/**
 * The inventory's host named `name`; without it, says why on stderr (an unreadable inventory:
 * `exitCode` 1; no such host: 2) and returns nullopt.
 */
std::optional<fleet::HostEntry> findHost(CliContext &context, const QString &name, int *exitCode);

int runOnHost(const fleet::HostEntry &host, CliContext &context,
              const std::function<void(fleet::HostSession &, std::function<void(int)> done)> &work);

} // namespace flashdeck::cli
