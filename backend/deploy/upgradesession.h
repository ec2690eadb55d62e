#pragma once

#include "backend/core/heldlock.h"
#include "backend/deploy/deployrunner.h"
#include "backend/deploy/upgradeplan.h"

#include <QObject>

#include <memory>

namespace flashdeck {

namespace security {
class Redactor;
class SecretStore;
} // namespace security

} // namespace flashdeck

namespace flashdeck::deploy {

class DeploySession;

/** How an upgrade ended. */
enum class UpgradeOutcome {
    Upgraded, // every step of the new pins passed
    RolledBack, // the new pins failed; the old ones run again and passed every step
    RollbackFailed, // the new pins failed and so did the old ones: the host needs the operator
    Stopped, // cancelled or cut off: --resume continues where it was
};

/** "upgraded", "rolled-back", "rollback-failed", "stopped": the summary's result column and JSON. */
QString upgradeOutcomeName(UpgradeOutcome outcome);

/**
 * Moves one host's deployment from its pins to others: the deploy plan again with the new pins
 * (pre-flight, pin, pull while the old server keeps serving, then the launch stops the old server
 * and starts the new, then every check and verify step). On any failure it runs the plan again
 * with the old pins (their image is still on the host) and verifies that too. The plan file
 * (UpgradePlan) says where it is, for --resume; the journal's records carry their phase.
 */
class UpgradeSession final : public QObject
{
    Q_OBJECT

public:
    /**
     * `base`: the deployment's options (licence, flags, model source); the pins come from `plan`.
     * The recipe and profile are copied (the host's session keeps the upgrade, not the page).
     */
    UpgradeSession(QString directory, QString hostName, const recipe::Recipe &recipe,
                   const recipe::RecipeProfile &profile, DeployOptions base, UpgradePlan plan,
                   security::SecretStore &secrets, security::Redactor &redactor, QObject *parent = nullptr);
    ~UpgradeSession() override;

    /**
     * Runs the plan's phase on the connection (a resumed upgrade continues in the phase it was in). Refused, with
     * nothing written, while a deployment of the host runs elsewhere (its deploy lock is held).
     */
    [[nodiscard]] Status start(ssh::Transport &connection);
    void cancel();
    const UpgradePlan &plan() const { return m_plan; }
    bool running() const { return m_running; }
    /** The phase's deployment run (its steps so far); null before the first phase. */
    const DeploySession *current() const { return m_session.get(); }

Q_SIGNALS:
    void phaseChanged(flashdeck::deploy::UpgradePhase phase);
    void stepChanged(const flashdeck::recipe::StepRecord &record);
    void progress(const flashdeck::recipe::StepProgress &progress);
    void layersChanged(const QStringList &layers);
    void notice(const QString &text);
    void finished(flashdeck::deploy::UpgradeOutcome outcome);

private:
    void runPhase();
    void phaseFinished(bool ok);
    void end(UpgradeOutcome outcome);
    DeployOptions optionsFor(UpgradePhase phase) const;

    QString m_dir;
    QString m_host;
    recipe::Recipe m_recipe;
    recipe::RecipeProfile m_profile;
    DeployOptions m_base;
    UpgradePlan m_plan;
    security::SecretStore &m_secrets;
    security::Redactor &m_redactor;
    ssh::Transport *m_connection = nullptr;
    std::unique_ptr<DeploySession> m_session;
    std::unique_ptr<DeploySession> m_finishedSession; // kept until the next phase's start: it is in its own signal
    recipe::StepRecord m_failed; // the phase's failed step
    bool m_cancelled = false;
    bool m_running = false;
    std::unique_ptr<HeldLock> m_held; // while it runs: the fleet's monitors read a planned outage
};

} // namespace flashdeck::deploy
