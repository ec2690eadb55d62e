// The Deploy page's plan: its steps as a run or the journal left them, their detail and
// progress, and the log that goes with them.
#include "backend/core/apppaths.h"
#include "backend/core/atomicfile.h"
#include "backend/core/format.h"
#include "backend/deploy/acknowledgements.h"
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

void DeployPage::resetSteps()
{
    m_steps->resetPlan();
}

void DeployPage::applyRecord(const recipe::StepRecord &r)
{
    if (!m_steps->apply(r, isRunning())) {
        return; // a step this build does not know: the journal of a newer Flashdeck
    }
    if (r.status == recipe::StepStatus::Running) {
        m_runningStep = r.step;
        m_progressStart = -1;
    } else if (m_runningStep == r.step) {
        m_runningStep.clear();
    }
    // The qmul4 check skipped (a Blackwell kernel, on Hopper or ROCm): the badge says it does not
    // apply as soon as the run knows, not "not printed by this start" until the run ends.
    if (r.step == QLatin1String("check.qmul4") && r.status == recipe::StepStatus::Skipped) {
        m_log->model()->setRecordedQmul4(logs::LogHighlights::Qmul4::NotApplicable);
    }
    if (m_steps->currentStep() == r.step) {
        showSelected();
    }
    updateButtons();
}

recipe::StepStatus DeployPage::stepStatus(const QString &step) const
{
    return m_steps->status(step);
}

void DeployPage::selectStep(const QString &step)
{
    m_steps->select(step);
}

void DeployPage::showSelected()
{
    const QString step = m_steps->currentStep();
    if (step == QLatin1String("license")) {
        // The terms, the choice and who acknowledged which text; the log gives it the room.
        showLicense();
        return;
    }
    if (m_right->currentWidget() == m_license) {
        const int total = m_rightSplit->height();
        m_rightSplit->setSizes({total * 2 / 5, total - total * 2 / 5});
    }
    m_right->setCurrentWidget(m_detail);
    m_detail->show(step.isEmpty() ? recipe::StepRecord() : m_steps->record(step));
    if (step == QLatin1String("pull") && m_steps->status(step) == recipe::StepStatus::Running) {
        m_detail->setLayers(m_layers);
    }
}

void DeployPage::readRecord()
{
    m_record.reset();
    if (m_host.isEmpty()) {
        return;
    }
    if (Result<recipe::Deployment> d = deploymentOf(m_host)) {
        m_record = std::move(d.value());
    }
}

void DeployPage::recordOwnRun()
{
    // The Fleet, Metrics and Playground follow what was just deployed, without a restart; the
    // session reads the manifest this run wrote, and this page takes it as what it shows: neither
    // this call nor the records' later echo reloads the page (that would drop the run's steps).
    m_recordingOwnRun = true;
    m_watcher.deploymentChanged(m_host);
    m_recordingOwnRun = false;
    readRecord();
}

void DeployPage::onRecordChanged()
{
    if (isRunning() || m_recordingOwnRun) {
        return; // this page's own run (which shows its record when it ends)
    }
    // What the page shows already (its own run's echo): when it finished, when it was undeployed.
    const auto stamp = [](const std::optional<recipe::Deployment> &d) {
        return d ? d->finished + QLatin1Char('|') + d->undeployed : QString();
    };
    const Result<recipe::Deployment> now = deploymentOf(m_host);
    if (stamp(now ? std::optional<recipe::Deployment>(now.value()) : std::nullopt) == stamp(m_record)) {
        return;
    }
    showHost();
    updateProfileCard(); // the pinned image's measured size
}

void DeployPage::loadJournal()
{
    if (isRunning()) {
        return;
    }
    resetSteps();
    readRecord();
    if (m_host.isEmpty()) {
        return;
    }
    // Undeployed since its last run (from a terminal, say): the last run's green steps would say
    // a server runs that does not.
    if (m_record && m_record->isUndeployed()) {
        const QDateTime when = QDateTime::fromString(m_record->undeployed, Qt::ISODate).toLocalTime();
        m_notice->setText(tr("Undeployed on %1: its containers were stopped and removed. Run deploys it again.")
                              .arg(QLocale().toString(when, QLocale::ShortFormat)));
        return;
    }
    deploy::Journal journal(recipe::Deployment::directory(m_paths, m_host) + QStringLiteral("/journal.jsonl"),
                            m_redactor);
    const auto latest = journal.latest();
    if (!latest) {
        m_notice->setText(latest.message());
        return;
    }
    for (recipe::StepRecord r : latest.value()) {
        if (r.status == recipe::StepStatus::Running) {
            // The run that wrote this ended mid-step (Flashdeck closed, or the machine went down).
            r.status = recipe::StepStatus::Unknown;
            r.seen = tr("interrupted: Flashdeck stopped while this step ran. Resume checks it again.");
        }
        applyRecord(r);
    }
    if (!latest.value().isEmpty()) {
        m_notice->setText(tr("The last run on %1, from its journal. Resume continues it; nothing is pulled or "
                             "started twice.")
                              .arg(m_host));
    }
}

void DeployPage::restartLog()
{
    fleet::HostSession *session = m_host.isEmpty() ? nullptr : m_watcher.session(m_host);
    // The start-up of a deployment that already runs; the Logs page keeps more. The stream is the
    // host's one, shared with the Logs page.
    m_log->follow(session ? session->logStream() : nullptr, 5000);
    if (!session) {
        m_log->setStatus(tr("No host selected."));
    }
}

void DeployPage::onProgress(const recipe::StepProgress &p)
{
    const QString &step = p.step;
    const qint64 done = p.done;
    // The pull's layers and the first start's weights (Ready) are bytes. The pull's rate is
    // measured here; Ready's text carries its own (measured on the host's cache).
    const bool bytes = step == QLatin1String("pull") || step == QLatin1String("ready");
    double rate = 0;
    if (step == QLatin1String("pull")) {
        if (m_progressStep != step || m_progressStart < 0 || done < m_progressStart) {
            m_progressStep = step;
            m_progressStart = done;
            m_progressClock.start();
        } else if (m_progressClock.elapsed() > 500) {
            rate = double(done - m_progressStart) / (double(m_progressClock.elapsed()) / 1000.0);
        }
    }
    if (p.percent >= 0) {
        m_steps->showPercent(step, p.percent);
    }
    if (m_steps->currentStep() == step) {
        m_detail->setProgress(p, rate, bytes);
    }
}

void DeployPage::showLicense()
{
    if (m_right->currentWidget() != m_license) {
        const int total = m_rightSplit->height();
        m_rightSplit->setSizes({total * 3 / 4, total - total * 3 / 4});
    }
    m_right->setCurrentWidget(m_license);
}

} // namespace flashdeck::ui
