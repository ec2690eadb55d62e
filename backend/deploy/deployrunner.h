#pragma once

#include "backend/core/linkopener.h"
#include "backend/deploy/startlog.h"
#include "backend/logs/logrules.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/launchspec.h"
#include "backend/recipe/recipe.h"
#include "backend/recipe/step.h"

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>

#include <functional>
#include <memory>

class QNetworkReply;
class QTimer;

namespace flashdeck {

namespace docker {
class DockerClient;
class LogFrameDecoder;
class PullProgress;
struct ImageRef;
} // namespace docker
namespace probe {
struct NvidiaDriver;
struct RocmSmiProcess;
} // namespace probe
namespace security {
class Redactor;
} // namespace security
namespace ssh {
class Transport;
struct CommandResult;
} // namespace ssh

} // namespace flashdeck

namespace flashdeck::deploy {

class Journal;
class ReadyProgress;
class WeightsFolder;

struct DeployOptions
{
    QString deploymentId; // label value: stable per host and profile, so reruns find their containers
    /** The licence use acknowledged (noncommercial, commercial, commercial-authorized); empty: none. */
    QString licenseAcknowledged;
    /** Who acknowledged it, when, and which text: "root at 2026-…Z, summary sha256 1a2b…". */
    QString licenseRecord;
    QString apiKey; // empty: generated (≥ 32 random bytes), or recovered from the running container
    /**
     * An overall limit on the Ready step; 0: none. A first start downloads 252 GB and compiles
     * kernels (F17): about 34 minutes of download alone at 1 Gbit/s, so the step waits as long as
     * the start makes progress and stops on a stall instead.
     */
    int readyTimeoutMs = 0;
    /** The Ready step fails after this long with no progress: no cache growth, no log output. */
    int stallTimeoutMs = 15 * 60 * 1000;
    /**
     * How long nvidia-smi or amd-smi may take on the host before its step fails. They take
     * seconds even on 8 GPUs; a tool that hangs or never stops printing (a lost GPU, a driver in
     * a bad state) is stopped with a clear step error instead of holding the deployment.
     */
    int gpuProbeTimeoutMs = 30000;
    /** How often the Ready step measures the host's weights and kernel caches. */
    int cachePollMs = 3000;
    int healthPollMs = 2000;
    /** HiCache (F36): GB of host memory per rank; 0 = off. */
    int hicacheGbPerRank = 0;
    /** The Low-Latency profile's extra flags, typed by the operator (F10). */
    QStringList operatorFlags;
    /**
     * Where the weights come from: "hub" (the pinned revision, downloaded by the server),
     * "offline" (a folder on the host that `hf download` wrote) or "modelscope" (a folder
     * of the ModelScope mirror, accepted only when it matches the pinned revision, F28).
     */
    QString modelSource = QStringLiteral("hub");
    QString modelDir; // on the host, for offline and modelscope
    /** Also compare sha256 of every shard (reads all 252 GB on the host: minutes). */
    bool verifyChecksums = false;
    /** The image digest to run (sha256:…); empty: what the tag names now (pin.image resolves it). */
    QString imageDigest;
    /** The model commit to run (40 hex); empty: the recipe's revision, resolved by pin.model. */
    QString modelRevision;
    /**
     * An upgrade or its rollback: a running server of other pins is stopped and replaced at
     * launch (a deployment refuses to, and says how to upgrade). Its records carry `phase`.
     */
    bool replaceRunning = false;
    QString phase;
    /** The host has the weights of the pinned revision already (an upgrade of the image alone). */
    bool weightsOnHost = false;
    /** What earlier starts printed for qmul4, from the manifest: said when this start prints nothing. */
    QList<recipe::KernelVerdict> qmul4Verdicts;
    /**
     * SGLang's configuration generator's command (deploy --launch-command): its server arguments
     * replace the profile's B300 flags; Flashdeck sets the model, the pin, the port and the key.
     */
    std::optional<recipe::ImportedLaunch> imported;
    /**
     * The operator chose the GPUs (--gpus, the window's list): the profile runs on exactly those.
     * Otherwise a profile with a node layout spreads over every GPU of its model the host has.
     */
    bool gpusChosen = false;
};

/**
 * Runs the plan pin → pull → launch → verify (DeployPlan's steps, in order) on one host
 * connection. Each step records running, then its outcome, in the journal and as a
 * signal. A failed step stops the plan; a rerun reuses what is there: no second container
 * (label io.flashdeck.deployment), no second pull of a present digest.
 */
class DeployRunner final : public QObject
{
    Q_OBJECT

public:
    DeployRunner(ssh::Transport &connection, const recipe::Recipe &recipe, const recipe::RecipeProfile &profile,
                 DeployOptions options, Journal &journal, security::Redactor &redactor, QObject *parent = nullptr);
    ~DeployRunner() override;

