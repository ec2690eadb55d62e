#include "backend/deploy/deployplan.h"

#include "backend/deploy/deployrunner.h"

#include <QCoreApplication>

namespace flashdeck::deploy {

QString PlanStep::groupText() const
{
    return QCoreApplication::translate("Steps", group);
}

QString PlanStep::titleText() const
{
    return QCoreApplication::translate("Steps", title);
}

QString PlanStep::whyText() const
{
    return *why ? QCoreApplication::translate("Steps", why) : QString();
}

const QList<PlanStep> &DeployPlan::steps()
{
    // The phases the window groups steps under (issue 6).
    static const char *const preflight = QT_TRANSLATE_NOOP("Steps", "Pre-flight");
    static const char *const licence = QT_TRANSLATE_NOOP("Steps", "Licence");
    //: The deployment phase that fixes the image digest and model revision (固定), not a UI pin.
    static const char *const pin = QT_TRANSLATE_NOOP("Steps", "Pin");
    //: The deployment phase that downloads the image (docker pull).
    static const char *const pull = QT_TRANSLATE_NOOP("Steps", "Pull");
    //: The deployment phase that starts the SGLang server.
    static const char *const launch = QT_TRANSLATE_NOOP("Steps", "Launch");
    //: The deployment phase that sends test requests to the running server.
    static const char *const verify = QT_TRANSLATE_NOOP("Steps", "Verify");
    // In order; a step's id beside the code that runs it, so the two cannot drift apart.
    static const QList<PlanStep> plan{
        {"preflight.ssh", preflight, QT_TRANSLATE_NOOP("Steps", "SSH connection"),
         QT_TRANSLATE_NOOP("Steps", "Everything Flashdeck does on the host goes through this one SSH connection"),
         [](DeployRunner &r) { r.preflightSsh(); }},
        {"preflight.gpus", preflight, QT_TRANSLATE_NOOP("Steps", "GPUs"),
         QT_TRANSLATE_NOOP("Steps", "The profile runs on GPUs of its model, as many as it needs"),
         [](DeployRunner &r) { r.preflightGpus(); }},
        {"preflight.driver", preflight, QT_TRANSLATE_NOOP("Steps", "Driver supports the image's CUDA runtime"),
         QT_TRANSLATE_NOOP("Steps", "The image's CUDA runtime needs a driver at least as new"),
         [](DeployRunner &r) { r.preflightDriver(); }},
        {"preflight.docker", preflight, QT_TRANSLATE_NOOP("Steps", "Docker Engine and GPU runtime"),
         QT_TRANSLATE_NOOP("Steps",
                           "Flashdeck speaks to Docker's Engine API through docker system dial-stdio, over SSH"),
         [](DeployRunner &r) { r.preflightDocker(); }},
        {"preflight.gpumemory", preflight, QT_TRANSLATE_NOOP("Steps", "GPU memory free for the server"),
         QT_TRANSLATE_NOOP("Steps",
                           "The server claims a fixed share of each GPU's memory; another job's would not fit"),
         [](DeployRunner &r) { r.preflightGpuMemory(); }},
        {"preflight.disk", preflight, QT_TRANSLATE_NOOP("Steps", "Free disk for weights and image"),
         QT_TRANSLATE_NOOP("Steps", "The weights and the image are written to the host's disk"),
         [](DeployRunner &r) { r.preflightDisk(); }},
        {"preflight.port", preflight, QT_TRANSLATE_NOOP("Steps", "Server port free"),
         QT_TRANSLATE_NOOP("Steps", "The server listens on the host's loopback, on ports nothing else holds"),
         [](DeployRunner &r) { r.preflightPort(); }},
        {"preflight.memory", preflight, QT_TRANSLATE_NOOP("Steps", "Host memory"),
         QT_TRANSLATE_NOOP("Steps", "HiCache keeps KV pages in the host's memory"),
         [](DeployRunner &r) { r.preflightMemory(); }},
        {"preflight.weights", preflight, QT_TRANSLATE_NOOP("Steps", "Model folder (offline weights)"),
         QT_TRANSLATE_NOOP("Steps", "A folder on the host must hold the pinned revision, file by file"),
         [](DeployRunner &r) { r.preflightWeights(); }},
        {"license", licence, QT_TRANSLATE_NOOP("Steps", "Licence acknowledged"), "",
         [](DeployRunner &r) { r.license(); }},
        {"pin.image", pin, QT_TRANSLATE_NOOP("Steps", "Pin the image to its digest"),
         QT_TRANSLATE_NOOP("Steps", "A tag can move; a digest names exactly one image"),
         [](DeployRunner &r) { r.pinImage(); }},
        {"pin.model", pin, QT_TRANSLATE_NOOP("Steps", "Pin the model revision"),
         QT_TRANSLATE_NOOP("Steps", "A branch can move; a commit names exactly one set of weights"),
         [](DeployRunner &r) { r.pinModel(); }},
        {"pull", pull, QT_TRANSLATE_NOOP("Steps", "Pull the pinned image"),
         QT_TRANSLATE_NOOP("Steps", "Pulled by digest: the host runs the image that was pinned"),
         [](DeployRunner &r) { r.pull(); }},
        {"verify.gpus", launch, QT_TRANSLATE_NOOP("Steps", "GPUs visible inside a container"), "",
         [](DeployRunner &r) { r.verifyGpus(); }},
        {"launch", launch, QT_TRANSLATE_NOOP("Steps", "Start SGLang"),
         QT_TRANSLATE_NOOP("Steps", "The pinned image and revision, listening on the host's loopback only"),
         [](DeployRunner &r) { r.launch(); }},
        {"ready", launch, QT_TRANSLATE_NOOP("Steps", "Ready: weights loaded, health OK"), "",
         [](DeployRunner &r) { r.ready(); }},
        {"check.qmul4", verify, QT_TRANSLATE_NOOP("Steps", "qmul4 fast path"), "",
         [](DeployRunner &r) { r.checkLog("check.qmul4"); }},
        {"check.dspark", verify, QT_TRANSLATE_NOOP("Steps", "DSpark draft loaded"), "",
         [](DeployRunner &r) { r.checkLog("check.dspark"); }},
        {"check.kvpool", verify, QT_TRANSLATE_NOOP("Steps", "KV pool size"), "",
         [](DeployRunner &r) { r.checkLog("check.kvpool"); }},
        {"verify.text", verify, QT_TRANSLATE_NOOP("Steps", "Text generation"),
         QT_TRANSLATE_NOOP("Steps", "A non-empty choices[0].message.content"),
         [](DeployRunner &r) { r.verifyChat("verify.text"); }},
        {"verify.thinking", verify, QT_TRANSLATE_NOOP("Steps", "Thinking off"),
         QT_TRANSLATE_NOOP("Steps", "With thinking_mode disabled: content, no reasoning_content"),
         [](DeployRunner &r) { r.verifyChat("verify.thinking"); }},
        {"verify.image", verify, QT_TRANSLATE_NOOP("Steps", "Image input"),
         QT_TRANSLATE_NOOP("Steps", "A 224 × 224 picture as a base64 PNG data URI"),
         [](DeployRunner &r) { r.verifyChat("verify.image"); }},
    };
    return plan;
}

const PlanStep *DeployPlan::find(QStringView id)
{
    for (const PlanStep &step : steps()) {
        if (id == QLatin1String(step.id)) {
            return &step;
        }
    }
    return nullptr;
}

QStringList DeployPlan::ids()
{
    QStringList ids;
    for (const PlanStep &step : steps()) {
        ids.append(step.stepId());
    }
    return ids;
}

QString DeployPlan::title(const QString &id, const QString &otherwise)
{
    const PlanStep *step = find(id);
    return step ? step->titleText() : otherwise;
}

} // namespace flashdeck::deploy
