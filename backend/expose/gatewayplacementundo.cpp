// GatewayPlacement's way back: cancel() between steps, and undo() of what was placed, said as it went.
#include "backend/docker/dockerclient.h"
#include "backend/expose/gatewaycontainer.h"
#include "backend/expose/gatewayplacement.h"
#include "backend/ssh/commandreply.h"

#include <QCoreApplication>
#include <QNetworkReply>

namespace flashdeck::expose {

void GatewayPlacement::cancel()
{
    if (m_ended || m_cancelled) {
        return;
    }
    m_cancelled = true;
    // One raw pointer read: GCC's -O3 null-dereference check does not trust a QPointer read twice.
    if (QNetworkReply *pull = m_pull.data()) {
        pull->abort(); // its finished() ends in stopIfCancelled()
    }
}

bool GatewayPlacement::stopIfCancelled()
{
    if (!m_cancelled) {
        return false;
    }
    undo(QCoreApplication::translate("Expose", "Cancelled."));
    return true;
}

void GatewayPlacement::undo(const QString &why)
{
    if (m_ended) {
        return;
    }
    m_cancelled = false; // undone once: the steps in flight end here
    if (!m_changed) {
        refuse(why + QLatin1Char('\n') +
               QCoreApplication::translate("Expose", "Nothing had been placed on the host yet: nothing was changed."));
        return;
    }
    if (m_containerId.isEmpty()) {
        undoFolder(why, {});
        return;
    }
    m_docker.call("DELETE", QStringLiteral("/containers/%1?force=1").arg(m_containerId), {},
                  [this, why](const docker::DockerResponse &removed) {
                      // 404: dockerd had already removed it (a container that exited and was auto-removed).
                      undoFolder(why, removed.ok() || removed.status == 404 ? QString() : removed.message());
                  });
}

void GatewayPlacement::undoFolder(const QString &why, const QString &containerProblem)
{
    run("rm -rf " + dirArg(), {}, [this, why, containerProblem](const ssh::CommandResult &r) {
        const QString folderProblem = r.succeeded() ? QString() : failureOf(r);
        QString undone;
        if (containerProblem.isEmpty() && folderProblem.isEmpty()) {
            undone = QCoreApplication::translate(
                "Expose", "The gateway's container and folder were removed again; the server was not touched.");
        } else {
            QStringList left;
            if (!containerProblem.isEmpty()) {
                left << QCoreApplication::translate("Expose", "The gateway's container %1 could not be removed: %2")
                            .arg(GatewayContainer::name(m_plan.host), containerProblem);
            }
            if (!folderProblem.isEmpty()) {
                left << QCoreApplication::translate("Expose", "The folder %1 could not be removed: %2")
                            .arg(m_dir, folderProblem);
            }
            undone = left.join(QLatin1Char('\n')) + QLatin1Char('\n') +
                QCoreApplication::translate(
                    "Expose", "Run 'flashdeck unexpose %1' to remove what is left; the server was not touched.")
                    .arg(m_plan.host);
        }
        refuse(why + QLatin1Char('\n') + undone);
    });
}

} // namespace flashdeck::expose
