#include "backend/deploy/upgradesetup.h"

#include "backend/core/apppaths.h"
#include "backend/deploy/acknowledgements.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/licenseterms.h"
#include "backend/recipe/profilechoice.h"

#include <QCoreApplication>

namespace flashdeck::deploy {

namespace {

/** The pins an upgrade goes to: the running ones with what the target changes, not yet deployed. */
recipe::Pins targetPins(const recipe::Pins &from, const UpgradeTarget &target)
{
    recipe::Pins to = from;
    if (target.pinsFile) {
        to.imageDigest = target.pinsFile->imageDigest;
        to.modelRevision = target.pinsFile->modelRevision;
    }
    if (!target.imageDigest.isEmpty()) {
        to.imageDigest = target.imageDigest;
    }
    if (!target.modelRevision.isEmpty()) {
        to.modelRevision = target.modelRevision;
    }
    to.launchSha256.clear();
    to.deployedAt.clear();
    return to;
}

/** A new upgrade's plan, from the deployment's pins to the target's; refused while another is interrupted. */
Status planNew(UpgradeSetup &setup, const std::optional<UpgradePlan> &recorded, const recipe::Deployment &d,
               const QString &host, const UpgradeTarget &target)
{
    if (recorded) {
        return Status::failure(
            QCoreApplication::translate("Deploy",
                                        "An upgrade of %1 (%2) was interrupted in its %3: finish it with "
                                        "'flashdeck upgrade %1 --resume' first.")
                .arg(host, recorded->summary(), upgradePhaseName(recorded->phase)));
    }
    const Result<recipe::Pins> from = recipe::Pins::of(d);
    if (!from) {
        return from.status();
    }
    if (!d.ok) {
        return Status::failure(
            QCoreApplication::translate("Deploy",
                                        "The last deployment of %1 did not finish: 'flashdeck deploy %1 "
                                        "--resume' first, so the rollback has verified pins to return to.")
                .arg(host));
    }
    if (target.pinsFile && !target.pinsFile->profile.isEmpty() && target.pinsFile->profile != d.profile) {
        return Status::failure(
            QCoreApplication::translate("Deploy",
                                        "The pins file is for profile %1; %2 runs %3. An upgrade keeps the "
                                        "profile: undeploy and deploy --pins to change it.")
                .arg(target.pinsFile->profile, host, d.profile));
    }
    const recipe::Pins to = targetPins(from.value(), target);
    setup.plan.from = from.value();
    setup.plan.to = to;
    setup.unchanged = to.imageDigest == from.value().imageDigest && to.modelRevision == from.value().modelRevision;
    return Status::ok();
}

/** The plan: the interrupted one to resume, or a new one. */
Status planUpgrade(UpgradeSetup &setup, const std::optional<UpgradePlan> &recorded, const recipe::Deployment &d,
                   const QString &host, const UpgradeTarget &target)
{
    if (!target.resume) {
        return planNew(setup, recorded, d, host, target);
    }
    if (!recorded) {
        return Status::failure(
            QCoreApplication::translate(
                "Deploy", "No interrupted upgrade on %1 to resume ('flashdeck pins %1' shows what it runs).")
                .arg(host));
    }
    setup.plan = *recorded;
    return Status::ok();
}

/** The generator's command the deployment runs, imported again as it was: an upgrade changes the pins only. */
Status reimportLaunch(DeployOptions &o, const UpgradeSetup &setup, const recipe::Deployment &d,
                      const recipe::Recipe &recipe)
{
    recipe::ImportContext context;
    context.vendor = setup.profile.vendor;
    context.gpusPerService = int(setup.profile.replicas.first().gpus.size());
    context.gpusFrom = QCoreApplication::translate("Deploy", "the deployment");
    context.port = setup.profile.replicas.first().port;
    context.offline = o.modelSource != QLatin1String("hub");
    const Result<recipe::ImportedLaunch> imported = recipe::ImportedLaunch::make(d.launchCommand, recipe, context);
    if (!imported) {
        return Status::failure(
            QCoreApplication::translate("Deploy", "The generator's command the deployment runs is refused now: %1")
                .arg(imported.message()));
    }
    o.imported = imported.value();
    return Status::ok();
}

/** The deploy options the upgrade runs with: the deployment's own, and the acknowledged license. */
Status fillOptions(UpgradeSetup &setup, const recipe::Deployment &d, const QString &host, const Acknowledgement &ack,
                   const recipe::Recipe &recipe)
{
    DeployOptions &o = setup.options;
    o.deploymentId = recipe::DeploymentId(host, setup.profile.id).toString();
    o.licenseAcknowledged = ack.use;
    o.licenseRecord =
        QCoreApplication::translate("Deploy", "%1 at %2, summary sha256 %3").arg(ack.user, ack.at, ack.summarySha256);
    o.hicacheGbPerRank = d.hicacheGbPerRank;
    o.operatorFlags = d.operatorFlags;
    o.modelSource = d.modelSource.isEmpty() ? QStringLiteral("hub") : d.modelSource;
    o.modelDir = d.modelDir;
    o.gpusChosen = true; // the GPUs the deployment runs on, as its manifest records them
    if (!d.launchCommand.isEmpty()) {
        return reimportLaunch(o, setup, d, recipe);
    }
    return Status::ok();
}

} // namespace

Result<UpgradeSetup> UpgradeSetup::prepare(const AppPaths &paths, const QString &host, const recipe::Recipe &recipe,
                                           const recipe::LicenseTerms &terms, const UpgradeTarget &target)
{
    const Result<recipe::Deployment> deployment = recipe::Deployment::read(paths, host);
    if (!deployment) {
        return Status::failure(
            deployment.message() +
            QCoreApplication::translate("Deploy", " An upgrade starts from a deployment: 'flashdeck deploy %1' first.")
                .arg(host));
    }
    const recipe::Deployment &d = deployment.value();
    const QString dir = recipe::Deployment::directory(paths, host);
    const Result<std::optional<UpgradePlan>> recorded = UpgradePlan::read(UpgradePlan::fileOf(dir));
    if (!recorded) {
        return recorded.status();
    }
    UpgradeSetup setup;
    if (Status planned = planUpgrade(setup, recorded.value(), d, host, target); !planned) {
        return planned;
    }
    const Result<recipe::RecipeProfile> profile = recipe::ProfileChoice::asDeployed(recipe, d);
    if (!profile) {
        return profile.status();
    }
    setup.profile = profile.value();
    Acknowledgements acks(paths.acknowledgementsFile());
    const auto ack = acks.find(host, terms);
    if (!ack) {
        return ack.status();
    }
    if (!ack.value()) {
        return Status::failure(
            QCoreApplication::translate("Deploy",
                                        "No acknowledgement of the %1 is recorded for %2 (or its summary "
                                        "changed): run 'flashdeck license' and deploy once with "
                                        "--accept-license.")
                .arg(terms.name(), host));
    }
    if (Status filled = fillOptions(setup, d, host, *ack.value(), recipe); !filled) {
        return filled;
    }
    return setup;
}

} // namespace flashdeck::deploy
