// DeployRunner: preflight.gpumemory, the GPUs' free memory against what the server takes
// (issue 20: another job on the GPUs showed only as SGLang's "Not enough memory", forty minutes
// into a real first start).

#include "backend/core/jsonread.h"
#include "backend/deploy/checks.h"
#include "backend/deploy/deployrunner.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/ourcontainers.h"
#include "backend/probe/nvidiasmi.h"
#include "backend/ssh/sshtypes.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

#include <memory>

namespace flashdeck {

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

} // namespace

void DeployRunner::preflightGpuMemory()
{
    const QString title = QCoreApplication::translate("Deploy", "The GPUs have room for the server");
    if (m_profile.vendor != probe::GpuVendor::Nvidia) {
        // amd-smi lists processes too, but not in a form this check reads yet: say so.
        skip("preflight.gpumemory", title,
             QCoreApplication::translate(
                 "Deploy", "ROCm host: the GPUs' processes are not read yet; check 'amd-smi process' yourself"));
        return;
    }
    begin("preflight.gpumemory", title, {},
          QStringLiteral("nvidia-smi -q -x; docker ps --filter label=io.flashdeck.deployment; ps -eo pid=,ppid="));
    m_current.expected = QCoreApplication::translate("Deploy", "%1 % of each GPU of the profile free")
                             .arg(qRound(m_profile.memFractionStatic * 100));
    runCommand(
        "nvidia-smi -q -x",
        [this](const ssh::CommandResult &smi) {
            const auto driver = probe::parseNvidiaSmiXml(smi.stdoutData);
            if (!driver) {
                fail(driver.message(), QCoreApplication::translate("Deploy", "Check the NVIDIA driver installation."));
                return;
            }
            // Which of those processes run in Flashdeck's containers, and whose: the containers'
            // main pids (docker inspect), then every descendant (the host's process table).
            const QString filter = docker::OurContainers::filter(true);
            m_docker->call("GET", QStringLiteral("/containers/json?filters=") + docker::DockerClient::q(filter), {},
                           [this, gpus = driver.value()](const docker::DockerResponse &list) {
                               const QList<docker::OurContainer> containers =
                                   docker::OurContainers::parse(list.ok() ? list.json() : json::array());
                               auto mains = std::make_shared<QHash<qint64, QString>>(); // main pid → deployment
                               auto pending = std::make_shared<int>(int(containers.size()));
                               auto judge = [this, gpus, mains] {
                                   runCommand(
                                       "ps -eo pid=,ppid=",
                                       [this, gpus, mains](const ssh::CommandResult &ps) {
                                           const QHash<qint64, qint64> parent = parentsOf(ps.stdoutData);
                                           QHash<qint64, QString> owners;
                                           for (const probe::NvidiaGpu &g : gpus.gpus) {
                                               for (const probe::GpuProcess &p : g.processes) {
                                                   // Up the tree to a container's main process, if any.
                                                   qint64 pid = p.pid;
                                                   for (int depth = 0; pid > 1 && depth < 64; ++depth) {
                                                       if (mains->contains(pid)) {
                                                           owners.insert(p.pid, mains->value(pid));
                                                           break;
                                                       }
                                                       pid = parent.value(pid, 0);
                                                   }
                                               }
                                           }
                                           QString host = m_options.deploymentId;
                                           if (host.endsWith(QLatin1Char('-') + m_profile.id)) {
                                               host.chop(m_profile.id.size() + 1);
                                           }
                                           StepRecord r =
                                               checks::gpuMemory(m_profile, gpus, owners, m_options.deploymentId, host);
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
                                                  [mains, pending, judge,
                                                   deployment = c.deployment](const docker::DockerResponse &inspect) {
                                                      const json j = inspect.json();
                                                      const auto state = j.is_object() ? j.find("State") : j.end();
                                                      const qint64 pid = j.is_object() && state != j.end()
                                                          ? jsonread::integer(*state, "Pid", 1, 1LL << 31).value_or(0)
                                                          : 0;
                                                      if (pid > 0) {
                                                          mains->insert(pid, deployment);
                                                      }
                                                      if (--*pending == 0) {
                                                          judge();
                                                      }
                                                  });
                               }
                           });
        },
        30000); // as the other GPU probes: a hung nvidia-smi fails the step, it does not hold the plan
}

} // namespace flashdeck
