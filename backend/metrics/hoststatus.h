#pragma once

#include "backend/metrics/hoststate.h"
#include "backend/metrics/serversnapshot.h"
#include "backend/probe/nvidiasmi.h"
#include "backend/recipe/pins.h"

#include <QList>
#include <QString>

#include <nlohmann/json_fwd.hpp>

#include <optional>

namespace flashdeck {
class Settings;
namespace recipe {
struct Deployment;
} // namespace recipe
} // namespace flashdeck

namespace flashdeck::metrics {

/** Flashdeck's server container on the host, as the Docker Engine lists it. */
struct ContainerStatus
{
    QString name;
    QString state; // running, restarting, exited, created, paused, dead
    QString status; // "Up 5 minutes", "Restarting (1) 3 seconds ago"
    QString deployment; // the io.flashdeck.deployment label
};

/** One active alert (F34), with when it began and when it was last seen. */
struct Alert
{
    QString id; // stable per condition: "gpu-memory-high:3", "queue-high", …
    QString severity; // "warning" or "critical"
    QString message;
    qint64 sinceMs = 0;
    qint64 lastMs = 0;
};

/** Thresholds of the alerts (Settings → Alerts). */
struct AlertThresholds
{
    double gpuMemoryPct = 95;
    double queueDepth = 32;
    double ttftP95Seconds = 10;
    double errorRatePct = 5;
    double diskFreeGb = 50;
    /** The fleet's pins (a pins file): a deployment with others raises `pins-drift`. None: not judged. */
    std::optional<recipe::Pins> pins;
    QString pinsFile;
    /** Why the pins file could not be read ("" when it was, or none is set). */
    QString pinsError;

    /** From Settings ([alerts], and [fleet] pins_file read now), these defaults where unset. */
    static AlertThresholds fromSettings(const Settings &settings);
    /** Reads `file` as the fleet's pins (empty: none); a failure leaves `pinsError`. */
    void usePinsFile(const QString &file);
};

/**
 * Everything Flashdeck knows about one host right now. A field it could not read stays empty
 * and is shown (and exported) as unknown, never as zero.
 */
struct HostStatus
{
    QString host;
    HostState state = HostState::Connecting;
    QString error; // why it is unreachable or failed
    QList<probe::GpuSample> gpus;
    qint64 gpusAtMs = 0;
    QString gpuError;
    std::optional<ContainerStatus> container;
    bool containerKnown = false; // Docker answered (an empty container is then "none")
    ServerHealth health = ServerHealth::Unknown;
    std::optional<ServerSnapshot> server; // the sum of `services` where there are several
    /** Each service behind the Router (one entry for a single server), in port order. */
    QList<ServiceSnapshot> services;
    ServerRates rates;
    std::optional<qint64> diskFreeBytes;
    QString profile;
    QString imageDigest;
    QString modelSha;
    /** What the host's recorded deployment pinned (flashdeck pins); none before a deployment pinned. */
    std::optional<recipe::Pins> pins;
    /** The recorded deployment was undeployed (its containers removed): nothing is pinned now. */
    bool undeployed = false;
    bool qmul4Fallback = false; // the deployment's check.qmul4 warned (F20)
    /**
     * An upgrade (or its rollback) of this host runs, from whichever window or terminal: its server
     * is down on purpose while it restarts on other pins, which is said, not raised as critical.
     */
    bool upgradeRunning = false;
    /**
     * A deployment (or its resume) of this host runs, from whichever window or terminal: its
     * container is made and started by the steps, not down.
     */
    bool deployRunning = false;
    QString historyError; // the chart history on disk could not be read or written
    QList<Alert> alerts;
    qint64 updatedMs = 0;
    /** Where the figures came from: "ssh" (the host's own session) or "prometheus". */
    QString source = QStringLiteral("ssh");
    /** False for a host that Prometheus knows and the inventory does not. */
    bool inInventory = true;

    /** What the host's recorded deployment says: its profile, pins and qmul4 outcome. */
    void applyDeployment(const recipe::Deployment &d);

    /** `flashdeck status --json`'s object (issue 7's contract), unknowns as null. */
    nlohmann::json toJson() const;
};

/** The conditions that hold in `status` (times left at 0): F34's list with `t` thresholds. */
QList<Alert> evaluateAlerts(const HostStatus &status, const AlertThresholds &t);

/**
 * Keeps alerts' first and last times across evaluations: a condition that stays keeps its
 * `sinceMs`; one that ends moves to the history.
 */
class AlertTracker final
{
public:
    /** Folds `now` in at `atMs`; returns the active alerts with their times. */
    QList<Alert> update(const QList<Alert> &now, qint64 atMs);
    const QList<Alert> &active() const { return m_active; }
    /** Ended alerts, newest first, at most 200. */
    const QList<Alert> &history() const { return m_history; }

private:
    QList<Alert> m_active;
    QList<Alert> m_history;
};

} // namespace flashdeck::metrics
