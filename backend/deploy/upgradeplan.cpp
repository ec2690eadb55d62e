#include "backend/deploy/upgradeplan.h"

#include "backend/core/jsonread.h"
#include "backend/core/lockedfile.h"

#include <QCoreApplication>
#include <QFile>

#include <nlohmann/json.hpp>

namespace flashdeck::deploy {

QString upgradePhaseName(UpgradePhase phase)
{
    return phase == UpgradePhase::Rollback ? QStringLiteral("rollback") : QStringLiteral("upgrade");
}

QString UpgradePlan::fileOf(const QString &deploymentDirectory)
{
    return deploymentDirectory + QStringLiteral("/upgrade.json");
}

QString UpgradePlan::lockOf(const QString &deploymentDirectory)
{
    return deploymentDirectory + QStringLiteral("/upgrade.lock");
}

Result<std::optional<UpgradePlan>> UpgradePlan::read(const QString &file)
{
    QFile f(file);
    if (!f.exists()) {
        return std::optional<UpgradePlan>();
    }
    const auto damaged = [&file](const QString &why) {
        return Status::failure(
            QCoreApplication::translate("Deploy",
                                        "The record of an unfinished upgrade, %1, is damaged (%2): check what the "
                                        "host runs with 'flashdeck status', then move the file aside.")
                .arg(file, why));
    };
    if (!f.open(QIODevice::ReadOnly)) {
        return damaged(f.errorString());
    }
    const QByteArray data = f.readAll();
    const nlohmann::json j = jsonread::parse(data.constData(), data.constData() + data.size());
    if (!j.is_object()) {
        return damaged(QCoreApplication::translate("Deploy", "not JSON"));
    }
    Result<recipe::Pins> from = recipe::Pins::fromJson(j.value("from", nlohmann::json()));
    Result<recipe::Pins> to = recipe::Pins::fromJson(j.value("to", nlohmann::json()));
    if (!from || !to) {
        return damaged(!from ? from.message() : to.message());
    }
    UpgradePlan plan;
    plan.from = std::move(from).value();
    plan.to = std::move(to).value();
    plan.phase = jsonread::string(j, "phase") == "rollback" ? UpgradePhase::Rollback : UpgradePhase::Upgrade;
    plan.failedStep = QString::fromStdString(jsonread::string(j, "failed_step"));
    plan.failedSeen = QString::fromStdString(jsonread::string(j, "failed_seen"));
    plan.startedAt = QString::fromStdString(jsonread::string(j, "started_at"));
    return std::optional<UpgradePlan>(plan);
}

Status UpgradePlan::write(const QString &file) const
{
    const nlohmann::json j = {{"from", from.toJson()},
                              {"to", to.toJson()},
                              {"phase", upgradePhaseName(phase).toStdString()},
                              {"failed_step", failedStep.toStdString()},
                              {"failed_seen", failedSeen.toStdString()},
                              {"started_at", startedAt.toStdString()}};
    // Under the shared files' lock: the window and `flashdeck upgrade` may both plan one host.
    const QByteArray bytes = QByteArray::fromStdString(j.dump(2)) + '\n';
    return LockedFile(file, QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        .update([&bytes](const std::optional<QByteArray> &) { return LockedFile::Edit::replaceWith(bytes); });
}

QString UpgradePlan::shortPins(const recipe::Pins &pins)
{
    return recipe::Pins::shortDigest(pins.imageDigest) + QStringLiteral(" / ") +
        recipe::Pins::shortRevision(pins.modelRevision);
}

QString UpgradePlan::summary() const
{
    return shortPins(from) + QStringLiteral(" → ") + shortPins(to);
}

} // namespace flashdeck::deploy
