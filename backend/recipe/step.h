#pragma once

#include <QDateTime>
#include <QString>

#include <nlohmann/json_fwd.hpp>

#include <optional>

namespace flashdeck::recipe {

/** Where a plan step stands. The names are a contract: the CLI's JSON and the journal use them. */
enum class StepStatus { Pending, Running, Pass, Warn, Fail, Skipped, Unknown };

QString stepStatusName(StepStatus status);
std::optional<StepStatus> stepStatusFromString(const QString &text);
/** Pass, warn, skipped and unknown let the plan go on; fail stops it. */
inline bool stepLetsPlanContinue(StepStatus s)
{
    return s == StepStatus::Pass || s == StepStatus::Warn || s == StepStatus::Skipped || s == StepStatus::Unknown;
}

/**
 * One transition of one plan step, as the journal keeps it and `flashdeck deploy --json`
 * prints it: `{"step","status","title","expected","seen","fix","command"}` plus why it
 * matters (fact ids) and when. Never holds a secret: the runner passes everything through
 * the redactor before it is recorded.
 */
struct StepRecord
{
    QString step; // a stable id: preflight.driver, pin.image, ready, check.qmul4, …
    StepStatus status = StepStatus::Pending;
    QString title;
    QString why; // in words: "The driver must support the image's CUDA 13.4 runtime"
    QString command; // the command or API call it ran
    QString expected;
    QString seen;
    QString fix; // on failure or warning: what to do
    QDateTime at;
    /** Which plan of an upgrade it belongs to ("upgrade" or "rollback"); empty in a deployment. */
    QString phase;
};

/**
 * How far a long step got (the pull's bytes, the first start's download), as the window's bar
 * and `deploy --json`'s {"progress": …} lines show it.
 */
struct StepProgress
{
    QString step;
    qint64 done = 0;
    /** An estimate while !totalKnown (some parts' sizes are not known yet); never below `done`. */
    qint64 total = 0;
    bool totalKnown = true;
    /** 0–100, never lower than an earlier one of the same step, 100 only when done; -1: unknown. */
    int percent = -1;
    QString text;
};

void to_json(nlohmann::json &j, const StepRecord &r);
void from_json(const nlohmann::json &j, StepRecord &r);

} // namespace flashdeck::recipe
