// The Deploy page's runs: a deployment, an upgrade, stopping one, and the runbook. The page
// itself (its parts, the host and profile, the steps and the log) is deploypage.cpp.
#include "backend/core/apppaths.h"
#include "backend/core/atomicfile.h"
#include "backend/core/format.h"
#include "backend/deploy/acknowledgements.h"
#include "backend/deploy/deployplan.h"
#include "backend/deploy/deploysession.h"
#include "backend/deploy/journal.h"
#include "backend/deploy/runbook.h"
#include "backend/deploy/upgradesession.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/hostsession.h"
#include "backend/logs/loghighlights.h"
#include "backend/logs/logrules.h"
#include "backend/metrics/hostmonitor.h"
#include "backend/probe/nvidiasmi.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/licenseterms.h"
#include "backend/recipe/profilechoice.h"
#include "backend/recipe/recipe.h"
#include "backend/recipe/recipetexts.h"
#include "backend/security/secretstore.h"
#include "ui/deploy/launchcommandbox.h"
#include "ui/deploy/licensepanel.h"
#include "ui/deploy/planview.h"
#include "ui/deploy/stepdetail.h"
#include "ui/deploy/upgradedialog.h"
#include "ui/expose/exposepanel.h"
#include "ui/logs/logmodel.h"
#include "ui/logs/logpanel.h"
#include "ui/pages/deploypage.h"

#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace flashdeck::ui {

void DeployPage::run()
{
    if (isRunning() || m_recipes->isEmpty()) {
        return;
    }
    const recipe::RecipeProfile *p = m_recipes->first().profile(profile());
    if (m_host.isEmpty() || !p) {
        m_notice->setText(tr("Pick a host and a profile first."));
        return;
    }
    if (m_generator->required() && m_generator->text().trimmed().isEmpty()) {
        m_notice->setText(LaunchCommandBox::advice(p->title));
        m_generator->setFocus();
        return;
    }
    if (!m_generator->problem().isEmpty()) {
        m_notice->setText(m_generator->problem());
        m_generator->setFocus();
        return;
    }
    if (p->operatorFlagsRequired && !m_generator->launch() && m_flags->text().trimmed().isEmpty()) {
        m_notice->setText(tr("%1 needs its flags: %2").arg(p->title, p->note));
        m_flags->setFocus();
        return;
    }
    const Result<recipe::RecipeProfile> chosen = chosenProfile(*p);
    if (!chosen) {
        const bool image = p->imageConfirm && m_image->text().trimmed().isEmpty();
        m_notice->setText(
            image ? tr("%1 Press “Use the suggestion” to confirm it, or type your own image.").arg(chosen.message())
                  : chosen.message());
        const bool imageWrong = !recipe::ProfileChoice{m_image->text(), {}}.apply(m_recipes->first(), *p);
        (imageWrong ? m_image : m_gpus)->setFocus();
        return;
    }
    const fleet::HostSession *host = hostSession();
    if (!host || host->state().phase != ssh::ConnectionPhase::Ready) {
        m_notice->setText(tr("%1 is not connected: connect it from the host bar (its key and login are checked "
                             "there), then Run again.")
                              .arg(m_host));
        return;
    }
    m_license->setHost(m_host);
    if (m_license->acknowledgedUse().isEmpty()) {
        // F40: nothing is pinned or pulled before the licence is acknowledged for this host.
        m_runAfterLicense = true;
        selectStep(QStringLiteral("license"));
        showLicense();
        m_license->focusChoice(); // the keyboard goes where the run waits, not left on Run
        m_notice->setText(tr("Acknowledge the licence for %1 to continue; the run starts when you do.").arg(m_host));
        return;
    }
    startSession();
}

