// DeployRunner: preflight.gpumemory, the GPUs' free memory against what the server takes
// (issue 20: another job on the GPUs showed only as SGLang's "Not enough memory", forty minutes
// into a real first start).

#include "backend/core/jsonread.h"
#include "backend/deploy/checks.h"
#include "backend/deploy/deployrunner.h"
#include "backend/deploy/weightsfit.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/ourcontainers.h"
#include "backend/probe/amdsmi.h"
#include "backend/probe/nvidiasmi.h"
#include "backend/ssh/sshtypes.h"

#include <QCoreApplication>
#include <QSet>

#include <nlohmann/json.hpp>

#include <memory>

namespace flashdeck::deploy {

using nlohmann::json;

namespace {

/** The host's process table (`ps -eo pid=,ppid=`): each pid's parent. */
QHash<qint64, qint64> parentsOf(const QByteArray &ps)
{
    QHash<qint64, qint64> parent;
    for (const QByteArray &line : ps.split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() == 2) {
            parent.insert(f.at(0).toLongLong(), f.at(1).toLongLong());
        }
    }
    return parent;
}

/** The main process of a container, from `GET /containers/{id}/json`'s `State.Pid`; 0 when absent.
 *  (A plain function: GCC 12 at -O3 read the inlined `cond ? find() : end()` as a possible null
 *  dereference and failed the fortified build.) */
qint64 containerPid(const json &inspect)
{
    if (!inspect.is_object()) {
        return 0;
    }
    const auto state = inspect.find("State");
    if (state == inspect.end()) {
        return 0;
    }
    return jsonread::integer(*state, "Pid", 1, 1LL << 31).value_or(0);
}

/**
 * The GPUs a container was given (`HostConfig.DeviceRequests[].DeviceIDs`, as `--gpus
 * '"device=0,1"'` and our create body set them); "all" or none: every GPU of the host (-1).
 */
QList<int> containerGpus(const json &inspect)
{
    QList<int> gpus;
    if (!inspect.is_object()) {
        return gpus;
    }
    const auto hostConfig = inspect.find("HostConfig");
    if (hostConfig == inspect.end() || !hostConfig->is_object()) {
        return gpus;
    }
    const auto requests = hostConfig->find("DeviceRequests");
    if (requests == hostConfig->end() || !requests->is_array()) {
        return gpus;
    }
    for (const json &request : *requests) {
        const auto ids = request.is_object() ? request.find("DeviceIDs") : request.end();
        if (!request.is_object() || ids == request.end() || !ids->is_array()) {
            if (request.is_object() && jsonread::integer(request, "Count", -1, 1024).value_or(0) == -1) {
                gpus.append(-1); // --gpus all
            }
            continue;
        }
        for (const json &id : *ids) {
            bool ok = false;
            const int index = id.is_string() ? QString::fromStdString(id.get<std::string>()).toInt(&ok) : -1;
            if (ok && index >= 0) {
                gpus.append(index);
            }
        }
    }
    return gpus;
}

/** ROCm's answers in the shape the judgement reads: each GPU's memory and its processes. */
probe::NvidiaDriver amdGpus(const QList<probe::GpuSample> &samples, const QHash<int, QList<probe::GpuProcess>> &held)
{
    probe::NvidiaDriver d;
    for (const probe::GpuSample &s : samples) {
        probe::NvidiaGpu g;
        g.index = s.index;
        g.memoryTotalMiB = s.memoryTotalMiB.value_or(0);
        g.memoryUsedMiB = s.memoryUsedMiB.value_or(0);
        g.processes = held.value(s.index);
        d.gpus.append(g);
    }
    return d;
}

} // namespace

void DeployRunner::preflightGpuMemory()
{
    const bool nvidia = m_profile.vendor == probe::GpuVendor::Nvidia;
    begin({},
          nvidia
              ? QStringLiteral("nvidia-smi -q -x; docker ps --filter label=io.flashdeck.deployment; ps -eo pid=,ppid=")
              : QStringLiteral("amd-smi metric --json; amd-smi process --json; docker ps --filter "
                               "label=io.flashdeck.deployment; ps -eo pid=,ppid="));
    m_current.expected = QCoreApplication::translate("Deploy", "%1 % of each GPU of the profile free")
                             .arg(qRound(m_profile.memFractionStatic * 100));
    if (!nvidia) {
        readAmdGpuMemory();
        return;
    }
    runCommand(
        "nvidia-smi -q -x",
        [this](const ssh::CommandResult &smi) {
            const auto driver = probe::parseNvidiaSmiXml(smi.stdoutData);
            if (!driver) {
                fail(driver.message(), QCoreApplication::translate("Deploy", "Check the NVIDIA driver installation."));
                return;
            }
            judgeGpuMemory(driver.value(), {});
        },
        30000); // as the other GPU probes: a hung nvidia-smi fails the step, it does not hold the plan
}

