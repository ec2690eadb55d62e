#pragma once

#include "backend/recipe/step.h"

#include <QHash>
#include <QList>
#include <QStringList>

namespace flashdeck {
namespace logs {
class LogRules;
}

struct Recipe;
struct RecipeProfile;
namespace probe {
struct NvidiaDriver;
struct GpuSample;
struct DiskFree;
struct ListeningSocket;
struct HostMemory;
} // namespace probe

/**
 * The judgements of the plan, as pure functions of what the host answered, so each one is
 * tested on its own. Each returns the finished record (status, expected, seen, fix, why);
 * the runner fills in the command and the time.
 */
namespace checks {

StepRecord gpus(const RecipeProfile &profile, const QStringList &gpuNames);
StepRecord driver(const Recipe &recipe, const probe::NvidiaDriver &driver);
/**
 * Each GPU of the profile has the memory the server takes at start: its --mem-fraction-static
 * of the whole card (SGLang sizes weights and KV pool from it and stops with "Not enough memory"
 * after loading the weights when another process holds too much: forty minutes on a real first
 * start). `owners` maps a host pid to the Flashdeck deployment whose container runs it; the
 * memory of `deploymentId`'s own processes counts as free (a rerun reuses its server). Names
 * every process in the way, with its GPU and memory, and tells Flashdeck's own apart.
 */
StepRecord gpuMemory(const RecipeProfile &profile, const probe::NvidiaDriver &driver,
                     const QHash<qint64, QString> &owners, const QString &deploymentId, const QString &host);
/** F13; `weightsOnHost`: an offline folder holds them (F27), only the image needs room. */
StepRecord disk(const Recipe &recipe, const probe::DiskFree &free, bool weightsOnHost = false);
StepRecord ports(const RecipeProfile &profile, const QList<probe::ListeningSocket> &listening);
/** F36: host memory for HiCache: --hicache-size counts per rank, for every rank of every service. */
StepRecord hostMemory(const RecipeProfile &profile, int hicacheGbPerRank, const probe::HostMemory &memory);
// The log checks read lines through the log rules (resources/logrules/log-rules.json): which line
// says what is known there alone, as the Logs page's highlights know it (issue 22). The overloads
// without rules use the built-in ones.

/** F20: qmul4 pass, another backend warns loudly, no line at all is "unknown" with the way to check. */
StepRecord qmul4(const QStringList &logLines, const logs::LogRules &rules);
StepRecord qmul4(const QStringList &logLines);
/** F18: the seed's wording or the real variants (rule dspark-ok). */
StepRecord dspark(const QStringList &logLines, const logs::LogRules &rules);
StepRecord dspark(const QStringList &logLines);
/** F09/F10: the KV pool the log reports (rule kv-pool) against the profile's expectation (±15 %). */
StepRecord kvPool(const RecipeProfile &profile, const QStringList &logLines, const logs::LogRules &rules);
StepRecord kvPool(const RecipeProfile &profile, const QStringList &logLines);
/**
 * The launch's failure lines (the rules of severity "error") in `logLines`, with the rule's
 * meaning and fix; empty when none. `specificOnly`: ignore the generic crash lines (a traceback
 * names its cause a few lines later, so a log read while it streams must not stop at its first
 * line).
 */
StepRecord launchFailure(const QStringList &logLines, const logs::LogRules &rules, bool specificOnly = false);
StepRecord launchFailure(const QStringList &logLines, bool specificOnly = false);

} // namespace checks
} // namespace flashdeck
