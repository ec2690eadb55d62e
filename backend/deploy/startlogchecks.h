#pragma once

#include "backend/deploy/startlog.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/step.h"

#include <QStringList>

#include <optional>

namespace flashdeck {

namespace logs {
class LogRules;
} // namespace logs
namespace recipe {
struct RecipeProfile;
} // namespace recipe

} // namespace flashdeck

/**
 * The checks of a start's log (check.qmul4, check.dspark, check.kvpool, and the launch's failure
 * lines), as pure functions of the lines, beside the host's checks in checks.h.
 */
namespace flashdeck::deploy::checks {

// The log checks read lines through the log rules (resources/logrules/log-rules.json): which line
// says what is known there alone, as the Logs page's highlights know it (issue 22). The overloads
// without rules use the built-in ones.

/** The `nvfp4_to_fp8 backend=…` line this start printed (its backend and the line); none when it printed none. */
std::optional<recipe::KernelVerdict> qmul4Printed(const StartLog &log);
std::optional<recipe::KernelVerdict> qmul4Printed(const QStringList &logLines, const logs::LogRules &rules);
/**
 * F20: qmul4 passes, another backend warns loudly. No line at all is no guess: what `earlier` (a
 * start of the same image digest and model revision) printed, and when (skipped for qmul4, a
 * warning for a fallback), else "not printed by this start" (unknown).
 */
recipe::StepRecord qmul4(const StartLog &log, const std::optional<recipe::KernelVerdict> &earlier = std::nullopt);
recipe::StepRecord qmul4(const QStringList &logLines, const logs::LogRules &rules,
                         const std::optional<recipe::KernelVerdict> &earlier = std::nullopt);
recipe::StepRecord qmul4(const QStringList &logLines,
                         const std::optional<recipe::KernelVerdict> &earlier = std::nullopt);
/** F18: the seed's wording or the real variants (rule dspark-ok). */
recipe::StepRecord dspark(const StartLog &log);
recipe::StepRecord dspark(const QStringList &logLines, const logs::LogRules &rules);
recipe::StepRecord dspark(const QStringList &logLines);
/** F09/F10: the KV pool the log reports (rule kv-pool) against the profile's expectation (±15 %). */
recipe::StepRecord kvPool(const recipe::RecipeProfile &profile, const StartLog &log);
recipe::StepRecord kvPool(const recipe::RecipeProfile &profile, const QStringList &logLines,
                          const logs::LogRules &rules);
recipe::StepRecord kvPool(const recipe::RecipeProfile &profile, const QStringList &logLines);
/**
 * The launch's failure lines (the rules of severity "error") in `logLines`, with the rule's
 * meaning and fix; empty when none. `specificOnly`: ignore the generic crash lines (a traceback
 * names its cause a few lines later, so a log read while it streams must not stop at its first
 * line).
 */
recipe::StepRecord launchFailure(const StartLog &log, bool specificOnly = false);
recipe::StepRecord launchFailure(const QStringList &logLines, const logs::LogRules &rules, bool specificOnly = false);
recipe::StepRecord launchFailure(const QStringList &logLines, bool specificOnly = false);

} // namespace flashdeck::deploy::checks
