#include "backend/recipe/recipe.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

namespace flashdeck::recipe {

namespace {

using nlohmann::json;

/** Thrown inside the parser with the key's path; turned into a Status by fromJson(). */
struct RecipeError
{
    QString path;
    QString expected;
};

class Reader
{
public:
    Reader(const json &j, QString path)
        : m_j(j)
        , m_path(std::move(path))
    {
        if (!m_j.is_object()) {
            throw RecipeError{m_path, QStringLiteral("an object")};
        }
    }

    QString key(const char *k) const
    {
        return m_path.isEmpty() ? QString::fromLatin1(k) : m_path + QLatin1Char('.') + QLatin1String(k);
    }
    bool has(const char *k) const { return m_j.contains(k); }

    QString string(const char *k, bool required = true) const
    {
        if (!m_j.contains(k)) {
            if (required) {
                throw RecipeError{key(k), QCoreApplication::translate("Recipe", "a string (missing)")};
            }
            return {};
        }
        const json &v = m_j.at(k);
        if (!v.is_string() || (required && v.get<std::string>().empty())) {
            throw RecipeError{key(k), QCoreApplication::translate("Recipe", "a non-empty string")};
        }
        return QString::fromStdString(v.get<std::string>());
    }

    qint64 integer(const char *k, qint64 min, bool required = true) const
    {
        if (!m_j.contains(k) && !required) {
            return 0;
        }
        const json &v = m_j.contains(k) ? m_j.at(k) : json();
        if (!v.is_number_integer() || v.get<qint64>() < min) {
            throw RecipeError{key(k), QStringLiteral("an integer ≥ %1").arg(min)};
        }
        return v.get<qint64>();
    }

    double number(const char *k, double min, double max) const
    {
        const json &v = m_j.contains(k) ? m_j.at(k) : json();
        if (!v.is_number() || v.get<double>() < min || v.get<double>() > max) {
            throw RecipeError{key(k),
                              QCoreApplication::translate("Recipe", "a number from %1 to %2").arg(min).arg(max)};
        }
        return v.get<double>();
    }

    bool flag(const char *k) const
    {
        if (!m_j.contains(k)) {
            return false;
        }
        if (!m_j.at(k).is_boolean()) {
            throw RecipeError{key(k), QCoreApplication::translate("Recipe", "true or false")};
        }
        return m_j.at(k).get<bool>();
    }

    QStringList strings(const char *k, bool required = true) const
    {
        if (!m_j.contains(k) && !required) {
            return {};
        }
        const json &v = m_j.contains(k) ? m_j.at(k) : json();
        if (!v.is_array()) {
            throw RecipeError{key(k), QCoreApplication::translate("Recipe", "a list of strings")};
        }
        QStringList out;
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (!v[i].is_string()) {
                throw RecipeError{key(k) + QStringLiteral("[%1]").arg(i), QStringLiteral("a string")};
            }
            out.append(QString::fromStdString(v[i].get<std::string>()));
        }
        return out;
    }

    Reader child(const char *k) const
    {
        if (!m_j.contains(k)) {
            throw RecipeError{key(k), QCoreApplication::translate("Recipe", "an object (missing)")};
        }
        return Reader(m_j.at(k), key(k));
    }