void DeployPage::startSession()
{
    const recipe::Recipe &recipe = m_recipes->first();
    const recipe::RecipeProfile *listed = recipe.profile(profile());
    fleet::HostSession *host = hostSession();
    if (!listed || !host) {
        return;
    }
    const Result<recipe::RecipeProfile> chosen = chosenProfile(*listed); // checked by run()
    if (!chosen) {
        m_notice->setText(chosen.message());
        return;
    }
    const recipe::RecipeProfile &p = chosen.value();
    deploy::DeployOptions options;
    options.deploymentId = recipe::DeploymentId(m_host, p.id).toString();
    options.licenseAcknowledged = m_license->acknowledgedUse();
    options.licenseRecord = m_license->record();
    options.operatorFlags = m_flags->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    // The profile's own list shown unchanged: a node layout may spread over every GPU of the host.
    options.gpusChosen = m_gpus->text().remove(QLatin1Char(' ')) != recipe::ProfileChoice::gpuList(*listed);
    if (const std::optional<recipe::ImportedLaunch> &imported = m_generator->launch()) {
        options.imported = imported;
        options.imageDigest = imported->imageDigest; // a docker form's NAME@sha256:…; empty: pinned at pin.image
    }
    auto run = std::make_unique<deploy::DeploySession>(recipe::Deployment::directory(m_paths, m_host), m_host, recipe,
                                                       p, options, secretStore(), m_redactor);
    // One run of a host at a time: a deploy from a terminal (or another window) keeps this one out.
    if (const Status claimed = run->claim(); !claimed) {
        m_notice->setText(claimed.message());
        return;
    }
    resetSteps();
    m_log->model()->setRecordedQmul4(logs::LogHighlights::Qmul4::Unknown); // this run's check decides
    // The badges and the log start over with the run: a new container's start-up is judged on its
    // own lines (a rerun that reuses the running one replays them).
    restartLog();
    m_notice->setText(tr("Running on %1…").arg(m_host));
    // The host's session keeps the run (this page follows it from its operationChanged).
    if (const Status started = host->startDeploy(std::move(run)); !started) {
        m_notice->setText(started.message()); // claimed above: only the file itself can fail here
        return;
    }
    m_log->setStartExpected(true);
    updateButtons();
    Q_EMIT runningChanged(true);
}

void DeployPage::connectDeploy(deploy::DeploySession *s)
{
    connect(s, &deploy::DeploySession::stepChanged, this, &DeployPage::applyRecord);
    connect(s, &deploy::DeploySession::progress, this, &DeployPage::onProgress);
    connect(s, &deploy::DeploySession::layersChanged, this, &DeployPage::onLayers);
    connect(s, &deploy::DeploySession::notice, m_notice, &QLabel::setText);
    connect(s, &deploy::DeploySession::finished, this, [this, s](bool ok) {
        recordOwnRun();
        m_notice->setText(
            ok ? tr("Deployed and verified on %1. The journal and manifest are in %2.").arg(m_host, s->directory())
               : tr("Stopped at the failed step: its fix is on the right. Resume when it is done."));
        updateProfileCard(); // the pinned image's measured size, from the manifest just written
        // The qmul4 badge: what the check found, or that it does not apply (ROCm, Hopper).
        m_log->model()->setRecordedQmul4(logs::LogHighlights::recorded(m_paths, m_host));
        m_log->setStartExpected(false);
        Q_EMIT runningChanged(false);
    });
}

void DeployPage::followOperation()
{
    fleet::HostSession *session = hostSession();
    if (session != m_watchedSession.data() || !session) {
        // The page listens to its host's session alone: what it runs, and its deployment, whoever
        // wrote it (the fleet reads the records and gives each session its own).
        QObject::disconnect(m_sessionWatch);
        QObject::disconnect(m_recordWatch);
        m_watchedSession = session;
        if (!session) {
            return;
        }
        m_sessionWatch = connect(session, &fleet::HostSession::operationChanged, this, &DeployPage::followOperation);
        m_recordWatch = connect(session, &fleet::HostSession::deploymentChanged, this, &DeployPage::onRecordChanged);
    }
    deploy::UpgradeSession *upgrade = session->upgrade();
    deploy::DeploySession *deploy = session->deploy();
    QObject *operation = upgrade ? static_cast<QObject *>(upgrade) : deploy;
    if (!operation || operation == m_followed.data()) {
        return;
    }
    // The one followed before (another host's, kept by its session) speaks to this page no more:
    // coming back to it connects it afresh, once.
    if (QObject *before = m_followed.data()) {
        QObject::disconnect(before, nullptr, this, nullptr);
        QObject::disconnect(before, nullptr, m_notice, nullptr);
    }
    m_followed = operation;
    if (upgrade) {
        connectUpgrade(upgrade);
        connectUpgradeFinished(upgrade);
    } else {
        connectDeploy(deploy);
    }
    // One that is starting (this page's, from its operationChanged) is shown by whoever started it;
    // one that runs already (the page came back to the host, or was made again) is shown here.
    if (session->operationRunning()) {
        showRunningOperation();
    }
}

void DeployPage::showRunningOperation()
{
    const fleet::HostSession *session = hostSession();
    const deploy::DeploySession *run = session->upgrade() ? session->upgrade()->current() : session->deploy();
    if (run && run->runner()) {
        // The profile box says what runs, without making it the operator's choice for the host.
        const QSignalBlocker block(m_profileBox);
        const int i = m_profileBox->findData(run->runner()->profile().id);
        if (i >= 0) {
            m_profileBox->setCurrentIndex(i);
            updateProfileCard();
        }
    }
    resetSteps();
    if (run) {
        for (const recipe::StepRecord &r : run->results()) {
            applyRecord(r);
        }
        if (!run->current().step.isEmpty()) {
            applyRecord(run->current());
        }
    }
    // An upgrade says which phase runs, as it did when it was started here.
    m_notice->setText(session->upgrade() ? upgradeNotice(session->upgrade()->plan(), session->upgrade()->plan().phase)
                                         : tr("Running on %1…").arg(m_host));
    m_log->setStartExpected(true);
    updateButtons();
    Q_EMIT runningChanged(true);
}

