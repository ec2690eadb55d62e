#include "backend/cli/runbookcommand.h"

#include "backend/cli/exitcodes.h"
#include "backend/core/apppaths.h"
#include "backend/core/atomicfile.h"
#include "backend/deploy/recipe.h"
#include "backend/deploy/runbook.h"

#include <QCommandLineParser>
#include <QFile>
#include <QTextStream>

#include <nlohmann/json.hpp>

namespace flashdeck::cli {

int runRunbookCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption profileOpt(QStringLiteral("profile"), QStringLiteral("Recipe profile."),
                                        QStringLiteral("ID"));
    const QCommandLineOption outputOpt(QStringLiteral("output"), QStringLiteral("Write the script to FILE."),
                                       QStringLiteral("FILE"));
    p.addOptions({profileOpt, outputOpt});
    if (!p.parse(args) || p.positionalArguments().size() != 2) {
        c.err << "flashdeck runbook: " << (p.errorText().isEmpty() ? QStringLiteral("needs HOST.") : p.errorText())
              << "\nUsage: flashdeck runbook HOST [--profile ID] [--output FILE]\n";
        return ExitUsage;
    }
    const QString host = p.positionalArguments().at(1);
    QFile manifestFile(c.paths.dataDir() + QStringLiteral("/deployments/") + host + QStringLiteral("/manifest.json"));
    const QByteArray data = manifestFile.open(QIODevice::ReadOnly) ? manifestFile.readAll() : QByteArray();
    const auto m = nlohmann::json::parse(data.constData(), data.constData() + data.size(), nullptr, false);
    const auto str = [&m](const char *k) {
        return m.is_object() ? QString::fromStdString(m.value(k, std::string())) : QString();
    };
    // An offline folder without hf download metadata has no sha (pin.model warned): it is the pin.
    if (str("image_digest").isEmpty() || (str("model_sha").isEmpty() && str("model_dir").isEmpty()) ||
        str("host_home").isEmpty()) {
        c.err << "No pinned deployment of " << host << " yet: run 'flashdeck deploy " << host
              << "' first (the runbook reproduces its pins).\n";
        return ExitCheckFailed;
    }
    const auto recipes = Recipe::builtIn();
    if (!recipes) {
        c.err << recipes.message() << '\n';
        return ExitCheckFailed;
    }
    const Recipe &recipe = recipes.value().first();
    const QString profileId = p.isSet(profileOpt) ? p.value(profileOpt) : str("profile");
    const RecipeProfile *profile = recipe.profile(profileId);
    if (!profile) {
        c.err << "No profile \"" << profileId << "\" (see 'flashdeck recipes list').\n";
        return ExitUsage;
    }
    const Result<QString> script = buildRunbook(recipe, *profile,
                                                {host, host + QLatin1Char('-') + profile->id, str("image_digest"),
                                                 str("model_sha"), str("host_home"), str("model_dir")});
    if (!script) {
        c.err << script.message() << '\n';
        return ExitCheckFailed;
    }
    if (!p.isSet(outputOpt)) {
        c.out << script.value();
        return ExitOk;
    }
    if (const Status s = writeFileAtomically(p.value(outputOpt), script.value().toUtf8()); !s) {
        c.err << "Cannot write " << p.value(outputOpt) << ": " << s.message() << ".\n";
        return ExitCheckFailed;
    }
    QFile::setPermissions(p.value(outputOpt), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    c.out << "Runbook written to " << p.value(outputOpt) << ". Run it on the host with FLASHDECK_API_KEY set.\n";
    return ExitOk;
}

} // namespace flashdeck::cli