    const json &raw(const char *k) const { return m_j.at(k); }

private:
    const json &m_j;
    QString m_path;
};

/** What every profile has, generator-only ones too: its name, status, GPUs, note and facts. */
void readProfileHeader(const Reader &r, RecipeProfile &p)
{
    p.id = r.string("id");
    p.title = r.string("title");
    p.status = r.string("status");
    if (p.status != QLatin1String("verified-upstream") && p.status != QLatin1String("unverified") &&
        !p.generatorOnly()) {
        throw RecipeError{r.key("status"),
                          QCoreApplication::translate("Recipe", "verified-upstream, unverified or generator-only")};
    }
    const std::optional<probe::GpuVendor> vendor = probe::gpuVendorFromName(r.string("vendor"));
    if (!vendor || *vendor == probe::GpuVendor::None) {
        throw RecipeError{r.key("vendor"), QCoreApplication::translate("Recipe", "nvidia or amd")};
    }
    p.vendor = *vendor;
    p.gpuModel = r.string("gpu_model");
    p.gpuMemoryGb = int(r.integer("gpu_memory_gb", 1, false)); // F08: the page's per-GPU memory, where it gives one
    p.note = r.string("note", false);
    p.facts = r.strings("facts", false);
}

RecipeReplica readReplica(const Reader &rr, const RecipeProfile &p)
{
    RecipeReplica replica;
    const nlohmann::json &gpus = rr.raw("gpus");
    if (!gpus.is_array() || gpus.size() != std::size_t(p.tp)) {
        throw RecipeError{
            rr.key("gpus"),
            QCoreApplication::translate("Recipe", "a list of %1 GPU indexes (one per TP rank)").arg(p.tp)};
    }
    for (const auto &g : gpus) {
        if (!g.is_number_integer() || g.get<int>() < 0 || g.get<int>() >= p.gpuCount) {
            throw RecipeError{rr.key("gpus"),
                              QCoreApplication::translate("Recipe", "GPU indexes from 0 to %1").arg(p.gpuCount - 1)};
        }
        replica.gpus.append(g.get<int>());
    }
    replica.port = quint16(rr.integer("port", 1));
    return replica;
}

void readReplicas(const Reader &r, RecipeProfile &p)
{
    const nlohmann::json &replicas = r.raw("replicas");
    if (!replicas.is_array() || replicas.empty()) {
        throw RecipeError{r.key("replicas"), QCoreApplication::translate("Recipe", "a non-empty list of {gpus, port}")};
    }
    for (std::size_t i = 0; i < replicas.size(); ++i) {
        const Reader rr(replicas[i], r.key("replicas") + QStringLiteral("[%1]").arg(i));
        p.replicas.append(readReplica(rr, p));
    }
}

/** The router in front of the replicas, and the one of a node layout. */
void readRouters(const Reader &r, RecipeProfile &p)
{
    if (r.has("router")) {
        const Reader router = r.child("router");
        p.routerPort = quint16(router.integer("port", 1));
        p.routerPolicy = router.string("policy");
    }
    if (r.has("node_layout")) {
        const Reader router = r.child("node_layout").child("router");
        p.nodeRouterPort = quint16(router.integer("port", 1));
        p.nodeRouterPolicy = router.string("policy");
        if (p.replicas.size() != 1 || p.routerPort != 0) {
            throw RecipeError{r.key("node_layout"),
                              QCoreApplication::translate("Recipe", "a profile of one service and no router")};
        }
    }
}

void readImage(const Reader &r, RecipeProfile &p)
{
    if (r.has("image")) {
        const Reader image = r.child("image");
        p.imageName = image.string("name");
        p.imageTag = image.string("tag");
        // Where a suggestion comes from, when the deployment page names no image for the
        // profile (AMD: the page sends AMD users to SGLang's generator); the operator confirms it.
        p.imageSource = image.string("source", false);
        p.imageConfirm = image.flag("confirm");
    }
}

void readEnv(const Reader &r, RecipeProfile &p)
{
    if (r.has("env")) {
        const nlohmann::json &env = r.raw("env");
        if (!env.is_object()) {
            throw RecipeError{r.key("env"), QCoreApplication::translate("Recipe", "an object of strings")};
        }
        for (const auto &[k, v] : env.items()) {
            if (!v.is_string()) {
                throw RecipeError{r.key("env") + QLatin1Char('.') + QString::fromStdString(k),
                                  QStringLiteral("a string")};
            }
            p.env.insert(QString::fromStdString(k), QString::fromStdString(v.get<std::string>()));
        }
    }
}

RecipeProfile readProfile(const Reader &r)
{
    RecipeProfile p;
    readProfileHeader(r, p);
    if (p.generatorOnly()) {
        return p; // nothing to launch: only the note says what to do (F12)
    }
    p.gpuCount = int(r.integer("gpu_count", 1));
    p.tp = int(r.integer("tp", 1));
    readReplicas(r, p);
    readRouters(r, p);
    readImage(r, p);
    p.shmSize = r.string("shm_size");
    p.ipc = r.string("ipc");
    p.memFractionStatic = r.number("mem_fraction_static", 0.05, 0.99);
    p.kvTokensExpected = r.integer("kv_tokens_expected", 0);
    readEnv(r, p);
    p.serverArgs = r.strings("server_args");
    p.operatorFlagsRequired = r.flag("operator_flags_required");
    return p;
}

} // namespace

