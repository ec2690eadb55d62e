#include "backend/core/hosttext.h"
#include "backend/core/shellquote.h"
#include "backend/deploy/checks.h"
#include "backend/deploy/deployhelpers.h"
#include "backend/deploy/deployrunner.h"
#include "backend/deploy/journal.h"
#include "backend/deploy/readyprogress.h"
#include "backend/deploy/weightsfolder.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/dockerendpoint.h"
#include "backend/docker/logframes.h"
#include "backend/docker/pullprogress.h"
#include "backend/probe/amdsmi.h"
#include "backend/probe/hostfacts.h"
#include "backend/probe/nvidiasmi.h"
#include "backend/recipe/profilechoice.h"
#include "backend/security/redactor.h"
#include "backend/ssh/commandreply.h"
#include "backend/ssh/transport.h"
#include "backend/ssh/tunnelreply.h"

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace flashdeck::deploy {

// The pre-flight steps: what the host must have before anything is pulled or started.

using namespace helpers;
using nlohmann::json;

namespace {
// The GPUs' names on ROCm: `amd-smi metric` has none. `--asic` keeps the answer to the one
// section that holds them (the whole of `static` reads every board's RAS and cache tables).
constexpr const char *kAmdSmiNames = "amd-smi static --asic --json";
constexpr const char *kRocmSmiNames = "rocm-smi --showproductname --json";
} // namespace

void DeployRunner::preflightSsh()
{
    begin({}, {});
    recipe::StepRecord r = m_current;
    r.status = recipe::StepStatus::Pass;
    r.expected = QCoreApplication::translate("Deploy", "an authenticated session with a verified host key");
    r.seen = QCoreApplication::translate("Deploy", "connected");
    finish(r);
}

void DeployRunner::failOrOtherVendor(const QString &seen, const QString &fix)
{
    // The profile's GPU tool did not answer. If the other vendor's does, the host is not what the
    // profile is for: say that (never "install the NVIDIA driver" on an AMD host).
    const bool nvidia = m_profile.vendor == probe::GpuVendor::Nvidia;
    runCommand(
        nvidia ? kAmdSmiNames : "nvidia-smi -L",
        [this, nvidia, seen, fix](const ssh::CommandResult &other) {
            qsizetype count = 0;
            QString what;
            if (other.succeeded() && nvidia) {
                const auto named = probe::parseAmdSmiStatic(other.stdoutData);
                QStringList names = named ? named.value().values() : QStringList();
                count = names.size();
                names.removeAll(QString());
                names.removeDuplicates();
                // "8 × AMD Instinct MI355X", as amd-smi static names them (metric names none).
                what = QStringLiteral("%1 × %2").arg(count).arg(names.isEmpty() ? QStringLiteral("AMD GPU")
                                                                                : names.join(QStringLiteral(", ")));
            } else if (other.succeeded()) {
                QStringList names; // "GPU 0: NVIDIA B300 SXM6 AC (UUID: …)"
                for (const QByteArray &line : other.stdoutData.split('\n')) {
                    if (line.startsWith("GPU ") && line.contains(": ")) {
                        names.append(hostText(line.mid(line.indexOf(": ") + 2).split('(').first().trimmed(), 80));
                    }
                }
                count = names.size();
                what = count ? QStringLiteral("%1 × %2 (nvidia-smi)").arg(count).arg(names.first()) : QString();
            }
            if (count == 0) {
                fail(seen, fix);
                return;
            }
            QStringList fitting;
            for (const recipe::RecipeProfile &p : m_recipe.profiles) {
                if (p.vendor != m_profile.vendor && !p.generatorOnly() && p.gpuCount <= count) {
                    fitting.append(p.id);
                }
            }
            recipe::StepRecord r = m_current;
            r.status = recipe::StepStatus::Fail;
            r.expected = QStringLiteral("%1 × %2").arg(m_profile.gpuCount).arg(m_profile.gpuModel);
            r.seen = QCoreApplication::translate("Deploy", "the profile needs %1 × %2; the host has %3")
                         .arg(m_profile.gpuCount)
                         .arg(m_profile.gpuModel, what);
            r.fix = fitting.isEmpty()
                ? QCoreApplication::translate("Deploy",
                                              "Choose a profile for this host's GPUs (flashdeck recipes list).")
                : QCoreApplication::translate("Deploy",
                                              "Choose a profile for this host's GPUs: %1 (flashdeck recipes list).")
                      .arg(fitting.join(QStringLiteral(", ")));
            finish(r);
        },
        m_options.gpuProbeTimeoutMs);
}

void DeployRunner::preflightGpus()
{
    const bool nvidia = m_profile.vendor == probe::GpuVendor::Nvidia;
    const QByteArray cmd = nvidia ? "nvidia-smi -q -x" : kAmdSmiNames;
    begin({}, QString::fromLatin1(cmd));
    runCommand(
        cmd, [this](const ssh::CommandResult &res) { gpusRead(res); }, m_options.gpuProbeTimeoutMs);
}

void DeployRunner::gpusRead(const ssh::CommandResult &res)
{
    const bool nvidia = m_profile.vendor == probe::GpuVendor::Nvidia;
    const bool rocm = m_current.command == QLatin1String(kRocmSmiNames);
    if (!nvidia && !rocm && res.exitCode == 127) {
        // No amd-smi on the host: rocm-smi (deprecated, still common) names the cards too.
        m_current.command = QString::fromLatin1(kRocmSmiNames);
        runCommand(
            kRocmSmiNames, [this](const ssh::CommandResult &r) { gpusRead(r); }, m_options.gpuProbeTimeoutMs);
        return;
    }
    if (!res.succeeded()) {
        failOrOtherVendor(QStringLiteral("%1 failed: %2").arg(m_current.command, commandProblem(res)),
                          nvidia ? QCoreApplication::translate(
                                       "Deploy", "Install the NVIDIA driver on the host (nvidia-smi must work).")
                                 : QCoreApplication::translate("Deploy", "Install ROCm's amd-smi on the host."));
        return;
    }
    QStringList names;
    if (nvidia) {
        const auto d = probe::parseNvidiaSmiXml(res.stdoutData);
        if (!d || d.value().gpus.isEmpty()) {
            failOrOtherVendor(d ? QStringLiteral("nvidia-smi lists no GPU") : d.message(),
                              QCoreApplication::translate("Deploy", "Check the NVIDIA driver installation."));
            return;
        }
        m_gpuArchitectures.clear();
        for (const probe::NvidiaGpu &g : d.value().gpus) {
            names.append(g.name);
            m_gpuArchitectures.append(g.architecture); // check.qmul4 applies to Blackwell alone
        }
    } else {
        const auto named = rocm ? probe::parseRocmSmiNames(res.stdoutData) : probe::parseAmdSmiStatic(res.stdoutData);
        if (!named) {
            fail(named.message(), QCoreApplication::translate("Deploy", "Check the ROCm installation."));
            return;
        }
        QList<int> indexes = named.value().keys();
        std::sort(indexes.begin(), indexes.end());
        for (const int i : indexes) {
            // A GPU the tool cannot name ("N/A") proves its count only, as before names were read.
            const QString name = named.value().value(i);
            names.append(name.isEmpty() ? m_profile.gpuModel : name);
        }
    }
    m_gpuNames = names;
    recipe::StepRecord r = checks::gpus(m_profile, names);
    r.command = m_current.command;
    if (r.status == recipe::StepStatus::Pass) {
        if (const QString laid = layOverHost(names); !laid.isEmpty()) {
            r.seen += QStringLiteral("; ") + laid;
        }
    }
    finish(r);
}

QString DeployRunner::layOverHost(const QStringList &names)
{
    // The node's GPUs of the profile's model, counted from 0 as nvidia-smi numbers them: an
    // 8-GPU B300 node runs two TP 4 services behind the Router, not one on GPUs 0-3 beside four
    // idle ones. The operator's own --gpus and a generator's command (its own TP × DP) keep theirs.
    if (m_options.gpusChosen || m_options.imported || m_profile.vendor != probe::GpuVendor::Nvidia) {
        return {};
    }
    int ofModel = 0;
    while (ofModel < names.size() && names.at(ofModel).contains(m_profile.gpuModel, Qt::CaseInsensitive)) {
        ++ofModel;
    }
    const int services = recipe::ProfileChoice::servicesOn(m_profile, ofModel);
    if (services < 2) {
        return {};
    }
    QList<int> gpus;
    for (int g = 0; g < services * m_profile.tp; ++g) {
        gpus.append(g);
    }
    // The operator's --port is the entry point's, the Router's; the services keep the recipe's.
    const recipe::RecipeProfile *listed = m_recipe.profile(m_profile.id);
    const quint16 given = m_profile.replicas.first().port;
    const quint16 recipePort = listed && !listed->replicas.isEmpty() ? listed->replicas.first().port : given;
    recipe::RecipeProfile base = m_profile;
    base.replicas.first().port = recipePort;
    m_profile = recipe::ProfileChoice::overGpus(base, gpus, given != recipePort ? given : 0);
    QStringList parts;
    for (const recipe::RecipeReplica &replica : m_profile.replicas) {
        parts.append(QCoreApplication::translate("Deploy", "GPUs %1-%2 on port %3")
                         .arg(replica.gpus.first())
                         .arg(replica.gpus.last())
                         .arg(replica.port));
    }
    return QCoreApplication::translate("Deploy",
                                       "%n services of TP %1 (%2) behind the SGLang Router on port %3 (--policy %4)",
                                       nullptr, int(m_profile.replicas.size()))
        .arg(m_profile.tp)
        .arg(parts.join(QStringLiteral(", ")))
        .arg(m_profile.routerPort)
        .arg(m_profile.routerPolicy);
}

void DeployRunner::preflightDriver()
{
    if (m_profile.vendor != probe::GpuVendor::Nvidia) {
        skip(QCoreApplication::translate("Deploy", "ROCm host: no CUDA driver to check"));
        return;
    }
    begin({}, QStringLiteral("nvidia-smi -q -x"));
    runCommand(
        "nvidia-smi -q -x",
        [this](const ssh::CommandResult &res) {
            const auto d = probe::parseNvidiaSmiXml(res.stdoutData);
            if (!d) {
                fail(d.message(), QCoreApplication::translate("Deploy", "Check the NVIDIA driver installation."));
                return;
            }
            recipe::StepRecord r = checks::driver(m_recipe, d.value());
            r.command = m_current.command;
            finish(r);
        },
        m_options.gpuProbeTimeoutMs);
}

void DeployRunner::preflightDocker()
{
    begin({}, QStringLiteral("docker system dial-stdio; GET /_ping, /info"));
    m_current.expected =
        QCoreApplication::translate("Deploy", "the Engine API answers through docker system dial-stdio");
    // The host's one Docker endpoint: its tunnel and call connection are shared with the
    // monitor, the log and the API key (one dial-stdio for every call of this process).
    docker::DockerEndpoint &endpoint = docker::DockerEndpoint::of(m_conn);
    m_docker = std::make_unique<docker::DockerClient>(endpoint); // keeps the tunnel open for the run
    endpoint.whenOpen(
        this,
        [this] {
            m_docker->ping([this](const docker::DockerResponse &pong) {
                if (!pong.ok() && !pong.transportError.isEmpty()) {
                    diagnoseDockerTunnel(pong.message());
                    return;
                }
                if (!pong.ok()) {
                    fail(dockerSaid(pong),
                         QCoreApplication::translate("Deploy",
                                                     "Start Docker on the host (systemctl start docker) and check "
                                                     "that this user may use it."));
                    return;
                }
                m_docker->call("GET", QStringLiteral("/info"), {}, [this](const docker::DockerResponse &info) {
                    const json j = info.json();
                    const bool nvidiaRuntime = j.is_object() && j.value("Runtimes", json::object()).contains("nvidia");
                    recipe::StepRecord r = m_current;
                    r.expected = m_profile.vendor == probe::GpuVendor::Nvidia
                        ? QCoreApplication::translate("Deploy", "Docker with the nvidia runtime")
                        : QStringLiteral("Docker");
                    r.seen =
                        QCoreApplication::translate("Deploy", "Docker %1, API %2%3")
                            .arg(str(j, "ServerVersion"), m_docker->apiPrefix().mid(2),
                                 nvidiaRuntime ? QCoreApplication::translate("Deploy", ", nvidia runtime") : QString());
                    if (m_profile.vendor == probe::GpuVendor::Nvidia && !nvidiaRuntime) {
                        r.status = recipe::StepStatus::Fail;
                        r.fix = QCoreApplication::translate(
                            "Deploy", "Install the NVIDIA Container Toolkit on the host and restart Docker.");
                    } else {
                        r.status = recipe::StepStatus::Pass;
                    }
                    finish(r);
                });
            });
        },
        [this](const QString &message) {
            fail(message,
                 QCoreApplication::translate(
                     "Deploy", "Install Docker Engine on the host and let this user run it (docker group)."));
        });
}

void DeployRunner::diagnoseDockerTunnel(const QString &tunnelError)
{
    // The tunnel only shows a closed connection; what `docker system dial-stdio` printed on its
    // stderr says why. Run it once more with nothing to send, and quote it.
    runCommand(
        "docker system dial-stdio </dev/null",
        [this, tunnelError](const ssh::CommandResult &r) {
            const QString printed = hostText(r.stderrData, 600).trimmed();
            if (printed.isEmpty()) {
                fail(tunnelError,
                     QCoreApplication::translate("Deploy",
                                                 "Start Docker on the host (systemctl start docker) and check "
                                                 "that this user may use it."));
                return;
            }
            const QString seen = QStringLiteral("docker system dial-stdio printed: %1 (exit %2)")
                                     .arg(printed, r.exitCode ? QString::number(*r.exitCode) : r.exitSignal);
            QString fix;
            if (printed.contains(QLatin1String("permission denied"))) {
                // Debian's docker.io: /var/run/docker.sock is root:docker, mode 0660.
                fix = QCoreApplication::translate(
                          "Deploy",
                          "The user %1 may not use Docker's socket on the host. Add the user to the docker group "
                          "(sudo usermod -aG docker %1), log in again so the group applies, then run "
                          "again with --resume.")
                          .arg(m_conn.target().user);
            } else if (printed.contains(QLatin1String("Is the docker daemon running"))) {
                fix = QCoreApplication::translate(
                    "Deploy",
                    "Docker is installed but its daemon is not running: start it on the host "
                    "(sudo systemctl start docker), then run again with --resume.");
            } else if (r.exitCode && *r.exitCode == 127) {
                fix = QCoreApplication::translate(
                    "Deploy",
                    "Docker is not installed on the host: install Docker Engine (Debian: sudo apt-get "
                    "install docker.io), then run again with --resume.");
            } else {
                fix = QCoreApplication::translate("Deploy",
                                                  "Fix what Docker reports on the host, then run again with --resume.");
            }
            fail(seen, fix,
                 QCoreApplication::translate("Deploy", "the Engine API answers through docker system dial-stdio"));
        },
        30000);
}

void DeployRunner::preflightDisk()
{
    const QByteArray cmd = "mkdir -p ~/.cache/huggingface ~/.cache/minfer && printf '%s\\n' \"$HOME\" && df -B1 "
                           "--output=avail,target ~/.cache/huggingface";
    begin({}, QString::fromUtf8(cmd));
    runCommand(cmd, [this](const ssh::CommandResult &res) {
        const qsizetype nl = res.stdoutData.indexOf('\n');
        m_hostHome = QString::fromUtf8(res.stdoutData.left(nl)).trimmed();
        const auto free = probe::parseDf(res.stdoutData.mid(nl + 1));
        if (!res.succeeded() || !free) {
            fail(!res.succeeded() ? commandProblem(res) : free.message(),
                 QCoreApplication::translate("Deploy", "Check that the home directory on the host is writable."));
            return;
        }
        recipe::StepRecord r = checks::disk(m_recipe, free.value(),
                                            m_options.modelSource != QLatin1String("hub") || m_options.weightsOnHost);
        r.command = m_current.command;
        finish(r);
    });
}

void DeployRunner::preflightPort()
{
    begin({}, QStringLiteral("ss -Hltn"));
    const QString filter =
        QStringLiteral(R"({"label":["io.flashdeck.deployment=%1"],"status":["running"]})").arg(m_options.deploymentId);
    m_docker->call("GET", QStringLiteral("/containers/json?filters=") + docker::DockerClient::q(filter), {},
                   [this](const docker::DockerResponse &ours) {
                       const bool running = ours.ok() && ours.json().is_array() && !ours.json().empty();
                       runCommand("ss -Hltn", [this, running](const ssh::CommandResult &res) {
                           recipe::StepRecord r = checks::ports(m_profile, probe::parseSsListening(res.stdoutData));
                           r.command = m_current.command;
                           if (r.status == recipe::StepStatus::Fail && running) {
                               r.status = recipe::StepStatus::Pass; // our own server from an earlier run holds them
                               r.seen =
                                   QCoreApplication::translate("Deploy", "in use by this deployment's running server");
                               r.fix.clear(); // nothing to do (a unit test found the failure's advice left on)
                           }
                           finish(r);
                       });
                   });
}

void DeployRunner::preflightMemory()
{
    if (m_options.hicacheGbPerRank <= 0) {
        skip(QCoreApplication::translate("Deploy", "HiCache is off in this deployment"));
        return;
    }
    begin({}, QStringLiteral("cat /proc/meminfo"));
    runCommand("cat /proc/meminfo", [this](const ssh::CommandResult &res) {
        const auto memory = probe::parseMeminfo(res.stdoutData);
        if (!memory) {
            fail(memory.message(),
                 QCoreApplication::translate("Deploy", "Check that /proc/meminfo is readable on the host."));
            return;
        }
        recipe::StepRecord r = checks::hostMemory(m_profile, m_options.hicacheGbPerRank, memory.value());
        r.command = m_current.command;
        finish(r);
    });
}

} // namespace flashdeck::deploy
