#include "backend/cli/licensecommand.h"

#include "backend/cli/exitcodes.h"
#include "backend/core/apppaths.h"
#include "backend/deploy/acknowledgements.h"
#include "backend/recipe/licenseterms.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <nlohmann/json.hpp>

namespace flashdeck::cli {

namespace {

/** The terms, and (with `host`) that host's acknowledgement of them, as one JSON object. */
void printLicenseJson(CliContext &c, const recipe::LicenseTerms &t, const QString &host,
                      const std::optional<deploy::Acknowledgement> &ack)
{
    nlohmann::json uses = nlohmann::json::array();
    for (const recipe::LicenseTerms::Use &u : t.uses()) {
        uses.push_back({{"id", u.id.toStdString()}, {"label", u.label.toStdString()}});
    }
    nlohmann::json summary = nlohmann::json::array();
    for (const QString &s : t.summary()) {
        summary.push_back(s.toStdString());
    }
    nlohmann::json confirmations = nlohmann::json::array();
    for (const QString &s : t.confirmations()) {
        confirmations.push_back(s.toStdString());
    }
    nlohmann::json o = {{"license", t.id().toStdString()},
                        {"version", t.version().toStdString()},
                        {"name", t.name().toStdString()},
                        {"full_text_url", t.fullTextUrl().toStdString()},
                        {"summary", summary},
                        {"uses", uses},
                        {"confirmations", confirmations},
                        {"summary_sha256", t.summaryHash().toStdString()},
                        {"language", t.language().toStdString()}};
    if (!host.isEmpty()) {
        o["host"] = host.toStdString();
        o["acknowledgement"] = ack ? nlohmann::json{{"use", ack->use.toStdString()},
                                                    {"user", ack->user.toStdString()},
                                                    {"at", ack->at.toStdString()},
                                                    {"via", ack->via.toStdString()},
                                                    {"language", ack->language.toStdString()}}
                                   : nlohmann::json(nullptr);
    }
    c.out << QString::fromStdString(o.dump(2)) << '\n';
}

/** The same in words. */
void printLicenseWords(CliContext &c, const recipe::LicenseTerms &t, const QString &host,
                       const std::optional<deploy::Acknowledgement> &ack)
{
    c.out << QCoreApplication::translate("Cli", "%1 — Flashdeck's summary (not legal advice)\n\n").arg(t.name());
    for (const QString &s : t.summary()) {
        c.out << s << "\n\n";
    }
    c.out << QCoreApplication::translate("Cli",
                                         "Full licence: %1\n\nUses (flashdeck deploy HOST --accept-license USE):\n")
                 .arg(t.fullTextUrl());
    for (const recipe::LicenseTerms::Use &u : t.uses()) {
        c.out << "  " << u.id.leftJustified(22) << ' ' << u.label << '\n';
    }
    c.out << QCoreApplication::translate("Cli", "\nAccepting also confirms:\n");
    for (const QString &s : t.confirmations()) {
        c.out << "  - " << s << '\n';
    }
    c.out << QCoreApplication::translate("Cli", "\nSummary sha256: %1\n").arg(t.summaryHash());
    if (!host.isEmpty()) {
        if (ack) {
            c.out << QCoreApplication::translate("Cli", "%1: acknowledged for %2 use by %3 at %4 (%5).\n")
                         .arg(host, ack->use, ack->user, ack->at, ack->via);
        } else {
            c.out << QCoreApplication::translate("Cli", "%1: no acknowledgement of this text yet.\n").arg(host);
        }
    }
}

} // namespace

int runLicenseCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QCoreApplication::translate("Cli", "Print JSON."));
    p.addOption(jsonOpt);
    if (!p.parse(args) || p.positionalArguments().size() > 2) {
        c.err << "flashdeck license: "
              << (p.errorText().isEmpty() ? QCoreApplication::translate("Cli", "too many arguments.") : p.errorText())
              << "\nUsage: flashdeck license [HOST] [--json]\n";
        return ExitUsage;
    }
    const auto terms = recipe::LicenseTerms::builtIn();
    if (!terms) {
        c.err << terms.message() << '\n';
        return ExitCheckFailed;
    }
    const recipe::LicenseTerms &t = terms.value();
    const QString host = p.positionalArguments().value(1);
    std::optional<deploy::Acknowledgement> ack;
    if (!host.isEmpty()) {
        const auto found = deploy::Acknowledgements(c.paths.acknowledgementsFile()).find(host, t);
        if (!found) {
            c.err << found.message() << '\n';
            return ExitCheckFailed;
        }
        ack = found.value();
    }
    if (p.isSet(jsonOpt)) {
        printLicenseJson(c, t, host, ack);
    } else {
        printLicenseWords(c, t, host, ack);
    }
    return !host.isEmpty() && !ack ? ExitCheckFailed : ExitOk;
}

} // namespace flashdeck::cli
