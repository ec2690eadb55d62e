#include "backend/deploy/deployrunner.h"

#include "backend/core/hosttext.h"
#include "backend/deploy/checks.h"
#include "backend/deploy/journal.h"
#include "backend/deploy/readyprogress.h"
#include "backend/deploy/weightsfolder.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/logframes.h"
#include "backend/docker/pullprogress.h"
#include "backend/probe/amdsmi.h"
#include "backend/probe/hostfacts.h"
#include "backend/probe/nvidiasmi.h"
#include "backend/security/redactor.h"
#include "backend/ssh/commandreply.h"
#include "backend/ssh/shellquote.h"
#include "backend/ssh/transport.h"
#include "backend/ssh/tunnelreply.h"

#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QTimer>

#include <nlohmann/json.hpp>

namespace flashdeck {

namespace {

/** dockerd's own words for a failed call, attributed; a transport failure as it is. */
QString dockerSaid(const docker::DockerResponse &r)
{
    return r.transportError.isEmpty() ? QStringLiteral("dockerd: ") + r.message() : r.message();
}
/** nvidia-smi -q -x / amd-smi take seconds even on 8 GPUs; a tool that hangs or never stops
 * printing is stopped here with a clear step error instead of holding the deployment. */
constexpr int kGpuProbeTimeoutMs = 30000;
} // namespace

namespace {

using nlohmann::json;

QString str(const json &j, const char *key)
{
    return j.is_object() && j.contains(key) && j[key].is_string() ? QString::fromStdString(j[key].get<std::string>())
                                                                  : QString();
}

} // namespace

DeployRunner::DeployRunner(ssh::Transport &connection, const Recipe &recipe, const RecipeProfile &profile,
                           DeployOptions options, Journal &journal, Redactor &redactor, QObject *parent)
    : QObject(parent)
    , m_conn(connection)
    , m_recipe(recipe)
    , m_profile(profile)
    , m_options(std::move(options))
    , m_journal(journal)
    , m_redactor(redactor)
    , m_http(new QNetworkAccessManager(this))
{
    m_http->setProxy(QNetworkProxy::NoProxy);
    // Built in: it cannot be missing from a build, but if it were, the checks say "unknown".
    if (Result<logs::LogRules> rules = logs::LogRules::builtIn()) {
        m_logRules = std::move(rules).value();
    }
}

DeployRunner::~DeployRunner() = default;

const QList<DeployRunner::PlanStep> &DeployRunner::plan()
{
    // The plan, in order: each step's id (a contract: the CLI's --json, the journal and the
    // window use them) beside the code that runs it, so the two cannot drift apart.
    static const QList<PlanStep> steps{
        {"preflight.ssh", [](DeployRunner &r) { r.preflightSsh(); }},
        {"preflight.gpus", [](DeployRunner &r) { r.preflightGpus(); }},
        {"preflight.driver", [](DeployRunner &r) { r.preflightDriver(); }},
        {"preflight.docker", [](DeployRunner &r) { r.preflightDocker(); }},
        {"preflight.gpumemory", [](DeployRunner &r) { r.preflightGpuMemory(); }},
        {"preflight.disk", [](DeployRunner &r) { r.preflightDisk(); }},
        {"preflight.port", [](DeployRunner &r) { r.preflightPort(); }},
        {"preflight.memory", [](DeployRunner &r) { r.preflightMemory(); }},
        {"preflight.weights", [](DeployRunner &r) { r.preflightWeights(); }},
        {"license", [](DeployRunner &r) { r.license(); }},
        {"pin.image", [](DeployRunner &r) { r.pinImage(); }},
        {"pin.model", [](DeployRunner &r) { r.pinModel(); }},
        {"pull", [](DeployRunner &r) { r.pull(); }},
        {"verify.gpus", [](DeployRunner &r) { r.verifyGpus(); }},
        {"launch", [](DeployRunner &r) { r.launch(); }},
        {"ready", [](DeployRunner &r) { r.ready(); }},
        {"check.qmul4", [](DeployRunner &r) { r.checkLog("check.qmul4"); }},
        {"check.dspark", [](DeployRunner &r) { r.checkLog("check.dspark"); }},
        {"check.kvpool", [](DeployRunner &r) { r.checkLog("check.kvpool"); }},
        {"verify.text", [](DeployRunner &r) { r.verifyChat("verify.text"); }},
        {"verify.thinking", [](DeployRunner &r) { r.verifyChat("verify.thinking"); }},
        {"verify.image", [](DeployRunner &r) { r.verifyChat("verify.image"); }},
    };
    return steps;
}

QStringList DeployRunner::stepIds()
{
    QStringList ids;
    for (const PlanStep &step : plan()) {
        ids.append(QString::fromLatin1(step.id));
    }
    return ids;
}

void DeployRunner::start()
{
    if (!m_options.apiKey.isEmpty()) {
        m_redactor.addSecret(m_options.apiKey);
    }
    m_next = 0;
    advance();
}

void DeployRunner::cancel()
{
    if (m_done || m_cancelling) {
        return;
    }
    m_cancelling = true;
    m_cancelled = true;
    for (QTimer *t : {m_readyTimer, m_cacheTimer, m_stallTimer}) {
        if (t) {
            t->stop();
        }
    }
    for (QNetworkReply *reply : m_http->findChildren<QNetworkReply *>()) {
        reply->disconnect();
        reply->abort();
    }
    m_logStream = nullptr;
    if (!m_docker) {
        reportCancel(QStringLiteral("nothing: Flashdeck had not reached the host's Docker Engine yet"));
        return;
    }
    m_docker->abortAll();
    // A host that stops answering must not hold the cancel: say what we could not check.
    QTimer::singleShot(15000, this, [this] {
        reportCancel(QStringLiteral("unknown: the Docker Engine did not answer (check with docker ps --filter "
                                    "label=io.flashdeck.deployment=%1)")
                         .arg(m_options.deploymentId));
    });
    // The GPU check's throwaway container is ours and worth nothing: remove it. Servers stay.
    const QString check = QStringLiteral("flashdeck-%1-gpucheck").arg(m_options.deploymentId);
    m_docker->call(
        "DELETE", QStringLiteral("/containers/%1?force=1").arg(check), {}, [this](const docker::DockerResponse &) {
            const QString filter =
                QStringLiteral(R"({"label":["io.flashdeck.deployment=%1"]})").arg(m_options.deploymentId);
            m_docker->call("GET", QStringLiteral("/containers/json?all=1&filters=") + docker::DockerClient::q(filter),
                           {}, [this](const docker::DockerResponse &res) {
                               if (!res.ok() || !res.json().is_array()) {
                                   reportCancel(QStringLiteral("unknown: %1").arg(res.message()));
                                   return;
                               }
                               QStringList left;
                               for (const json &c : res.json()) {
                                   const json names = c.value("Names", json::array());
                                   const QString name = names.is_array() && !names.empty() && names[0].is_string()
                                       ? QString::fromStdString(names[0].get<std::string>()).mid(1) // "/name"
                                       : str(c, "Id").left(12);
                                   left.append(QStringLiteral("container %1 (%2)").arg(name, str(c, "State")));
                               }
                               reportCancel(left.isEmpty() ? QStringLiteral("no Flashdeck container")
                                                           : left.join(QStringLiteral(", ")));
                           });
        });
}

void DeployRunner::reportCancel(const QString &left)
{
    if (m_done) {
        return;
    }
    m_done = true;
    StepRecord r = m_current;
    r.status = StepStatus::Fail;
    r.at = QDateTime::currentDateTimeUtc();
    QString seen = QStringLiteral("cancelled by the operator during this step. Left on the host: %1.").arg(left);
    if (r.step == QLatin1String("pull")) {
        seen += QStringLiteral(" The pull was stopped; the layers already unpacked stay in Docker's store and are "
                               "reused.");
    }
    r.seen = seen;
    r.fix = QStringLiteral("Resume on the Deploy page, or run the same deploy command with --resume, to continue "
                           "from here; 'flashdeck undeploy' removes Flashdeck's containers (and nothing else).");
    if (r.step.isEmpty()) {
        r.step = QStringLiteral("preflight.ssh");
        r.title = QStringLiteral("SSH connection");
    }
    (void)m_journal.append(r); // best effort: we are stopping either way
    Q_EMIT stepChanged(r);
    Q_EMIT finished(false);
}

void DeployRunner::advance()
{
    if (m_done || m_cancelling) {
        return;
    }
    if (m_cancelled || m_next >= plan().size()) {
        m_done = true;
        Q_EMIT finished(!m_cancelled);
        return;
    }
    const PlanStep &next = plan().at(m_next++);
    QTimer::singleShot(0, this, [this, run = next.run] { run(*this); }); // a fresh stack for every step
}

void DeployRunner::begin(const char *step, const QString &title, const QString &why, const QString &command)
{
    // Each step begins under its own id, the one the plan gives it.
    Q_ASSERT(m_next > 0 && qstrcmp(step, plan().at(m_next - 1).id) == 0);
    m_current = StepRecord{};
    m_current.step = QString::fromLatin1(step);
    m_current.title = title;
    m_current.why = why;
    m_current.command = command;
    m_current.status = StepStatus::Running;
    m_current.at = QDateTime::currentDateTimeUtc();
    if (const Status s = m_journal.append(m_current); !s) {
        m_cancelled = true; // no journal, no deployment: we could not resume or explain it
        fail(s.message(), QStringLiteral("Free disk space on this machine, then run again with --resume."));
        return;
    }
    Q_EMIT stepChanged(m_current);
}

void DeployRunner::finish(StepRecord r)
{
    if (m_cancelling) {
        return; // an outcome that arrived after the cancel: reportCancel records the step
    }
    if (m_done) {
        // The deployment already ended (begin() could not write the journal and failed the
        // step): the step's own work may still report, but must not turn that failure into a
        // pass or carry on (issue 9: a full disk).
        return;
    }
    if (r.step.isEmpty()) {
        r.step = m_current.step;
    }
    if (r.title.isEmpty()) {
        r.title = m_current.title;
    }
    if (r.why.isEmpty()) {
        r.why = m_current.why;
    }
    if (r.command.isEmpty()) {
        r.command = m_current.command;
    }
    for (QString *field : {&r.command, &r.seen, &r.expected, &r.fix}) {
        *field = m_redactor.redact(*field);
    }
    r.at = QDateTime::currentDateTimeUtc();
    m_current = r;
    // A failure to write here shows at the next step's begin(), which stops the deployment; the
    // last step's is reported with the manifest.
    (void)m_journal.append(r);
    Q_EMIT stepChanged(r);
    if (stepLetsPlanContinue(r.status)) {
        advance();
    } else if (!m_done) {
        m_done = true;
        Q_EMIT finished(false);
    }
}

void DeployRunner::fail(const QString &seen, const QString &fix, const QString &expected)
{
    StepRecord r = m_current;
    r.status = StepStatus::Fail;
    r.seen = seen;
    r.fix = fix;
    if (!expected.isEmpty()) {
        r.expected = expected;
    }
    finish(r);
}

void DeployRunner::skip(const char *step, const QString &title, const QString &reason)
{
    begin(step, title, {}, {});
    StepRecord r = m_current;
    r.status = StepStatus::Skipped;
    r.seen = reason;
    finish(r);
}

void DeployRunner::runCommand(const QByteArray &commandLine, std::function<void(const ssh::CommandResult &)> done,
                              int timeoutMs)
{
    ssh::RemoteCommand cmd;
    cmd.commandLine = commandLine;
    cmd.timeoutMs = timeoutMs;
    cmd.capture = true;
    cmd.streamLines = false;
    ssh::CommandReply *reply = m_conn.execute(cmd, this);
    connect(reply, &ssh::CommandReply::finished, this, [reply, done = std::move(done)](const ssh::CommandResult &r) {
        reply->deleteLater();
        done(r);
    });
}

QString DeployRunner::commandProblem(const ssh::CommandResult &result)
{
    if (result.error.isError()) {
        return result.error.message;
    }
    const QString err = hostText(result.stderrData);
    if (!err.isEmpty()) {
        return err;
    }
    if (!result.exitSignal.isEmpty()) {
        return QStringLiteral("it was killed by SIG%1").arg(result.exitSignal);
    }
    return QStringLiteral("it exited with status %1 and printed no error").arg(result.exitCode.value_or(-1));
}

void DeployRunner::preflightSsh()
{
    begin("preflight.ssh", QStringLiteral("SSH connection"),
          QStringLiteral("Everything Flashdeck does on the host goes through this one SSH connection"), QString());
    StepRecord r = m_current;
    r.status = StepStatus::Pass;
    r.expected = QStringLiteral("an authenticated session with a verified host key");
    r.seen = QStringLiteral("connected");
    finish(r);
}

void DeployRunner::failOrOtherVendor(const QString &seen, const QString &fix)
{
    // The profile's GPU tool did not answer. If the other vendor's does, the host is not what the
    // profile is for: say that (never "install the NVIDIA driver" on an AMD host).
    const bool nvidia = m_profile.vendor == probe::GpuVendor::Nvidia;
    runCommand(
        nvidia ? "amd-smi metric --json" : "nvidia-smi -L",
        [this, nvidia, seen, fix](const ssh::CommandResult &other) {
            qsizetype count = 0;
            QString what;
            if (other.succeeded() && nvidia) {
                const auto gpus = probe::parseAmdSmiMetric(other.stdoutData);
                count = gpus ? gpus.value().size() : 0;
                what = QStringLiteral("%1 AMD GPUs (amd-smi)").arg(count);
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
            for (const RecipeProfile &p : m_recipe.profiles) {
                if (p.vendor != m_profile.vendor && !p.generatorOnly() && p.gpuCount <= count) {
                    fitting.append(p.id);
                }
            }
            StepRecord r = m_current;
            r.status = StepStatus::Fail;
            r.expected = QStringLiteral("%1 × %2").arg(m_profile.gpuCount).arg(m_profile.gpuModel);
            r.seen = QStringLiteral("the profile needs %1 × %2; the host has %3")
                         .arg(m_profile.gpuCount)
                         .arg(m_profile.gpuModel, what);
            r.fix = fitting.isEmpty()
                ? QStringLiteral("Choose a profile for this host's GPUs (flashdeck recipes list).")
                : QStringLiteral("Choose a profile for this host's GPUs: %1 (flashdeck recipes list).")
                      .arg(fitting.join(QStringLiteral(", ")));
            finish(r);
        },
        kGpuProbeTimeoutMs);
}

void DeployRunner::preflightGpus()
{
    const bool nvidia = m_profile.vendor == probe::GpuVendor::Nvidia;
    const QByteArray cmd = nvidia ? "nvidia-smi -q -x" : "amd-smi metric --json";
    begin("preflight.gpus", QStringLiteral("GPUs match the profile"), {}, QString::fromLatin1(cmd));
    runCommand(
        cmd,
        [this, nvidia](const ssh::CommandResult &res) {
            if (!res.succeeded()) {
                failOrOtherVendor(QStringLiteral("%1 failed: %2").arg(m_current.command, commandProblem(res)),
                                  nvidia
                                      ? QStringLiteral("Install the NVIDIA driver on the host (nvidia-smi must work).")
                                      : QStringLiteral("Install ROCm's amd-smi on the host."));
                return;
            }
            QStringList names;
            if (nvidia) {
                const auto d = probe::parseNvidiaSmiXml(res.stdoutData);
                if (!d || d.value().gpus.isEmpty()) {
                    failOrOtherVendor(d ? QStringLiteral("nvidia-smi lists no GPU") : d.message(),
                                      QStringLiteral("Check the NVIDIA driver installation."));
                    return;
                }
                for (const probe::NvidiaGpu &g : d.value().gpus) {
                    names.append(g.name);
                }
            } else {
                const auto gpus = probe::parseAmdSmiMetric(res.stdoutData);
                if (!gpus) {
                    fail(gpus.message(), QStringLiteral("Check the ROCm installation."));
                    return;
                }
                for (qsizetype i = 0; i < gpus.value().size(); ++i) {
                    names.append(m_profile.gpuModel); // amd-smi metric names no model: the count is what it proves
                }
            }
            StepRecord r = checks::gpus(m_profile, names);
            r.command = m_current.command;
            finish(r);
        },
        kGpuProbeTimeoutMs);
}

void DeployRunner::preflightDriver()
{
    if (m_profile.vendor != probe::GpuVendor::Nvidia) {
        skip("preflight.driver", QStringLiteral("The driver supports the image's CUDA runtime"),
             QStringLiteral("ROCm host: no CUDA driver to check"));
        return;
    }
    begin("preflight.driver", QStringLiteral("The driver supports the image's CUDA runtime"), {},
          QStringLiteral("nvidia-smi -q -x"));
    runCommand(
        "nvidia-smi -q -x",
        [this](const ssh::CommandResult &res) {
            const auto d = probe::parseNvidiaSmiXml(res.stdoutData);
            if (!d) {
                fail(d.message(), QStringLiteral("Check the NVIDIA driver installation."));
                return;
            }
            StepRecord r = checks::driver(m_recipe, d.value());
            r.command = m_current.command;
            finish(r);
        },
        kGpuProbeTimeoutMs);
}

void DeployRunner::preflightDocker()
{
    begin("preflight.docker", QStringLiteral("Docker Engine reachable"),
          QStringLiteral("Flashdeck speaks to Docker's Engine API through docker system dial-stdio, over SSH"),
          QStringLiteral("docker system dial-stdio; GET /_ping, /info"));
    m_current.expected = QStringLiteral("the Engine API answers through docker system dial-stdio");
    // Only this tunnel's reports: other components open theirs on the same connection.
    m_conn.tunnelToCommand("docker system dial-stdio", this)
        ->onOpened(
            this,
            [this](quint16 port) {
                m_docker = std::make_unique<docker::DockerClient>(port);
                m_docker->ping([this](const docker::DockerResponse &pong) {
                    if (!pong.ok() && !pong.transportError.isEmpty()) {
                        diagnoseDockerTunnel(pong.message());
                        return;
                    }
                    if (!pong.ok()) {
                        fail(dockerSaid(pong),
                             QStringLiteral("Start Docker on the host (systemctl start docker) and check "
                                            "that this user may use it."));
                        return;
                    }
                    m_docker->call("GET", QStringLiteral("/info"), {}, [this](const docker::DockerResponse &info) {
                        const json j = info.json();
                        const bool nvidiaRuntime =
                            j.is_object() && j.value("Runtimes", json::object()).contains("nvidia");
                        StepRecord r = m_current;
                        r.expected = m_profile.vendor == probe::GpuVendor::Nvidia
                            ? QStringLiteral("Docker with the nvidia runtime")
                            : QStringLiteral("Docker");
                        r.seen = QStringLiteral("Docker %1, API %2%3")
                                     .arg(str(j, "ServerVersion"), m_docker->apiPrefix().mid(2),
                                          nvidiaRuntime ? QStringLiteral(", nvidia runtime") : QString());
                        if (m_profile.vendor == probe::GpuVendor::Nvidia && !nvidiaRuntime) {
                            r.status = StepStatus::Fail;
                            r.fix =
                                QStringLiteral("Install the NVIDIA Container Toolkit on the host and restart Docker.");
                        } else {
                            r.status = StepStatus::Pass;
                        }
                        finish(r);
                    });
                });
            },
            [this](const QString &message) {
                fail(message,
                     QStringLiteral("Install Docker Engine on the host and let this user run it (docker group)."));
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
                     QStringLiteral("Start Docker on the host (systemctl start docker) and check "
                                    "that this user may use it."));
                return;
            }
            const QString seen = QStringLiteral("docker system dial-stdio printed: %1 (exit %2)")
                                     .arg(printed, r.exitCode ? QString::number(*r.exitCode) : r.exitSignal);
            QString fix;
            if (printed.contains(QLatin1String("permission denied"))) {
                // Debian's docker.io: /var/run/docker.sock is root:docker, mode 0660.
                fix = QStringLiteral(
                          "The user %1 may not use Docker's socket on the host. Add the user to the docker group "
                          "(sudo usermod -aG docker %1), log in again so the group applies, then run "
                          "again with --resume.")
                          .arg(m_conn.target().user);
            } else if (printed.contains(QLatin1String("Is the docker daemon running"))) {
                fix = QStringLiteral("Docker is installed but its daemon is not running: start it on the host "
                                     "(sudo systemctl start docker), then run again with --resume.");
            } else if (r.exitCode && *r.exitCode == 127) {
                fix = QStringLiteral("Docker is not installed on the host: install Docker Engine (Debian: sudo apt-get "
                                     "install docker.io), then run again with --resume.");
            } else {
                fix = QStringLiteral("Fix what Docker reports on the host, then run again with --resume.");
            }
            fail(seen, fix, QStringLiteral("the Engine API answers through docker system dial-stdio"));
        },
        30000);
}

