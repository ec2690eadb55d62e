#include "backend/deploy/upgradesession.h"

#include "backend/deploy/deploysession.h"

#include <QDateTime>
#include <QFile>
#include <QTimer>

namespace flashdeck::deploy {

QString upgradeOutcomeName(UpgradeOutcome outcome)
{
    switch (outcome) {
    case UpgradeOutcome::Upgraded:
        return QStringLiteral("upgraded");
    case UpgradeOutcome::RolledBack:
        return QStringLiteral("rolled-back");
    case UpgradeOutcome::RollbackFailed:
        return QStringLiteral("rollback-failed");
    case UpgradeOutcome::Stopped:
        break;
    }
    return QStringLiteral("stopped");
}

UpgradeSession::UpgradeSession(QString directory, QString hostName, const recipe::Recipe &recipe,
                               const recipe::RecipeProfile &profile, DeployOptions base, UpgradePlan plan,
                               security::SecretStore &secrets, security::Redactor &redactor, QObject *parent)
    : QObject(parent)
    , m_dir(std::move(directory))
    , m_host(std::move(hostName))
    , m_recipe(recipe)
    , m_profile(profile)
    , m_base(std::move(base))
    , m_plan(std::move(plan))
    , m_secrets(secrets)
    , m_redactor(redactor)
{
    if (m_plan.startedAt.isEmpty()) {
        m_plan.startedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    }
}

UpgradeSession::~UpgradeSession() = default;

DeployOptions UpgradeSession::optionsFor(UpgradePhase phase) const
{
    DeployOptions o = m_base;
    const recipe::Pins &pins = phase == UpgradePhase::Upgrade ? m_plan.to : m_plan.from;
    o.imageDigest = pins.imageDigest;
    o.modelRevision = pins.modelRevision;
    o.replaceRunning = true; // the other pins' server goes at the launch step, not before
    o.phase = upgradePhaseName(phase);
    // Room for the new image beside the old one; for the weights only when the revision changes
    // (a rollback's are on the host: the old server ran from them).
    o.weightsOnHost = phase == UpgradePhase::Rollback || m_plan.from.modelRevision == m_plan.to.modelRevision;
    return o;
}

Status UpgradeSession::start(ssh::Transport &connection)
{
    if (m_running) {
        return Status::ok();
    }
    // Before the plan file is written: a refused upgrade leaves no plan to --resume.
    if (const QString elsewhere = DeploySession::runningElsewhere(m_host, m_dir); !elsewhere.isEmpty()) {
        return Status::failure(elsewhere);
    }
    m_running = true;
    m_cancelled = false;
    m_connection = &connection;
    m_held = std::make_unique<HeldLock>(UpgradePlan::lockOf(m_dir));
    if (const Status s = m_held->acquire(); !s) {
        // The upgrade goes on; the Fleet page then raises its outage as it would any other.
        Q_EMIT notice(s.message());
    }
    runPhase();
    return Status::ok();
}

void UpgradeSession::runPhase()
{
    // The plan file first: if this process dies now, --resume knows which pins to continue with.
    if (const Status s = m_plan.write(UpgradePlan::fileOf(m_dir)); !s) {
        Q_EMIT notice(tr("Could not record the upgrade in %1: %2. It goes on, but could not be resumed if it were "
                         "interrupted.")
                          .arg(UpgradePlan::fileOf(m_dir), s.message()));
    }
    Q_EMIT phaseChanged(m_plan.phase);
    m_failed = recipe::StepRecord{};
    m_finishedSession = std::move(m_session);
    m_session = std::make_unique<DeploySession>(m_dir, m_host, m_recipe, m_profile, optionsFor(m_plan.phase), m_secrets,
                                                m_redactor);
    connect(m_session.get(), &DeploySession::stepChanged, this, [this](const recipe::StepRecord &r) {
        if (r.status == recipe::StepStatus::Fail) {
            m_failed = r;
        }
        Q_EMIT stepChanged(r);
    });
    connect(m_session.get(), &DeploySession::progress, this, &UpgradeSession::progress);
    connect(m_session.get(), &DeploySession::layersChanged, this, &UpgradeSession::layersChanged);
    connect(m_session.get(), &DeploySession::notice, this, &UpgradeSession::notice);
    connect(m_session.get(), &DeploySession::finished, this, &UpgradeSession::phaseFinished);
    if (const Status started = m_session->start(*m_connection); !started) {
        // A deployment of the host runs elsewhere: this phase did not begin; --resume continues it.
        Q_EMIT notice(started.message());
        m_cancelled = true;
        QTimer::singleShot(0, this, [this] { phaseFinished(false); });
    }
}

void UpgradeSession::phaseFinished(bool ok)
{
    if (m_cancelled) {
        end(UpgradeOutcome::Stopped); // the plan file stays: --resume continues this phase
        return;
    }
    if (m_plan.phase == UpgradePhase::Rollback) {
        end(ok ? UpgradeOutcome::RolledBack : UpgradeOutcome::RollbackFailed);
        return;
    }
    if (ok) {
        end(UpgradeOutcome::Upgraded);
        return;
    }
    m_plan.phase = UpgradePhase::Rollback;
    m_plan.failedStep = m_failed.step;
    m_plan.failedSeen = m_failed.seen.section(QLatin1Char('\n'), 0, 0); // the cause comes first
    // A fresh stack: this runs inside the finished phase's own signal.
    QTimer::singleShot(0, this, [this] { runPhase(); });
}

void UpgradeSession::end(UpgradeOutcome outcome)
{
    m_running = false;
    m_held.reset(); // a stopped upgrade or a failed rollback is no planned outage: raised again
    // A finished upgrade or rollback leaves no plan behind; a stopped one, or a failed rollback
    // (the operator must look, then resume or deploy), keeps it.
    if (outcome == UpgradeOutcome::Upgraded || outcome == UpgradeOutcome::RolledBack) {
        QFile::remove(UpgradePlan::fileOf(m_dir));
    } else if (const Status s = m_plan.write(UpgradePlan::fileOf(m_dir)); !s) {
        Q_EMIT notice(s.message());
    }
    Q_EMIT finished(outcome);
}

void UpgradeSession::cancel()
{
    if (m_session && m_running) {
        m_cancelled = true;
        m_session->cancel();
    }
}

} // namespace flashdeck::deploy
