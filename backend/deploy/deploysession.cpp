#include "backend/deploy/deploysession.h"

#include "backend/applog/logging.h"
#include "backend/core/atomicfile.h"
#include "backend/core/heldlock.h"
#include "backend/deploy/journal.h"
#include "backend/deploy/pulledimages.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/profilechoice.h"
#include "backend/security/redactor.h"
#include "backend/security/secretstore.h"

#include <QDateTime>
#include <QDir>
#include <QFile>

#include <nlohmann/json.hpp>
#include <spdlog/logger.h>

namespace flashdeck::deploy {

DeploySession::DeploySession(QString directory, QString hostName, const recipe::Recipe &recipe,
                             const recipe::RecipeProfile &profile, DeployOptions options,
                             security::SecretStore &secrets, security::Redactor &redactor, QObject *parent)
    : QObject(parent)
    , m_dir(std::move(directory))
    , m_host(std::move(hostName))
    , m_recipe(recipe)
    , m_profile(profile)
    , m_options(std::move(options))
    , m_secrets(secrets)
    , m_redactor(redactor)
{
    QDir().mkpath(m_dir);
    m_journal = std::make_unique<Journal>(m_dir + QStringLiteral("/journal.jsonl"), m_redactor);
}

DeploySession::~DeploySession() = default;

QString DeploySession::lockOf(const QString &directory)
{
    return directory + QStringLiteral("/deploy.lock");
}

QString DeploySession::runningElsewhere(const QString &host, const QString &directory)
{
    if (!HeldLock::isHeld(lockOf(directory))) {
        return {};
    }
    return tr("A deployment of %1 runs already, from another window or a terminal. Wait for it to end (its "
              "steps go to %2), or stop it where it runs; then run this again.")
        .arg(host, directory + QStringLiteral("/journal.jsonl"));
}

Status DeploySession::claim()
{
    if (m_held || !m_lockNotice.isEmpty()) {
        return Status::ok();
    }
    auto held = std::make_unique<HeldLock>(lockOf(m_dir));
    if (const Status s = held->acquire(); !s) {
        if (const QString elsewhere = runningElsewhere(m_host, m_dir); !elsewhere.isEmpty()) {
            return Status::failure(elsewhere);
        }
        // Not another run: the file itself (a file system without locks, its permissions). The
        // run goes on, as an upgrade does without its lock; only the guard is missing, and said.
        m_lockNotice = tr("%1 Another run of %2 would not be kept out while this one runs.").arg(s.message(), m_host);
        return Status::ok();
    }
    m_held = std::move(held);
    return Status::ok();
}

Status DeploySession::start(ssh::Transport &connection)
{
    if (m_running) {
        return Status::ok();
    }
    if (Status s = claim(); !s) {
        return s;
    }
    if (!m_lockNotice.isEmpty()) {
        Q_EMIT notice(m_lockNotice);
    }
    m_running = true;
    m_results.clear();
    m_current = recipe::StepRecord{};
    if (!m_secrets.keyringAvailable()) {
        Q_EMIT notice(m_secrets.memoryOnlyReason());
    }
    // The server's API key lives in the system keyring (or, without one, in memory for this run;
    // a rerun then recovers it from the running container).
    m_secrets.read(
        security::SecretStore::apiKeyKey(m_options.deploymentId), [this, &connection](const Result<QString> &stored) {
            if (!stored) {
                Q_EMIT notice(stored.message());
            } else if (!stored.value().isEmpty()) {
                m_options.apiKey = stored.value();
                m_redactor.addSecret(stored.value());
            }
            // What earlier starts printed for qmul4 (a start may print nothing): from the manifest.
            if (const Result<recipe::Deployment> before = readManifest()) {
                m_options.qmul4Verdicts = before.value().qmul4Verdicts;
            }
            m_runner =
                std::make_unique<DeployRunner>(connection, m_recipe, m_profile, m_options, *m_journal, m_redactor);
            connect(m_runner.get(), &DeployRunner::stepChanged, this, [this](const recipe::StepRecord &record) {
                const recipe::StepRecord r = m_journal->redacted(record); // what leaves is as careful as the journal
                applog::deploy().info("{}: {} {}", m_host.toStdString(), r.step.toStdString(),
                                      recipe::stepStatusName(r.status).toStdString());
                if (r.status == recipe::StepStatus::Fail || r.status == recipe::StepStatus::Warn) {
                    applog::deploy().info("{}: {} saw: {}", m_host.toStdString(), r.step.toStdString(),
                                          r.seen.toStdString());
                }
                if (r.status != recipe::StepStatus::Running) {
                    m_results[r.step] = r;
                    if (m_current.step == r.step) {
                        m_current = recipe::StepRecord{};
                    }
                } else {
                    m_current = r;
                }
                Q_EMIT stepChanged(r);
            });
            connect(m_runner.get(), &DeployRunner::progress, this, &DeploySession::progress);
            connect(m_runner.get(), &DeployRunner::layersChanged, this, &DeploySession::layersChanged);
            connect(m_runner.get(), &DeployRunner::finished, this, [this](bool ok) {
                writeManifest(ok);
                const QString key = m_runner->apiKey();
                if (key.isEmpty()) {
                    m_running = false;
                    m_held.reset();
                    Q_EMIT finished(ok);
                    return;
                }
                m_redactor.addSecret(key);
                m_secrets.write(security::SecretStore::apiKeyKey(m_options.deploymentId), key,
                                [this, ok](const Status &written) {
                                    if (!written) {
                                        Q_EMIT notice(written.message());
                                    }
                                    m_running = false;
                                    m_held.reset();
                                    Q_EMIT finished(ok);
                                });
            });
            m_runner->start();
        });
    return Status::ok();
}

void DeploySession::cancel()
{
    if (m_runner) {
        m_runner->cancel();
    }
}

Result<recipe::Deployment> DeploySession::readManifest() const
{
    QFile f(recipe::Deployment::manifestIn(m_dir));
    if (!f.open(QIODevice::ReadOnly)) {
        return Status::failure(f.errorString());
    }
    return recipe::Deployment::fromJson(f.readAll());
}

void DeploySession::writeManifest(bool ok)
{
    if (m_runner->pulledImage()) { // what prune may take back one day
        PulledImages pulled(PulledImages::fileOf(m_dir));
        const PulledImages::Image image{m_recipe.imageOf(m_profile).name + QLatin1Char('@') + m_runner->imageDigest(),
                                        m_runner->imageBytes(), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)};
        if (const Status s = pulled.record(image); !s) {
            Q_EMIT notice(s.message());
        }
    }
    // A run that failed before it started anything leaves the host running what the manifest
    // already says: keep it (the journal has the failure), or `pins` would name pins never run.
    const QString path = recipe::Deployment::manifestIn(m_dir);
    if (!ok && !m_runner->launchedContainers() && QFile::exists(path)) {
        return;
    }
    recipe::Deployment d;
    d.host = m_host;
    d.profile = m_profile.id;
    // What the operator chose on top of the profile (the runbook runs the same).
    // The layout as it ran: a node layout spreads over the host's GPUs at preflight.gpus.
    const recipe::RecipeProfile &ran = m_runner->profile();
    d.image = m_recipe.imageOf(ran).reference();
    d.gpus = recipe::ProfileChoice::gpuList(ran);
    d.port = recipe::ProfileChoice::servedPort(ran);
    d.recipe = m_recipe.id;
    d.imageDigest = m_runner->imageDigest();
    d.imageBytes = m_runner->imageBytes();
    d.modelSha = m_runner->modelSha();
    d.hostHome = m_runner->hostHome();
    d.launch = m_redactor.redact(m_runner->launchLine());
    d.modelSource = m_options.modelSource;
    d.modelDir = m_runner->modelFolder();
    d.steps = m_results;
    d.licenseAcknowledged = m_options.licenseAcknowledged;
    d.hicacheGbPerRank = m_options.hicacheGbPerRank;
    d.operatorFlags = m_options.operatorFlags;
    d.launchCommand = m_options.imported ? m_options.imported->text : QString();
    d.qmul4Verdicts = m_runner->qmul4Seen()
        ? recipe::Deployment::withVerdict(m_options.qmul4Verdicts, *m_runner->qmul4Seen())
        : m_options.qmul4Verdicts;
    d.ok = ok;
    d.finished = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    if (const Status s = d.writeTo(path); !s) {
        Q_EMIT notice(
            tr("Could not write the manifest %1: %2. The journal beside it has every step.").arg(path, s.message()));
    }
}

} // namespace flashdeck::deploy