void DeployRunner::preflightDisk()
{
    const QByteArray cmd = "mkdir -p ~/.cache/huggingface ~/.cache/minfer && printf '%s\\n' \"$HOME\" && df -B1 "
                           "--output=avail,target ~/.cache/huggingface";
    begin("preflight.disk", QStringLiteral("Room for the weights and the image"), {}, QString::fromUtf8(cmd));
    runCommand(cmd, [this](const ssh::CommandResult &res) {
        const qsizetype nl = res.stdoutData.indexOf('\n');
        m_hostHome = QString::fromUtf8(res.stdoutData.left(nl)).trimmed();
        const auto free = probe::parseDf(res.stdoutData.mid(nl + 1));
        if (!res.succeeded() || !free) {
            fail(!res.succeeded() ? commandProblem(res) : free.message(),
                 QStringLiteral("Check that the home directory on the host is writable."));
            return;
        }
        StepRecord r = checks::disk(m_recipe, free.value(), m_options.modelSource != QLatin1String("hub"));
        r.command = m_current.command;
        finish(r);
    });
}

void DeployRunner::preflightPort()
{
    begin("preflight.port", QStringLiteral("The service ports are free"), {}, QStringLiteral("ss -Hltn"));
    const QString filter =
        QStringLiteral(R"({"label":["io.flashdeck.deployment=%1"],"status":["running"]})").arg(m_options.deploymentId);
    m_docker->call("GET", QStringLiteral("/containers/json?filters=") + docker::DockerClient::q(filter), {},
                   [this](const docker::DockerResponse &ours) {
                       const bool running = ours.ok() && ours.json().is_array() && !ours.json().empty();
                       runCommand("ss -Hltn", [this, running](const ssh::CommandResult &res) {
                           StepRecord r = checks::ports(m_profile, probe::parseSsListening(res.stdoutData));
                           r.command = m_current.command;
                           if (r.status == StepStatus::Fail && running) {
                               r.status = StepStatus::Pass; // our own server from an earlier run holds them
                               r.seen = QStringLiteral("in use by this deployment's running server");
                               r.fix.clear(); // nothing to do (a unit test found the failure's advice left on)
                           }
                           finish(r);
                       });
                   });
}

