#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <nlohmann/json_fwd.hpp>

#include <optional>

namespace flashdeck::docker {

/** What one of Flashdeck's containers is for. */
enum class ContainerRole { Server, Router, GpuCheck };

/** One of Flashdeck's containers, as dockerd lists it (GET /containers/json). */
struct OurContainer
{
    QString id;
    /** Without dockerd's leading '/'. */
    QString name;
    /** dockerd's State ("running", "exited", …) and Status ("Up 3 minutes"). */
    QString state;
    QString status;
    /** The deployment it belongs to: its `io.flashdeck.deployment` label. */
    QString deployment;
    ContainerRole role = ContainerRole::Server;

    bool running() const { return state == QLatin1String("running"); }
};

/**
 * Flashdeck's containers: the label every one of them carries, and reading them out of a
 * container list. Written once here (it was written four times: the monitor, the log follower,
 * undeploy and the GPU memory check each found "our container" by hand).
 */
class OurContainers
{
public:
    static constexpr const char *kDeploymentLabel = "io.flashdeck.deployment";
    static constexpr const char *kRoleLabel = "io.flashdeck.role";

    /** The `filters=` value of GET /containers/json for every container of ours. */
    static QString filter(bool runningOnly = false);
    /** The containers of a /containers/json answer that carry our label (anything else is skipped). */
    static QList<OurContainer> parse(const nlohmann::json &list);
    /** Those of `deployments` (their ids), in dockerd's order. */
    static QList<OurContainer> of(const QList<OurContainer> &all, const QStringList &deployments);
    /**
     * The server that speaks for a deployment (the router has no model log; the GPU check is not a
     * server): a running one before a stopped one, the first replica (-0) before the others.
     */
    static std::optional<OurContainer> speakingServer(const QList<OurContainer> &all, const QStringList &deployments);
};

} // namespace flashdeck::docker
