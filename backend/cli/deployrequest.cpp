#include "backend/cli/deployrequest.h"

#include "backend/cli/exitcodes.h"
#include "backend/cli/hostscommand.h"
#include "backend/cli/pinscommand.h"
#include "backend/core/apppaths.h"
#include "backend/fleet/inventory.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/profilechoice.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <utility>

namespace flashdeck::cli {

namespace {

const QString kDeployUsage = QStringLiteral(
    "Usage: flashdeck deploy HOST [--profile ID] [--accept-license noncommercial|commercial|commercial-authorized]\n"
    "                        [--resume] [--json] [--ready-timeout SECONDS] [--stall-timeout SECONDS]\n"
    "                        [--probe-timeout SECONDS]\n"
    "                        [--hicache-gb GB] [--operator-flags \"FLAGS\"] [--image NAME:TAG] [--gpus LIST]\n"
    "                        [--port N] [--image-digest sha256:… --model-revision COMMIT | --pins FILE]\n"
    "                        [--model-dir DIR [--model-source offline|modelscope] [--verify-checksums]]\n"
    "                        [--launch-command FILE|-]");

/** The generator's command from a file, or standard input for "-"; a failure in words. */
Result<QString> readLaunchCommand(const QString &path)
{
    QFile f;
    const bool stdIn = path == QLatin1String("-");
    if (stdIn) {
        if (!f.open(stdin, QIODevice::ReadOnly)) {
            return Status::failure(QCoreApplication::translate("Cli", "Cannot read standard input."));
        }
    } else {
        f.setFileName(path);
        if (!f.open(QIODevice::ReadOnly)) {
            return Status::failure(
                QCoreApplication::translate("Cli", "Cannot read the launch command %1: %2").arg(path, f.errorString()));
        }
    }
    const QByteArray text = f.read(256 * 1024); // a command, not a file of data
    return QString::fromUtf8(text);
}

/**
 * deploy's options, read by one parser: each is declared with its help where it is a member (one
 * table, not one long function).
 */
struct DeployFlags
{
    const QCommandLineOption profileOpt{QStringLiteral("profile"),
                                        QCoreApplication::translate("Cli", "Recipe profile."), QStringLiteral("ID"),
                                        QStringLiteral("b300x4-balanced")};
    const QCommandLineOption licenseOpt{
        QStringLiteral("accept-license"),
        QCoreApplication::translate("Cli", "Acknowledge the model licence for this use."), QStringLiteral("USE")};
    const QCommandLineOption resumeOpt{QStringLiteral("resume"),
                                       QCoreApplication::translate("Cli", "Continue an earlier deployment.")};
    const QCommandLineOption jsonOpt{QStringLiteral("json"),
                                     QCoreApplication::translate("Cli", "One JSON object per step transition.")};
    const QCommandLineOption timeoutOpt{
        QStringLiteral("ready-timeout"),
        QCoreApplication::translate(
            "Cli",
            "At most this many seconds for the server to be ready (default: no limit; the step waits as "
            "long as the start makes progress)."),
        QStringLiteral("SECONDS")};
    const QCommandLineOption stallOpt{
        QStringLiteral("stall-timeout"),
        QCoreApplication::translate(
            "Cli",
            "Fail the Ready step after this many seconds without progress: no weights arriving, no "
            "kernel compiled, no log line (default 900)."),
        QStringLiteral("SECONDS"), QStringLiteral("900")};
    const QCommandLineOption probeOpt{
        QStringLiteral("probe-timeout"),
        QCoreApplication::translate(
            "Cli", "Fail a GPU step when nvidia-smi or amd-smi on the host takes longer than this (default 30)."),
        QStringLiteral("SECONDS"), QStringLiteral("30")};
    const QCommandLineOption hicacheOpt{
        QStringLiteral("hicache-gb"),
        QCoreApplication::translate("Cli", "Turn on HiCache with GB of host memory per rank."), QStringLiteral("GB")};
    const QCommandLineOption flagsOpt{
        QStringLiteral("operator-flags"),
        QCoreApplication::translate("Cli", "Extra SGLang flags (the Low-Latency profile needs them)."),
        QStringLiteral("FLAGS")};
    const QCommandLineOption modelDirOpt{
        QStringLiteral("model-dir"),
        QCoreApplication::translate(
            "Cli", "Load the weights from this folder on the host instead of the Hub; it is verified first."),
        QStringLiteral("DIR")};
    const QCommandLineOption sourceOpt{
        QStringLiteral("model-source"),
        QCoreApplication::translate("Cli",
                                    "hub (default), offline (an hf download folder, the default with "
                                    "--model-dir) or modelscope (a ModelScope download)."),
        QStringLiteral("SOURCE")};
    const QCommandLineOption checksumOpt{
        QStringLiteral("verify-checksums"),
        QCoreApplication::translate("Cli",
                                    "Also compare the sha256 of every shard (reads the whole "
                                    "checkpoint on the host).")};
    const QCommandLineOption imageOpt{
        QStringLiteral("image"),
        QCoreApplication::translate(
            "Cli",
            "Run this image instead of the profile's (pinned to its digest like the recipe's); the AMD "
            "profile needs it."),
        QStringLiteral("NAME:TAG")};
    const QCommandLineOption gpusOpt{
        QStringLiteral("gpus"),
        QCoreApplication::translate(
            "Cli",
            "The GPUs to run on, one per TP rank (services in order), instead of the profile's 0,1,2,3: "
            "when those are busy."),
        QStringLiteral("LIST")};
    const QCommandLineOption portOpt{
        QStringLiteral("port"),
        QCoreApplication::translate(
            "Cli",
            "The port the server listens on, on the host's loopback (the router's, for a profile with "
            "one), instead of the profile's 30000; recorded, so chat, status and the runbook use it."),
        QStringLiteral("N")};
    const QCommandLineOption digestOpt{
        QStringLiteral("image-digest"),
        QCoreApplication::translate(
            "Cli",
            "Run exactly this image digest (on the host already, or in the registry) instead of what the "
            "tag names today."),
        QStringLiteral("sha256:…")};
    const QCommandLineOption revisionOpt{
        QStringLiteral("model-revision"),
        QCoreApplication::translate("Cli",
                                    "Run exactly this model commit (40 hex digits) instead of the recipe's revision."),
        QStringLiteral("COMMIT")};
    const QCommandLineOption pinsOpt{
        QStringLiteral("pins"),
        QCoreApplication::translate(
            "Cli",
            "Deploy exactly what a pins file says ('flashdeck pins lock' writes one): image, digest, "
            "model commit and profile."),
        QStringLiteral("FILE")};
    const QCommandLineOption launchOpt{
        QStringLiteral("launch-command"),
        QCoreApplication::translate(
            "Cli",
            "Launch SGLang's configuration generator's command from FILE ('-': standard input) instead of the "
            "recipe's B300 flags: python3 -m sglang.launch_server …, sglang serve … or docker run … IMAGE …. Its "
            "flags are kept as given; Flashdeck sets the model, its pinned revision, the port, the key and "
            "--enable-metrics. Needed for AMD, B200, GB200 and H200 hosts."),
        QStringLiteral("FILE")};
};

int usageError(CliContext &c, const QString &message)
{
    c.err << "flashdeck deploy: " << message << '\n' << kDeployUsage << '\n';
    return int(ExitUsage);
}

/**
 * Errors of the generator's command: words on stderr, or one JSON object under --json, with its
 * own code (scripts read these) and the exit code, as every other --json error has.
 */
int refusal(CliContext &c, bool json, const char *code, const QString &message)
{
    if (json) {
        const nlohmann::json object{{"error", {{"code", code}, {"message", message.toStdString()}}},
                                    {"exit_code", int(ExitUsage)}};
        c.out << QString::fromStdString(object.dump()) << '\n';
    } else {
        c.err << "flashdeck deploy: " << message << '\n';
    }
    return int(ExitUsage);
}

using Stop = std::optional<int>;

/** The pins the operator gives: a pins file, or a digest and a commit (checked). */
Stop readPins(const QCommandLineParser &p, const DeployFlags &f, CliContext &c, DeployRequest &r)
{
    // Pins: the operator's digest and commit, or a pins file's (what a host ran, locked).
    if (p.isSet(f.pinsOpt)) {
        if (p.isSet(f.digestOpt) || p.isSet(f.revisionOpt)) {
            return usageError(
                c,
                QCoreApplication::translate("Cli",
                                            "--pins gives the digest and the commit: leave out --image-digest and "
                                            "--model-revision."));
        }
        Result<recipe::Pins> read = recipe::Pins::readFrom(p.value(f.pinsOpt));
        if (!read) {
            c.err << read.message() << '\n';
            return ExitUsage;
        }
        r.pinsFile = std::move(read).value();
        if (p.isSet(f.profileOpt) && p.value(f.profileOpt) != r.pinsFile->profile && !r.pinsFile->profile.isEmpty()) {
            return usageError(c,
                              QCoreApplication::translate("Cli", "the pins file is for profile %1, not %2.")
                                  .arg(r.pinsFile->profile, p.value(f.profileOpt)));
        }
    }
    if (const QString problem = pinOptionsProblem(p.value(f.digestOpt), p.value(f.revisionOpt)); !problem.isEmpty()) {
        return usageError(c, problem);
    }
    return std::nullopt;
}

/** The host from the inventory, the recipe, the profile named (or remembered), the port and image. */
Stop findHostAndProfile(const QCommandLineParser &p, const DeployFlags &f, CliContext &c, const QString &hostName,
                        DeployRequest &r)
{
    fleet::Inventory inventory(c.paths.inventoryFile());
    if (Status s = inventory.load(); !s) {
        c.err << s.message() << '\n';
        return ExitCheckFailed;
    }
    const std::optional<fleet::HostEntry> host = inventory.find(hostName);
    if (!host) {
        c.err << QCoreApplication::translate("Cli",
                                             "No host named \"%1\" in the inventory (see 'flashdeck hosts list').\n")
                     .arg(hostName);
        return ExitUsage;
    }
    r.host = *host;
    const auto recipes = recipe::Recipe::builtIn();
    if (!recipes) {
        c.err << recipes.message() << '\n';
        return ExitCheckFailed;
    }
    r.recipe = recipes.value().first();
    // Without --profile: the pins file's, else the profile the host's deployment was made with (a
    // rerun after an undeploy on an 8 x H200 host is the H200 entry again, not 4 x B300), else the
    // page's verified one.
    QString profileId = p.value(f.profileOpt);
    if (!p.isSet(f.profileOpt)) {
        if (r.pinsFile && !r.pinsFile->profile.isEmpty()) {
            profileId = r.pinsFile->profile;
        } else if (const Result<recipe::Deployment> d = recipe::Deployment::read(c.paths, r.host.name)) {
            profileId = d.value().profile;
        }
    }
    const recipe::RecipeProfile *listed = r.recipe.profile(profileId);
    if (!listed) {
        return usageError(
            c, QCoreApplication::translate("Cli", "no profile \"%1\" (see 'flashdeck recipes list').").arg(profileId));
    }
    r.listed = *listed;
    if (p.isSet(f.portOpt)) {
        bool ok = false;
        const uint n = p.value(f.portOpt).toUInt(&ok);
        if (!ok || n == 0 || n > 65535) {
            return usageError(
                c,
                QCoreApplication::translate("Cli", "--port takes a port number from 1 to 65535, not \"%1\".")
                    .arg(p.value(f.portOpt)));
        }
        r.port = quint16(n);
    }
    // A pins file's image is the profile's unless it names another one (then as --image would).
    r.image = p.value(f.imageOpt);
    if (r.pinsFile && r.image.isEmpty() && !r.pinsFile->image.isEmpty() &&
        r.pinsFile->image != r.recipe.imageOf(r.listed).reference()) {
        r.image = r.pinsFile->image;
    }
    return std::nullopt;
}

/**
 * SGLang's configuration generator's command (the page's way for GB-series, B200, H200 and AMD),
 * read and checked, and the operator's choices applied: the profile that runs.
 */
Stop chooseLaunch(const QCommandLineParser &p, const DeployFlags &f, CliContext &c, DeployRequest &r)
{
    QString launchText = r.pinsFile ? r.pinsFile->launchCommand : QString();
    if (p.isSet(f.launchOpt)) {
        const Result<QString> read = readLaunchCommand(p.value(f.launchOpt));
        if (!read) {
            return refusal(c, r.json, "launch-command-unreadable", read.message());
        }
        launchText = read.value();
    }
    // The page's rule: no B300 flags on these hosts. A generator-only entry says so at once; the AMD
    // profile once its image is settled (it names one the operator confirms).
    const bool needsGenerator = r.listed.generatorOnly() || r.listed.vendor == probe::GpuVendor::Amd;
    if (launchText.trimmed().isEmpty() && r.listed.generatorOnly()) {
        return refusal(c, r.json, "generator-command-needed", recipe::ImportedLaunch::generatorAdvice(r.listed.title));
    }
    recipe::RecipeProfile base = r.listed;
    if (!launchText.trimmed().isEmpty()) {
        const QString revision = r.pinsFile ? r.pinsFile->modelRevision
            : p.isSet(f.revisionOpt)        ? p.value(f.revisionOpt)
                                            : r.recipe.modelRevision;
        Result<std::pair<recipe::ImportedLaunch, recipe::RecipeProfile>> made = recipe::ImportedLaunch::forProfile(
            r.recipe, r.listed, launchText, p.value(f.gpusOpt), r.port, revision, p.isSet(f.modelDirOpt));
        if (!made) {
            return refusal(c, r.json, "launch-command-refused",
                           p.isSet(f.profileOpt)
                               ? made.message()
                               : QCoreApplication::translate("Cli",
                                                             "%1 (The profile is %2, the default: for other GPUs "
                                                             "give --profile; 'flashdeck recipes list' has them.)")
                                     .arg(made.message(), r.listed.title));
        }
        r.imported = made.value().first;
        base = made.value().second;
        if (!r.imported->image.isEmpty()) {
            if (p.isSet(f.imageOpt) && p.value(f.imageOpt) != r.imported->image) {
                return refusal(
                    c, r.json, "launch-command-refused",
                    QCoreApplication::translate("Cli", "--image %1 and the command's image %2 differ: give one.")
                        .arg(p.value(f.imageOpt), r.imported->image));
            }
            r.image = r.imported->image;
        }
    }
    const recipe::ProfileChoice choice{r.image, p.value(f.gpusOpt), r.port};
    const Result<recipe::RecipeProfile> chosen = choice.apply(r.recipe, base);
    if (!chosen) {
        return usageError(c,
                          r.listed.imageConfirm && !p.isSet(f.imageOpt)
                              ? QCoreApplication::translate(
                                    "Cli",
                                    "%1 Confirm it with --image %2, or give your own ROCm build of SGLang that "
                                    "serves %3.")
                                    .arg(chosen.message(), r.recipe.imageOf(r.listed).reference(), r.recipe.modelRepo)
                              : chosen.message());
    }
    if (launchText.trimmed().isEmpty() && needsGenerator) {
        return refusal(c, r.json, "generator-command-needed", recipe::ImportedLaunch::generatorAdvice(r.listed.title));
    }
    r.profile = chosen.value();
    return std::nullopt;
}

/** The runner's options from the rest of the command line (timeouts, weights, pins), checked. */
Stop readRunOptions(const QCommandLineParser &p, const DeployFlags &f, CliContext &c, const DeployRequest &r,
                    deploy::DeployOptions &options)
{
    bool number = true;
    options.readyTimeoutMs = p.isSet(f.timeoutOpt) ? p.value(f.timeoutOpt).toInt(&number) * 1000 : 0;
    if (!number || options.readyTimeoutMs < 0 || options.readyTimeoutMs > 7 * 24 * 3600 * 1000) {
        return usageError(c, QCoreApplication::translate("Cli", "--ready-timeout takes seconds (0: no limit)."));
    }
    options.stallTimeoutMs = p.value(f.stallOpt).toInt(&number) * 1000;
    if (!number || options.stallTimeoutMs < 1000 || options.stallTimeoutMs > 24 * 3600 * 1000) {
        return usageError(c, QCoreApplication::translate("Cli", "--stall-timeout takes seconds, from 1 to 86400."));
    }
    options.gpuProbeTimeoutMs = p.value(f.probeOpt).toInt(&number) * 1000;
    if (!number || options.gpuProbeTimeoutMs < 1000 || options.gpuProbeTimeoutMs > 3600 * 1000) {
        return usageError(c, QCoreApplication::translate("Cli", "--probe-timeout takes seconds, from 1 to 3600."));
    }
    options.hicacheGbPerRank = p.value(f.hicacheOpt).toInt();
    options.operatorFlags = p.value(f.flagsOpt).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    options.modelDir = p.value(f.modelDirOpt);
    options.modelSource = p.isSet(f.sourceOpt)
        ? p.value(f.sourceOpt)
        : (options.modelDir.isEmpty() ? QStringLiteral("hub") : QStringLiteral("offline"));
    options.verifyChecksums = p.isSet(f.checksumOpt);
    options.imageDigest = r.pinsFile ? r.pinsFile->imageDigest : p.value(f.digestOpt);
    options.modelRevision = r.pinsFile ? r.pinsFile->modelRevision : p.value(f.revisionOpt);
    options.imported = r.imported;
    options.gpusChosen = p.isSet(f.gpusOpt);
    if (r.imported && !r.imported->imageDigest.isEmpty() && options.imageDigest.isEmpty()) {
        if (!recipe::Pins::isImageDigest(r.imported->imageDigest)) {
            return refusal(c, r.json, "launch-command-refused",
                           QCoreApplication::translate("Cli",
                                                       "The command's image digest %1 is not sha256: and 64 hex "
                                                       "digits.")
                               .arg(r.imported->imageDigest));
        }
        options.imageDigest = r.imported->imageDigest;
    }
    if (!QStringList{QStringLiteral("hub"), QStringLiteral("offline"), QStringLiteral("modelscope")}.contains(
            options.modelSource)) {
        return usageError(c, QCoreApplication::translate("Cli", "--model-source takes hub, offline or modelscope."));
    }
    if ((options.modelSource == QLatin1String("hub")) != options.modelDir.isEmpty()) {
        return usageError(
            c,
            options.modelDir.isEmpty()
                ? QCoreApplication::translate("Cli", "--model-source %1 needs --model-dir, the folder on the host.")
                      .arg(options.modelSource)
                : QCoreApplication::translate(
                      "Cli",
                      "--model-dir is a folder on the host: use it with --model-source offline or "
                      "modelscope."));
    }
    if (options.verifyChecksums && options.modelSource == QLatin1String("hub")) {
        return usageError(c,
                          QCoreApplication::translate(
                              "Cli", "--verify-checksums checks a folder on the host: use it with --model-dir."));
    }
    if (r.profile.operatorFlagsRequired && options.operatorFlags.isEmpty() && !r.imported) {
        return usageError(
            c,
            QCoreApplication::translate("Cli", "%1 needs --operator-flags: %2").arg(r.profile.title, r.profile.note));
    }
    return std::nullopt;
}

Stop readLicense(const QCommandLineParser &p, const DeployFlags &f, CliContext &c, DeployRequest &r,
                 const deploy::Acknowledgements &acks)
{
    // F40: an acknowledgement of the licence summary, exactly as shown (its hash), for this host.
    const auto terms = recipe::LicenseTerms::builtIn();
    if (!terms) {
        c.err << terms.message() << '\n';
        return ExitCheckFailed;
    }
    LicenseState state{terms.value(), std::nullopt, std::nullopt};
    // --accept-license is recorded when the plan reaches the licence step on the host, not before
    // connecting to a host that may not exist or answer (the acknowledgement is for this host).
    if (p.isSet(f.licenseOpt)) {
        if (!state.terms.use(p.value(f.licenseOpt)) || !r.recipe.licenseUses.contains(p.value(f.licenseOpt))) {
            return usageError(c,
                              QCoreApplication::translate("Cli", "--accept-license takes %1.")
                                  .arg(r.recipe.licenseUses.join(QLatin1Char('|'))));
        }
        state.pending =
            deploy::Acknowledgements::make(r.host.name, state.terms, p.value(f.licenseOpt), QStringLiteral("cli"));
    }
    const auto acknowledged = acks.find(r.host.name, state.terms);
    if (!acknowledged) {
        c.err << acknowledged.message() << '\n';
        return ExitCheckFailed;
    }
    state.recorded = acknowledged.value();
    r.license = std::move(state);
    return std::nullopt;
}

} // namespace

Stop readDeployRequest(const QStringList &args, CliContext &c, const deploy::Acknowledgements &acks, DeployRequest &r)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const DeployFlags f;
    p.addOptions({f.profileOpt, f.licenseOpt, f.resumeOpt, f.jsonOpt, f.timeoutOpt, f.stallOpt, f.probeOpt,
                  f.hicacheOpt, f.flagsOpt, f.modelDirOpt, f.sourceOpt, f.checksumOpt, f.imageOpt, f.gpusOpt, f.portOpt,
                  f.digestOpt, f.revisionOpt, f.pinsOpt, f.launchOpt});
    if (!p.parse(args)) {
        return usageError(c, p.errorText());
    }
    const QStringList pos = p.positionalArguments();
    if (pos.size() != 2) {
        return usageError(c, QCoreApplication::translate("Cli", "needs HOST."));
    }
    r.json = p.isSet(f.jsonOpt);
    r.resume = p.isSet(f.resumeOpt);
    if (const Stop stop = readPins(p, f, c, r)) {
        return stop;
    }
    if (const Stop stop = findHostAndProfile(p, f, c, pos.at(1), r)) {
        return stop;
    }
    if (const Stop stop = chooseLaunch(p, f, c, r)) {
        return stop;
    }
    if (const Stop stop = readLicense(p, f, c, r, acks)) {
        return stop;
    }
    r.options.deploymentId = recipe::DeploymentId(r.host.name, r.profile.id).toString();
    if (const std::optional<deploy::Acknowledgement> &a = r.license.pending ? r.license.pending : r.license.recorded) {
        r.options.licenseAcknowledged = a->use;
        r.options.licenseRecord =
            QCoreApplication::translate("Cli", "%1 at %2, summary sha256 %3").arg(a->user, a->at, a->summarySha256);
    }
    return readRunOptions(p, f, c, r, r.options);
}

} // namespace flashdeck::cli
