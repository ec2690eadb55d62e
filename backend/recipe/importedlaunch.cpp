#include "backend/recipe/importedlaunch.h"

#include "backend/core/shellquote.h"
#include "backend/docker/imageref.h"
#include "backend/recipe/recipe.h"

#include <QCoreApplication>

namespace flashdeck::recipe {

namespace {

/** The value argparse keeps for a flag given under any of its names: the last one given. */
const ServerArg *last(const GeneratorCommand &cmd, std::initializer_list<const char *> names)
{
    const ServerArg *found = nullptr;
    for (const ServerArg &a : cmd.serverArgs()) {
        for (const char *n : names) {
            if (a.flag == QLatin1String(n)) {
                found = &a;
            }
        }
    }
    return found;
}

Result<int> sizeOf(const GeneratorCommand &cmd, std::initializer_list<const char *> names)
{
    const ServerArg *a = last(cmd, names);
    if (!a) {
        return 1;
    }
    bool ok = false;
    const int n = a->values.size() == 1 ? a->values.first().toInt(&ok) : 0;
    if (!ok || n < 1 || n > 1024) {
        return Status::failure(QCoreApplication::translate("Recipe", "%1 takes a number of GPUs, not \"%2\".")
                                   .arg(a->flag, a->values.join(QLatin1Char(' '))));
    }
    return n;
}

QString gb(qint64 bytes)
{
    return QString::number(qRound64(double(bytes) / 1e9));
}

/** Flags whose values Flashdeck sets; their aliases in SGLang's server arguments. */
bool isOwned(const QString &flag)
{
    static const QStringList owned{QStringLiteral("--model-path"),    QStringLiteral("--model"),
                                   QStringLiteral("--revision"),      QStringLiteral("--host"),
                                   QStringLiteral("--port"),          QStringLiteral("--api-key"),
                                   QStringLiteral("--enable-metrics")};
    return owned.contains(flag);
}

/** A Flashdeck-owned flag in the command: fine when it says what Flashdeck sets, refused when not. */
Status ownedSame(const ServerArg &a, const Recipe &recipe, const ImportContext &context)
{
    const QString port = QString::number(context.port);
    const QString value = a.values.join(QLatin1Char(' '));
    const auto differs = [&a, &value](const QString &ours, const QString &why) {
        return Status::failure(QCoreApplication::translate("Recipe",
                                                           "The command sets %1 %2; Flashdeck sets %1 %3 (%4). "
                                                           "Leave %1 out of the command. Nothing was pulled.")
                                   .arg(a.flag, value, ours, why));
    };
    if (a.flag == QLatin1String("--model-path") || a.flag == QLatin1String("--model")) {
        if (value != recipe.modelRepo) {
            return Status::failure(
                QCoreApplication::translate("Recipe",
                                            "The command serves another model (%1 %2): Flashdeck deploys %3 at "
                                            "its pinned revision. Generate the command for %3. Nothing was "
                                            "pulled.")
                    .arg(a.flag, value, recipe.modelRepo));
        }
    } else if (a.flag == QLatin1String("--revision") && !context.revision.isEmpty() && value != context.revision) {
        return differs(
            context.revision,
            QCoreApplication::translate("Recipe", "the pinned revision; --model-revision picks another commit"));
    } else if (a.flag == QLatin1String("--host") && value != QLatin1String("0.0.0.0")) {
        return differs(QStringLiteral("0.0.0.0"),
                       QCoreApplication::translate("Recipe",
                                                   "inside the container; the port is published on the host's "
                                                   "loopback only"));
    } else if (a.flag == QLatin1String("--port") && value != port) {
        return differs(port, QCoreApplication::translate("Recipe", "deploy --port %1 picks that port").arg(value));
    } else if (a.flag == QLatin1String("--api-key")) {
        return differs(QCoreApplication::translate("Recipe", "a generated key"),
                       QCoreApplication::translate("Recipe", "at least 32 random bytes, kept in the system keyring"));
    } else if (a.flag == QLatin1String("--enable-metrics") && !a.values.isEmpty()) {
        return differs({}, QCoreApplication::translate("Recipe", "a switch: the monitor reads /metrics"));
    }
    return Status::ok();
}

/** The command's TP, DP and PP sizes (1 where not given). */
Status readSizes(ImportedLaunch &out)
{
    const GeneratorCommand &cmd = out.command;
    const Result<int> tp = sizeOf(cmd, {"--tp", "--tp-size", "--tensor-parallel-size"});
    const Result<int> dp = sizeOf(cmd, {"--dp", "--dp-size", "--data-parallel-size"});
    const Result<int> pp = sizeOf(cmd, {"--pp", "--pp-size", "--pipeline-parallel-size"});
    for (const Result<int> *r : {&tp, &dp, &pp}) {
        if (!*r) {
            return r->status();
        }
    }
    out.tp = tp.value();
    out.dp = dp.value();
    out.pp = pp.value();
    return Status::ok();
}

/** The sizes against the GPUs: ROCm's TP limit and the GPUs each server is given. */
Status checkSizes(const ImportedLaunch &out, const Recipe &recipe, const ImportContext &context)
{
    if (context.vendor == probe::GpuVendor::Amd && out.tp > 4) {
        return Status::failure(
            QCoreApplication::translate(
                "Recipe",
                "The command asks for TP %1 on AMD GPUs: on ROCm the model's NVFP4 checkpoint runs only at TP 4 or "
                "lower, so the server would refuse it after a %2 GB image pull and a %3 GB weights download. "
                "Generate the command with TP 4: on an 8-GPU host Flashdeck runs two TP 4 services behind the "
                "SGLang Router. Nothing was pulled.")
                .arg(out.tp)
                .arg(gb(recipe.imageApproxBytes), gb(recipe.weightsBytes)));
    }
    const int ranks = out.tp * out.dp * out.pp;
    if (context.gpusPerService > 0 && ranks != context.gpusPerService) {
        return Status::failure(
            QCoreApplication::translate(
                "Recipe",
                "The command runs TP %1 × DP %2 × PP %3 = %4 GPUs per server, but %5 gives each server %6. "
                "Generate the command for %6 GPUs, or give the GPUs it is for with --gpus. Nothing was pulled.")
                .arg(out.tp)
                .arg(out.dp)
                .arg(out.pp)
                .arg(ranks)
                .arg(context.gpusFrom)
                .arg(context.gpusPerService));
    }
    return Status::ok();
}

/** The server arguments kept; what Flashdeck sets is accepted when it is the same, refused when not. */
Status takeServerArgs(ImportedLaunch &out, const Recipe &recipe, const ImportContext &context)
{
    for (const ServerArg &a : out.command.serverArgs()) {
        if (!isOwned(a.flag)) {
            out.serverArgs += a.words();
            if (a.flag == QLatin1String("--mem-fraction-static") && !a.values.isEmpty()) {
                out.memFractionStatic = a.values.last();
            }
            continue;
        }
        if (Status same = ownedSame(a, recipe, context); !same) {
            return same;
        }
    }
    return Status::ok();
}

/** The environment kept, and notes on what is not: the GPUs' selection, the token, ignored docker options. */
void takeEnvironment(ImportedLaunch &out)
{
    const GeneratorCommand &cmd = out.command;
    for (const QString &e : cmd.environment()) {
        const QString key = e.section(QLatin1Char('='), 0, 0);
        if (key == QLatin1String("CUDA_VISIBLE_DEVICES") || key == QLatin1String("HIP_VISIBLE_DEVICES") ||
            key == QLatin1String("ROCR_VISIBLE_DEVICES") || key == QLatin1String("NVIDIA_VISIBLE_DEVICES")) {
            out.notes.append(
                QCoreApplication::translate("Recipe", "%1: not carried over: Flashdeck gives the container its GPUs")
                    .arg(e));
        } else if (key == QLatin1String("HF_TOKEN")) {
            out.notes.append(QCoreApplication::translate(
                "Recipe", "HF_TOKEN: not carried over: Flashdeck passes the token you give it, never in a file"));
        } else {
            out.env.append(e);
        }
    }
    for (const IgnoredDockerOption &o : cmd.ignoredDockerOptions()) {
        out.notes.append(QStringLiteral("%1: %2").arg(o.option, o.why));
    }
}

/** The command's image, split into its reference and its digest. */
Status takeImage(ImportedLaunch &out)
{
    const GeneratorCommand &cmd = out.command;
    if (!cmd.image().isEmpty()) {
        const qsizetype at = cmd.image().indexOf(QLatin1Char('@'));
        const QString named = at < 0 ? cmd.image() : cmd.image().left(at);
        const Result<docker::ImageRef> ref = docker::ImageRef::parse(named);
        if (!ref) {
            return ref.status();
        }
        out.image = ref.value().reference();
        out.imageDigest = at < 0 ? QString() : cmd.image().mid(at + 1);
    }
    return Status::ok();
}

/** The flags Flashdeck sets, with their values and why. */
QList<OwnedFlag> ownedFlags(const Recipe &recipe, const ImportContext &context)
{
    const QString port = QString::number(context.port);
    return {{QStringLiteral("--model-path"), context.offline ? QStringLiteral("/models/…") : recipe.modelRepo,
             QCoreApplication::translate("Recipe", "the model this deployment serves")},
            {QStringLiteral("--revision"), context.revision,
             QCoreApplication::translate("Recipe", "pinned to a commit at the pin step")},
            {QStringLiteral("--host"), QStringLiteral("0.0.0.0"),
             QCoreApplication::translate("Recipe", "inside the container; published on the host's 127.0.0.1:%1 only")
                 .arg(context.port)},
            {QStringLiteral("--port"), port, QCoreApplication::translate("Recipe", "the service's port")},
            {QStringLiteral("--api-key"), QCoreApplication::translate("Recipe", "(generated)"),
             QCoreApplication::translate("Recipe", "32 random bytes, kept in the system keyring")},
            {QStringLiteral("--enable-metrics"), QString(),
             QCoreApplication::translate("Recipe", "added: the monitor reads /metrics")}};
}

} // namespace

QString ImportedLaunch::generatorAdvice(const QString &hardware)
{
    return QCoreApplication::translate(
               "Recipe",
               "%1 has no verified command on the deployment page: for GB-series, B200, H200 or AMD GPUs, generate "
               "the command with SGLang's configuration generator, and do not put its parameters into the 4 × B300 "
               "baseline without validating them again. Give the generator's command with --launch-command FILE "
               "('-' reads it from standard input); Flashdeck keeps its flags and sets the model, its pinned "
               "revision, the port and the key. Nothing was pulled.")
        .arg(hardware);
}

Result<ImportedLaunch> ImportedLaunch::make(const QString &text, const Recipe &recipe, const ImportContext &context)
{
    const Result<GeneratorCommand> parsed = GeneratorCommand::parse(text);
    if (!parsed) {
        return parsed.status();
    }
    ImportedLaunch out;
    out.command = parsed.value();
    out.text = text.trimmed();
    if (Status sizes = readSizes(out); !sizes) {
        return sizes;
    }
    if (Status fits = checkSizes(out, recipe, context); !fits) {
        return fits;
    }
    if (Status args = takeServerArgs(out, recipe, context); !args) {
        return args;
    }
    takeEnvironment(out);
    if (Status image = takeImage(out); !image) {
        return image;
    }
    out.owned = ownedFlags(recipe, context);
    return out;
}

Result<std::pair<ImportedLaunch, RecipeProfile>>
ImportedLaunch::forProfile(const Recipe &recipe, const RecipeProfile &listed, const QString &text, const QString &gpus,
                           quint16 port, const QString &revision, bool offline)
{
    const int given = int(gpus.split(QLatin1Char(','), Qt::SkipEmptyParts).size());
    ImportContext context;
    context.vendor = listed.vendor;
    context.revision = revision;
    context.offline = offline;
    if (listed.generatorOnly()) {
        context.gpusPerService = given;
        context.gpusFrom = QStringLiteral("--gpus ") + gpus;
        context.port = port ? port : 30000;
    } else {
        context.gpusPerService = given ? given / int(listed.replicas.size()) : int(listed.replicas.first().gpus.size());
        context.gpusFrom = given         ? QStringLiteral("--gpus ") + gpus
            : listed.replicas.size() > 1 ? QCoreApplication::translate("Recipe", "%1 (%2 services behind the Router)")
                                               .arg(listed.title)
                                               .arg(listed.replicas.size())
                                         : listed.title;
        context.port = port && !listed.routerPort ? port : listed.replicas.first().port;
    }
    Result<ImportedLaunch> made = make(text, recipe, context);
    if (!made) {
        return made.status();
    }
    RecipeProfile base = listed;
    if (listed.generatorOnly()) {
        const ImportedLaunch &l = made.value();
        base = layout(listed, given ? given : l.tp * l.dp * l.pp, l.memFractionStatic);
    }
    return std::pair{made.value(), base};
}

RecipeProfile ImportedLaunch::layout(const RecipeProfile &generatorOnly, int gpus, const QString &memFraction)
{
    RecipeProfile p = generatorOnly;
    p.status = QStringLiteral("unverified");
    p.gpuCount = gpus;
    p.tp = gpus; // Flashdeck's one service holds them all; the command says how it splits them
    RecipeReplica replica;
    for (int g = 0; g < gpus; ++g) {
        replica.gpus.append(g);
    }
    replica.port = 30000;
    p.replicas = {replica};
    p.shmSize = QStringLiteral("32g");
    p.ipc = QStringLiteral("host");
    bool ok = false;
    const double fraction = memFraction.toDouble(&ok);
    p.memFractionStatic = ok && fraction > 0 && fraction < 1 ? fraction : 0.8;
    return p;
}

QStringList ImportedLaunch::preview() const
{
    QStringList lines;
    lines << QCoreApplication::translate(
                 "Recipe", "The generator's arguments, as given (TP %1 × DP %2 × PP %3 = %4 GPUs per server):")
                 .arg(tp)
                 .arg(dp)
                 .arg(pp)
                 .arg(tp * dp * pp);
    lines << QStringLiteral("  ") + command.entrypoint() + QLatin1Char(' ') + QString::fromUtf8(shellJoin(serverArgs));
    if (!image.isEmpty()) {
        lines << QCoreApplication::translate("Recipe", "Image: %1 (pinned to its digest at the pin step)").arg(image);
    }
    if (!env.isEmpty()) {
        lines << QCoreApplication::translate("Recipe", "Environment: %1").arg(env.join(QLatin1Char(' ')));
    }
    lines << QCoreApplication::translate("Recipe", "What Flashdeck sets:");
    for (const OwnedFlag &o : owned) {
        lines << QStringLiteral("  %1%2 — %3")
                     .arg(o.flag, o.value.isEmpty() ? QString() : QLatin1Char(' ') + o.value, o.why);
    }
    if (!notes.isEmpty()) {
        lines << QCoreApplication::translate("Recipe", "Not carried over:");
        for (const QString &n : notes) {
            lines << QStringLiteral("  ") + n;
        }
    }
    return lines;
}

} // namespace flashdeck::recipe
