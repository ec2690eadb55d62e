#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck upgrade HOST… (--image-digest D | --model-revision R | --pins FILE) [--json]
 * [--resume] [--max-unavailable N]`: each host's deployment moved to the new pins, rolled back to
 * its old ones on any failure. Several hosts go N at a time (default 1) and no new one starts after
 * a rollback. With --json, the deploy step objects (with "host") plus {"phase": "upgrade"|"rollback"}
 * transitions and a final {"summary": [...]}. Exit 0 when every host was upgraded (or already ran
 * those pins), 1 otherwise, 3–6 as for SSH.
 */
int runUpgradeCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
