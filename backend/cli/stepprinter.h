#pragma once

#include "backend/recipe/step.h"

namespace flashdeck::cli {

struct CliContext;

/**
 * How `deploy` and `upgrade` print a plan step: with --json the step object (plus "host" when
 * given: a rolling upgrade interleaves hosts), else one line per outcome with its fix.
 */
void printStep(CliContext &context, const recipe::StepRecord &record, bool json, const QString &host = {});
/** The {"progress": …} line of --json (nothing without it: the human form has no bar). */
void printProgress(CliContext &context, const recipe::StepProgress &progress, bool json, const QString &host = {});

} // namespace flashdeck::cli
