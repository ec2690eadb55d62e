#include "backend/core/format.h"
#include "backend/core/jsonread.h"
#include "backend/deploy/deployhelpers.h"
#include "backend/deploy/deployrunner.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/imageref.h"
#include "backend/docker/pullprogress.h"

#include <QCoreApplication>
#include <QNetworkReply>
#include <QNetworkRequest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>

// The pull step of DeployRunner: by digest, its progress as dockerd streams it, and the pin
// checked in RepoDigests afterwards.

namespace flashdeck::deploy {

using namespace helpers;
using nlohmann::json;

void DeployRunner::pull()
{
    const docker::ImageRef ref = m_recipe.imageOf(m_profile);
    const QString pinned = ref.name + QLatin1Char('@') + m_imageDigest;
    begin({}, QStringLiteral("docker pull %1").arg(pinned));
    // What a failure record says was expected too (a failed pull used to record "").
    const QString expectedPull = QCoreApplication::translate("Deploy", "RepoDigests contains %1").arg(pinned);
    m_docker->call("GET", QStringLiteral("/images/%1/json").arg(pinned), {},
                   [this, ref, pinned, expectedPull](const docker::DockerResponse &present) {
                       if (present.ok()) {
                           verifyPulled(pinned, false, {});
                           return;
                       }
                       streamPull(ref, pinned, expectedPull);
                   });
}

void DeployRunner::streamPull(const docker::ImageRef &ref, const QString &pinned, const QString &expectedPull)
{
    auto progress = std::make_shared<docker::PullProgress>();
    QNetworkReply *reply = m_docker->stream(
        "POST",
        QStringLiteral("/images/create?fromImage=%1&tag=%2")
            .arg(docker::DockerClient::q(ref.qualifiedName()), docker::DockerClient::q(m_imageDigest)));
    // An error status carries dockerd's {"message": …} instead of progress lines: leave
    // that body unread for responseOf(), which quotes it (a body can be read once).
    const auto streaming = [reply] {
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        return status >= 200 && status < 300;
    };
    connect(reply, &QNetworkReply::readyRead, this, [this, reply, progress, streaming] {
        if (streaming() && progress->feed(reply->readAll())) {
            reportPullProgress(*progress);
        }
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, progress, streaming, pinned, expectedPull] {
        if (streaming()) {
            progress->feed(reply->readAll() + '\n');
        }
        pullEnded(reply, *progress, pinned, expectedPull);
    });
}

void DeployRunner::reportPullProgress(const docker::PullProgress &progress)
{
    // dockerd gives a layer's size only as its download starts (three at a time): until all are
    // known the total is an estimate, and says so.
    const int unknown = progress.layersOfUnknownSize();
    const qint64 done = progress.downloadedBytes();
    QString text = progress.summary();
    if (unknown > 0 && progress.estimatedTotalBytes() > 0) {
        text += unknown == 1
            ? QCoreApplication::translate("Deploy", "; the size of 1 layer is not known yet")
            : QCoreApplication::translate("Deploy", "; the sizes of %1 layers are not known yet").arg(unknown);
    }
    reportProgress(done, std::max(done, progress.estimatedTotalBytes()), unknown == 0, text);
    Q_EMIT layersChanged(progress.layerLines());
}

void DeployRunner::pullEnded(QNetworkReply *reply, const docker::PullProgress &progress, const QString &pinned,
                             const QString &expectedPull)
{
    const docker::DockerResponse res = docker::DockerClient::responseOf(reply);
    const bool cutOff = reply->error() != QNetworkReply::NoError || progress.digest().isEmpty();
    const QString cutBy = reply->errorString();
    reply->deleteLater();
    if (!res.ok() || !progress.error().isEmpty()) {
        // dockerd's own words: its error status's {"message": …}, or the errorDetail it streamed
        // mid-pull ("failed to register layer: no space left on device").
        const QString said = progress.error().isEmpty() ? res.message() : progress.error();
        fail(progress.error().isEmpty() ? dockerSaid(res) : QStringLiteral("dockerd: ") + said,
             said.contains(QLatin1String("no space left on device"))
                 ? QCoreApplication::translate("Deploy",
                                               "Free disk space on the host (the image is unpacked beside its "
                                               "download), then run again with --resume.")
                 : QCoreApplication::translate("Deploy",
                                               "The host's Docker could not fetch the image: check its access to the "
                                               "registry (DNS, proxy, firewall, a Docker Hub rate limit; 'docker "
                                               "pull %1' on the host shows the same), then run again with --resume.")
                       .arg(pinned),
             expectedPull);
        return;
    }
    if (cutOff) {
        fail(QCoreApplication::translate("Deploy", "the pull was cut off after %1 of %2 bytes (%3)")
                 .arg(progress.downloadedBytes())
                 .arg(progress.totalBytes())
                 .arg(cutBy),
             QCoreApplication::translate("Deploy",
                                         "Run again with --resume: the layers the host already unpacked are kept, the "
                                         "rest is fetched."),
             expectedPull);
        return;
    }
    verifyPulled(
        pinned, true,
        // Compressed: the registry's blobs as dockerd counts them; the card's image size is unpacked.
        QCoreApplication::translate("Deploy", "%1 GB downloaded, compressed (%2 of %3 layers were already there)")
            .arg(fmt::gbNumber(progress.downloadedBytes()))
            .arg(progress.layersAlreadyThere())
            .arg(progress.layers()));
}

void DeployRunner::verifyPulled(const QString &pinned, bool pulled, const QString &how)
{
    m_docker->call(
        "GET", QStringLiteral("/images/%1/json").arg(pinned), {},
        [this, pinned, pulled, how](const docker::DockerResponse &res) {
            const json digests = res.json().value("RepoDigests", json::array());
            const bool has = std::find(digests.begin(), digests.end(), pinned.toStdString()) != digests.end();
            // The image's real size, for the profile card (the recipe has an estimate).
            m_imageBytes = res.json().is_object()
                ? jsonread::integer(res.json(), "Size", 1, std::numeric_limits<qint64>::max()).value_or(0)
                : 0;
            recipe::StepRecord r = m_current;
            r.expected = QCoreApplication::translate("Deploy", "RepoDigests contains %1").arg(pinned); // = expectedPull
            r.seen = has
                ? (pulled ? QCoreApplication::translate("Deploy", "pulled %1; RepoDigests has the pin").arg(how)
                          : QCoreApplication::translate("Deploy", "already present; not pulled again"))
                : QStringLiteral("RepoDigests: %1").arg(QString::fromStdString(digests.dump()));
            r.status = has ? recipe::StepStatus::Pass : recipe::StepStatus::Fail;
            m_pulled = has && pulled;
            if (!has) {
                r.fix = QCoreApplication::translate("Deploy", "Remove the image on the host and pull again.");
            }
            finish(r);
        });
}

} // namespace flashdeck::deploy
