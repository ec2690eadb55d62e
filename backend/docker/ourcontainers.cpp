#include "backend/docker/ourcontainers.h"

#include "backend/core/jsonread.h"

#include <nlohmann/json.hpp>

namespace flashdeck::docker {

QString OurContainers::filter(bool runningOnly)
{
    return runningOnly ? QStringLiteral(R"({"label":["%1"],"status":["running"]})").arg(QLatin1String(kDeploymentLabel))
                       : QStringLiteral(R"({"label":["%1"]})").arg(QLatin1String(kDeploymentLabel));
}

QList<OurContainer> OurContainers::parse(const nlohmann::json &list)
{
    QList<OurContainer> out;
    if (!list.is_array()) {
        return out;
    }
    for (const nlohmann::json &c : list) {
        if (!c.is_object()) {
            continue;
        }
        // What dockerd sends is read like any host's answer: a wrong type is nothing ("Labels"
        // is null on some daemons), never an exception.
        const auto labels = c.find("Labels");
        const bool hasLabels = labels != c.end() && labels->is_object();
        OurContainer o;
        o.deployment = QString::fromStdString(hasLabels ? jsonread::string(*labels, kDeploymentLabel) : std::string());
        if (o.deployment.isEmpty()) {
            continue;
        }
        o.id = QString::fromStdString(jsonread::string(c, "Id"));
        const auto names = c.find("Names");
        if (names != c.end() && names->is_array()) {
            // The first name (a range-for: indexing trips -Wnull-dereference in the -O3 build).
            for (const nlohmann::json &n : *names) {
                if (n.is_string()) {
                    o.name = QString::fromStdString(n.get<std::string>()).mid(1);
                }
                break;
            }
        }
        o.state = QString::fromStdString(jsonread::string(c, "State"));
        o.status = QString::fromStdString(jsonread::string(c, "Status"));
        const std::string role = hasLabels ? jsonread::string(*labels, kRoleLabel) : std::string();
        // The GPU check carries no role label; containers from before the role label name theirs.
        if (o.name.endsWith(QLatin1String("-gpucheck"))) {
            o.role = ContainerRole::GpuCheck;
        } else if (role == "router" || (role.empty() && o.name.endsWith(QLatin1String("-router")))) {
            o.role = ContainerRole::Router;
        }
        out.append(o);
    }
    return out;
}

QList<OurContainer> OurContainers::of(const QList<OurContainer> &all, const QStringList &deployments)
{
    QList<OurContainer> out;
    for (const OurContainer &c : all) {
        if (deployments.contains(c.deployment)) {
            out.append(c);
        }
    }
    return out;
}

std::optional<OurContainer> OurContainers::speakingServer(const QList<OurContainer> &all,
                                                          const QStringList &deployments)
{
    std::optional<OurContainer> best;
    int bestScore = -1;
    for (const OurContainer &c : of(all, deployments)) {
        if (c.role != ContainerRole::Server) {
            continue;
        }
        const int score = (c.running() ? 2 : 0) + (c.name.endsWith(QLatin1String("-0")) ? 1 : 0);
        if (score > bestScore) {
            bestScore = score;
            best = c;
        }
    }
    return best;
}

} // namespace flashdeck::docker