void DeployRunner::preflightMemory()
{
    if (m_options.hicacheGbPerRank <= 0) {
        skip("preflight.memory", QStringLiteral("Host memory for HiCache"),
             QStringLiteral("HiCache is off in this deployment"));
        return;
    }
    begin("preflight.memory", QStringLiteral("Host memory for HiCache"), {}, QStringLiteral("cat /proc/meminfo"));
    runCommand("cat /proc/meminfo", [this](const ssh::CommandResult &res) {
        const auto memory = probe::parseMeminfo(res.stdoutData);
        if (!memory) {
            fail(memory.message(), QStringLiteral("Check that /proc/meminfo is readable on the host."));
            return;
        }
        StepRecord r = checks::hostMemory(m_profile, m_options.hicacheGbPerRank, memory.value());
        r.command = m_current.command;
        finish(r);
    });
}

void DeployRunner::license()
{
    begin("license", QStringLiteral("Licence acknowledged"),
          QStringLiteral("%1, non-commercial grant; commercial use has conditions").arg(m_recipe.licenseName),
          QString());
    StepRecord r = m_current;
    r.expected = QStringLiteral("an acknowledgement of the %1 (%2)").arg(m_recipe.licenseName, m_recipe.licenseVersion);
    if (m_recipe.licenseUses.contains(m_options.licenseAcknowledged)) {
        r.status = StepStatus::Pass;
        r.seen = QStringLiteral("acknowledged for %1 use").arg(m_options.licenseAcknowledged);
        if (!m_options.licenseRecord.isEmpty()) {
            r.seen += QStringLiteral(" by ") + m_options.licenseRecord;
        }
    } else {
        r.status = StepStatus::Fail;
        r.seen = QStringLiteral("no acknowledgement for this host and licence version");
        r.fix = QStringLiteral(
                    "Read the %1 (commercial use must show \"Built with MiniMax M3.1-Flash\"; revenue above "
                    "USD 20 million needs MiniMax's written authorisation; no military use), then run "
                    "with --accept-license noncommercial|commercial|commercial-authorized ('flashdeck license' shows "
                    "the summary; a changed summary asks again).")
                    .arg(m_recipe.licenseName);
    }
    finish(r);
}

