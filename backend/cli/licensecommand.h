#pragma once

#include "backend/cli/hostscommand.h"

namespace flashdeck::cli {

/**
 * `flashdeck license [HOST] [--json]`: the licence summary an operator acknowledges (F40) —
 * the same text, uses and confirmations as the GUI's licence page, with its hash — and, for
 * HOST, the acknowledgement on record (who, when, which text) or that there is none. Exit 0;
 * 1 when HOST has no acknowledgement of the current text; 2 on usage errors.
 */
int runLicenseCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
