#pragma once

#include "backend/core/result.h"
#include "backend/recipe/pins.h"

#include <QString>

#include <optional>

namespace flashdeck::deploy {

/** Which plan of an upgrade runs: the new pins, or the old ones again after a failure. */
enum class UpgradePhase { Upgrade, Rollback };

/** "upgrade" or "rollback": the `{"phase": …}` of `upgrade --json` and the journal's records. */
QString upgradePhaseName(UpgradePhase phase);

/**
 * One host's upgrade from one set of pins to another, kept in `deployments/<host>/upgrade.json`
 * while it runs, so an interrupted upgrade or rollback continues with `--resume` (and a plain
 * deploy or a second upgrade is refused until then). Removed when the upgrade ends either way.
 */
struct UpgradePlan
{
    recipe::Pins from;
    recipe::Pins to;
    UpgradePhase phase = UpgradePhase::Upgrade;
    /** What made it roll back: the failed step and what it saw (empty while upgrading). */
    QString failedStep;
    QString failedSeen;
    QString startedAt;

    static QString fileOf(const QString &deploymentDirectory);
    /**
     * `upgrade.lock` beside it: held (HeldLock) while an upgrade or rollback of the host runs, in
     * whichever process. The plan file alone also stays after a Ctrl+C or a failed rollback.
     */
    static QString lockOf(const QString &deploymentDirectory);
    /** The host's unfinished upgrade; nullopt when there is none; a failure names the damaged file. */
    [[nodiscard]] static Result<std::optional<UpgradePlan>> read(const QString &file);
    [[nodiscard]] Status write(const QString &file) const;
    /** "sha256:0a1b2c3d4e5f / 62cbc27f7e9e → sha256:… / …": from and to, short. */
    QString summary() const;
    /** The short form of a pin pair: "sha256:0a1b2c3d4e5f / 62cbc27f7e9e". */
    static QString shortPins(const recipe::Pins &pins);
};

} // namespace flashdeck::deploy
