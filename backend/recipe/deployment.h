#pragma once

#include "backend/core/result.h"
#include "backend/recipe/step.h"

#include <QDateTime>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace flashdeck {

class AppPaths;

} // namespace flashdeck

namespace flashdeck::recipe {

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
 * What one start of the server printed for the NVFP4 KV decode kernel (check.qmul4's
 * `nvfp4_to_fp8 backend=…` line), and of which pins. A later start of the same image digest and
 * model revision may print no line at all: the manifest keeps this to say what was seen, and
 * when, instead of guessing why.
 */
struct KernelVerdict
{
    QString backend; // "qmul4" (the fast path) or the fallback's name ("fp16_fallback")
    QString line; // the log line as printed
    QString seenAt; // when (UTC, ISO 8601)
    QString imageDigest; // sha256:… of the image that printed it
    QString modelSha; // the model revision it ran (empty: an offline folder without hf metadata)

    bool fastPath() const { return backend == QLatin1String("qmul4"); }
    /** Printed by a start of these pins (an image digest is needed: without one nothing is known of the image). */
    bool of(const QString &digest, const QString &sha) const
    {
        return !digest.isEmpty() && imageDigest == digest && modelSha == sha;
    }
    friend bool operator==(const KernelVerdict &, const KernelVerdict &) = default;
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
    /** SGLang's configuration generator's command it runs, as given (empty: the recipe's flags). An upgrade keeps it.
     */
    QString launchCommand;
    bool ok = false;
    QString finished;
    /**
     * When `undeploy` stopped and removed its containers (UTC, ISO 8601); empty while it runs.
     * The window and the CLI read it to say so instead of the last run's "deployed and verified".
     */
    QString undeployed;
    bool isUndeployed() const { return !undeployed.isEmpty(); }
    /** Each step's last record, by step id. */
    QMap<QString, StepRecord> steps;
    /**
     * The qmul4 verdicts of earlier starts, one per image digest and model revision, newest last
     * (at most kMaxKernelVerdicts): a manifest without them (before they were kept) reads as none.
     */
    QList<KernelVerdict> qmul4Verdicts;
    static constexpr qsizetype kMaxKernelVerdicts = 16;
    /** The verdict kept for these pins, if any. */
    std::optional<KernelVerdict> qmul4VerdictOf(const QString &digest, const QString &sha) const;
    /**
     * `earlier` with `seen` kept: it replaces the verdict of its pins unless that one said the
     * same (the first start that printed it stays the one named), and the oldest go past the cap.
     */
    static QList<KernelVerdict> withVerdict(QList<KernelVerdict> earlier, const KernelVerdict &seen);

    DeploymentId id() const { return {host, profile}; }
    /** The step's last status; Pending when the run never reached it. */
    StepStatus stepStatus(const QString &step) const;

    /** deployments/<host>: the manifest, the journal and the API key file of the host's deployment. */
    static QString directory(const AppPaths &paths, const QString &host);
    static QString manifestFile(const AppPaths &paths, const QString &host);
    /** The manifest's file in a host's deployment directory (the one place its name is written). */
    static QString manifestIn(const QString &directory);
    static bool exists(const AppPaths &paths, const QString &host);
    /**
     * The host's deployment. Fails with "Flashdeck has not deployed to HOST" when there is no
     * manifest, and names the file when it is damaged.
     */
    [[nodiscard]] static Result<Deployment> read(const AppPaths &paths, const QString &host);
    [[nodiscard]] static Result<Deployment> fromJson(const QByteArray &json);
    QByteArray toJson() const;
    /**
     * Marks the host's manifest undeployed at `when`, under the manifest's lock, keeping the rest
     * (a deploy finishing meanwhile writes a new one, which this then marks: the containers are
     * gone either way). No manifest: nothing to mark, and no error.
     */
    [[nodiscard]] static Status recordUndeployed(const AppPaths &paths, const QString &host, const QDateTime &when);
    /** Writes the manifest atomically. */
    [[nodiscard]] Status write(const AppPaths &paths) const;
    [[nodiscard]] Status writeTo(const QString &file) const;
};

} // namespace flashdeck::recipe
