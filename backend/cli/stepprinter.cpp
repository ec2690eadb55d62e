#include "backend/cli/stepprinter.h"

#include "backend/cli/hostscommand.h"
#include "backend/deploy/deployplan.h"

#include <QCoreApplication>
#include <QTextStream>

#include <nlohmann/json.hpp>

namespace flashdeck::cli {

namespace {

const char *statusMark(recipe::StepStatus s)
{
    switch (s) {
    case recipe::StepStatus::Pass:
        return "PASS";
    case recipe::StepStatus::Warn:
        return "WARN";
    case recipe::StepStatus::Fail:
        return "FAIL";
    case recipe::StepStatus::Skipped:
        return "SKIP";
    case recipe::StepStatus::Unknown:
        return "UNKNOWN";
    default:
        return "....";
    }
}

} // namespace

void printStep(CliContext &c, const recipe::StepRecord &r, bool json, const QString &host)
{
    if (json) {
        nlohmann::json j = r;
        if (!host.isEmpty()) {
            j["host"] = host.toStdString();
        }
        c.out << QString::fromStdString(j.dump()) << '\n';
    } else {
        const QString prefix = host.isEmpty() ? QString() : host + QStringLiteral(": ");
        // The step's one title, as the window shows it; the record's own for another plan's.
        const QString title = deploy::DeployPlan::title(r.step, r.title);
        if (r.status == recipe::StepStatus::Running) {
            c.out << prefix << "....  " << title << '\n';
        } else {
            c.out << prefix << QString::fromLatin1(statusMark(r.status)).leftJustified(5) << ' ' << r.step << "  "
                  << title
                  << (r.seen.isEmpty() ? QString() : QStringLiteral(" — ") + r.seen.section(QLatin1Char('\n'), 0, 0))
                  << '\n';
            if (!r.fix.isEmpty() && r.status != recipe::StepStatus::Pass) {
                c.out << prefix << "      "
                      << (r.status == recipe::StepStatus::Fail ? QCoreApplication::translate("Cli", "fix: ")
                                                               : QCoreApplication::translate("Cli", "note: "))
                      << r.fix << '\n';
            }
        }
    }
    c.out.flush();
}

void printProgress(CliContext &c, const recipe::StepProgress &step, bool json, const QString &host)
{
    if (!json) {
        return;
    }
    // total_known false: the total is an estimate (the pull before dockerd sized every layer);
    // percent never goes back, and is 100 only when all of it is there.
    nlohmann::json j{
        {"progress", step.step.toStdString()}, {"done", step.done},       {"total", step.total},
        {"total_known", step.totalKnown},      {"percent", step.percent}, {"text", step.text.toStdString()}};
    if (!host.isEmpty()) {
        j["host"] = host.toStdString();
    }
    c.out << QString::fromStdString(j.dump()) << '\n';
    c.out.flush();
}

} // namespace flashdeck::cli