Result<recipe::RecipeProfile> DeployPage::chosenProfile(const recipe::RecipeProfile &listed) const
{
    const std::optional<recipe::ImportedLaunch> &imported = m_generator->launch();
    const recipe::RecipeProfile &base = imported && m_generator->layout() ? *m_generator->layout() : listed;
    QString image = m_image->text().trimmed();
    if (imported && !imported->image.isEmpty()) {
        if (!image.isEmpty() && image != imported->image) {
            return Status::failure(
                tr("The image field says %1 and the command's image is %2: give one.").arg(image, imported->image));
        }
        image = imported->image;
    }
    // A host without a verified command has no GPU list of its own: the command's layout decides.
    const QString gpus = listed.generatorOnly() ? QString() : m_gpus->text();
    return recipe::ProfileChoice{image, gpus, quint16(m_port->value())}.apply(m_recipes->first(), base);
}

void DeployPage::stop()
{
    if (isRunning()) {
        m_notice->setText(tr("Stopping: what runs is cancelled and what is left on the host is reported…"));
        fleet::HostSession *session = hostSession();
        if (deploy::UpgradeSession *upgrade = session->upgrade(); upgrade && upgrade->running()) {
            upgrade->cancel();
        } else if (deploy::DeploySession *deploy = session->deploy()) {
            deploy->cancel();
        }
    }
}

security::SecretStore &DeployPage::secretStore()
{
    return m_watcher.secretStore();
}

void DeployPage::onLayers(const QStringList &layers)
{
    m_layers = layers;
    if (m_steps->currentStep() == QLatin1String("pull")) {
        m_detail->setLayers(layers);
    }
}

void DeployPage::askUpgrade()
{
    const Result<recipe::Deployment> d = deploymentOf(m_host);
    const Result<recipe::Pins> pins = d ? recipe::Pins::of(d.value()) : Result<recipe::Pins>(d.status());
    if (!pins) {
        m_notice->setText(pins.message());
        return;
    }
    const auto interrupted =
        deploy::UpgradePlan::read(deploy::UpgradePlan::fileOf(recipe::Deployment::directory(m_paths, m_host)));
    if (!interrupted) {
        m_notice->setText(interrupted.message());
        return;
    }
    UpgradeDialog dialog(m_host, pins.value(), interrupted.value(), this);
    if (dialog.exec() == QDialog::Accepted) {
        upgrade(dialog.target());
    }
}

void DeployPage::upgrade(const deploy::UpgradeTarget &target)
{
    if (isRunning() || m_recipes->isEmpty() || !m_terms) {
        return;
    }
    fleet::HostSession *host = hostSession();
    if (!host || host->state().phase != ssh::ConnectionPhase::Ready) {
        m_notice->setText(tr("%1 is not connected: connect it from the host bar, then upgrade again.").arg(m_host));
        return;
    }
    const recipe::Recipe &recipe = m_recipes->first();
    Result<deploy::UpgradeSetup> setup = deploy::UpgradeSetup::prepare(m_paths, m_host, recipe, *m_terms, target);
    if (!setup) {
        m_notice->setText(setup.message());
        return;
    }
    if (setup.value().unchanged) {
        m_notice->setText(tr("%1 runs these pins already.").arg(m_host));
        return;
    }
    const deploy::UpgradeSetup &prepared = setup.value();
    setProfile(prepared.profile.id);
    auto run = std::make_unique<deploy::UpgradeSession>(recipe::Deployment::directory(m_paths, m_host), m_host, recipe,
                                                        prepared.profile, prepared.options, prepared.plan,
                                                        secretStore(), m_redactor);
    // The host's session keeps the upgrade; this page follows it from its operationChanged.
    if (const Status started = host->startUpgrade(std::move(run)); !started) {
        m_notice->setText(started.message()); // a deployment of the host runs elsewhere: nothing was written
        updateButtons();
        return;
    }
    m_log->setStartExpected(true);
    updateButtons();
    Q_EMIT runningChanged(true);
}

