#include "backend/cli/recipescommand.h"

#include "backend/cli/exitcodes.h"
#include "backend/recipe/recipe.h"
#include "backend/recipe/recipetexts.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <nlohmann/json.hpp>

namespace flashdeck::cli {

namespace {

const QString kRecipesUsage = QStringLiteral("Usage: flashdeck recipes list [--json]\n"
                                             "       flashdeck recipes show ID [--json]   (a recipe or a profile id)");

std::string stdString(const QString &v)
{
    return v.toStdString();
}

nlohmann::json profileJson(const recipe::RecipeProfile &p)
{
    nlohmann::json replicas = nlohmann::json::array();
    for (const recipe::RecipeReplica &r : p.replicas) {
        replicas.push_back({{"gpus", r.gpus}, {"port", r.port}});
    }
    nlohmann::json env = nlohmann::json::object();
    for (auto it = p.env.begin(); it != p.env.end(); ++it) {
        env[stdString(it.key())] = stdString(it.value());
    }
    nlohmann::json args = nlohmann::json::array();
    for (const QString &a : p.serverArgs) {
        args.push_back(stdString(a));
    }
    nlohmann::json facts = nlohmann::json::array();
    for (const QString &f : p.facts) {
        facts.push_back(stdString(f));
    }
    nlohmann::json j = {{"id", stdString(p.id)},
                        {"title", stdString(p.title)},
                        {"status", stdString(p.status)},
                        {"vendor", stdString(probe::gpuVendorName(p.vendor))},
                        {"gpu_model", stdString(p.gpuModel)},
                        {"note", stdString(p.note)},
                        {"facts", facts}};
    if (!p.generatorOnly()) {
        j.update({{"gpu_count", p.gpuCount},
                  {"tp", p.tp},
                  {"replicas", replicas},
                  {"kv_tokens_expected", p.kvTokensExpected},
                  {"mem_fraction_static", p.memFractionStatic},
                  {"env", env},
                  {"server_args", args},
                  {"operator_flags_required", p.operatorFlagsRequired}});
        if (p.routerPort) {
            j["router"] = {{"port", p.routerPort}, {"policy", stdString(p.routerPolicy)}};
        }
        if (!p.imageName.isEmpty()) { // its own image (else the recipe's)
            j["image"] = {{"name", stdString(p.imageName)},
                          {"tag", stdString(p.imageTag)},
                          {"confirm", p.imageConfirm},
                          {"source", stdString(p.imageSource)}};
        }
    }
    if (p.gpuMemoryGb) {
        j["gpu_memory_gb"] = p.gpuMemoryGb;
    }
    return j;
}

/** `recipes show --json`: the profile and what the recipe says of every profile (scope, parameters, GPU memory). */
nlohmann::json showJson(const recipe::Recipe &r, const recipe::RecipeProfile &p)
{
    nlohmann::json j = profileJson(p);
    nlohmann::json memory = nlohmann::json::object();
    for (const recipe::RecipeProfile &other : r.profiles) {
        if (other.gpuMemoryGb > 0) {
            memory[stdString(other.gpuModel)] = other.gpuMemoryGb;
        }
    }
    j.update({{"recipe", stdString(r.id)},
              {"scope_note", stdString(r.scopeNote)},
              {"parameters_note", stdString(recipe::texts::hubParameterCount())},
              {"gpu_memory_gb_by_model", memory}});
    return j;
}

void printProfile(QTextStream &out, const recipe::Recipe &r, const recipe::RecipeProfile &p)
{
    out << p.title << "  (" << p.id << ", " << p.status << ")\n";
    out << "  recipe     " << r.id << ": " << r.modelRepo << ", image " << r.imageOf(p).reference() << '\n';
    if (p.imageConfirm) {
        out << "  image      "
            << QCoreApplication::translate("Cli", "yours to confirm or supply (deploy --image): %1\n")
                   .arg(p.imageSource);
    }
    // The page's per-GPU memory of every GPU model it names, and why the Hub's count is not the model's.
    if (const QString memory = recipe::texts::gpuMemoryByModel(r); !memory.isEmpty()) {
        out << "  GPU memory " << QCoreApplication::translate("Cli", "per GPU: %1\n").arg(memory);
    }
    out << "  parameters " << recipe::texts::hubParameterCount() << '\n';
    if (p.generatorOnly()) {
        out << "  " << p.note << '\n';
        if (!r.scopeNote.isEmpty()) {
            out << "  scope      " << r.scopeNote << '\n';
        }
        return;
    }
    out << "  GPUs       " << p.gpuCount << " × " << p.gpuModel
        << (p.gpuMemoryGb ? QStringLiteral(" (%1 GB each)").arg(p.gpuMemoryGb) : QString()) << " ("
        << probe::gpuVendorName(p.vendor) << "), TP " << p.tp
        << QCoreApplication::translate("Cli",
                                       "; the GPU list is yours to change (deploy --gpus) when those are busy\n");
    for (const recipe::RecipeReplica &rep : p.replicas) {
        QStringList gpus;
        for (const int g : rep.gpus) {
            gpus.append(QString::number(g));
        }
        out << "  service    GPUs " << gpus.join(QLatin1Char(',')) << " on 127.0.0.1:" << rep.port << '\n';
    }
    if (p.routerPort) {
        out << "  router     port " << p.routerPort << ", --policy " << p.routerPolicy << '\n';
    }
    out << "  KV pool    "
        << (p.kvTokensExpected
                ? QString::number(p.kvTokensExpected) + QCoreApplication::translate("Cli", " tokens expected")
                : QCoreApplication::translate("Cli", "no published expectation"))
        << " at --mem-fraction-static " << p.memFractionStatic << '\n';
    out << "  flags      " << p.serverArgs.join(QLatin1Char(' ')) << '\n';
    if (!p.note.isEmpty()) {
        out << "  note       " << p.note << '\n';
    }
    if (!r.scopeNote.isEmpty()) {
        out << "  scope      " << r.scopeNote << '\n';
    }
    for (const QString &f : p.facts) { // what the deployment page says of it, in words
        out << "  page says  " << f << '\n';
    }
}

} // namespace

int runRecipesCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption json(QStringLiteral("json"), QCoreApplication::translate("Cli", "Print JSON."));
    p.addOption(json);
    const auto usage = [&c](const QString &message) {
        c.err << "flashdeck recipes: " << message << '\n' << kRecipesUsage << '\n';
        return int(ExitUsage);
    };
    if (!p.parse(args)) {
        return usage(p.errorText());
    }
    const QStringList pos = p.positionalArguments();
    const QString verb = pos.value(1);
    if (!((verb == QLatin1String("list") && pos.size() == 2) || (verb == QLatin1String("show") && pos.size() == 3))) {
        return usage(QCoreApplication::translate("Cli", "expected list, or show ID."));
    }
    const auto recipes = recipe::Recipe::builtIn();
    if (!recipes) {
        c.err << recipes.message() << '\n';
        return ExitCheckFailed;
    }
    if (verb == QLatin1String("list")) {
        for (const recipe::Recipe &r : recipes.value()) {
            if (p.isSet(json)) {
                nlohmann::json profiles = nlohmann::json::array();
                for (const recipe::RecipeProfile &pr : r.profiles) {
                    profiles.push_back(profileJson(pr));
                }
                c.out << QString::fromStdString(nlohmann::json{
                             {"id", stdString(r.id)},
                             {"title", stdString(r.title)},
                             {"status", stdString(r.status)},
                             {"model", stdString(r.modelRepo)},
                             {"scope_note", stdString(r.scopeNote)},
                             {"profiles", profiles}}.dump())
                      << '\n';
                continue;
            }
            c.out << r.id << "  " << r.title << "  [" << r.status << "]\n";
            for (const recipe::RecipeProfile &pr : r.profiles) {
                c.out << "  " << pr.id.leftJustified(26) << ' ' << pr.title.leftJustified(56) << ' ' << pr.status
                      << '\n';
            }
        }
        return ExitOk;
    }
    const QString id = pos.at(2);
    for (const recipe::Recipe &r : recipes.value()) {
        for (const recipe::RecipeProfile &pr : r.profiles) {
            if (pr.id == id || (r.id == id && &pr == &r.profiles.first())) {
                if (p.isSet(json)) {
                    c.out << QString::fromStdString(showJson(r, pr).dump()) << '\n';
                } else {
                    printProfile(c.out, r, pr);
                }
                return ExitOk;
            }
        }
    }
    c.err << QCoreApplication::translate("Cli", "No recipe or profile named \"%1\". See 'flashdeck recipes list'.\n")
                 .arg(id);
    return ExitUsage;
}

} // namespace flashdeck::cli
