#pragma once

#include "backend/core/heldlock.h"
#include "backend/core/result.h"
#include "backend/expose/gatewayplacement.h"
#include "backend/expose/gatewayrecord.h"
#include "backend/recipe/step.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

#include <memory>

namespace flashdeck {
class AppPaths;
namespace docker {
class DockerClient;
} // namespace docker
namespace fleet {
class HostSession;
} // namespace fleet
namespace security {
class SecretStore;
} // namespace security
} // namespace flashdeck

namespace flashdeck::expose {

class GatewayCheck;
class GatewayRemoval;

/** What a GatewayOperation does now. */
enum class GatewayPhase {
    Idle,
    Placing,
    Cancelling, // placing was cancelled: what was placed is being removed
    Removing,
    Checking,
};

/**
 * Exposing, unexposing and checking one host's gateway, for the command line and the window
 * alike: the host's run lock (the one every deploy, upgrade and expose of the host takes), the
 * server's port from its deployment, the placement on the host's one connection, the record
 * written beside the manifest; the removal and the record's removal under that lock; the check
 * with the deployment's API key. Cancelling a placement removes what it placed and says so.
 *
 * Make it on a connected session (its Docker endpoint is opened when needed); one operation at a
 * time: a second call while one runs is refused.
 */
class GatewayOperation final : public QObject
{
    Q_OBJECT

public:
    /** The host's run lock, held (null: a file system without locks: only the guard is missing). */
    using Claim = std::unique_ptr<HeldLock>;

    GatewayOperation(const AppPaths &paths, fleet::HostSession &session, QObject *parent = nullptr);
    ~GatewayOperation() override;

    /**
     * The port the gateway passes requests to: the deployment's (the Router's for a profile with
     * one); a failure in words when the host has no deployment, or it was undeployed.
     */
    [[nodiscard]] static Result<int> upstreamPort(const AppPaths &paths, const QString &host);
    /** The operator's certificate is one clients accept now; checked before anything connects. */
    [[nodiscard]] static Status certificateUsable(const GatewayPlan &plan, const QString &certificateFile);
    /** Takes the host's run lock; refused in words while another run of the host holds it. */
    [[nodiscard]] static Result<Claim> claim(const AppPaths &paths, const QString &host);

    /**
     * Places the gateway (`plan`: validated options, the upstream port set) holding `claim` until
     * it ends; exposed() then says how. Refused at once (nothing started) while another runs.
     */
    [[nodiscard]] Status expose(GatewayPlan plan, Claim claim);
    /** Removes the host's gateway and its record, holding `claim`; unexposed() says how. */
    [[nodiscard]] Status unexpose(Claim claim);
    /**
     * Checks the recorded gateway from this machine (`connectHost`/`connectPort`: where to reach it
     * instead of the record's address, as through a NAT), with the deployment's key: the keyring's,
     * else the one its running server was started with. step() and checked() report it.
     */
    [[nodiscard]] Status check(const GatewayRecord &record, security::SecretStore *secrets,
                               const QString &connectHost = {}, int connectPort = 0);
    /** Cancels a placement: it stops and removes what it placed (exposed() says what was undone). */
    void cancel();

    // Out of line: inlined behind a QPointer's check, GCC 12's -O3 -Wnull-dereference reports a
    // "potential null pointer dereference" the check rules out (the package build).
    GatewayPhase phase() const;
    bool isRunning() const;

Q_SIGNALS:
    /** What is being done now, one line for the operator. */
    void progress(const QString &words);
    /** The placement ended: the record (written), or why not, with what was undone. */
    void exposed(const flashdeck::Result<flashdeck::expose::GatewayRecord> &record);
    /**
     * The removal ended: the containers removed (none: there was no gateway), or why not.
     * `recordProblem`: the gateway is gone but its record could not be removed (words), else empty.
     */
    void unexposed(const flashdeck::Result<QStringList> &removed, const QString &recordProblem);
    /** One of the check's steps, as `deploy` reports its own. */
    void step(const flashdeck::recipe::StepRecord &record);
    /** The check ended (`passed`: every step did), or could not start (`problem`, in words). */
    void checked(bool passed, const QString &problem);
    void phaseChanged(flashdeck::expose::GatewayPhase phase);

private:
    void setPhase(GatewayPhase phase);
    void place(GatewayPlan plan);
    void placed(const Result<GatewayRecord> &placed);
    void remove();
    void runCheck(const GatewayRecord &record, const QString &key, const QString &host, int port);
    void recoverKey(const GatewayRecord &record, const QString &deploymentId, const QString &host, int port);
    /** The run lock goes, the phase returns to Idle. */
    void end();

    const AppPaths &m_paths;
    fleet::HostSession &m_session;
    QString m_host;
    Claim m_claim;
    GatewayPhase m_phase = GatewayPhase::Idle;
    std::shared_ptr<docker::DockerClient> m_docker;
    QPointer<GatewayPlacement> m_placement;
    bool m_cancelRequested = false;
};

} // namespace flashdeck::expose