void DeployPage::connectUpgrade(deploy::UpgradeSession *s)
{
    connect(s, &deploy::UpgradeSession::stepChanged, this, &DeployPage::applyRecord);
    connect(s, &deploy::UpgradeSession::progress, this, &DeployPage::onProgress);
    connect(s, &deploy::UpgradeSession::layersChanged, this, &DeployPage::onLayers);
    connect(s, &deploy::UpgradeSession::notice, m_notice, &QLabel::setText);
    auto upgradeShown = std::make_shared<bool>(false); // this run showed the upgrade's own steps
    connect(s, &deploy::UpgradeSession::phaseChanged, this, [this, s, upgradeShown](deploy::UpgradePhase phase) {
        const deploy::UpgradePlan &plan = s->plan();
        if (phase == deploy::UpgradePhase::Upgrade) {
            *upgradeShown = true;
        }
        // A resumed rollback has no upgrade of this run to keep above it.
        if (phase == deploy::UpgradePhase::Rollback && *upgradeShown && m_steps->anyRun()) {
            // Both, in the order they ran: the failed upgrade stays on top, folded where it passed.
            m_steps->keepAsEarlier(tr("Upgrade to %1: failed at %2")
                                       .arg(deploy::UpgradePlan::shortPins(plan.to),
                                            deploy::DeployPlan::title(plan.failedStep, plan.failedStep)));
        } else {
            resetSteps();
        }
        restartLog();
        m_notice->setText(upgradeNotice(plan, phase));
    });
}

QString DeployPage::upgradeNotice(const deploy::UpgradePlan &plan, deploy::UpgradePhase phase) const
{
    return phase == deploy::UpgradePhase::Upgrade
        ? tr("Upgrading %1: %2…").arg(m_host, plan.summary())
        : tr("The upgrade failed at %1 (%2). Rolling back to %3…")
              .arg(plan.failedStep, plan.failedSeen, deploy::UpgradePlan::shortPins(plan.from));
}

void DeployPage::connectUpgradeFinished(deploy::UpgradeSession *s)
{
    connect(s, &deploy::UpgradeSession::finished, this, [this, s](deploy::UpgradeOutcome outcome) {
        recordOwnRun();
        const deploy::UpgradePlan &plan = s->plan();
        switch (outcome) {
        case deploy::UpgradeOutcome::Upgraded:
            m_notice->setText(
                tr("Upgraded %1 to %2, every step verified.").arg(m_host, deploy::UpgradePlan::shortPins(plan.to)));
            break;
        case deploy::UpgradeOutcome::RolledBack:
            m_notice->setText(
                tr("The upgrade failed at %1 (%2). %3 is back on its old pins %4, verified again.")
                    .arg(plan.failedStep, plan.failedSeen, m_host, deploy::UpgradePlan::shortPins(plan.from)));
            break;
        case deploy::UpgradeOutcome::RollbackFailed:
            m_notice->setText(tr("The upgrade failed at %1 and the rollback failed too: fix what the failed step "
                                 "says, then Upgrade… resumes the rollback.")
                                  .arg(plan.failedStep));
            break;
        case deploy::UpgradeOutcome::Stopped:
            m_notice->setText(tr("Stopped. Upgrade… resumes the %1.").arg(deploy::upgradePhaseName(plan.phase)));
            break;
        }
        updateProfileCard();
        updateButtons();
        m_log->setStartExpected(false);
        Q_EMIT runningChanged(false);
    });
}

bool DeployPage::exportRunbook(const QString &path, QString *error) const
{
    if (m_recipes->isEmpty()) {
        *error = tr("This build has no recipe.");
        return false;
    }
    const Result<QString> script = deploy::runbookFromManifest(m_recipes->first(), m_host, deploymentOf(m_host));
    if (!script) {
        *error = script.message();
        return false;
    }
    if (const Status s = writeFileAtomically(path, script.value().toUtf8()); !s) {
        *error = tr("Cannot write %1: %2.").arg(path, s.message());
        return false;
    }
    QFile::setPermissions(path, QFile::permissions(path) | QFileDevice::ExeOwner);
    return true;
}

ExposePanel *DeployPage::openToTeam()
{
    if (m_host.isEmpty()) {
        return nullptr;
    }
    // One panel per host: another host's is hidden, and kept while it works.
    for (auto it = m_exposePanels.begin(); it != m_exposePanels.end();) {
        ExposePanel *other = it.value();
        if (other == nullptr) {
            it = m_exposePanels.erase(it);
            continue;
        }
        if (it.key() != m_host) {
            other->hide();
        }
        ++it;
    }
    QPointer<ExposePanel> &panel = m_exposePanels[m_host];
    if (!panel) {
        panel = new ExposePanel(m_paths, m_watcher, m_host, this);
    }
    panel->show();
    panel->raise();
    panel->activateWindow();
    return panel;
}

bool DeployPage::exposeRunning() const
{
    for (const QPointer<ExposePanel> &panel : m_exposePanels) {
        if (panel && panel->isRunning()) {
            return true;
        }
    }
    return false;
}

void DeployPage::cancelExposes(int ms)
{
    for (const QPointer<ExposePanel> &panel : std::as_const(m_exposePanels)) {
        if (panel) {
            panel->cancelAndWait(ms);
        }
    }
}

} // namespace flashdeck::ui
