// DeployRunner, second half: launch, readiness, the log checks and the chat checks
// (deployrunner.cpp has the pre-flight, pin and pull steps).

#include "backend/core/hosttext.h"
#include "backend/core/jsonread.h"
#include "backend/core/linkreply.h"
#include "backend/deploy/apikeyrecovery.h"
#include "backend/deploy/checks.h"
#include "backend/deploy/deployrunner.h"
#include "backend/deploy/readyprogress.h"
#include "backend/deploy/weightsfolder.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/logframes.h"
#include "backend/security/redactor.h"
#include "backend/ssh/shellquote.h"
#include "backend/ssh/transport.h"
#include "backend/ssh/tunnelreply.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <nlohmann/json.hpp>

namespace flashdeck {

namespace {

using nlohmann::json;

// A reasoning model thinks before it answers: MiniMax-M3.1-Flash can spend hundreds of tokens in
// reasoning_content on a one-line question, so 64 tokens ended a working server's answer with
// content null and finish_reason "length". A budget it finishes in; the step retries once with
// thinking off when even that is spent thinking.
constexpr int kVerifyTokens = 2048;

/**
 * The image check's input (F23: a base64 data URI, never a remote URL here): a red disc on white,
 * 224 × 224. Vision preprocessors refuse a side below their patch factor (28 for Qwen2-VL-style
 * ones: "height:1 or width:1 must be larger than factor:28"), so a 1 × 1 pixel fails a working
 * server.
 */
QByteArray verifyPicture()
{
    QFile f(QStringLiteral(":/verify/red-circle-224.png"));
    return f.open(QIODevice::ReadOnly) ? f.readAll().toBase64() : QByteArray();
}

/** What a refusing server said: its {"message": …} (SGLang) or {"error": …}, sanitised. */
QString serverMessage(const json &j, const QByteArray &raw)
{
    if (j.is_object()) {
        for (const char *key : {"message", "detail", "error"}) {
            if (j.contains(key) && j[key].is_string()) {
                return hostText(QByteArray::fromStdString(j[key].get<std::string>()), 300);
            }
            if (j.contains(key) && j[key].is_object() && j[key].contains("message") && j[key]["message"].is_string()) {
                return hostText(QByteArray::fromStdString(j[key]["message"].get<std::string>()), 300);
            }
        }
        return {};
    }
    return hostText(raw.left(300), 300);
}

} // namespace

void DeployRunner::launch()
{
    begin("launch", QCoreApplication::translate("Deploy", "Start the server"),
          QCoreApplication::translate("Deploy", "The pinned image and revision, listening on the host's loopback only"),
          QString());
    m_current.expected = QCoreApplication::translate("Deploy", "the server's containers created and started");
    m_replaced.clear();
    // A rerun talks to a running server with the key it was started with: recover it first.
    const QString first = QStringLiteral("flashdeck-%1-0").arg(m_options.deploymentId);
    m_docker->call("GET", QStringLiteral("/containers/%1/json").arg(first), {},
                   [this](const docker::DockerResponse &existing) {
                       const json inspect = existing.json();
                       if (existing.ok() && inspect.value("State", json::object()).value("Running", false)) {
                           if (const QString key = apiKeyOfContainer(inspect); !key.isEmpty()) {
                               m_options.apiKey = key;
                           }
                       }
                       if (m_options.apiKey.isEmpty()) {
                           m_options.apiKey = generateApiKey();
                       }
                       m_redactor.addSecret(m_options.apiKey);
                       LaunchInputs in;
                       in.deploymentId = m_options.deploymentId;
                       in.imageDigest = m_imageDigest;
                       in.modelSha = m_modelSha;
                       in.apiKey = m_options.apiKey;
                       in.hostHome = m_hostHome;
                       in.operatorFlags = m_options.operatorFlags;
                       in.imported = m_options.imported;
                       if (m_folder && m_options.modelSource != QLatin1String("hub")) {
                           in.offlineModelDir = m_folder->resolvedPath();
                       }
                       if (m_options.hicacheGbPerRank > 0) {
                           in.hicacheGbPerRank = m_options.hicacheGbPerRank;
                       }
                       const Result<QList<ContainerSpec>> specs = buildLaunch(m_recipe, m_profile, in);
                       if (!specs) {
                           fail(specs.message(),
                                QCoreApplication::translate("Deploy", "Fix the profile or the inputs and run again."));
                           return;
                       }
                       QStringList lines;
                       for (const ContainerSpec &spec : specs.value()) {
                           lines.append(spec.dockerRunLine());
                       }
                       m_launchLine = lines.join(QLatin1Char('\n'));
                       m_current.command = m_launchLine;
                       launchNext(std::make_shared<QList<ContainerSpec>>(specs.value()), 0, {}, {});
                   });
}

void DeployRunner::launchNext(std::shared_ptr<QList<ContainerSpec>> specs, int index, QStringList started,
                              QStringList reused)
{
    if (index == specs->size()) {
        StepRecord r = m_current;
        r.status = StepStatus::Pass;
        r.expected =
            QCoreApplication::translate("Deploy", "%1 container(s) labelled io.flashdeck.deployment=%2 running")
                .arg(specs->size())
                .arg(m_options.deploymentId);
        QStringList seen;
        if (!m_replaced.isEmpty()) {
            seen.append(QCoreApplication::translate("Deploy", "stopped and removed the server of the earlier pins: %1")
                            .arg(m_replaced.join(QStringLiteral(", "))));
        }
        if (!started.isEmpty()) {
            seen.append(QCoreApplication::translate("Deploy", "started %1").arg(started.join(QStringLiteral(", "))));
        }
        if (!reused.isEmpty()) {
            seen.append(QCoreApplication::translate("Deploy", "already running (not started again): %1")
                            .arg(reused.join(QStringLiteral(", "))));
        }
        r.seen = seen.join(QStringLiteral("; "));
        if (!m_profile.verified()) { // F12: say so, every time it runs
            r.status = StepStatus::Warn;
            r.fix = QCoreApplication::translate(
                        "Deploy",
                        "This profile is not verified upstream: validate it with your own load before relying "
                        "on it. %1")
                        .arg(m_profile.note);
        }
        finish(r);
        return;
    }
    const ContainerSpec spec = specs->at(index);
    auto next = [this, specs, index](QStringList s, QStringList r) { launchNext(specs, index + 1, s, r); };
    m_docker->call(
        "GET", QStringLiteral("/containers/%1/json").arg(spec.name), {},
        [this, spec, next, started, reused](const docker::DockerResponse &existing) mutable {
            const json inspect = existing.json();
            const bool running = existing.ok() && inspect.value("State", json::object()).value("Running", false);
            // A running server of other pins (image or launch line) is not this deployment's: an
            // upgrade replaces it; a deployment must not call it its own.
            const json config = inspect.value("Config", json::object());
            const bool same = config.value("Image", json()) == spec.createBody.value("Image", json()) &&
                config.value("Cmd", json()) == spec.createBody.value("Cmd", json());
            if (running && same) {
                if (spec.role == QLatin1String("server")) {
                    m_containerIds.append(QString::fromStdString(jsonread::string(inspect, "Id")));
                }
                reused.append(spec.name);
                next(started, reused);
                return;
            }
            if (running && !m_options.replaceRunning) {
                fail(QCoreApplication::translate(
                         "Deploy", "%1 runs %2, started with other pins or flags than this deployment's (%3)")
                         .arg(spec.name, QString::fromStdString(jsonread::string(config, "Image")),
                              QString::fromStdString(jsonread::string(spec.createBody, "Image"))),
                     QCoreApplication::translate(
                         "Deploy",
                         "To move the host to these pins with an automatic rollback, run 'flashdeck "
                         "upgrade HOST --image-digest … --model-revision …' (Upgrade… on the Deploy "
                         "page); or 'flashdeck undeploy HOST' first to start afresh."));
                return;
            }
            if (running) {
                m_replaced.append(spec.name);
            }
            // A replaced server stops first, with SGLang's time to finish its requests (docker stop's
            // SIGTERM); an exited container of an earlier run goes too: one of each per deployment.
            const QString stop = running ? QStringLiteral("/containers/%1/stop?t=30").arg(spec.name) : QString();
            auto recreate = [this, spec, next, started, reused](const docker::DockerResponse &) {
                m_docker->call("DELETE", QStringLiteral("/containers/%1?force=1").arg(spec.name), {},
                               [this, spec, next, started, reused](const docker::DockerResponse &) {
                                   createAndStart(spec, [next, started, reused](const QString &line) mutable {
                                       started.append(line);
                                       next(started, reused);
                                   });
                               });
            };
            if (running) {
                m_docker->call("POST", stop, {}, recreate);
            } else {
                recreate({});
            }
        });
}

void DeployRunner::createAndStart(const ContainerSpec &spec, std::function<void(const QString &)> started)
{
    m_docker->call(
        "POST", QStringLiteral("/containers/create?name=") + spec.name,
        QByteArray::fromStdString(spec.createBody.dump()),
        [this, spec, started = std::move(started)](const docker::DockerResponse &created) {
            if (created.status != 201) {
                fail(created.message(),
                     QCoreApplication::translate("Deploy", "Check the image and the container settings."));
                return;
            }
            const QString id = QString::fromStdString(jsonread::string(created.json(), "Id"));
            m_docker->call(
                "POST", QStringLiteral("/containers/%1/start").arg(id), {},
                [this, spec, id, started](const docker::DockerResponse &ok) {
                    if (!ok.ok()) {
                        fail(ok.message(),
                             ok.message().contains(QLatin1String("address already in use"))
                                 ? QCoreApplication::translate("Deploy",
                                                               "Port %1 is taken on the host: stop what listens there.")
                                       .arg(spec.hostPort)
                                 : QCoreApplication::translate("Deploy", "Read the message above; fix and run again."));
                        return;
                    }
                    if (spec.role == QLatin1String("server")) {
                        m_containerIds.append(id);
                    }
                    m_launched = true;
                    started(
                        QCoreApplication::translate("Deploy", "%1 on 127.0.0.1:%2").arg(spec.name).arg(spec.hostPort));
                });
        });
}

void DeployRunner::ready()
{
    // Health at the entry point: the Router when there is one (healthy when its workers are).
    const quint16 port = m_profile.routerPort ? m_profile.routerPort : m_profile.replicas.first().port;
    const QString stall = ReadyProgress::duration(m_options.stallTimeoutMs);
    begin("ready", QCoreApplication::translate("Deploy", "The server is ready"),
          QCoreApplication::translate("Deploy",
                                      "/health 200 after the ready log line; it waits as long as the start makes "
                                      "progress (a first start downloads %1 GB and compiles kernels) and stops after "
                                      "%2 without any progress")
              .arg(m_recipe.weightsBytes / 1000000000)
              .arg(stall),
          QCoreApplication::translate("Deploy",
                                      "GET http://127.0.0.1:%1/health; docker logs -f; du -sb on the host's caches")
              .arg(port));
    // Every outcome of the step says what it waited for, a failure too.
    m_current.expected =
        QCoreApplication::translate("Deploy", "/health 200 and \"The server is fired up and ready to roll!\"");
    // F17: the weights download into the host's Hugging Face cache (hub source only), measured.
    const bool downloads = m_options.modelSource == QLatin1String("hub");
    m_readyClock.start();
    m_readyProgress = std::make_unique<ReadyProgress>(downloads ? m_recipe.weightsBytes : 0, 0);
    auto publish = [this] {
        // The page's "about 252 GB" is the total until the cache holds more: done never passes total.
        const qint64 done = std::max<qint64>(0, m_readyProgress->done());
        reportProgress(done, m_readyProgress->total(), true, m_readyProgress->text(m_readyClock.elapsed()));
    };
    auto seenReady = std::make_shared<bool>(false);
    auto healthy = std::make_shared<bool>(false);
    auto settled = std::make_shared<bool>(false);
    auto settle = [this, settled](StepRecord r) {
        if (*settled) {
            return;
        }
        *settled = true;
        for (QTimer *t : {m_readyTimer, m_cacheTimer, m_stallTimer}) {
            if (t) {
                t->stop();
            }
        }
        finish(r);
    };
    auto passIfReady = [this, seenReady, healthy, settle] {
        if (*seenReady && *healthy) {
            StepRecord r = m_current;
            r.status = StepStatus::Pass;
            r.seen = QCoreApplication::translate("Deploy", "/health 200; ready line seen; ") +
                m_readyProgress->summary(m_readyClock.elapsed());
            settle(r);
        }
    };
    // The log: failure lines end the wait at once with their fix; the ready line is half of ready;
    // milestones (the download, the shards loading, the HTTP server up) say where the start is.
    m_decoder = std::make_unique<docker::LogFrameDecoder>();
    m_logStream = m_docker->stream(
        "GET", QStringLiteral("/containers/%1/logs?follow=1&stdout=1&stderr=1").arg(m_containerIds.first()));
    const int readyRule = m_logRules.indexOf(QStringLiteral("ready"));
    connect(m_logStream, &QNetworkReply::readyRead, this, [this, seenReady, settle, passIfReady, publish, readyRule] {
        const qint64 now = m_readyClock.elapsed();
        m_readyProgress->logActivity(now); // a progress bar's bytes count before their newline
        for (const docker::LogLine &l : m_decoder->feed(m_logStream->readAll())) {
            const QString line = m_redactor.redact(QString::fromUtf8(l.text));
            const int rule = m_log.append(line); // classified once, here
            Q_EMIT logLine(line);
            if (m_readyProgress->logLine(line, now)) {
                publish(); // each milestone, even when the next one came in the same read
            }
            if (rule >= 0 && rule == readyRule) {
                *seenReady = true;
                passIfReady();
            }
        }
        // Only a named cause stops the wait here; a bare crash is judged when the container ends.
        // Where each rule matched is kept as the lines come: this costs no re-reading.
        const StepRecord failure = checks::launchFailure(m_log, true);
        if (failure.status == StepStatus::Fail) {
            StepRecord r = m_current;
            r.status = StepStatus::Fail;
            r.seen = failure.seen;
            r.fix = failure.fix;
            settle(r);
        }
    });
    connect(m_logStream, &QNetworkReply::finished, this, [this, settle] {
        // The follow ends when the container stops: before ready, that is a failed launch.
        // Unless it ended because the SSH link went (an error, or the connection is not up):
        // then nothing says the server stopped, and saying so would be a lie (issue 9).
        StepRecord r = m_current;
        r.status = StepStatus::Fail;
        if (m_logStream->error() != QNetworkReply::NoError || m_conn.state().phase != ssh::ConnectionPhase::Ready) {
            const StepRecord logFailure = checks::launchFailure(m_log);
            if (logFailure.status != StepStatus::Fail) {
                r.seen = QCoreApplication::translate(
                             "Deploy",
                             "the connection to the host was lost while waiting for the server (%1); the "
                             "server may still be starting — nothing seen says it stopped")
                             .arg(m_logStream->errorString());
                r.fix = QCoreApplication::translate(
                    "Deploy",
                    "Once the host is reachable again, run again with --resume: a server that "
                    "is running is not started twice.");
                m_logStream->deleteLater();
                m_logStream = nullptr;
                settle(r);
                return;
            }
        }
        const StepRecord failure = checks::launchFailure(m_log);
        r.seen = failure.status == StepStatus::Fail
            ? failure.seen
            : QCoreApplication::translate("Deploy", "the server exited; last lines:\n") + lastLinesOf(8);
        r.fix = failure.fix.isEmpty()
            ? QCoreApplication::translate("Deploy", "Read the log (flashdeck logs) and fix the cause.")
            : failure.fix;
        m_logStream->deleteLater();
        m_logStream = nullptr;
        settle(r);
    });
    // /health through a tunnel to the published loopback port (F16). Only this tunnel's report:
    // in the window the monitor and the log follower open theirs on the same connection.
    ssh::TunnelReply *apiTunnel = m_conn.tunnelToPort(QStringLiteral("127.0.0.1"), port, this);
    apiTunnel->onOpened(
        this,
        [this, apiTunnel, healthy, passIfReady](quint16) {
            m_apiLink = apiTunnel->link(); // it is calling us: alive
            m_readyTimer = new QTimer(this);
            m_readyTimer->setInterval(m_options.healthPollMs);
            connect(m_readyTimer, &QTimer::timeout, this, [this, healthy, passIfReady] {
                QNetworkReply *reply = new LinkReply(m_apiLink, "GET", "/health", {}, {}, m_http);
                connect(reply, &QNetworkReply::finished, this, [reply, healthy, passIfReady] {
                    reply->deleteLater();
                    // Refused, no answer and 503 all mean "starting" (host contract §5).
                    *healthy = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200;
                    passIfReady();
                });
            });
            m_readyTimer->start();
        },
        [this, settle](const QString &message) {
            StepRecord r = m_current;
            r.status = StepStatus::Fail;
            r.seen = QCoreApplication::translate("Deploy", "no tunnel to the server's port: %1").arg(message);
            r.fix = QCoreApplication::translate("Deploy",
                                                "Check the SSH connection to the host, then run again with --resume.");
            settle(r);
        });

    // The caches, measured on the host: the weights' folder (its .incomplete blobs included, as
    // du counts every file) and the kernel cache, which grows while kernels compile.
    const QString home = m_hostHome.isEmpty() ? QStringLiteral("$HOME") : m_hostHome;
    const QString weightsDir = QString(m_recipe.hfCache).replace(QLatin1Char('~'), home) +
        QStringLiteral("/hub/models--") + QString(m_recipe.modelRepo).replace(QLatin1Char('/'), QStringLiteral("--"));
    const QString kernelDir = QString(m_recipe.minferCache).replace(QLatin1Char('~'), home);
    const auto quoted = [&home](const QString &path) {
        // "$HOME" expands on the host; a known home is quoted like any other path.
        return home == QLatin1String("$HOME") ? '"' + path.toUtf8() + '"' : ssh::shellQuote(path);
    };
    const QByteArray measure = "du -sb -- " + quoted(weightsDir) + ' ' + quoted(kernelDir) + " 2>/dev/null; true";
    auto inFlight = std::make_shared<bool>(false);
    m_cacheTimer = new QTimer(this);
    // At least four measurements per stall window, so a stall reports the bytes it stopped at.
    m_cacheTimer->setInterval(std::min(m_options.cachePollMs, std::max(250, m_options.stallTimeoutMs / 4)));
    const auto poll = [this, measure, inFlight, weightsDir, publish] {
        if (*inFlight) {
            return;
        }
        *inFlight = true;
        runCommand(measure, [this, inFlight, weightsDir, publish](const ssh::CommandResult &res) {
            *inFlight = false;
            if (!m_cacheTimer || !m_cacheTimer->isActive()) {
                return; // the step is over
            }
            qint64 weights = 0;
            qint64 kernels = 0;
            for (const QByteArray &line : res.stdoutData.split('\n')) {
                const QList<QByteArray> f = line.split('\t');
                if (f.size() >= 2) {
                    (QString::fromUtf8(f.at(1)).endsWith(weightsDir.section(QLatin1Char('/'), -1)) ? weights
                                                                                                   : kernels) =
                        f.at(0).toLongLong();
                }
            }
            const bool first = m_readyProgress->done() < 0;
            if (m_readyProgress->sample(weights, kernels, m_readyClock.elapsed()) || first) {
                publish();
            }
        });
    };
    if (downloads) {
        connect(m_cacheTimer, &QTimer::timeout, this, poll);
        m_cacheTimer->start();
        poll();
    }
    // A stall fails the step with what was last seen; progress of any kind keeps it waiting.
    m_stallTimer = new QTimer(this);
    m_stallTimer->setInterval(std::min(1000, std::max(50, m_options.stallTimeoutMs / 10)));
    connect(m_stallTimer, &QTimer::timeout, this, [this, settle, stall] {
        const qint64 now = m_readyClock.elapsed();
        if (now - m_readyProgress->lastProgressMs() < m_options.stallTimeoutMs) {
            return;
        }
        StepRecord r = m_current;
        r.status = StepStatus::Fail;
        r.seen = QCoreApplication::translate("Deploy", "no progress for %1: %2; last lines:\n%3")
                     .arg(stall, m_readyProgress->lastSeen(now), lastLinesOf(4));
        r.fix = m_readyProgress->phase() <= ReadyProgress::Phase::Downloading && m_readyProgress->total() > 0
            ? QCoreApplication::translate(
                  "Deploy",
                  "The weights stopped arriving: check the host's access to the Hugging Face Hub (a proxy, "
                  "HF_ENDPOINT, a token for a gated repo) and its free disk (df -h ~/.cache/huggingface), "
                  "then run again with --resume: what is in the cache is kept and the download goes on "
                  "from there. A slower start needs a longer --stall-timeout.")
            : QCoreApplication::translate(
                  "Deploy",
                  "The server stopped making progress: read its log (flashdeck logs). A start that is "
                  "only slow needs a longer --stall-timeout.");
        settle(r);
    });
    m_stallTimer->start();
    if (m_options.readyTimeoutMs > 0) {
        QTimer::singleShot(m_options.readyTimeoutMs, this, [this, settle] {
            StepRecord r = m_current;
            r.status = StepStatus::Fail;
            r.seen = QCoreApplication::translate("Deploy", "not ready after %1 s (%2); last lines:\n%3")
                         .arg(m_options.readyTimeoutMs / 1000)
                         .arg(m_readyProgress->lastSeen(m_readyClock.elapsed()), lastLinesOf(8));
            r.fix = QCoreApplication::translate(
                "Deploy",
                "The server is still starting or stuck: read its log; a first start downloads "
                "252 GB and compiles kernels, so give it longer with --ready-timeout, or leave it "
                "out: the step then waits as long as the start makes progress.");
            settle(r);
        });
    }
}

QString DeployRunner::lastLinesOf(int n) const
{
    return m_log.lastLines(n);
}

void DeployRunner::checkLog(const char *step)
{
    const QString id = QString::fromLatin1(step);
    const QString notHere = id == QLatin1String("check.qmul4")
        ? checks::qmul4NotApplicable(m_profile, m_gpuNames, m_gpuArchitectures)
        : QString(); // a Blackwell kernel: ROCm and Hopper hosts skip it with the reason
    if (!notHere.isEmpty()) {
        skip(step, QCoreApplication::translate("Deploy", "NVFP4 KV decode uses the fast qmul4 kernel"), notHere);
        return;
    }
    if (id == QLatin1String("check.dspark") && m_options.imported &&
        !m_options.imported->serverArgs.join(QLatin1Char(' '))
             .contains(QLatin1String("--speculative-algorithm DSPARK"))) {
        // The generator's command decides speculative decoding: no DSpark draft is expected without it.
        skip(step, QCoreApplication::translate("Deploy", "DSpark draft loaded from the checkpoint"),
             QCoreApplication::translate("Deploy",
                                         "the generator's command does not turn on DSpark (--speculative-algorithm "
                                         "DSPARK)"));
        return;
    }
    if (id == QLatin1String("check.qmul4")) {
        // What this start printed is kept for later starts of the same pins (the manifest).
        m_qmul4Seen = checks::qmul4Printed(m_log);
        if (m_qmul4Seen) {
            m_qmul4Seen->seenAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
            m_qmul4Seen->imageDigest = m_imageDigest;
            m_qmul4Seen->modelSha = m_modelSha;
        }
    }
    std::optional<KernelVerdict> earlier;
    for (const KernelVerdict &v : m_options.qmul4Verdicts) {
        if (v.of(m_imageDigest, m_modelSha)) {
            earlier = v;
        }
    }
    StepRecord r = id == QLatin1String("check.qmul4") ? checks::qmul4(m_log, earlier)
        : id == QLatin1String("check.dspark")         ? checks::dspark(m_log)
                                                      : checks::kvPool(m_profile, m_log);
    begin(step, r.title, r.why, QCoreApplication::translate("Deploy", "the server's log"));
    r.command = m_current.command;
    finish(r);
}

void DeployRunner::verifyChat(const char *step, bool thinkingOffRetry, const QString &firstTry)
{
    const QString id = QString::fromLatin1(step);
    const bool thinkingStep = id == QLatin1String("verify.thinking");
    const bool image = id == QLatin1String("verify.image");
    const bool thinkingOff = thinkingStep || thinkingOffRetry;
    if (!thinkingOffRetry) {
        const QString title = image ? QCoreApplication::translate("Deploy", "Image input is answered")
            : thinkingStep          ? QCoreApplication::translate("Deploy", "Thinking can be turned off")
                                    : QCoreApplication::translate("Deploy", "Text generation");
        const QString why = image
            ? QCoreApplication::translate("Deploy", "A 224 × 224 picture as a base64 PNG data URI")
            : thinkingStep
            ? QCoreApplication::translate("Deploy", "With thinking_mode disabled: content, no reasoning_content")
            : QCoreApplication::translate("Deploy", "A non-empty choices[0].message.content");
        begin(step, title, why, QCoreApplication::translate("Deploy", "POST /v1/chat/completions (Bearer key)"));
    }
    json content = "Reply with one short sentence about GPUs.";
    if (image) {
        content = json::array(
            {{{"type", "text"}, {"text", "What shape and colour is in this picture? Answer in a few words."}},
             {{"type", "image_url"},
              {"image_url", {{"url", "data:image/png;base64," + verifyPicture().toStdString()}}}}});
    }
    json body = {{"model", m_recipe.modelRepo.toStdString()},
                 {"messages", {{{"role", "user"}, {"content", content}}}},
                 {"max_tokens", kVerifyTokens},
                 {"temperature", m_recipe.temperature},
                 {"top_p", m_recipe.topP}};
    if (thinkingOff) {
        body["chat_template_kwargs"] = {{"thinking_mode", "disabled"}};
    }
    auto *reply =
        new LinkReply(m_apiLink, "POST", "/v1/chat/completions",
                      {{"Content-Type", "application/json"}, {"Authorization", "Bearer " + m_options.apiKey.toUtf8()}},
                      QByteArray::fromStdString(body.dump()), m_http);
    reply->setTransferTimeout(300000); // 2048 tokens at a first start's pace
    connect(reply, &QNetworkReply::finished, this, [this, reply, step, thinkingStep, thinkingOffRetry, firstTry] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray data = reply->readAll(); // read once: the error's words are in it too
        const json j = jsonread::parse(data.constData(), data.constData() + data.size());
        StepRecord r = m_current;
        r.expected = thinkingStep
            ? QCoreApplication::translate("Deploy", "content non-empty, reasoning_content empty or null")
            : QCoreApplication::translate("Deploy", "content non-empty");
        if (status != 200 || !j.is_object()) {
            r.status = StepStatus::Fail;
            // The server's own words for a refusal (never model output: an error body holds none).
            const QString said = status >= 400 ? serverMessage(j, data) : QString();
            r.seen = (status ? QStringLiteral("HTTP %1").arg(status) : reply->errorString()) +
                (said.isEmpty() ? QString() : QStringLiteral(": ") + said);
            r.seen = firstTry.isEmpty() ? r.seen : firstTry + QCoreApplication::translate("Deploy", "; then ") + r.seen;
            r.fix = status == 401
                ? QCoreApplication::translate("Deploy", "The server refused the key: restart the deployment.")
                : status >= 400 && status < 500
                ? QCoreApplication::translate(
                      "Deploy",
                      "The server refused the request: its message above says why (read the server's log "
                      "for more).")
                : QCoreApplication::translate("Deploy", "Read the server's log for the error.");
            finish(r);
            return;
        }
        const json choice = j.value("choices", json::array()).empty() ? json::object() : j["choices"][0];
        const json message = choice.value("message", json::object());
        const std::string finishReason = choice.contains("finish_reason") && choice["finish_reason"].is_string()
            ? choice["finish_reason"].get<std::string>()
            : std::string();
        const bool hasContent =
            message.value("content", json()).is_string() && !message["content"].get<std::string>().empty();
        const json reasoning = message.value("reasoning_content", json());
        const bool noReasoning = reasoning.is_null() || (reasoning.is_string() && reasoning.get<std::string>().empty());
        // Model output is never recorded: only its shape (F32).
        const QString shape =
            QCoreApplication::translate("Deploy", "content: %1 characters; reasoning_content: %2%3")
                .arg(hasContent ? message["content"].get<std::string>().size() : 0)
                .arg(reasoning.is_string() ? QCoreApplication::translate("Deploy", "%1 characters")
                                                 .arg(reasoning.get<std::string>().size())
                                           : QStringLiteral("null"))
                .arg(finishReason.empty() ? QString()
                                          : QCoreApplication::translate("Deploy", "; finish_reason %1")
                                                .arg(QString::fromStdString(finishReason)));
        if (!hasContent && finishReason == "length" && !thinkingStep && !thinkingOffRetry) {
            // Spent on thinking: say so, and ask once more with thinking off (recorded).
            verifyChat(step, true,
                       QCoreApplication::translate(
                           "Deploy",
                           "the answer ended at the %1-token limit while thinking (%2); asked again with "
                           "thinking off")
                           .arg(kVerifyTokens)
                           .arg(shape));
            return;
        }
        r.seen = firstTry.isEmpty() ? shape : firstTry + QStringLiteral(": ") + shape;
        r.status = hasContent && (!thinkingStep || noReasoning) ? StepStatus::Pass : StepStatus::Fail;
        if (r.status == StepStatus::Fail) {
            r.fix = thinkingStep
                ? QCoreApplication::translate("Deploy",
                                              "Check the reasoning parser (--reasoning-parser minimax-m3) and the "
                                              "image's chat template.")
                : finishReason == "length"
                ? QCoreApplication::translate(
                      "Deploy",
                      "Even with thinking off the answer ran out of tokens: read the server's log, and check "
                      "the context length and the chat template.")
                : QCoreApplication::translate("Deploy", "Read the server's log for the error.");
        }
        finish(r);
    });
}

} // namespace flashdeck