void DeployRunner::pinImage()
{
    const QString image = m_recipe.imageOf(m_profile).reference();
    begin("pin.image", QStringLiteral("Pin the image to its digest"), QStringLiteral("Pin the image digest"),
          QStringLiteral("GET /distribution/%1/json").arg(image));
    m_docker->call("GET", QStringLiteral("/distribution/%1/json").arg(image), {},
                   [this, image](const docker::DockerResponse &res) {
                       const QString digest = str(res.json().value("Descriptor", json::object()), "digest");
                       if (!res.ok() || !digest.startsWith(QLatin1String("sha256:"))) {
                           fail(dockerSaid(res),
                                QStringLiteral("Check the image name and the host's access to the "
                                               "registry (docker pull %1 on the host).")
                                    .arg(image),
                                QStringLiteral("a sha256 digest"));
                           return;
                       }
                       m_imageDigest = digest;
                       StepRecord r = m_current;
                       r.status = StepStatus::Pass;
                       r.expected = QStringLiteral("a sha256 digest");
                       r.seen = image + QLatin1Char('@') + digest;
                       finish(r);
                   });
}

void DeployRunner::pull()
{
    const docker::ImageRef ref = m_recipe.imageOf(m_profile);
    const QString pinned = ref.name + QLatin1Char('@') + m_imageDigest;
    begin("pull", QStringLiteral("Pull the pinned image"), QStringLiteral("Pull by digest"),
          QStringLiteral("docker pull %1").arg(pinned));
    // What a failure record says was expected too (a failed pull used to record "").
    const QString expectedPull = QStringLiteral("RepoDigests contains %1").arg(pinned);
    auto verify = [this, pinned](bool pulled, const QString &how) {
        m_docker->call("GET", QStringLiteral("/images/%1/json").arg(pinned), {},
                       [this, pinned, pulled, how](const docker::DockerResponse &res) {
                           const json digests = res.json().value("RepoDigests", json::array());
                           const bool has =
                               std::find(digests.begin(), digests.end(), pinned.toStdString()) != digests.end();
                           StepRecord r = m_current;
                           r.expected = QStringLiteral("RepoDigests contains %1").arg(pinned); // = expectedPull
                           r.seen = has ? (pulled ? QStringLiteral("pulled %1; RepoDigests has the pin").arg(how)
                                                  : QStringLiteral("already present; not pulled again"))
                                        : QStringLiteral("RepoDigests: %1").arg(QString::fromStdString(digests.dump()));
                           r.status = has ? StepStatus::Pass : StepStatus::Fail;
                           if (!has) {
                               r.fix = QStringLiteral("Remove the image on the host and pull again.");
                           }
                           finish(r);
                       });
    };
    m_docker->call(
        "GET", QStringLiteral("/images/%1/json").arg(pinned), {},
        [this, ref, verify, pinned, expectedPull](const docker::DockerResponse &present) {
            if (present.ok()) {
                verify(false, {});
                return;
            }
            auto progress = std::make_shared<docker::PullProgress>();
            QNetworkReply *reply = m_docker->stream(
                "POST",
                QStringLiteral("/images/create?fromImage=%1&tag=%2")
                    .arg(docker::DockerClient::q(ref.qualifiedName()), docker::DockerClient::q(m_imageDigest)));
            // An error status carries dockerd's {"message": …} instead of progress lines: leave
            // that body unread for responseOf(), which quotes it (a body can be read once).
            const auto streaming = [reply] {
                const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                return status >= 200 && status < 300;
            };
            connect(reply, &QNetworkReply::readyRead, this, [this, reply, progress, streaming] {
                if (!streaming()) {
                    return;
                }
                if (progress->feed(reply->readAll())) {
                    Q_EMIT this->progress(QStringLiteral("pull"), progress->downloadedBytes(), progress->totalBytes(),
                                          progress->summary());
                    Q_EMIT layersChanged(progress->layerLines());
                }
            });
            connect(reply, &QNetworkReply::finished, this,
                    [this, reply, progress, verify, streaming, pinned, expectedPull] {
                        if (streaming()) {
                            progress->feed(reply->readAll() + '\n');
                        }
                        const docker::DockerResponse res = docker::DockerClient::responseOf(reply);
                        const bool cutOff = reply->error() != QNetworkReply::NoError || progress->digest().isEmpty();
                        reply->deleteLater();
                        if (!res.ok() || !progress->error().isEmpty()) {
                            // dockerd's own words: its error status's {"message": …}, or the errorDetail
                            // it streamed mid-pull ("failed to register layer: no space left on device").
                            const QString said = progress->error().isEmpty() ? res.message() : progress->error();
                            fail(progress->error().isEmpty() ? dockerSaid(res) : QStringLiteral("dockerd: ") + said,
                                 said.contains(QLatin1String("no space left on device"))
                                     ? QStringLiteral("Free disk space on the host (the image is unpacked beside its "
                                                      "download), then run again with --resume.")
                                     : QStringLiteral(
                                           "The host's Docker could not fetch the image: check its access to the "
                                           "registry (DNS, proxy, firewall, a Docker Hub rate limit; 'docker "
                                           "pull %1' on the host shows the same), then run again with --resume.")
                                           .arg(pinned),
                                 expectedPull);
                            return;
                        }
                        if (cutOff) {
                            fail(QStringLiteral("the pull was cut off after %1 of %2 bytes (%3)")
                                     .arg(progress->downloadedBytes())
                                     .arg(progress->totalBytes())
                                     .arg(reply->errorString()),
                                 QStringLiteral(
                                     "Run again with --resume: the layers the host already unpacked are kept, the "
                                     "rest is fetched."),
                                 expectedPull);
                            return;
                        }
                        verify(true,
                               QStringLiteral("%1 GB (%2 of %3 layers were already there)")
                                   .arg(QString::number(double(progress->downloadedBytes()) / 1e9, 'f', 1))
                                   .arg(progress->layersAlreadyThere())
                                   .arg(progress->layers()));
                    });
        });
}