    void start();
    /**
     * Stops the plan: aborts what is in flight (a pull is cancelled on the host, the GPU check's
     * throwaway container removed), then records the step it stopped in as failed with exactly
     * what is left on the host (Flashdeck's containers and their states), and finishes.
     */
    void cancel();

    /** The profile as it runs: laid over the host's GPUs once preflight.gpus read them. */
    const recipe::RecipeProfile &profile() const { return m_profile; }
    QString imageDigest() const { return m_imageDigest; }
    /** The pinned image's size on the host (its Docker's "Size") once pulled or found; 0 before. */
    qint64 imageBytes() const { return m_imageBytes; }
    /** The pull step fetched the image (it was not on the host before): Flashdeck's to prune. */
    bool pulledImage() const { return m_pulled; }
    /** The launch step started (or replaced) a container: the host runs what this run pinned. */
    bool launchedContainers() const { return m_launched; }
    QString modelSha() const { return m_modelSha; }
    /** The qmul4 line this run's start printed, with its pins and time; none when it printed none. */
    const std::optional<recipe::KernelVerdict> &qmul4Seen() const { return m_qmul4Seen; }
    /** The host user's $HOME (the cache mounts hang off it). */
    QString hostHome() const { return m_hostHome; }
    /** The server's API key once the launch knows it (generated, stored or recovered). Secret. */
    QString apiKey() const { return m_options.apiKey; }
    /** The verified model folder on the host (offline or ModelScope); empty: the Hub. */
    QString modelFolder() const;
    /** The launch as a docker run line (the key as $FLASHDECK_API_KEY); empty before launch. */
    QString launchLine() const { return m_launchLine; }

Q_SIGNALS:
    void stepChanged(const flashdeck::recipe::StepRecord &record);
    /** A long step's progress; its percent never goes back (StepProgress). */
    void progress(const flashdeck::recipe::StepProgress &progress);
    /** The pull's layers, one line each (PullProgress::layerLines), as they change. */
    void layersChanged(const QStringList &layers);
    void logLine(const QString &line);
    void finished(bool ok);

private:
    friend class DeployPlan; // the plan's steps run the runner's parts

    /**
     * The plan's next step begins: recorded running under the step's id and title, with `why`
     * (the step's own when empty) and the command it runs.
     */
    void begin(const QString &why, const QString &command);
    void finish(recipe::StepRecord record);
    /** The step that begins now is skipped, and `reason` says why. */
    void skip(const QString &reason);
    /**
     * Why a host command did not succeed, for a step's "seen": the transport's message (lost
     * connection, timeout), else the tail of its stderr made safe to show (hostText), else its
     * exit status.
     */
    static QString commandProblem(const ssh::CommandResult &result);
    void fail(const QString &seen, const QString &fix, const QString &expected = {});
    /** Emits progress for the running step; `total` may be an estimate (!totalKnown). */
    void reportProgress(qint64 done, qint64 total, bool totalKnown, const QString &text);
    void runCommand(const QByteArray &commandLine, std::function<void(const ssh::CommandResult &)> done,
                    int timeoutMs = 120000);
    void advance();
    void reportCancel(const QString &left);