void DeployRunner::readAmdGpuMemory()
{
    // amd-smi: the memory (metric) and who holds it (process), each GPU by its index. Where
    // amd-smi is missing, rocm-smi's one answer has both, but its processes say how many GPUs
    // they use, not which.
    runCommand(
        "amd-smi metric --json",
        [this](const ssh::CommandResult &metric) {
            const bool missing = metric.exitCode == 127;
            if (missing) {
                m_current.command = QStringLiteral(
                    "rocm-smi --showmeminfo vram --showpids --json; docker ps --filter label=io.flashdeck.deployment; "
                    "ps -eo pid=,ppid=");
                runCommand(
                    "rocm-smi --showmeminfo vram --showpids --json",
                    [this](const ssh::CommandResult &rocm) {
                        const auto samples = probe::parseRocmSmi(rocm.stdoutData);
                        if (!rocm.succeeded() || !samples) {
                            fail(!rocm.succeeded() ? commandProblem(rocm) : samples.message(),
                                 QCoreApplication::translate("Deploy", "Check the ROCm installation."));
                            return;
                        }
                        judgeGpuMemory(amdGpus(samples.value(), {}), probe::parseRocmSmiPids(rocm.stdoutData));
                    },
                    30000);
                return;
            }
            const auto samples = probe::parseAmdSmiMetric(metric.stdoutData);
            if (!metric.succeeded() || !samples) {
                fail(!metric.succeeded() ? commandProblem(metric) : samples.message(),
                     QCoreApplication::translate("Deploy", "Check the ROCm installation."));
                return;
            }
            runCommand(
                "amd-smi process --json",
                [this, samples = samples.value()](const ssh::CommandResult &process) {
                    const auto held = probe::parseAmdSmiProcess(process.stdoutData);
                    if (!process.succeeded() || !held) {
                        fail(!process.succeeded() ? commandProblem(process) : held.message(),
                             QCoreApplication::translate("Deploy", "Check the ROCm installation."));
                        return;
                    }
                    judgeGpuMemory(amdGpus(samples, held.value()), {});
                },
                30000);
        },
        30000);
}

void DeployRunner::judgeGpuMemory(const probe::NvidiaDriver &gpus, const QList<probe::RocmSmiProcess> &unplaced)
{
    // Which of those processes run in Flashdeck's containers, and whose: the containers' main
    // pids (docker inspect), then every descendant (the host's process table).
    const QString filter = docker::OurContainers::filter(true);
    m_docker->call("GET", QStringLiteral("/containers/json?filters=") + docker::DockerClient::q(filter), {},
                   [this, gpus, unplaced](const docker::DockerResponse &list) {
                       const QList<docker::OurContainer> containers =
                           docker::OurContainers::parse(list.ok() ? list.json() : json::array());
                       auto mains = std::make_shared<QHash<qint64, QString>>(); // main pid → deployment
                       // The GPUs this deployment's running server was given: on a rerun the memory
                       // they hold is its own, even where nvidia-smi lists no process for it.
                       auto ownGpus = std::make_shared<QSet<int>>();
                       auto pending = std::make_shared<int>(int(containers.size()));
                       auto judge = [this, gpus, unplaced, mains, ownGpus] {
                           runCommand(
                               "ps -eo pid=,ppid=",
                               [this, gpus, unplaced, mains, ownGpus](const ssh::CommandResult &ps) {
                                   const QHash<qint64, qint64> parent = parentsOf(ps.stdoutData);
                                   QHash<qint64, QString> owners;
                                   auto own = [&](qint64 holder) {
                                       // Up the tree to a container's main process, if any.
                                       qint64 pid = holder;
                                       for (int depth = 0; pid > 1 && depth < 64; ++depth) {
                                           if (mains->contains(pid)) {
                                               owners.insert(holder, mains->value(pid));
                                               return;
                                           }
                                           pid = parent.value(pid, 0);
                                       }
                                   };
                                   for (const probe::NvidiaGpu &g : gpus.gpus) {
                                       for (const probe::GpuProcess &p : g.processes) {
                                           own(p.pid);
                                       }
                                   }
                                   for (const probe::RocmSmiProcess &p : unplaced) {
                                       own(p.process.pid);
                                   }
                                   QString host = m_options.deploymentId;
                                   if (host.endsWith(QLatin1Char('-') + m_profile.id)) {
                                       host.chop(m_profile.id.size() + 1);
                                   }
                                   recipe::StepRecord r = checks::gpuMemory(
                                       m_profile, gpus, owners, m_options.deploymentId, host, unplaced, *ownGpus);
                                   judgeWeightsFit(gpus, r);
                                   r.command = m_current.command;
                                   finish(r);
                               },
                               30000);
                       };
                       if (*pending == 0) {
                           judge();
                           return;
                       }
                       for (const docker::OurContainer &c : containers) {
                           m_docker->call("GET", QStringLiteral("/containers/%1/json").arg(c.id), {},
                                          [this, mains, ownGpus, pending, judge, deployment = c.deployment,
                                           running = c.running()](const docker::DockerResponse &inspect) {
                                              const json j = inspect.json();
                                              const qint64 pid = containerPid(j);
                                              if (pid > 0) {
                                                  mains->insert(pid, deployment);
                                              }
                                              if (running && deployment == m_options.deploymentId) {
                                                  for (const int g : containerGpus(j)) {
                                                      ownGpus->insert(g);
                                                  }
                                              }
                                              if (--*pending == 0) {
                                                  judge();
                                              }
                                          });
                       }
                   });
}

void DeployRunner::judgeWeightsFit(const probe::NvidiaDriver &gpus, recipe::StepRecord &r) const
{
    // Each service holds all the weights in its static memory: checked from the GPUs' totals
    // before the pull, so an impossible layout stops now, not after a 252 GB download.
    const checks::WeightsFit fit = checks::weightsFit(m_profile, gpus, m_recipe.weightsBytes);
    if (fit.words.isEmpty()) {
        return;
    }
    if (fit.fits) {
        r.seen += QStringLiteral("; ") + fit.words;
        return;
    }
    const bool wasFailing = r.status == recipe::StepStatus::Fail;
    r.status = recipe::StepStatus::Fail;
    r.seen = wasFailing ? fit.words + QStringLiteral("; ") + r.seen : fit.words;
    const QString more = QCoreApplication::translate(
        "Deploy",
        "Give each service more GPUs (generate the command for a larger TP × DP × PP and give it those GPUs), or "
        "deploy on GPUs with more memory.");
    r.fix = wasFailing && !r.fix.isEmpty() ? more + QLatin1Char(' ') + r.fix : more;
}

} // namespace flashdeck::deploy
