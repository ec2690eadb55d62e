// DeployRunner, second half: launch, the log checks and the chat checks (deployrunner.cpp has
// the pre-flight, pin and pull steps, deployready.cpp the Ready step).

#include "backend/core/hosttext.h"
#include "backend/core/jsonread.h"
#include "backend/core/linkreply.h"
#include "backend/core/shellquote.h"
#include "backend/deploy/apikeyrecovery.h"
#include "backend/deploy/checks.h"
#include "backend/deploy/deployrunner.h"
#include "backend/deploy/readyprogress.h"
#include "backend/deploy/weightsfolder.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/logframes.h"
#include "backend/security/redactor.h"
#include "backend/ssh/transport.h"
#include "backend/ssh/tunnelreply.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <nlohmann/json.hpp>

namespace flashdeck::deploy {

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

/** The verify step's request: one short question (or a picture), thinking off when asked. */
json verifyRequest(const recipe::Recipe &recipe, bool image, bool thinkingOff)
{
    json content = "Reply with one short sentence about GPUs.";
    if (image) {
        content = json::array(
            {{{"type", "text"}, {"text", "What shape and colour is in this picture? Answer in a few words."}},
             {{"type", "image_url"},
              {"image_url", {{"url", "data:image/png;base64," + verifyPicture().toStdString()}}}}});
    }
    json body = {{"model", recipe.modelRepo.toStdString()},
                 {"messages", {{{"role", "user"}, {"content", content}}}},
                 {"max_tokens", kVerifyTokens},
                 {"temperature", recipe.temperature},
                 {"top_p", recipe.topP}};
    if (thinkingOff) {
        body["chat_template_kwargs"] = {{"thinking_mode", "disabled"}};
    }
    return body;
}

/** A refused or unreadable answer: what the server said (never model output) and what to do. */
void refused(recipe::StepRecord &r, int status, const json &j, const QByteArray &data, const QString &transportError,
             const QString &firstTry)
{
    r.status = recipe::StepStatus::Fail;
    // The server's own words for a refusal (never model output: an error body holds none).
    const QString said = status >= 400 ? serverMessage(j, data) : QString();
    r.seen = (status ? QStringLiteral("HTTP %1").arg(status) : transportError) +
        (said.isEmpty() ? QString() : QStringLiteral(": ") + said);
    r.seen = firstTry.isEmpty() ? r.seen : firstTry + QCoreApplication::translate("Deploy", "; then ") + r.seen;
    r.fix = status == 401 ? QCoreApplication::translate("Deploy", "The server refused the key: restart the deployment.")
        : status >= 400 && status < 500
        ? QCoreApplication::translate("Deploy",
                                      "The server refused the request: its message above says why (read the server's "
                                      "log for more).")
        : QCoreApplication::translate("Deploy", "Read the server's log for the error.");
}

/** An answer's shape, never its words (F32): content, reasoning_content, finish_reason. */
struct AnswerShape
{
    bool hasContent = false;
    bool noReasoning = false;
    std::string finishReason;
    QString text;
};

AnswerShape shapeOf(const json &j)
{
    AnswerShape a;
    const json choice = j.value("choices", json::array()).empty() ? json::object() : j["choices"][0];
    const json message = choice.value("message", json::object());
    a.finishReason = choice.contains("finish_reason") && choice["finish_reason"].is_string()
        ? choice["finish_reason"].get<std::string>()
        : std::string();
    a.hasContent = message.value("content", json()).is_string() && !message["content"].get<std::string>().empty();
    const json reasoning = message.value("reasoning_content", json());
    a.noReasoning = reasoning.is_null() || (reasoning.is_string() && reasoning.get<std::string>().empty());
    a.text =
        QCoreApplication::translate("Deploy", "content: %1 characters; reasoning_content: %2%3")
            .arg(a.hasContent ? message["content"].get<std::string>().size() : 0)
            .arg(reasoning.is_string()
                     ? QCoreApplication::translate("Deploy", "%1 characters").arg(reasoning.get<std::string>().size())
                     : QStringLiteral("null"))
            .arg(a.finishReason.empty() ? QString()
                                        : QCoreApplication::translate("Deploy", "; finish_reason %1")
                                              .arg(QString::fromStdString(a.finishReason)));
    return a;
}

} // namespace

