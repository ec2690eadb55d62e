#include "backend/cli/runbookcommand.h"

#include "backend/cli/exitcodes.h"
#include "backend/core/apppaths.h"
#include "backend/core/atomicfile.h"
#include "backend/deploy/runbook.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/recipe.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QTextStream>

#include <nlohmann/json.hpp>

namespace flashdeck::cli {

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
    const auto recipes = Recipe::builtIn();
    if (!recipes) {
        c.err << recipes.message() << '\n';
        return ExitCheckFailed;
    }
    const Result<QString> script = runbookFromManifest(recipes.value().first(), host, Deployment::read(c.paths, host),
                                                       p.isSet(profileOpt) ? p.value(profileOpt) : QString());
    if (!script) {
        c.err << script.message() << '\n';
        return ExitCheckFailed;
    }
    if (!p.isSet(outputOpt)) {
        c.out << script.value();
        return ExitOk;
    }
    if (const Status s = writeFileAtomically(p.value(outputOpt), script.value().toUtf8()); !s) {
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
