#include "backend/expose/gatewayoperation.h"

#include "backend/core/apppaths.h"
#include "backend/deploy/apikeyrecovery.h"
#include "backend/deploy/hostlock.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/dockerendpoint.h"
#include "backend/expose/gatewaycertificate.h"
#include "backend/expose/gatewaycheck.h"
#include "backend/expose/gatewayremoval.h"
#include "backend/fleet/hostsession.h"
#include "backend/recipe/deployment.h"
#include "backend/security/secretstore.h"

#include <QCoreApplication>
#include <QDateTime>

namespace flashdeck::expose {

// The texts that were the command line's keep its translation context ("Cli"): the same words,
// translated once, whichever front end says them.

GatewayOperation::GatewayOperation(const AppPaths &paths, fleet::HostSession &session, QObject *parent)
    : QObject(parent)
    , m_paths(paths)
    , m_session(session)
    , m_host(session.entry().name)
{ }

GatewayOperation::~GatewayOperation() = default;

Result<int> GatewayOperation::upstreamPort(const AppPaths &paths, const QString &host)
{
    const Result<recipe::Deployment> d = recipe::Deployment::read(paths, host);
    if (d && !d.value().isUndeployed()) {
        return d.value().port > 0 ? d.value().port : 30000;
    }
    return Status::failure(
        d ? QCoreApplication::translate("Cli", "The deployment on %1 was undeployed: deploy again, then expose it.")
                .arg(host)
          : d.message() + QLatin1Char(' ') +
                QCoreApplication::translate("Cli", "Deploy first, then expose the server."));
}

Status GatewayOperation::certificateUsable(const GatewayPlan &plan, const QString &certificateFile)
{
    if (plan.options.tls != TlsMode::OperatorCertificate) {
        return Status::ok();
    }
    const auto cert = GatewayCertificate::fromPem(plan.certificatePem, certificateFile);
    const Status s = cert ? cert.value().usableAt(QDateTime::currentDateTimeUtc()) : cert.status();
    if (!s) {
        return Status::failure(s.message() + QLatin1Char(' ') +
                               QCoreApplication::translate("Cli", "Nothing was changed."));
    }
    return s;
}

Result<GatewayOperation::Claim> GatewayOperation::claim(const AppPaths &paths, const QString &host)
{
    return deploy::claimHost(paths, host);
}

GatewayPhase GatewayOperation::phase() const
{
    return m_phase;
}

bool GatewayOperation::isRunning() const
{
    return m_phase != GatewayPhase::Idle;
}

void GatewayOperation::setPhase(GatewayPhase phase)
{
    if (m_phase != phase) {
        m_phase = phase;
        Q_EMIT phaseChanged(phase);
    }
}

void GatewayOperation::end()
{
    m_claim.reset();
    m_cancelRequested = false;
    setPhase(GatewayPhase::Idle);
}

Status GatewayOperation::expose(GatewayPlan plan, Claim claim)
{
    if (isRunning()) {
        plan.keyPem.fill('\0');
        return Status::failure(QCoreApplication::translate("Expose", "Wait for the gateway's last change to end."));
    }
    m_claim = std::move(claim);
    setPhase(GatewayPhase::Placing);
    docker::DockerEndpoint &endpoint = m_session.docker();
    auto shared = std::make_shared<GatewayPlan>(std::move(plan));
    endpoint.whenOpen(
        this, [this, shared] { place(std::move(*shared)); },
        [this, shared](const QString &message) {
            shared->keyPem.fill('\0');
            placed(Status::failure(message));
        });
    return Status::ok();
}

void GatewayOperation::place(GatewayPlan plan)
{
    if (m_cancelRequested) { // cancelled while the Docker endpoint opened: nothing was placed
        plan.keyPem.fill('\0');
        placed(Status::failure(
            QCoreApplication::translate("Expose", "Cancelled.") + QLatin1Char('\n') +
            QCoreApplication::translate("Expose", "Nothing had been placed on the host yet: nothing was changed.")));
        return;
    }
    m_docker = std::make_shared<docker::DockerClient>(m_session.docker());
    auto *placement = new GatewayPlacement(m_session.connection(), *m_docker, std::move(plan), this);
    m_placement = placement;
    connect(placement, &GatewayPlacement::progress, this, &GatewayOperation::progress);
    placement->start([this, placement](const Result<GatewayRecord> &result) {
        placement->deleteLater();
        placed(result);
    });
}

void GatewayOperation::placed(const Result<GatewayRecord> &placed)
{
    if (placed) {
        if (const Status s = placed.value().write(m_paths); !s) {
            // Running, but status would say "not exposed" and unexpose would not find it.
            end();
            Q_EMIT exposed(Status::failure(
                QCoreApplication::translate("Cli",
                                            "The gateway runs, but its record could not be written: %1. Free the "
                                            "space, then 'flashdeck unexpose %2' and expose again.")
                    .arg(s.message(), m_host)));
            return;
        }
    }
    end();
    Q_EMIT exposed(placed);
}

void GatewayOperation::cancel()
{
    if (m_phase != GatewayPhase::Placing) {
        return;
    }
    m_cancelRequested = true;
    setPhase(GatewayPhase::Cancelling);
    if (m_placement) {
        m_placement->cancel();
    }
}

Status GatewayOperation::unexpose(Claim claim)
{
    if (isRunning()) {
        return Status::failure(QCoreApplication::translate("Expose", "Wait for the gateway's last change to end."));
    }
    m_claim = std::move(claim);
    setPhase(GatewayPhase::Removing);
    m_session.docker().whenOpen(
        this, [this] { remove(); },
        [this](const QString &message) {
            end();
            Q_EMIT unexposed(Status::failure(message), {});
        });
    return Status::ok();
}

void GatewayOperation::remove()
{
    m_docker = std::make_shared<docker::DockerClient>(m_session.docker());
    auto *removal = new GatewayRemoval(m_session.connection(), *m_docker, this);
    Q_EMIT progress(QCoreApplication::translate("Expose", "Stopping and removing the gateway"));
    removal->start([this, removal](const Result<QStringList> &removed) {
        removal->deleteLater();
        QString recordProblem;
        if (removed) {
            // Under the lock its writers take: never removed across another run's write.
            if (const Status s = GatewayRecord::remove(m_paths, m_host); !s) {
                recordProblem = s.message();
            }
        }
        end();
        Q_EMIT unexposed(removed, recordProblem);
    });
}

Status GatewayOperation::check(const GatewayRecord &record, security::SecretStore *secrets, const QString &connectHost,
                               int connectPort)
{
    if (isRunning()) {
        return Status::failure(QCoreApplication::translate("Expose", "Wait for the gateway's last change to end."));
    }
    setPhase(GatewayPhase::Checking);
    const QString host = connectHost.isEmpty() ? record.address : connectHost;
    const int port = connectPort > 0 ? connectPort : record.port;
    const Result<recipe::Deployment> &deployment = m_session.deployment();
    const QString id = deployment ? deployment.value().id().toString() : QString();
    if (secrets == nullptr || id.isEmpty()) {
        recoverKey(record, id, host, port);
        return Status::ok();
    }
    secrets->read(security::SecretStore::apiKeyKey(id),
                  [self = QPointer<GatewayOperation>(this), record, id, host, port](const Result<QString> &key) {
                      if (!self) {
                          return;
                      }
                      if (key && !key.value().isEmpty()) {
                          self->runCheck(record, key.value(), host, port);
                      } else {
                          self->recoverKey(record, id, host, port);
                      }
                  });
    return Status::ok();
}

void GatewayOperation::recoverKey(const GatewayRecord &record, const QString &deploymentId, const QString &host,
                                  int port)
{
    if (deploymentId.isEmpty()) {
        end();
        Q_EMIT checked(false,
                       QCoreApplication::translate("Expose",
                                                   "The host has no deployment whose API key the check could "
                                                   "send: %1")
                           .arg(m_session.deployment().message()));
        return;
    }
    deploy::ApiKeyRecovery *recovery = m_session.apiKeyRecovery(deploymentId, this);
    connect(recovery, &deploy::ApiKeyRecovery::finished, this,
            [this, recovery, record, host, port](const Result<QString> &key) {
                recovery->deleteLater();
                if (!key) {
                    end();
                    Q_EMIT checked(false, key.message());
                    return;
                }
                runCheck(record, key.value(), host, port);
            });
    recovery->start();
}

void GatewayOperation::runCheck(const GatewayRecord &record, const QString &key, const QString &host, int port)
{
    auto *check = new GatewayCheck(record, key, host, port, this);
    connect(check, &GatewayCheck::step, this, &GatewayOperation::step);
    connect(check, &GatewayCheck::finished, this, [this, check](bool passed) {
        check->deleteLater();
        end();
        Q_EMIT checked(passed, {});
    });
    check->start();
}

} // namespace flashdeck::expose