void DeployRunner::verifyGpus()
{
    if (m_profile.vendor != probe::GpuVendor::Nvidia) {
        skip("verify.gpus", QStringLiteral("The image sees the GPUs"),
             QStringLiteral("ROCm host: the GPU check in the image is NVIDIA's nvidia-smi"));
        return;
    }
    const RecipeReplica &replica = m_profile.replicas.first();
    QStringList ids;
    json idsJson = json::array();
    for (const int g : replica.gpus) {
        ids.append(QString::number(g));
        idsJson.push_back(std::to_string(g));
    }
    const QString name = QStringLiteral("flashdeck-%1-gpucheck").arg(m_options.deploymentId);
    const QString image = m_recipe.imageOf(m_profile).name + QLatin1Char('@') + m_imageDigest;
    begin("verify.gpus", QStringLiteral("The image sees the GPUs"),
          QStringLiteral("Inside the pinned image, nvidia-smi lists %1 × %2").arg(m_profile.tp).arg(m_profile.gpuModel),
          QStringLiteral("docker run --rm --gpus '\"device=%1\"' %2 nvidia-smi -L")
              .arg(ids.join(QLatin1Char(',')), image));
    const json body = {
        {"Image", image.toStdString()},
        {"Cmd", {"nvidia-smi", "-L"}},
        {"Labels", {{"io.flashdeck.deployment", m_options.deploymentId.toStdString()}}},
        {"HostConfig",
         {{"DeviceRequests", {{{"Driver", ""}, {"Count", 0}, {"DeviceIDs", idsJson}, {"Capabilities", {{"gpu"}}}}}}}}};
    m_docker->call(
        "DELETE", QStringLiteral("/containers/%1?force=1").arg(name), {},
        [this, name, body](const docker::DockerResponse &) {
            m_docker->call(
                "POST", QStringLiteral("/containers/create?name=") + name, QByteArray::fromStdString(body.dump()),
                [this, name](const docker::DockerResponse &created) {
                    if (created.status != 201) {
                        fail(created.message(), QStringLiteral("Check the image and the NVIDIA runtime."));
                        return;
                    }
                    m_docker->call(
                        "POST", QStringLiteral("/containers/%1/start").arg(name), {},
                        [this, name](const docker::DockerResponse &started) {
                            if (!started.ok()) {
                                fail(started.message(),
                                     QStringLiteral("Check the GPU list (change it if those "
                                                    "GPUs are busy) and the NVIDIA runtime."));
                                return;
                            }
                            m_docker->call(
                                "POST", QStringLiteral("/containers/%1/wait").arg(name), {},
                                [this, name](const docker::DockerResponse &) {
                                    m_docker->call(
                                        "GET", QStringLiteral("/containers/%1/logs?stdout=1&stderr=1").arg(name), {},
                                        [this, name](const docker::DockerResponse &logs) {
                                            docker::LogFrameDecoder decoder;
                                            QList<docker::LogLine> lines = decoder.feed(logs.body);
                                            lines += decoder.finish();
                                            int count = 0;
                                            QStringList seen;
                                            for (const docker::LogLine &l : lines) {
                                                seen.append(QString::fromUtf8(l.text));
                                                count += l.text.startsWith("GPU ") &&
                                                    l.text.contains(m_profile.gpuModel.toUtf8());
                                            }
                                            m_docker->call("DELETE", QStringLiteral("/containers/%1").arg(name), {},
                                                           [](const docker::DockerResponse &) {});
                                            StepRecord r = m_current;
                                            r.expected =
                                                QStringLiteral("%1 × %2").arg(m_profile.tp).arg(m_profile.gpuModel);
                                            r.seen = seen.join(QLatin1Char('\n'));
                                            r.status = count == m_profile.tp ? StepStatus::Pass : StepStatus::Fail;
                                            if (r.status == StepStatus::Fail) {
                                                r.fix = QStringLiteral("The container does not see the GPUs the "
                                                                       "profile needs: check the NVIDIA runtime "
                                                                       "and the GPU list.");
                                            }
                                            finish(r);
                                        });
                                });
                        });
                });
        });
}

} // namespace flashdeck
