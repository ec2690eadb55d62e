#pragma once

#include "backend/core/result.h"
#include "backend/recipe/step.h"

#include <QMap>
#include <QString>
#include <QStringList>

namespace flashdeck {

class AppPaths;

/**
 * What names one deployment: "<host>-<profile>". Its containers (`flashdeck.deployment` label,
 * `flashdeck-<id>`), its API key in the keyring and the runbook all use it; it is built here
 * alone.
 */
class DeploymentId
{
public:
    DeploymentId() = default;
    DeploymentId(QString host, QString profile);

    const QString &host() const { return m_host; }
    const QString &profile() const { return m_profile; }
    bool isEmpty() const { return m_host.isEmpty() || m_profile.isEmpty(); }
    QString toString() const;
    /** The name of its (first) container. */
    QString containerName() const { return QStringLiteral("flashdeck-") + toString(); }

    friend bool operator==(const DeploymentId &, const DeploymentId &) = default;

private:
    QString m_host;
    QString m_profile;
};

/**
 * A deployment Flashdeck made on a host: its manifest (deployments/<host>/manifest.json), read
 * and written here alone. The deploy session writes it when a run ends; the monitor, chat, the
 * runbook, status and the pages read it. Never holds a secret (the launch line is redacted
 * before it gets here).
 */
struct Deployment
{
    QString host;
    QString profile;
    QString recipe;
    /** The image it ran (the operator's --image, else the profile's). */
    QString image;
    /** The GPUs it ran on ("0,1,2,3"). */
    QString gpus;
    /** The port clients use on the host's loopback (the router's, else the server's); 0: not recorded. */
    quint16 port = 0;
    QString imageDigest;
    /** The pinned image's size as the host's Docker reports it after the pull; 0: not known. */
    qint64 imageBytes = 0;
    QString modelSha;
    QString hostHome;
    QString launch;
    QString modelSource;
    QString modelDir;
    QString licenseAcknowledged;
    /** HiCache GB per rank (0: off) and the operator's extra flags: what an upgrade launches again. */
    int hicacheGbPerRank = 0;
    QStringList operatorFlags;
    bool ok = false;
    QString finished;
    /** Each step's last record, by step id. */
    QMap<QString, StepRecord> steps;

    DeploymentId id() const { return {host, profile}; }
    /** The step's last status; Pending when the run never reached it. */
    StepStatus stepStatus(const QString &step) const;

    /** deployments/<host>: the manifest, the journal and the API key file of the host's deployment. */
    static QString directory(const AppPaths &paths, const QString &host);
    static QString manifestFile(const AppPaths &paths, const QString &host);
    static bool exists(const AppPaths &paths, const QString &host);
    /**
     * The host's deployment. Fails with "Flashdeck has not deployed to HOST" when there is no
     * manifest, and names the file when it is damaged.
     */
    [[nodiscard]] static Result<Deployment> read(const AppPaths &paths, const QString &host);
    [[nodiscard]] static Result<Deployment> fromJson(const QByteArray &json);
    QByteArray toJson() const;
    /** Writes the manifest atomically. */
    [[nodiscard]] Status write(const AppPaths &paths) const;
    [[nodiscard]] Status writeTo(const QString &file) const;
};

} // namespace flashdeck
