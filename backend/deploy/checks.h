#pragma once

#include "backend/deploy/startlog.h"
#include "backend/probe/amdsmi.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/step.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QStringList>

#include <optional>

namespace flashdeck {

namespace logs {
class LogRules;
} // namespace logs
namespace probe {
struct NvidiaDriver;
struct GpuSample;
struct DiskFree;
struct ListeningSocket;
struct HostMemory;
} // namespace probe
namespace recipe {
struct Recipe;
struct RecipeProfile;
} // namespace recipe

} // namespace flashdeck

namespace flashdeck::deploy {

/**
 * The judgements of the plan, as pure functions of what the host answered, so each one is
 * tested on its own. Each returns the finished record (status, expected, seen, fix, why);
 * the runner fills in the command and the time.
 */
namespace checks {

recipe::StepRecord gpus(const recipe::RecipeProfile &profile, const QStringList &gpuNames);
recipe::StepRecord driver(const recipe::Recipe &recipe, const probe::NvidiaDriver &driver);
/**
 * Each GPU of the profile has the memory the server takes at start: its --mem-fraction-static
 * of the whole card (SGLang sizes weights and KV pool from it and stops with "Not enough memory"
 * after loading the weights when another process holds too much: forty minutes on a real first
 * start). `owners` maps a host pid to the Flashdeck deployment whose container runs it; the
 * memory of `deploymentId`'s own processes counts as free (a rerun reuses its server). Names
 * every process in the way, with its GPU and memory, and tells Flashdeck's own apart.
 * `unplaced`: processes whose GPUs the tool does not say (rocm-smi --showpids), named beside a
 * GPU that is short and lists none of its own. `ownGpus`: the GPUs this deployment's running
 * server was given (-1: all); where the tool lists no process for their memory (inside a
 * container, some VMs), that memory is the server's own, which a rerun reuses.
 */
recipe::StepRecord gpuMemory(const recipe::RecipeProfile &profile, const probe::NvidiaDriver &driver,
                             const QHash<qint64, QString> &owners, const QString &deploymentId, const QString &host,
                             const QList<probe::RocmSmiProcess> &unplaced = {}, const QSet<int> &ownGpus = {});
/** F13; `weightsOnHost`: an offline folder holds them (F27), only the image needs room. */
recipe::StepRecord disk(const recipe::Recipe &recipe, const probe::DiskFree &free, bool weightsOnHost = false);
recipe::StepRecord ports(const recipe::RecipeProfile &profile, const QList<probe::ListeningSocket> &listening);
/** F36: host memory for HiCache: --hicache-size counts per rank, for every rank of every service. */
recipe::StepRecord hostMemory(const recipe::RecipeProfile &profile, int hicacheGbPerRank,
                              const probe::HostMemory &memory);
// The log checks read lines through the log rules (resources/logrules/log-rules.json): which line
// says what is known there alone, as the Logs page's highlights know it (issue 22). The overloads
// without rules use the built-in ones.

/**
 * Why check.qmul4 does not apply to these GPUs; empty when it does. qmul4 is a Blackwell CUDA
 * kernel (its line comes from the SM100 build), so neither a ROCm host nor an NVIDIA GPU of an
 * earlier architecture (Hopper: H100, H200) prints it: the check is skipped with the reason.
 * `architectures`: nvidia-smi's product_architecture of each GPU (pre-flight), else the names.
 */
QString qmul4NotApplicable(const recipe::RecipeProfile &profile, const QStringList &gpuNames,
                           const QStringList &architectures);
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

} // namespace checks
} // namespace flashdeck::deploy
