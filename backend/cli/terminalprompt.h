#pragma once

#include <QString>

#include <optional>

namespace flashdeck::cli {

/**
 * Asks on the controlling terminal (/dev/tty), never echoing secrets. Without a terminal
 * (scripts, CI) there is nobody to ask: returns nullopt at once, and the caller says so.
 */
std::optional<QString> promptTerminal(const QString &prompt, bool echo);

} // namespace flashdeck::cli
