#include "backend/recipe/step.h"

#include "backend/core/jsonread.h"

#include <nlohmann/json.hpp>

namespace flashdeck::recipe {

namespace {
const char *const kNames[] = {"pending", "running", "pass", "warn", "fail", "skipped", "unknown"};
} // namespace

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

} // namespace flashdeck::recipe
