#include "backend/deploy/deployrunner.h"

#include "backend/core/format.h"
#include "backend/core/hosttext.h"
#include "backend/core/jsonread.h"
#include "backend/core/shellquote.h"
#include "backend/deploy/checks.h"
#include "backend/deploy/deployhelpers.h"
#include "backend/deploy/deployplan.h"
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
#include "backend/ssh/transport.h"
#include "backend/ssh/tunnelreply.h"

#include <QCoreApplication>
#include <QNetworkReply>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <limits>

namespace flashdeck::deploy {

using namespace helpers;
using nlohmann::json;

DeployRunner::DeployRunner(ssh::Transport &connection, const recipe::Recipe &recipe,
                           const recipe::RecipeProfile &profile, DeployOptions options, Journal &journal,
                           security::Redactor &redactor, QObject *parent)
    : QObject(parent)
    , m_conn(connection)
    , m_recipe(recipe)
    , m_profile(profile)
    , m_options(std::move(options))
    , m_journal(journal)
    , m_redactor(redactor)
    , m_http(new QObject(this))
{
    // Built in: it cannot be missing from a build, but if it were, the checks say "unknown".
    if (Result<logs::LogRules> rules = logs::LogRules::builtIn()) {
        m_logRules = std::move(rules).value();
    }
}

DeployRunner::~DeployRunner() = default;

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
        reportCancel(
            QCoreApplication::translate("Deploy", "nothing: Flashdeck had not reached the host's Docker Engine yet"));
        return;
    }
    m_docker->abortAll();
    // A host that stops answering must not hold the cancel: say what we could not check.
    QTimer::singleShot(15000, this, [this] {
        reportCancel(
            QCoreApplication::translate("Deploy",
                                        "unknown: the Docker Engine did not answer (check with docker ps --filter "
                                        "label=io.flashdeck.deployment=%1)")
                .arg(m_options.deploymentId));
    });
    // The GPU check's throwaway container is ours and worth nothing: remove it. Servers stay.
    const QString check = QStringLiteral("flashdeck-%1-gpucheck").arg(m_options.deploymentId);
    m_docker->call(
        "DELETE", QStringLiteral("/containers/%1?force=1").arg(check), {}, [this](const docker::DockerResponse &) {
            const QString filter =
                QStringLiteral(R"({"label":["io.flashdeck.deployment=%1"]})").arg(m_options.deploymentId);
            m_docker->call(
                "GET", QStringLiteral("/containers/json?all=1&filters=") + docker::DockerClient::q(filter), {},
                [this](const docker::DockerResponse &res) {
                    if (!res.ok() || !res.json().is_array()) {
                        reportCancel(QCoreApplication::translate("Deploy", "unknown: %1").arg(res.message()));
                        return;
                    }
                    QStringList left;
                    for (const json &c : res.json()) {
                        const json names = c.value("Names", json::array());
                        const QString name = names.is_array() && !names.empty() && names[0].is_string()
                            ? QString::fromStdString(names[0].get<std::string>()).mid(1) // "/name"
                            : str(c, "Id").left(12);
                        left.append(
                            QCoreApplication::translate("Deploy", "container %1 (%2)").arg(name, str(c, "State")));
                    }
                    reportCancel(left.isEmpty() ? QCoreApplication::translate("Deploy", "no Flashdeck container")
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
    recipe::StepRecord r = m_current;
    r.status = recipe::StepStatus::Fail;
    r.at = QDateTime::currentDateTimeUtc();
    QString seen =
        QCoreApplication::translate("Deploy", "cancelled by the operator during this step. Left on the host: %1.")
            .arg(left);
    if (r.step == QLatin1String("pull")) {
        seen += QCoreApplication::translate(
            "Deploy",
            " The pull was stopped; the layers already unpacked stay in Docker's store and are "
            "reused.");
    }
    r.seen = seen;
    r.fix = QCoreApplication::translate(
        "Deploy",
        "Resume on the Deploy page, or run the same deploy command with --resume, to continue "
        "from here; 'flashdeck undeploy' removes Flashdeck's containers (and nothing else).");
    if (r.step.isEmpty()) { // cancelled before the first step began: that step's record
        const PlanStep &first = DeployPlan::steps().constFirst();
        r.step = first.stepId();
        r.title = first.titleText();
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
    if (m_cancelled || m_next >= DeployPlan::steps().size()) {
        m_done = true;
        Q_EMIT finished(!m_cancelled);
        return;
    }
    const PlanStep &next = DeployPlan::steps().at(m_next++);
    QTimer::singleShot(0, this, [this, run = next.run] { run(*this); }); // a fresh stack for every step
}

void DeployRunner::begin(const QString &why, const QString &command)
{
    // Each step begins under the id and title the plan gives it: one title per step, whatever
    // the run finds.
    Q_ASSERT(m_next > 0);
    const PlanStep &step = DeployPlan::steps().at(m_next - 1);
    m_current = recipe::StepRecord{};
    m_percent = -1;
    m_current.step = step.stepId();
    m_current.title = step.titleText();
    m_current.why = why.isEmpty() ? step.whyText() : why;
    m_current.command = command;
    m_current.status = recipe::StepStatus::Running;
    m_current.phase = m_options.phase;
    m_current.at = QDateTime::currentDateTimeUtc();
    if (const Status s = m_journal.append(m_current); !s) {
        m_cancelled = true; // no journal, no deployment: we could not resume or explain it
        fail(s.message(),
             QCoreApplication::translate("Deploy", "Free disk space on this machine, then run again with --resume."));
        return;
    }
    Q_EMIT stepChanged(m_current);
}

void DeployRunner::finish(recipe::StepRecord r)
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
    r.title = m_current.title; // the plan's, also over a check's own words
    if (r.why.isEmpty()) {
        r.why = m_current.why;
    }
    if (r.command.isEmpty()) {
        r.command = m_current.command;
    }
    r.phase = m_options.phase; // a record a check built from scratch belongs to this plan too
    for (QString *field : {&r.command, &r.seen, &r.expected, &r.fix}) {
        *field = m_redactor.redact(*field);
    }
    r.at = QDateTime::currentDateTimeUtc();
    m_current = r;
    // A failure to write here shows at the next step's begin(), which stops the deployment; the
    // last step's is reported with the manifest.
    (void)m_journal.append(r);
    Q_EMIT stepChanged(r);
    if (recipe::stepLetsPlanContinue(r.status)) {
        advance();
    } else if (!m_done) {
        m_done = true;
        Q_EMIT finished(false);
    }
}

void DeployRunner::fail(const QString &seen, const QString &fix, const QString &expected)
{
    recipe::StepRecord r = m_current;
    r.status = recipe::StepStatus::Fail;
    r.seen = seen;
    r.fix = fix;
    if (!expected.isEmpty()) {
        r.expected = expected;
    }
    finish(r);
}

void DeployRunner::reportProgress(qint64 done, qint64 total, bool totalKnown, const QString &text)
{
    recipe::StepProgress p;
    p.step = m_current.step;
    p.done = done;
    p.total = std::max(done, total);
    p.totalKnown = totalKnown;
    if (p.total > 0) {
        // 100 only when it is all there; an estimate that grows never takes a percent back.
        const int now = int(std::min<qint64>(done * 100 / p.total, totalKnown && done >= p.total ? 100 : 99));
        m_percent = std::max(m_percent, now);
    }
    p.percent = m_percent;
    p.text = text;
    Q_EMIT progress(p);
}

void DeployRunner::skip(const QString &reason)
{
    begin({}, {});
    recipe::StepRecord r = m_current;
    r.status = recipe::StepStatus::Skipped;
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
        return QCoreApplication::translate("Deploy", "it was killed by SIG%1").arg(result.exitSignal);
    }
    return QCoreApplication::translate("Deploy", "it exited with status %1 and printed no error")
        .arg(result.exitCode.value_or(-1));
}

void DeployRunner::license()
{
    begin(QCoreApplication::translate("Deploy", "%1, non-commercial grant; commercial use has conditions")
              .arg(m_recipe.licenseName),
          {});
    recipe::StepRecord r = m_current;
    r.expected = QCoreApplication::translate("Deploy", "an acknowledgement of the %1 (%2)")
                     .arg(m_recipe.licenseName, m_recipe.licenseVersion);
    if (m_recipe.licenseUses.contains(m_options.licenseAcknowledged)) {
        r.status = recipe::StepStatus::Pass;
        r.seen = QCoreApplication::translate("Deploy", "acknowledged for %1 use").arg(m_options.licenseAcknowledged);
        if (!m_options.licenseRecord.isEmpty()) {
            r.seen += QStringLiteral(" by ") + m_options.licenseRecord;
        }
    } else {
        r.status = recipe::StepStatus::Fail;
        r.seen = QCoreApplication::translate("Deploy", "no acknowledgement for this host and licence version");
        r.fix = QCoreApplication::translate(
                    "Deploy",
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
    if (!m_options.imported && (m_profile.vendor != probe::GpuVendor::Nvidia || m_profile.generatorOnly())) {
        // The page: AMD (and B200, GB200, H200) commands come from SGLang's configuration generator;
        // the B300 flags never run there. Every way in (the CLI refuses earlier) stops here, unpulled.
        begin({}, {});
        fail(recipe::ImportedLaunch::generatorAdvice(m_profile.title),
             QCoreApplication::translate("Deploy",
                                         "Generate the command with SGLang's configuration generator and give it "
                                         "to the deployment."),
             QCoreApplication::translate("Deploy", "SGLang's configuration generator's command for this hardware"));
        return;
    }
    if (!m_options.imageDigest.isEmpty()) {
        pinChosenDigest();
        return;
    }
    const QString image = m_recipe.imageOf(m_profile).reference();
    begin({}, QStringLiteral("GET /distribution/%1/json").arg(image));
    m_docker->call("GET", QStringLiteral("/distribution/%1/json").arg(image), {},
                   [this, image](const docker::DockerResponse &res) {
                       const QString digest = str(res.json().value("Descriptor", json::object()), "digest");
                       if (!res.ok() || !digest.startsWith(QLatin1String("sha256:"))) {
                           fail(dockerSaid(res),
                                QCoreApplication::translate("Deploy",
                                                            "Check the image name and the host's access to the "
                                                            "registry (docker pull %1 on the host).")
                                    .arg(image),
                                QCoreApplication::translate("Deploy", "a sha256 digest"));
                           return;
                       }
                       m_imageDigest = digest;
                       recipe::StepRecord r = m_current;
                       r.status = recipe::StepStatus::Pass;
                       r.expected = QCoreApplication::translate("Deploy", "a sha256 digest");
                       r.seen = image + QLatin1Char('@') + digest;
                       finish(r);
                   });
}

void DeployRunner::pinChosenDigest()
{
    const QString pinned = m_recipe.imageOf(m_profile).name + QLatin1Char('@') + m_options.imageDigest;
    begin(QCoreApplication::translate("Deploy", "The digest chosen for this host"),
          QStringLiteral("GET /images/%1/json, else GET /distribution/%1/json").arg(pinned));
    m_current.expected = QCoreApplication::translate("Deploy", "%1 on the host or in the registry").arg(pinned);
    const auto pass = [this, pinned](const QString &where) {
        m_imageDigest = m_options.imageDigest;
        recipe::StepRecord r = m_current;
        r.status = recipe::StepStatus::Pass;
        r.seen = QStringLiteral("%1 (%2)").arg(pinned, where);
        finish(r);
    };
    // The host may keep a build the registry no longer serves (the one before an upgrade).
    m_docker->call("GET", QStringLiteral("/images/%1/json").arg(pinned), {},
                   [this, pinned, pass](const docker::DockerResponse &here) {
                       if (here.ok()) {
                           pass(QCoreApplication::translate("Deploy", "on the host already"));
                           return;
                       }
                       m_docker->call(
                           "GET", QStringLiteral("/distribution/%1/json").arg(pinned), {},
                           [this, pinned, pass](const docker::DockerResponse &res) {
                               const QString digest = str(res.json().value("Descriptor", json::object()), "digest");
                               if (res.ok() && digest == m_options.imageDigest) {
                                   pass(QCoreApplication::translate("Deploy", "the registry has it"));
                                   return;
                               }
                               fail(res.ok() ? QCoreApplication::translate(
                                                   "Deploy", "the registry answered with another digest, %1")
                                                   .arg(digest)
                                             : dockerSaid(res),
                                    QCoreApplication::translate(
                                        "Deploy",
                                        "Neither the host nor the registry has this digest: check it ('flashdeck pins "
                                        "HOST' shows what a host runs), and the host's access to the registry."));
                           });
                   });
}

void DeployRunner::verifyGpus()
{
    if (m_profile.vendor != probe::GpuVendor::Nvidia) {
        skip(QCoreApplication::translate("Deploy", "ROCm host: the GPU check in the image is NVIDIA's nvidia-smi"));
        return;
    }
    const recipe::RecipeReplica &replica = m_profile.replicas.first();
    QStringList ids;
    json idsJson = json::array();
    for (const int g : replica.gpus) {
        ids.append(QString::number(g));
        idsJson.push_back(std::to_string(g));
    }
    const QString name = QStringLiteral("flashdeck-%1-gpucheck").arg(m_options.deploymentId);
    const QString image = m_recipe.imageOf(m_profile).name + QLatin1Char('@') + m_imageDigest;
    begin(QCoreApplication::translate("Deploy", "Inside the pinned image, nvidia-smi lists %1 × %2")
              .arg(m_profile.tp)
              .arg(m_profile.gpuModel),
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
                        fail(created.message(),
                             QCoreApplication::translate("Deploy", "Check the image and the NVIDIA runtime."));
                        return;
                    }
                    m_docker->call(
                        "POST", QStringLiteral("/containers/%1/start").arg(name), {},
                        [this, name](const docker::DockerResponse &started) {
                            if (!started.ok()) {
                                fail(started.message(),
                                     QCoreApplication::translate("Deploy",
                                                                 "Check the GPU list (change it if those "
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
                                            recipe::StepRecord r = m_current;
                                            r.expected =
                                                QStringLiteral("%1 × %2").arg(m_profile.tp).arg(m_profile.gpuModel);
                                            r.seen = seen.join(QLatin1Char('\n'));
                                            r.status = count == m_profile.tp ? recipe::StepStatus::Pass
                                                                             : recipe::StepStatus::Fail;
                                            if (r.status == recipe::StepStatus::Fail) {
                                                r.fix = QCoreApplication::translate(
                                                    "Deploy",
                                                    "The container does not see the GPUs the "
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

} // namespace flashdeck::deploy
