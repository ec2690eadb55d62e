#pragma once

#include <QList>

namespace flashdeck {

/**
 * Every descendant of `root`, found through /proc. sshd's per-connection children call
 * setsid(), so a process-group kill would miss them.
 */
QList<qint64> processDescendants(qint64 root);

/** True while `pid` exists and is not a zombie (a zombie has already ended). */
bool processAlive(qint64 pid);

/**
 * Ends `pid` and everything below it: SIGTERM to the root, up to `graceMs` for it to go, then
 * SIGKILL to whatever is left. True when nothing of the tree is alive afterwards.
 */
[[nodiscard]] bool stopProcessTree(qint64 pid, int graceMs);

} // namespace flashdeck
