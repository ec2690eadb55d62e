#include "backend/cli/runbookcommand.h"

#include "backend/cli/exitcodes.h"
#include "backend/core/apppaths.h"
#include "backend/core/atomicfile.h"
#include "backend/deploy/runbook.h"
#include "backend/expose/gatewaymanifest.h"
#include "backend/expose/gatewayrecord.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/recipe.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QTextStream>

#include <nlohmann/json.hpp>

namespace flashdeck::cli {

namespace {

/** The host's gateway part of the runbook; none when it is not exposed, said on stderr when unreadable. */
QString gatewayPart(CliContext &c, const QString &host)
{
    const auto gateway = expose::GatewayRecord::read(c.paths, host);
    if (!gateway) {
        c.err << gateway.message() << ' ' << QCoreApplication::translate("Cli", "The runbook leaves the gateway out.")
              << '\n';
        return {};
    }
    return gateway.value() ? expose::GatewayManifest::runbookSection(*gateway.value()) : QString();
}

} // namespace

int runRunbookCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption profileOpt(QStringLiteral("profile"),
                                        QCoreApplication::translate("Cli", "Recipe profile."), QStringLiteral("ID"));
    const QCommandLineOption outputOpt(QStringLiteral("output"),
                                       QCoreApplication::translate("Cli", "Write the script to FILE."),
                                       QStringLiteral("FILE"));
    p.addOptions({profileOpt, outputOpt});
    if (!p.parse(args) || p.positionalArguments().size() != 2) {
        c.err << "flashdeck runbook: "
              << (p.errorText().isEmpty() ? QCoreApplication::translate("Cli", "needs HOST.") : p.errorText())
              << "\nUsage: flashdeck runbook HOST [--profile ID] [--output FILE]\n";
        return ExitUsage;
    }
    const QString host = p.positionalArguments().at(1);
    const auto recipes = recipe::Recipe::builtIn();
    if (!recipes) {
        c.err << recipes.message() << '\n';
        return ExitCheckFailed;
    }
    const Result<QString> script =
        deploy::runbookFromManifest(recipes.value().first(), host, recipe::Deployment::read(c.paths, host),
                                    p.isSet(profileOpt) ? p.value(profileOpt) : QString());
    if (!script) {
        c.err << script.message() << '\n';
        return ExitCheckFailed;
    }
    const QString text = script.value() + gatewayPart(c, host);
    if (!p.isSet(outputOpt)) {
        c.out << text;
        return ExitOk;
    }
    if (const Status s = writeFileAtomically(p.value(outputOpt), text.toUtf8()); !s) {
        c.err << QCoreApplication::translate("Cli", "Cannot write %1: %2.\n").arg(p.value(outputOpt), s.message());
        return ExitCheckFailed;
    }
    QFile::setPermissions(p.value(outputOpt), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    c.out << QCoreApplication::translate("Cli",
                                         "Runbook written to %1. Run it on the host with FLASHDECK_API_KEY set.\n")
                 .arg(p.value(outputOpt));
    return ExitOk;
}

} // namespace flashdeck::cli