    void preflightSsh();
    void preflightGpus();
    /** preflight.gpus's answer (`m_current.command` says whose): amd-smi, else rocm-smi, names the GPUs. */
    void gpusRead(const ssh::CommandResult &res);
    /** A profile with a node layout over every GPU of its model on the host; what it did, in words. */
    QString layOverHost(const QStringList &names);
    /** Fails `r` when the weights cannot fit a service's static memory; else says what is left for KV. */
    void judgeWeightsFit(const probe::NvidiaDriver &gpus, recipe::StepRecord &r) const;
    /** The profile's GPU tool failed: a mismatch when the other vendor's tool finds GPUs, else `seen`. */
    void failOrOtherVendor(const QString &seen, const QString &fix);
    void preflightDriver();
    void preflightDocker();
    /** preflight.docker's tunnel closed: run dial-stdio once more to quote what it printed. */
    void diagnoseDockerTunnel(const QString &tunnelError);
    /** preflight.gpumemory (deploygpumemory.cpp): another job's memory on the GPUs stops the plan here. */
    void preflightGpuMemory();
    /** preflight.gpumemory on ROCm: amd-smi metric and process, or rocm-smi where amd-smi is missing. */
    void readAmdGpuMemory();
    /** preflight.gpumemory once the GPUs are read: whose containers hold them, then the judgement. */
    void judgeGpuMemory(const probe::NvidiaDriver &gpus, const QList<probe::RocmSmiProcess> &unplaced);
    void preflightDisk();
    void preflightPort();
    void preflightMemory();
    void preflightWeights();
    void license();
    void pinImage();
    void pinModel();
    /** The Hub's answer refused (a commit that is not the one asked for, none, no answer): said. */
    [[nodiscard]] bool refusedPin(const ssh::CommandResult &res, const QString &sha, bool modelscope);
    /** F28: a ModelScope copy checked file by file against the Hub's pinned revision. */
    void compareModelScope(const QByteArray &base, const QString &sha);
    void pinModelFromFolder();
    void pull();
    // pull's parts: the stream and its progress, its end, the pin checked in RepoDigests.
    void streamPull(const docker::ImageRef &ref, const QString &pinned, const QString &expectedPull);
    void reportPullProgress(const docker::PullProgress &progress);
    void pullEnded(QNetworkReply *reply, const docker::PullProgress &progress, const QString &pinned,
                   const QString &expectedPull);
    void verifyPulled(const QString &pinned, bool pulled, const QString &how);
    void verifyGpus();
    void launch();
    void launchNext(std::shared_ptr<QList<recipe::ContainerSpec>> specs, int index, QStringList started,
                    QStringList reused);
    /** Creates and starts one container; `started` gets "name on 127.0.0.1:port". */
    void createAndStart(const recipe::ContainerSpec &spec, std::function<void(const QString &)> started);
    void ready();
    // The Ready step's parts (deployready.cpp), sharing what it has seen.
    struct ReadyWait;
    void followStartLog(const std::shared_ptr<ReadyWait> &wait);
    void pollHealth(const std::shared_ptr<ReadyWait> &wait, quint16 port);
    void measureCaches();
    void watchStall(const std::shared_ptr<ReadyWait> &wait);
    void settleReady(ReadyWait &wait, const recipe::StepRecord &r);
    void passIfReady(ReadyWait &wait);
    void publishReadyProgress();
    void checkLog(const char *step);
    /**
     * verify.text, verify.thinking, verify.image. An answer that ends at the token limit with
     * no content (all spent thinking) is asked once more with thinking off; `firstTry` says so.
     */
    void verifyChat(const char *step, bool thinkingOffRetry = false, const QString &firstTry = {});
    QString lastLinesOf(int n) const;
    /** The model revision to pin: the operator's commit, else the recipe's. */
    QString wantedRevision() const;
    /** pin.image with a digest the operator chose: on the host already, or in the registry. */
    void pinChosenDigest();
    /** user@host as the operator would type it for scp/rsync. */
    QString hostDestination() const;

    ssh::Transport &m_conn;
    const recipe::Recipe &m_recipe;
    recipe::RecipeProfile m_profile;
    DeployOptions m_options;
    Journal &m_journal;
    security::Redactor &m_redactor;
    int m_percent = -1; // the running step's last percent: it never goes back
    /** The next step of DeployPlan::steps() to run. */
    qsizetype m_next = 0;
    recipe::StepRecord m_current;
    bool m_cancelled = false;
    bool m_cancelling = false; // the operator cancelled: late outcomes are dropped
    bool m_done = false;
    std::unique_ptr<docker::DockerClient> m_docker;
    QObject *m_http = nullptr; // owns the server's HTTP replies (health, verify): cancel aborts them
    QString m_hostHome;
    QString m_imageDigest;
    qint64 m_imageBytes = 0;
    bool m_pulled = false;
    bool m_launched = false;
    QString m_modelSha;
    std::unique_ptr<WeightsFolder> m_folder; // the offline or ModelScope folder, once listed
    QString m_launchLine;
    std::optional<recipe::KernelVerdict> m_qmul4Seen;
    QStringList m_gpuNames; // as preflight.gpus read them, one per GPU
    QStringList m_gpuArchitectures; // nvidia-smi's product_architecture, one per GPU
    QStringList m_containerIds;
    QStringList m_replaced; // containers of earlier pins the launch stopped (an upgrade)
    /** What the server's log lines mean (the checks and the ready wait read them through it). */
    logs::LogRules m_logRules;
    StartLog m_log{m_logRules}; // the server's log so far (first replica), each line classified once
    LinkOpener m_apiLink; // the private tunnel to the first replica's published port
    QTimer *m_readyTimer = nullptr;
    QTimer *m_cacheTimer = nullptr; // measures the caches while Ready waits
    QTimer *m_stallTimer = nullptr;
    std::unique_ptr<ReadyProgress> m_readyProgress;
    QElapsedTimer m_readyClock;
    QNetworkReply *m_logStream = nullptr;
    std::unique_ptr<docker::LogFrameDecoder> m_decoder;
};

} // namespace flashdeck::deploy
