// DeployRunner, the Ready step: the server's log as it streams (failure lines, the ready line and
// the milestones), /health through a tunnel, the host's caches measured, and the stall and overall
// limits. Each part is its own function; they share one ReadyWait.

#include "backend/core/linkreply.h"
#include "backend/core/shellquote.h"
#include "backend/deploy/checks.h"
#include "backend/deploy/deployrunner.h"
#include "backend/deploy/readyprogress.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/logframes.h"
#include "backend/security/redactor.h"
#include "backend/ssh/transport.h"
#include "backend/ssh/tunnelreply.h"

#include <QCoreApplication>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

namespace flashdeck::deploy {

/** What the Ready step has seen so far; settled once, by whichever part ends it first. */
struct DeployRunner::ReadyWait
{
    bool seenReady = false;
    bool healthy = false;
    bool settled = false;
    QString stall; // the stall limit in words
};

void DeployRunner::ready()
{
    // Health at the entry point: the Router when there is one (healthy when its workers are).
    const quint16 port = m_profile.routerPort ? m_profile.routerPort : m_profile.replicas.first().port;
    auto wait = std::make_shared<ReadyWait>();
    wait->stall = ReadyProgress::duration(m_options.stallTimeoutMs);
    begin(QCoreApplication::translate("Deploy",
                                      "/health 200 after the ready log line; it waits as long as the start makes "
                                      "progress (a first start downloads %1 GB and compiles kernels) and stops after "
                                      "%2 without any progress")
              .arg(m_recipe.weightsBytes / 1000000000)
              .arg(wait->stall),
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
    followStartLog(wait);
    pollHealth(wait, port);
    if (downloads) {
        measureCaches();
    }
    watchStall(wait);
}

void DeployRunner::settleReady(ReadyWait &wait, const recipe::StepRecord &r)
{
    if (wait.settled) {
        return;
    }
    wait.settled = true;
    for (QTimer *t : {m_readyTimer, m_cacheTimer, m_stallTimer}) {
        if (t) {
            t->stop();
        }
    }
    if (QNetworkReply *stream = std::exchange(m_logStream, nullptr)) {
        // The start is judged (its checks read the lines kept up to here): its follow ends now.
        // Left open, a finished run in the window kept a second dial-stdio and a second log
        // follow on the host for as long as the page showed it; the host's log goes on for the
        // pages (HostSession's SharedLog).
        stream->disconnect(this);
        stream->abort();
        stream->deleteLater();
    }
    finish(r);
}

void DeployRunner::passIfReady(ReadyWait &wait)
{
    if (wait.seenReady && wait.healthy) {
        recipe::StepRecord r = m_current;
        r.status = recipe::StepStatus::Pass;
        r.seen = QCoreApplication::translate("Deploy", "/health 200; ready line seen; ") +
            m_readyProgress->summary(m_readyClock.elapsed());
        settleReady(wait, r);
    }
}

void DeployRunner::publishReadyProgress()
{
    // The page's "about 252 GB" is the total until the cache holds more: done never passes total.
    const qint64 done = std::max<qint64>(0, m_readyProgress->done());
    reportProgress(done, m_readyProgress->total(), true, m_readyProgress->text(m_readyClock.elapsed()));
}

void DeployRunner::followStartLog(const std::shared_ptr<ReadyWait> &wait)
{
    // The log: failure lines end the wait at once with their fix; the ready line is half of ready;
    // milestones (the download, the shards loading, the HTTP server up) say where the start is.
    m_decoder = std::make_unique<docker::LogFrameDecoder>();
    m_logStream = m_docker->stream(
        "GET", QStringLiteral("/containers/%1/logs?follow=1&stdout=1&stderr=1").arg(m_containerIds.first()));
    const int readyRule = m_logRules.indexOf(QStringLiteral("ready"));
    connect(m_logStream, &QNetworkReply::readyRead, this, [this, wait, readyRule] {
        const qint64 now = m_readyClock.elapsed();
        m_readyProgress->logActivity(now); // a progress bar's bytes count before their newline
        for (const docker::LogLine &l : m_decoder->feed(m_logStream->readAll())) {
            const QString line = m_redactor.redact(QString::fromUtf8(l.text));
            const int rule = m_log.append(line); // classified once, here
            Q_EMIT logLine(line);
            if (m_readyProgress->logLine(line, now)) {
                publishReadyProgress(); // each milestone, even when the next one came in the same read
            }
            if (rule >= 0 && rule == readyRule) {
                wait->seenReady = true;
                passIfReady(*wait);
            }
        }
        // Only a named cause stops the wait here; a bare crash is judged when the container ends.
        // Where each rule matched is kept as the lines come: this costs no re-reading.
        const recipe::StepRecord failure = checks::launchFailure(m_log, true);
        if (failure.status == recipe::StepStatus::Fail) {
            recipe::StepRecord r = m_current;
            r.status = recipe::StepStatus::Fail;
            r.seen = failure.seen;
            r.fix = failure.fix;
            settleReady(*wait, r);
        }
    });
    connect(m_logStream, &QNetworkReply::finished, this, [this, wait] {
        // The follow ends when the container stops: before ready, that is a failed launch.
        // Unless it ended because the SSH link went (an error, or the connection is not up):
        // then nothing says the server stopped, and saying so would be a lie (issue 9).
        recipe::StepRecord r = m_current;
        r.status = recipe::StepStatus::Fail;
        const recipe::StepRecord failure = checks::launchFailure(m_log);
        if ((m_logStream->error() != QNetworkReply::NoError || m_conn.state().phase != ssh::ConnectionPhase::Ready) &&
            failure.status != recipe::StepStatus::Fail) {
            r.seen = QCoreApplication::translate("Deploy",
                                                 "the connection to the host was lost while waiting for the server "
                                                 "(%1); the server may still be starting — nothing seen says it "
                                                 "stopped")
                         .arg(m_logStream->errorString());
            r.fix = QCoreApplication::translate("Deploy",
                                                "Once the host is reachable again, run again with --resume: a server "
                                                "that is running is not started twice.");
        } else {
            r.seen = failure.status == recipe::StepStatus::Fail
                ? failure.seen
                : QCoreApplication::translate("Deploy", "the server exited; last lines:\n") + lastLinesOf(8);
            r.fix = failure.fix.isEmpty()
                ? QCoreApplication::translate("Deploy", "Read the log (flashdeck logs) and fix the cause.")
                : failure.fix;
        }
        m_logStream->deleteLater();
        m_logStream = nullptr;
        settleReady(*wait, r);
    });
}

void DeployRunner::pollHealth(const std::shared_ptr<ReadyWait> &wait, quint16 port)
{
    // /health through a tunnel to the published loopback port (F16). Only this tunnel's report:
    // in the window the monitor and the log follower open theirs on the same connection.
    ssh::TunnelReply *apiTunnel = m_conn.tunnelToPort(QStringLiteral("127.0.0.1"), port, this);
    apiTunnel->onOpened(
        this,
        [this, apiTunnel, wait](quint16) {
            m_apiLink = apiTunnel->link(); // it is calling us: alive
            m_readyTimer = new QTimer(this);
            m_readyTimer->setInterval(m_options.healthPollMs);
            connect(m_readyTimer, &QTimer::timeout, this, [this, wait] {
                QNetworkReply *reply = new LinkReply(m_apiLink, "GET", "/health", {}, {}, m_http);
                connect(reply, &QNetworkReply::finished, this, [this, reply, wait] {
                    reply->deleteLater();
                    // Refused, no answer and 503 all mean "starting" (host contract §5).
                    wait->healthy = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200;
                    passIfReady(*wait);
                });
            });
            m_readyTimer->start();
        },
        [this, wait](const QString &message) {
            recipe::StepRecord r = m_current;
            r.status = recipe::StepStatus::Fail;
            r.seen = QCoreApplication::translate("Deploy", "no tunnel to the server's port: %1").arg(message);
            r.fix = QCoreApplication::translate("Deploy",
                                                "Check the SSH connection to the host, then run again with --resume.");
            settleReady(*wait, r);
        });
}

void DeployRunner::measureCaches()
{
    // The caches, measured on the host: the weights' folder (its .incomplete blobs included, as
    // du counts every file) and the kernel cache, which grows while kernels compile.
    const QString home = m_hostHome.isEmpty() ? QStringLiteral("$HOME") : m_hostHome;
    const QString weightsDir = QString(m_recipe.hfCache).replace(QLatin1Char('~'), home) +
        QStringLiteral("/hub/models--") + QString(m_recipe.modelRepo).replace(QLatin1Char('/'), QStringLiteral("--"));
    const QString kernelDir = QString(m_recipe.minferCache).replace(QLatin1Char('~'), home);
    const auto quoted = [&home](const QString &path) {
        // "$HOME" expands on the host; a known home is quoted like any other path.
        return home == QLatin1String("$HOME") ? '"' + path.toUtf8() + '"' : shellQuote(path);
    };
    const QByteArray measure = "du -sb -- " + quoted(weightsDir) + ' ' + quoted(kernelDir) + " 2>/dev/null; true";
    auto inFlight = std::make_shared<bool>(false);
    m_cacheTimer = new QTimer(this);
    // At least four measurements per stall window, so a stall reports the bytes it stopped at.
    m_cacheTimer->setInterval(std::min(m_options.cachePollMs, std::max(250, m_options.stallTimeoutMs / 4)));
    const auto poll = [this, measure, inFlight, weightsDir] {
        if (*inFlight) {
            return;
        }
        *inFlight = true;
        runCommand(measure, [this, inFlight, weightsDir](const ssh::CommandResult &res) {
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
                publishReadyProgress();
            }
        });
    };
    connect(m_cacheTimer, &QTimer::timeout, this, poll);
    m_cacheTimer->start();
    poll();
}

void DeployRunner::watchStall(const std::shared_ptr<ReadyWait> &wait)
{
    // A stall fails the step with what was last seen; progress of any kind keeps it waiting.
    m_stallTimer = new QTimer(this);
    m_stallTimer->setInterval(std::min(1000, std::max(50, m_options.stallTimeoutMs / 10)));
    connect(m_stallTimer, &QTimer::timeout, this, [this, wait] {
        const qint64 now = m_readyClock.elapsed();
        if (now - m_readyProgress->lastProgressMs() < m_options.stallTimeoutMs) {
            return;
        }
        recipe::StepRecord r = m_current;
        r.status = recipe::StepStatus::Fail;
        r.seen = QCoreApplication::translate("Deploy", "no progress for %1: %2; last lines:\n%3")
                     .arg(wait->stall, m_readyProgress->lastSeen(now), lastLinesOf(4));
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
        settleReady(*wait, r);
    });
    m_stallTimer->start();
    if (m_options.readyTimeoutMs > 0) {
        QTimer::singleShot(m_options.readyTimeoutMs, this, [this, wait] {
            recipe::StepRecord r = m_current;
            r.status = recipe::StepStatus::Fail;
            r.seen = QCoreApplication::translate("Deploy", "not ready after %1 s (%2); last lines:\n%3")
                         .arg(m_options.readyTimeoutMs / 1000)
                         .arg(m_readyProgress->lastSeen(m_readyClock.elapsed()), lastLinesOf(8));
            r.fix = QCoreApplication::translate(
                "Deploy",
                "The server is still starting or stuck: read its log; a first start downloads "
                "252 GB and compiles kernels, so give it longer with --ready-timeout, or leave it "
                "out: the step then waits as long as the start makes progress.");
            settleReady(*wait, r);
        });
    }
}

QString DeployRunner::lastLinesOf(int n) const
{
    return m_log.lastLines(n);
}

} // namespace flashdeck::deploy
