// DeployRunner, second half: launch, readiness, the log checks and the chat checks
// (deployrunner.cpp has the pre-flight, pin and pull steps).

#include "backend/core/jsonread.h"
#include "backend/deploy/apikeyrecovery.h"
#include "backend/deploy/checks.h"
#include "backend/deploy/deployrunner.h"
#include "backend/deploy/weightsfolder.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/logframes.h"
#include "backend/security/redactor.h"
#include "backend/ssh/hostconnection.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <nlohmann/json.hpp>

namespace flashdeck {

namespace {

using nlohmann::json;

// A 1×1 PNG, base64: the image check's input (F23: base64 data URIs, never remote URLs here).
const char *const kTinyPng =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

} // namespace

void DeployRunner::launch()
{
    begin("launch", QStringLiteral("Start the server"),
          QStringLiteral("The pinned image and revision, listening on the host's loopback only"), QString());
    m_current.expected = QStringLiteral("the server's containers created and started");
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
                       if (m_folder && m_options.modelSource != QLatin1String("hub")) {
                           in.offlineModelDir = m_folder->resolvedPath();
                       }
                       if (m_options.hicacheGbPerRank > 0) {
                           in.hicacheGbPerRank = m_options.hicacheGbPerRank;
                       }
                       const Result<QList<ContainerSpec>> specs = buildLaunch(m_recipe, m_profile, in);
                       if (!specs) {
                           fail(specs.message(), QStringLiteral("Fix the profile or the inputs and run again."));
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
        r.expected = QStringLiteral("%1 container(s) labelled io.flashdeck.deployment=%2 running")
                         .arg(specs->size())
                         .arg(m_options.deploymentId);
        QStringList seen;
        if (!started.isEmpty()) {
            seen.append(QStringLiteral("started %1").arg(started.join(QStringLiteral(", "))));
        }
        if (!reused.isEmpty()) {
            seen.append(
                QStringLiteral("already running (not started again): %1").arg(reused.join(QStringLiteral(", "))));
        }
        r.seen = seen.join(QStringLiteral("; "));
        if (!m_profile.verified()) { // F12: say so, every time it runs
            r.status = StepStatus::Warn;
            r.fix =
                QStringLiteral("This profile is not verified upstream: validate it with your own load before relying "
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
            if (existing.ok() && inspect.value("State", json::object()).value("Running", false)) {
                if (spec.role == QLatin1String("server")) {
                    m_containerIds.append(QString::fromStdString(inspect.value("Id", std::string())));
                }
                reused.append(spec.name);
                next(started, reused);
                return;
            }
            // An exited container of an earlier run goes first: one of each per deployment.
            m_docker->call(
                "DELETE", QStringLiteral("/containers/%1?force=1").arg(spec.name), {},
                [this, spec, next, started, reused](const docker::DockerResponse &) mutable {
                    m_docker->call(
                        "POST", QStringLiteral("/containers/create?name=") + spec.name,
                        QByteArray::fromStdString(spec.createBody.dump()),
                        [this, spec, next, started, reused](const docker::DockerResponse &created) mutable {
                            if (created.status != 201) {
                                fail(created.message(), QStringLiteral("Check the image and the container settings."));
                                return;
                            }
                            const QString id = QString::fromStdString(created.json().value("Id", std::string()));
                            m_docker->call(
                                "POST", QStringLiteral("/containers/%1/start").arg(id), {},
                                [this, spec, id, next, started, reused](const docker::DockerResponse &ok) mutable {
                                    if (!ok.ok()) {
                                        fail(ok.message(),
                                             ok.message().contains(QLatin1String("address already in use"))
                                                 ? QStringLiteral(
                                                       "Port %1 is taken on the host: stop what listens there.")
                                                       .arg(spec.hostPort)
                                                 : QStringLiteral("Read the message above; fix and run again."));
                                        return;
                                    }
                                    if (spec.role == QLatin1String("server")) {
                                        m_containerIds.append(id);
                                    }
                                    started.append(
                                        QStringLiteral("%1 on 127.0.0.1:%2").arg(spec.name).arg(spec.hostPort));
                                    next(started, reused);
                                });
                        });
                });
        });
}

void DeployRunner::ready()
{
    // Health at the entry point: the Router when there is one (healthy when its workers are).
    const quint16 port = m_profile.routerPort ? m_profile.routerPort : m_profile.replicas.first().port;
    begin("ready", QStringLiteral("The server is ready"), QStringLiteral("/health 200 after the ready log line"),
          QStringLiteral("GET http://127.0.0.1:%1/health; docker logs -f").arg(port));
    // Every outcome of the step says what it waited for, a failure too.
    m_current.expected = QStringLiteral("/health 200 and \"The server is fired up and ready to roll!\"");
    auto seenReady = std::make_shared<bool>(false);
    auto healthy = std::make_shared<bool>(false);
    auto settled = std::make_shared<bool>(false);
    auto settle = [this, settled](StepRecord r) {
        if (*settled) {
            return;
        }
        *settled = true;
        if (m_readyTimer) {
            m_readyTimer->stop();
        }
        finish(r);
    };
    auto passIfReady = [this, seenReady, healthy, settle] {
        if (*seenReady && *healthy) {
            StepRecord r = m_current;
            r.status = StepStatus::Pass;
            r.seen = QStringLiteral("/health 200; ready line seen");
            settle(r);
        }
    };
    // The log: failure lines end the wait at once with their fix; the ready line is half of ready.
    m_decoder = std::make_unique<docker::LogFrameDecoder>();
    m_logStream = m_docker->stream(
        "GET", QStringLiteral("/containers/%1/logs?follow=1&stdout=1&stderr=1").arg(m_containerIds.first()));
    connect(m_logStream, &QNetworkReply::readyRead, this, [this, seenReady, settle, passIfReady] {
        for (const docker::LogLine &l : m_decoder->feed(m_logStream->readAll())) {
            const QString line = m_redactor.redact(QString::fromUtf8(l.text));
            m_log.append(line);
            Q_EMIT logLine(line);
            if (line.contains(QLatin1String("The server is fired up and ready to roll!"))) {
                *seenReady = true;
                passIfReady();
            }
        }
        // Only a named cause stops the wait here; a bare crash is judged when the container ends.
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
                r.seen = QStringLiteral("the connection to the host was lost while waiting for the server (%1); the "
                                        "server may still be starting — nothing seen says it stopped")
                             .arg(m_logStream->errorString());
                r.fix = QStringLiteral("Once the host is reachable again, run again with --resume: a server that "
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
            : QStringLiteral("the server exited; last lines:\n") + lastLinesOf(8);
        r.fix =
            failure.fix.isEmpty() ? QStringLiteral("Read the log (flashdeck logs) and fix the cause.") : failure.fix;
        m_logStream->deleteLater();
        m_logStream = nullptr;
        settle(r);
    });
    // /health through a tunnel to the published loopback port (F16).
    auto *guard = new QObject(this);
    connect(&m_conn, &ssh::HostConnection::tunnelReady, guard,
            [this, guard, healthy, passIfReady](quint64, quint16 local) {
                guard->deleteLater();
                m_apiPort = local;
                m_readyTimer = new QTimer(this);
                m_readyTimer->setInterval(m_options.healthPollMs);
                connect(m_readyTimer, &QTimer::timeout, this, [this, healthy, passIfReady] {
                    QNetworkReply *reply =
                        m_http->get(QNetworkRequest(QUrl(QStringLiteral("http://127.0.0.1:%1/health").arg(m_apiPort))));
                    connect(reply, &QNetworkReply::finished, this, [reply, healthy, passIfReady] {
                        reply->deleteLater();
                        // Refused, no answer and 503 all mean "starting" (host contract §5).
                        *healthy = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200;
                        passIfReady();
                    });
                });
                m_readyTimer->start();
            });
    m_conn.openPortTunnel(QStringLiteral("127.0.0.1"), port);
    QTimer::singleShot(m_options.readyTimeoutMs, this, [this, settle] {
        StepRecord r = m_current;
        r.status = StepStatus::Fail;
        r.seen = QStringLiteral("not ready after %1 s; last lines:\n%2")
                     .arg(m_options.readyTimeoutMs / 1000)
                     .arg(lastLinesOf(8));
        r.fix = QStringLiteral("The server is still starting or stuck: read its log; a first start downloads 252 GB "
                               "and compiles kernels, so give it longer with --ready-timeout.");
        settle(r);
    });
}

QString DeployRunner::lastLinesOf(int n) const
{
    return m_log.mid(std::max<qsizetype>(0, m_log.size() - n)).join(QLatin1Char('\n'));
}

void DeployRunner::checkLog(const char *step)
{
    const QString id = QString::fromLatin1(step);
    if (id == QLatin1String("check.qmul4") && m_profile.vendor != QLatin1String("nvidia")) {
        skip(step, QStringLiteral("NVFP4 KV decode uses the fast qmul4 kernel"),
             QStringLiteral("ROCm host: qmul4 is an NVIDIA kernel (the check applies to CUDA only)"));
        return;
    }
    StepRecord r = id == QLatin1String("check.qmul4") ? checks::qmul4(m_log)
        : id == QLatin1String("check.dspark")         ? checks::dspark(m_log)
                                                      : checks::kvPool(m_profile, m_log);
    begin(step, r.title, r.why, QStringLiteral("the server's log"));
    r.command = m_current.command;
    finish(r);
}

void DeployRunner::verifyChat(const char *step)
{
    const QString id = QString::fromLatin1(step);
    const bool thinkingOff = id == QLatin1String("verify.thinking");
    const bool image = id == QLatin1String("verify.image");
    const QString title = image ? QStringLiteral("Image input is answered")
        : thinkingOff           ? QStringLiteral("Thinking can be turned off")
                                : QStringLiteral("Text generation");
    const QString why = image ? QStringLiteral("A base64 PNG data URI")
        : thinkingOff         ? QStringLiteral("With thinking_mode disabled: content, no reasoning_content")
                              : QStringLiteral("A non-empty choices[0].message.content");
    begin(step, title, why, QStringLiteral("POST /v1/chat/completions (Bearer key)"));
    json content = "Reply with one short sentence about GPUs.";
    if (image) {
        content = json::array(
            {{{"type", "text"}, {"text", "What colour is this pixel?"}},
             {{"type", "image_url"}, {"image_url", {{"url", std::string("data:image/png;base64,") + kTinyPng}}}}});
    }
    json body = {{"model", m_recipe.modelRepo.toStdString()},
                 {"messages", {{{"role", "user"}, {"content", content}}}},
                 {"max_tokens", 64},
                 {"temperature", m_recipe.temperature},
                 {"top_p", m_recipe.topP}};
    if (thinkingOff) {
        body["chat_template_kwargs"] = {{"thinking_mode", "disabled"}};
    }
    QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/v1/chat/completions").arg(m_apiPort)));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Authorization", "Bearer " + m_options.apiKey.toUtf8());
    request.setTransferTimeout(120000);
    QNetworkReply *reply = m_http->post(request, QByteArray::fromStdString(body.dump()));
    connect(reply, &QNetworkReply::finished, this, [this, reply, thinkingOff] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray data = reply->readAll();
        const json j = jsonread::parse(data.constData(), data.constData() + data.size());
        StepRecord r = m_current;
        if (status != 200 || !j.is_object()) {
            r.status = StepStatus::Fail;
            r.seen = QStringLiteral("HTTP %1").arg(status); // the body may hold model output: not recorded
            r.fix = status == 401 ? QStringLiteral("The server refused the key: restart the deployment.")
                                  : QStringLiteral("Read the server's log for the error.");
            finish(r);
            return;
        }
        const json message = j.value("choices", json::array()).empty()
            ? json::object()
            : j["choices"][0].value("message", json::object());
        const bool hasContent =
            message.value("content", json()).is_string() && !message["content"].get<std::string>().empty();
        const json reasoning = message.value("reasoning_content", json());
        const bool noReasoning = reasoning.is_null() || (reasoning.is_string() && reasoning.get<std::string>().empty());
        // Model output is never recorded: only its shape (F32).
        r.seen =
            QStringLiteral("content: %1 characters; reasoning_content: %2")
                .arg(hasContent ? message["content"].get<std::string>().size() : 0)
                .arg(reasoning.is_string() ? QStringLiteral("%1 characters").arg(reasoning.get<std::string>().size())
                                           : QStringLiteral("null"));
        r.expected = thinkingOff ? QStringLiteral("content non-empty, reasoning_content empty or null")
                                 : QStringLiteral("content non-empty");
        r.status = hasContent && (!thinkingOff || noReasoning) ? StepStatus::Pass : StepStatus::Fail;
        if (r.status == StepStatus::Fail) {
            r.fix = thinkingOff ? QStringLiteral("Check the reasoning parser (--reasoning-parser minimax-m3) and the "
                                                 "image's chat template.")
                                : QStringLiteral("Read the server's log for the error.");
        }
        finish(r);
    });
}

} // namespace flashdeck
