#include "backend/recipe/deployment.h"

#include "backend/core/apppaths.h"
#include "backend/core/jsonread.h"
#include "backend/core/lockedfile.h"

#include <QCoreApplication>
#include <QFile>

#include <nlohmann/json.hpp>

#include <limits>

namespace flashdeck::recipe {

DeploymentId::DeploymentId(QString host, QString profile)
    : m_host(std::move(host))
    , m_profile(std::move(profile))
{ }

QString DeploymentId::toString() const
{
    return isEmpty() ? QString() : m_host + QLatin1Char('-') + m_profile;
}

StepStatus Deployment::stepStatus(const QString &step) const
{
    const auto it = steps.constFind(step);
    return it == steps.constEnd() ? StepStatus::Pending : it->status;
}

std::optional<KernelVerdict> Deployment::qmul4VerdictOf(const QString &digest, const QString &sha) const
{
    for (auto it = qmul4Verdicts.crbegin(); it != qmul4Verdicts.crend(); ++it) {
        if (it->of(digest, sha)) {
            return *it;
        }
    }
    return std::nullopt;
}

QList<KernelVerdict> Deployment::withVerdict(QList<KernelVerdict> earlier, const KernelVerdict &seen)
{
    for (qsizetype i = 0; i < earlier.size(); ++i) {
        if (earlier.at(i).of(seen.imageDigest, seen.modelSha)) {
            if (earlier.at(i).backend == seen.backend) {
                return earlier; // the first start that printed it stays the one named
            }
            earlier.removeAt(i);
            break;
        }
    }
    earlier.append(seen);
    while (earlier.size() > kMaxKernelVerdicts) {
        earlier.removeFirst();
    }
    return earlier;
}

QString Deployment::directory(const AppPaths &paths, const QString &host)
{
    return paths.dataDir() + QStringLiteral("/deployments/") + host;
}

QString Deployment::manifestFile(const AppPaths &paths, const QString &host)
{
    return manifestIn(directory(paths, host));
}

QString Deployment::manifestIn(const QString &directory)
{
    return directory + QStringLiteral("/manifest.json");
}

bool Deployment::exists(const AppPaths &paths, const QString &host)
{
    return QFile::exists(manifestFile(paths, host));
}

Result<Deployment> Deployment::read(const AppPaths &paths, const QString &host)
{
    QFile f(manifestFile(paths, host));
    if (!f.open(QIODevice::ReadOnly)) {
        return Status::failure(QCoreApplication::translate("Recipe", "Flashdeck has not deployed to %1.").arg(host),
                               f.errorString());
    }
    Result<Deployment> d = fromJson(f.readAll());
    if (!d) {
        return Status::failure(
            QCoreApplication::translate("Recipe", "The deployment manifest %1 is damaged (%2). Deploy again.")
                .arg(f.fileName(), d.message()));
    }
    return d;
}

Result<Deployment> Deployment::fromJson(const QByteArray &json)
{
    const nlohmann::json m = jsonread::parse(json.constData(), json.constData() + json.size());
    if (!m.is_object()) {
        return Status::failure(QCoreApplication::translate("Recipe", "not a JSON object"));
    }
    const auto str = [&m](const char *k) { return QString::fromStdString(jsonread::string(m, k)); };
    Deployment d;
    d.host = str("host");
    d.profile = str("profile");
    if (d.profile.isEmpty()) {
        return Status::failure(QStringLiteral("no profile"));
    }
    d.recipe = str("recipe");
    d.image = str("image");
    d.gpus = str("gpus");
    d.port = quint16(jsonread::integer(m, "port", 1, 65535).value_or(0));
    d.imageDigest = str("image_digest");
    d.imageBytes = jsonread::integer(m, "image_bytes", 1, std::numeric_limits<qint64>::max()).value_or(0);
    d.modelSha = str("model_sha");
    d.hostHome = str("host_home");
    d.launch = str("launch");
    d.modelSource = str("model_source");
    d.modelDir = str("model_dir");
    d.licenseAcknowledged = str("license_acknowledged");
    d.hicacheGbPerRank = int(jsonread::integer(m, "hicache_gb_per_rank", 0, 1 << 20).value_or(0));
    if (const auto flags = m.find("operator_flags"); flags != m.end() && flags->is_array()) {
        for (const auto &f : *flags) {
            if (f.is_string()) {
                d.operatorFlags.append(QString::fromStdString(f.get<std::string>()));
            }
        }
    }
    d.launchCommand = str("launch_command");
    const auto ok = m.find("ok");
    d.ok = ok != m.end() && ok->is_boolean() && ok->get<bool>();
    d.finished = str("finished");
    d.undeployed = str("undeployed");
    if (const auto steps = m.find("steps"); steps != m.end() && steps->is_object()) {
        for (auto it = steps->begin(); it != steps->end(); ++it) {
            if (it->is_object()) {
                StepRecord r = it->get<StepRecord>();
                if (r.step.isEmpty()) {
                    r.step = QString::fromStdString(it.key());
                }
                d.steps.insert(QString::fromStdString(it.key()), r);
            }
        }
    }
    if (const auto verdicts = m.find("qmul4_verdicts"); verdicts != m.end() && verdicts->is_array()) {
        for (const auto &v : *verdicts) {
            KernelVerdict k;
            k.backend = QString::fromStdString(jsonread::string(v, "backend"));
            k.line = QString::fromStdString(jsonread::string(v, "line"));
            k.seenAt = QString::fromStdString(jsonread::string(v, "seen_at"));
            k.imageDigest = QString::fromStdString(jsonread::string(v, "image_digest"));
            k.modelSha = QString::fromStdString(jsonread::string(v, "model_sha"));
            if (!k.backend.isEmpty() && !k.imageDigest.isEmpty()) {
                d.qmul4Verdicts.append(k);
            }
        }
    }
    return d;
}

QByteArray Deployment::toJson() const
{
    nlohmann::json stepsJson = nlohmann::json::object();
    for (auto it = steps.cbegin(); it != steps.cend(); ++it) {
        stepsJson[it.key().toStdString()] = it.value();
    }
    nlohmann::json flags = nlohmann::json::array();
    for (const QString &f : operatorFlags) {
        flags.push_back(f.toStdString());
    }
    nlohmann::json verdicts = nlohmann::json::array();
    for (const KernelVerdict &v : qmul4Verdicts) {
        verdicts.push_back({{"backend", v.backend.toStdString()},
                            {"line", v.line.toStdString()},
                            {"seen_at", v.seenAt.toStdString()},
                            {"image_digest", v.imageDigest.toStdString()},
                            {"model_sha", v.modelSha.toStdString()}});
    }
    const nlohmann::json m = {{"host", host.toStdString()},
                              {"profile", profile.toStdString()},
                              // What the operator chose on top of it (the runbook runs the same).
                              {"image", image.toStdString()},
                              {"gpus", gpus.toStdString()},
                              {"port", port},
                              {"recipe", recipe.toStdString()},
                              {"image_digest", imageDigest.toStdString()},
                              {"image_bytes", imageBytes},
                              {"model_sha", modelSha.toStdString()},
                              {"host_home", hostHome.toStdString()},
                              {"launch", launch.toStdString()},
                              {"model_source", modelSource.toStdString()},
                              {"model_dir", modelDir.toStdString()},
                              {"steps", stepsJson},
                              {"qmul4_verdicts", verdicts},
                              {"license_acknowledged", licenseAcknowledged.toStdString()},
                              {"hicache_gb_per_rank", hicacheGbPerRank},
                              {"operator_flags", flags},
                              {"launch_command", launchCommand.toStdString()},
                              {"ok", ok},
                              {"finished", finished.toStdString()},
                              {"undeployed", undeployed.toStdString()}};
    return QByteArray::fromStdString(m.dump(2));
}

Status Deployment::recordUndeployed(const AppPaths &paths, const QString &host, const QDateTime &when)
{
    if (!exists(paths, host)) {
        return Status::ok(); // nothing Flashdeck deployed to mark
    }
    const QString stamp = when.toUTC().toString(Qt::ISODate);
    return LockedFile(manifestFile(paths, host), QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        .update([&stamp, &host](const std::optional<QByteArray> &current) {
            if (!current) { // removed meanwhile (hosts remove): no empty manifest in its place
                return LockedFile::Edit::refuse(Status::failure(
                    QCoreApplication::translate("Recipe", "Flashdeck has not deployed to %1.").arg(host)));
            }
            Result<Deployment> d = fromJson(*current);
            if (!d) {
                return LockedFile::Edit::corrupt(Status::failure(d.message()));
            }
            d.value().undeployed = stamp;
            return LockedFile::Edit::replaceWith(d.value().toJson());
        });
}

Status Deployment::write(const AppPaths &paths) const
{
    return writeTo(manifestFile(paths, host));
}

Status Deployment::writeTo(const QString &file) const
{
    // Under the lock every writer of a shared file takes: the window and a CLI command may
    // both record the same deployment (a rerun, an upgrade) at once.
    const QByteArray bytes = toJson();
    return LockedFile(file, QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        .update([&bytes](const std::optional<QByteArray> &) { return LockedFile::Edit::replaceWith(bytes); });
}

} // namespace flashdeck::recipe
