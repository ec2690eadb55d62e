#include "backend/recipe/step.h"

#include "backend/core/jsonread.h"

#include <QCoreApplication>
#include <QHash>

#include <nlohmann/json.hpp>

namespace flashdeck {

namespace {
const char *const kNames[] = {"pending", "running", "pass", "warn", "fail", "skipped", "unknown"};
} // namespace

QString stepTitle(const QString &step, const QString &otherwise)
{
    // Not static: built in the language spoken when asked (a table kept from the first call
    // would keep that call's language).
    const QHash<QString, QString> titles{
        {QStringLiteral("preflight.ssh"), QCoreApplication::translate("Steps", "SSH connection")},
        {QStringLiteral("preflight.gpus"), QCoreApplication::translate("Steps", "GPUs")},
        {QStringLiteral("preflight.driver"),
         QCoreApplication::translate("Steps", "Driver supports the CUDA 13.4 runtime")},
        {QStringLiteral("preflight.docker"), QCoreApplication::translate("Steps", "Docker Engine and GPU runtime")},
        {QStringLiteral("preflight.gpumemory"), QCoreApplication::translate("Steps", "GPU memory free for the server")},
        {QStringLiteral("preflight.disk"), QCoreApplication::translate("Steps", "Free disk for weights and image")},
        {QStringLiteral("preflight.port"), QCoreApplication::translate("Steps", "Server port free")},
        {QStringLiteral("preflight.memory"), QCoreApplication::translate("Steps", "Host memory")},
        {QStringLiteral("preflight.weights"), QCoreApplication::translate("Steps", "Model folder (offline weights)")},
        {QStringLiteral("license"), QCoreApplication::translate("Steps", "Licence acknowledged")},
        {QStringLiteral("pin.image"), QCoreApplication::translate("Steps", "Pin the image to its digest")},
        {QStringLiteral("pin.model"), QCoreApplication::translate("Steps", "Pin the model revision")},
        {QStringLiteral("pull"), QCoreApplication::translate("Steps", "Pull the pinned image")},
        {QStringLiteral("verify.gpus"), QCoreApplication::translate("Steps", "GPUs visible inside a container")},
        {QStringLiteral("launch"), QCoreApplication::translate("Steps", "Start SGLang")},
        {QStringLiteral("ready"), QCoreApplication::translate("Steps", "Ready: weights loaded, health OK")},
        {QStringLiteral("check.qmul4"), QCoreApplication::translate("Steps", "qmul4 fast path")},
        {QStringLiteral("check.dspark"), QCoreApplication::translate("Steps", "DSpark draft loaded")},
        {QStringLiteral("check.kvpool"), QCoreApplication::translate("Steps", "KV pool size")},
        {QStringLiteral("verify.text"), QCoreApplication::translate("Steps", "Text generation")},
        {QStringLiteral("verify.thinking"), QCoreApplication::translate("Steps", "Thinking off")},
        {QStringLiteral("verify.image"), QCoreApplication::translate("Steps", "Image input")},
    };
    return titles.value(step, otherwise);
}

QString stepStatusName(StepStatus status)
{
    return QString::fromLatin1(kNames[static_cast<int>(status)]);
}

std::optional<StepStatus> stepStatusFromString(const QString &text)
{
    for (int i = 0; i < 7; ++i) {
        if (text == QLatin1String(kNames[i])) {
            return static_cast<StepStatus>(i);
        }
    }
    return std::nullopt;
}

void to_json(nlohmann::json &j, const StepRecord &r)
{
    j = {{"step", r.step.toStdString()},
         {"status", stepStatusName(r.status).toStdString()},
         {"title", r.title.toStdString()},
         {"why", r.why.toStdString()},
         {"command", r.command.toStdString()},
         {"expected", r.expected.toStdString()},
         {"seen", r.seen.toStdString()},
         {"fix", r.fix.toStdString()},
         {"time", r.at.toUTC().toString(Qt::ISODateWithMs).toStdString()}};
    if (!r.phase.isEmpty()) {
        j["phase"] = r.phase.toStdString();
    }
}

void from_json(const nlohmann::json &j, StepRecord &r)
{
    auto str = [&j](const char *k) { return QString::fromStdString(jsonread::string(j, k)); };
    r.step = str("step");
    r.status = stepStatusFromString(str("status")).value_or(StepStatus::Unknown);
    r.title = str("title");
    r.why = str("why");
    r.command = str("command");
    r.expected = str("expected");
    r.seen = str("seen");
    r.fix = str("fix");
    r.at = QDateTime::fromString(str("time"), Qt::ISODateWithMs);
    r.phase = str("phase");
}

} // namespace flashdeck
