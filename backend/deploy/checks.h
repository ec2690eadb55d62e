#pragma once

#include "backend/deploy/startlog.h"
#include "backend/deploy/startlogchecks.h" // the start log's checks, for every caller of these
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
/**
 * Why check.qmul4 does not apply to these GPUs; empty when it does. qmul4 is a Blackwell CUDA
 * kernel (its line comes from the SM100 build), so neither a ROCm host nor an NVIDIA GPU of an
 * earlier architecture (Hopper: H100, H200) prints it: the check is skipped with the reason.
 * `architectures`: nvidia-smi's product_architecture of each GPU (pre-flight), else the names.
 */
QString qmul4NotApplicable(const recipe::RecipeProfile &profile, const QStringList &gpuNames,
                           const QStringList &architectures);

/** A check's record: its id and why. Its title is the plan's, which the runner gives every record. */
recipe::StepRecord record(const char *step, const QString &why);

} // namespace checks
} // namespace flashdeck::deploy