void DeployRunner::launch()
{
    begin({}, {});
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
                           m_options.apiKey = recipe::generateApiKey();
                       }
                       m_redactor.addSecret(m_options.apiKey);
                       recipe::LaunchInputs in;
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
                       const Result<QList<recipe::ContainerSpec>> specs = recipe::buildLaunch(m_recipe, m_profile, in);
                       if (!specs) {
                           fail(specs.message(),
                                QCoreApplication::translate("Deploy", "Fix the profile or the inputs and run again."));
                           return;
                       }
                       QStringList lines;
                       for (const recipe::ContainerSpec &spec : specs.value()) {
                           lines.append(spec.dockerRunLine());
                       }
                       m_launchLine = lines.join(QLatin1Char('\n'));
                       m_current.command = m_launchLine;
                       launchNext(std::make_shared<QList<recipe::ContainerSpec>>(specs.value()), 0, {}, {});
                   });
}

void DeployRunner::launchNext(std::shared_ptr<QList<recipe::ContainerSpec>> specs, int index, QStringList started,
                              QStringList reused)
{
    if (index == specs->size()) {
        recipe::StepRecord r = m_current;
        r.status = recipe::StepStatus::Pass;
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
            r.status = recipe::StepStatus::Warn;
            r.fix = QCoreApplication::translate(
                        "Deploy",
                        "This profile is not verified upstream: validate it with your own load before relying "
                        "on it. %1")
                        .arg(m_profile.note);
        }
        finish(r);
        return;
    }
    const recipe::ContainerSpec spec = specs->at(index);
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

void DeployRunner::createAndStart(const recipe::ContainerSpec &spec, std::function<void(const QString &)> started)
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

void DeployRunner::checkLog(const char *step)
{
    const QString id = QString::fromLatin1(step);
    const QString notHere = id == QLatin1String("check.qmul4")
        ? checks::qmul4NotApplicable(m_profile, m_gpuNames, m_gpuArchitectures)
        : QString(); // a Blackwell kernel: ROCm and Hopper hosts skip it with the reason
    if (!notHere.isEmpty()) {
        skip(notHere);
        return;
    }
    if (id == QLatin1String("check.dspark") && m_options.imported &&
        !m_options.imported->serverArgs.join(QLatin1Char(' '))
             .contains(QLatin1String("--speculative-algorithm DSPARK"))) {
        // The generator's command decides speculative decoding: no DSpark draft is expected without it.
        skip(QCoreApplication::translate("Deploy",
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
    std::optional<recipe::KernelVerdict> earlier;
    for (const recipe::KernelVerdict &v : m_options.qmul4Verdicts) {
        if (v.of(m_imageDigest, m_modelSha)) {
            earlier = v;
        }
    }
    recipe::StepRecord r = id == QLatin1String("check.qmul4") ? checks::qmul4(m_log, earlier)
        : id == QLatin1String("check.dspark")                 ? checks::dspark(m_log)
                                                              : checks::kvPool(m_profile, m_log);
    begin(r.why, QCoreApplication::translate("Deploy", "the server's log"));
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
        begin({}, QCoreApplication::translate("Deploy", "POST /v1/chat/completions (Bearer key)"));
    }
    const json body = verifyRequest(m_recipe, image, thinkingOff);
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
        recipe::StepRecord r = m_current;
        r.expected = thinkingStep
            ? QCoreApplication::translate("Deploy", "content non-empty, reasoning_content empty or null")
            : QCoreApplication::translate("Deploy", "content non-empty");
        if (status != 200 || !j.is_object()) {
            refused(r, status, j, data, reply->errorString(), firstTry);
            finish(r);
            return;
        }
        const AnswerShape answer = shapeOf(j);
        const QString &shape = answer.text;
        const std::string &finishReason = answer.finishReason;
        const bool hasContent = answer.hasContent;
        const bool noReasoning = answer.noReasoning;
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
        r.status = hasContent && (!thinkingStep || noReasoning) ? recipe::StepStatus::Pass : recipe::StepStatus::Fail;
        if (r.status == recipe::StepStatus::Fail) {
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

} // namespace flashdeck::deploy