Result<Recipe> Recipe::fromJson(const QByteArray &data, const QString &source)
{
    const json j = json::parse(data.constData(), data.constData() + data.size(), nullptr, false);
    if (j.is_discarded()) {
        return Status::failure(
            QCoreApplication::translate("Recipe", "%1 is not valid JSON. Check it with a JSON validator.").arg(source));
    }
    try {
        const Reader r(j, {});
        if (r.integer("schema", 1) != 1) {
            throw RecipeError{QStringLiteral("schema"),
                              QCoreApplication::translate("Recipe", "1 (this Flashdeck reads schema 1)")};
        }
        Recipe recipe;
        recipe.id = r.string("id");
        recipe.title = r.string("title");
        recipe.status = r.string("status");
        recipe.statusNote = r.string("status_note", false);
        recipe.scopeNote = r.string("scope_note", false); // F39
        const Reader model = r.child("model");
        recipe.modelRepo = model.string("repo");
        recipe.modelRevision = model.string("revision");
        recipe.weightsBytes = model.integer("weights_bytes", 1);
        recipe.modelscopeMirror = model.string("modelscope_mirror", false);
        recipe.draftSubfolder = model.string("draft_subfolder", false);
        const Reader license = r.child("license");
        recipe.licenseId = license.string("id");
        recipe.licenseVersion = license.string("version");
        recipe.licenseName = license.string("name");
        recipe.licenseUses = license.strings("uses");
        const Reader image = r.child("image");
        recipe.imageName = image.string("name");
        recipe.imageTag = image.string("tag");
        recipe.cudaRuntime = image.string("cuda_runtime");
        recipe.imageApproxBytes = image.integer("approx_bytes", 0, false);
        const Reader sampling = r.child("sampling");
        recipe.temperature = sampling.number("temperature", 0, 2);
        recipe.topP = sampling.number("top_p", 0, 1);
        const Reader cache = r.child("cache");
        recipe.hfCache = cache.string("huggingface");
        recipe.minferCache = cache.string("minfer");
        const nlohmann::json &profiles = r.raw("profiles");
        if (!profiles.is_array() || profiles.empty()) {
            throw RecipeError{QStringLiteral("profiles"), QCoreApplication::translate("Recipe", "a non-empty list")};
        }
        for (std::size_t i = 0; i < profiles.size(); ++i) {
            RecipeProfile p = readProfile(Reader(profiles[i], QStringLiteral("profiles[%1]").arg(i)));
            if (recipe.profile(p.id)) {
                throw RecipeError{QStringLiteral("profiles[%1].id").arg(i),
                                  QCoreApplication::translate("Recipe", "an id not used before")};
            }
            recipe.profiles.append(p);
        }
        return recipe;
    } catch (const RecipeError &e) {
        return Status::failure(QStringLiteral("%1: %2 should be %3.").arg(source, e.path, e.expected));
    } catch (const json::exception &e) {
        return Status::failure(QStringLiteral("%1: %2").arg(source, QString::fromUtf8(e.what())));
    }
}

Result<Recipe> Recipe::load(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return Status::failure(
            QCoreApplication::translate("Recipe", "Cannot read the recipe %1: %2").arg(path, file.errorString()));
    }
    return fromJson(file.readAll(), QFileInfo(path).fileName());
}

Result<QList<Recipe>> Recipe::builtIn()
{
    QList<Recipe> recipes;
    const QStringList files = QDir(QStringLiteral(":/recipes")).entryList({QStringLiteral("*.json")}, QDir::Files);
    for (const QString &f : files) {
        Result<Recipe> r = load(QStringLiteral(":/recipes/") + f);
        if (!r) {
            return r.status();
        }
        // The recipe's words in the language Flashdeck speaks: scripts/data-texts.cmake lists
        // them for lupdate (resources/translations/data-texts.h). Ids and flags stay as written.
        Recipe recipe = r.value();
        const auto shown = [](QString &text) {
            text = QCoreApplication::translate("RecipeText", text.toUtf8().constData());
        };
        shown(recipe.title);
        shown(recipe.statusNote);
        shown(recipe.scopeNote);
        for (RecipeProfile &p : recipe.profiles) {
            shown(p.title);
            shown(p.note);
            shown(p.imageSource);
            for (QString &fact : p.facts) {
                shown(fact);
            }
        }
        recipes.append(recipe);
    }
    return recipes;
}

QStringList Recipe::deploymentIds(const QString &host)
{
    QStringList ids;
    if (const auto recipes = builtIn()) {
        for (const Recipe &r : recipes.value()) {
            for (const RecipeProfile &p : r.profiles) {
                ids.append(host + QLatin1Char('-') + p.id);
            }
        }
    }
    return ids;
}

const RecipeProfile *Recipe::profileForGpus(const QStringList &gpuNames) const
{
    const RecipeProfile *best = nullptr;
    if (gpuNames.isEmpty()) {
        return best;
    }
    for (const RecipeProfile &p : profiles) {
        if (p.generatorOnly() || p.gpuModel.isEmpty() || p.gpuCount > gpuNames.size() ||
            !gpuNames.first().contains(p.gpuModel, Qt::CaseInsensitive)) {
            continue;
        }
        if (!best || p.gpuCount > best->gpuCount) {
            best = &p;
        }
    }
    return best;
}

const RecipeProfile *Recipe::profile(const QString &profileId) const
{
    for (const RecipeProfile &p : profiles) {
        if (p.id == profileId) {
            return &p;
        }
    }
    return nullptr;
}

} // namespace flashdeck::recipe
