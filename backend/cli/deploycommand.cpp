#include "backend/cli/deploycommand.h"

#include "backend/cli/clisession.h"
#include "backend/cli/exitcodes.h"
#include "backend/cli/pinscommand.h"
#include "backend/cli/stepprinter.h"
#include "backend/core/apppaths.h"
#include "backend/core/stopsignals.h"
#include "backend/deploy/acknowledgements.h"
#include "backend/deploy/deployrunner.h"
#include "backend/deploy/deploysession.h"
#include "backend/deploy/journal.h"
#include "backend/fleet/inventory.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/importedlaunch.h"
#include "backend/recipe/licenseterms.h"
#include "backend/recipe/pins.h"
#include "backend/recipe/profilechoice.h"
#include "backend/security/redactor.h"
#include "backend/security/secretstore.h"
#include "backend/ssh/hostconnection.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <optional>
#include <unistd.h>
#include <utility>

namespace flashdeck::cli {

namespace {

const QString kUsage = QStringLiteral(
    "Usage: flashdeck deploy HOST [--profile ID] [--accept-license noncommercial|commercial|commercial-authorized]\n"
    "                        [--resume] [--json] [--ready-timeout SECONDS] [--stall-timeout SECONDS]\n"
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

/** The preview of an imported command as one --json line. */
nlohmann::json previewJson(const ImportedLaunch &launch)
{
    const auto list = [](const QStringList &l) {
        nlohmann::json a = nlohmann::json::array();
        for (const QString &s : l) {
            a.push_back(s.toStdString());
        }
        return a;
    };
    nlohmann::json owned = nlohmann::json::array();
    for (const OwnedFlag &o : launch.owned) {
        owned.push_back(
            {{"flag", o.flag.toStdString()}, {"value", o.value.toStdString()}, {"why", o.why.toStdString()}});
    }
    return {{"launch_command",
             {{"entrypoint", launch.command.entrypoint().toStdString()},
              {"server_args", list(launch.serverArgs)},
              {"flashdeck_sets", owned},
              {"image", launch.image.toStdString()},
              {"env", list(launch.env)},
              {"not_carried_over", list(launch.notes)},
              {"tp", launch.tp},
              {"dp", launch.dp},
              {"pp", launch.pp}}}};
}

} // namespace

int runDeployCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption profileOpt(QStringLiteral("profile"),
                                        QCoreApplication::translate("Cli", "Recipe profile."), QStringLiteral("ID"),
                                        QStringLiteral("b300x4-balanced"));
    const QCommandLineOption licenseOpt(
        QStringLiteral("accept-license"),
        QCoreApplication::translate("Cli", "Acknowledge the model licence for this use."), QStringLiteral("USE"));
    const QCommandLineOption resumeOpt(QStringLiteral("resume"),
                                       QCoreApplication::translate("Cli", "Continue an earlier deployment."));
    const QCommandLineOption jsonOpt(QStringLiteral("json"),
                                     QCoreApplication::translate("Cli", "One JSON object per step transition."));
    const QCommandLineOption timeoutOpt(
        QStringLiteral("ready-timeout"),
        QCoreApplication::translate(
            "Cli",
            "At most this many seconds for the server to be ready (default: no limit; the step waits as "
            "long as the start makes progress)."),
        QStringLiteral("SECONDS"));
    const QCommandLineOption stallOpt(
        QStringLiteral("stall-timeout"),
        QCoreApplication::translate(
            "Cli",
            "Fail the Ready step after this many seconds without progress: no weights arriving, no "
            "kernel compiled, no log line (default 900)."),
        QStringLiteral("SECONDS"), QStringLiteral("900"));
    const QCommandLineOption hicacheOpt(
        QStringLiteral("hicache-gb"),
        QCoreApplication::translate("Cli", "Turn on HiCache with GB of host memory per rank."), QStringLiteral("GB"));
    const QCommandLineOption flagsOpt(
        QStringLiteral("operator-flags"),
        QCoreApplication::translate("Cli", "Extra SGLang flags (the Low-Latency profile needs them)."),
        QStringLiteral("FLAGS"));
    const QCommandLineOption modelDirOpt(
        QStringLiteral("model-dir"),
        QCoreApplication::translate(
            "Cli", "Load the weights from this folder on the host instead of the Hub; it is verified first."),
        QStringLiteral("DIR"));
    const QCommandLineOption sourceOpt(
        QStringLiteral("model-source"),
        QCoreApplication::translate("Cli",
                                    "hub (default), offline (an hf download folder, the default with "
                                    "--model-dir) or modelscope (a ModelScope download)."),
        QStringLiteral("SOURCE"));
    const QCommandLineOption checksumOpt(
        QStringLiteral("verify-checksums"),
        QCoreApplication::translate("Cli",
                                    "Also compare the sha256 of every shard (reads the whole "
                                    "checkpoint on the host)."));
    const QCommandLineOption imageOpt(
        QStringLiteral("image"),
        QCoreApplication::translate(
            "Cli",
            "Run this image instead of the profile's (pinned to its digest like the recipe's); the AMD "
            "profile needs it."),
        QStringLiteral("NAME:TAG"));
    const QCommandLineOption gpusOpt(
        QStringLiteral("gpus"),
        QCoreApplication::translate(
            "Cli",
            "The GPUs to run on, one per TP rank (services in order), instead of the profile's 0,1,2,3: "
            "when those are busy."),
        QStringLiteral("LIST"));
    const QCommandLineOption portOpt(
        QStringLiteral("port"),
        QCoreApplication::translate(
            "Cli",
            "The port the server listens on, on the host's loopback (the router's, for a profile with "
            "one), instead of the profile's 30000; recorded, so chat, status and the runbook use it."),
        QStringLiteral("N"));
    const QCommandLineOption digestOpt(
        QStringLiteral("image-digest"),
        QCoreApplication::translate(
            "Cli",
            "Run exactly this image digest (on the host already, or in the registry) instead of what the "
            "tag names today."),
        QStringLiteral("sha256:…"));
    const QCommandLineOption revisionOpt(
        QStringLiteral("model-revision"),
        QCoreApplication::translate("Cli",
                                    "Run exactly this model commit (40 hex digits) instead of the recipe's revision."),
        QStringLiteral("COMMIT"));
    const QCommandLineOption pinsOpt(
        QStringLiteral("pins"),
        QCoreApplication::translate(
            "Cli",
            "Deploy exactly what a pins file says ('flashdeck pins lock' writes one): image, digest, "
            "model commit and profile."),
        QStringLiteral("FILE"));
    const QCommandLineOption launchOpt(
        QStringLiteral("launch-command"),
        QCoreApplication::translate(
            "Cli",
            "Launch SGLang's configuration generator's command from FILE ('-': standard input) instead of the "
            "recipe's B300 flags: python3 -m sglang.launch_server …, sglang serve … or docker run … IMAGE …. Its "
            "flags are kept as given; Flashdeck sets the model, its pinned revision, the port, the key and "
            "--enable-metrics. Needed for AMD, B200, GB200 and H200 hosts."),
        QStringLiteral("FILE"));
    p.addOptions({profileOpt, licenseOpt, resumeOpt, jsonOpt, timeoutOpt, stallOpt, hicacheOpt, flagsOpt, modelDirOpt,
                  sourceOpt, checksumOpt, imageOpt, gpusOpt, portOpt, digestOpt, revisionOpt, pinsOpt, launchOpt});
    const auto usage = [&c](const QString &message) {
        c.err << "flashdeck deploy: " << message << '\n' << kUsage << '\n';
        return int(ExitUsage);
    };
    if (!p.parse(args)) {
        return usage(p.errorText());
    }
    const QStringList pos = p.positionalArguments();
    if (pos.size() != 2) {
        return usage(QCoreApplication::translate("Cli", "needs HOST."));
    }
    // Pins: the operator's digest and commit, or a pins file's (what a host ran, locked).
    std::optional<Pins> pinsFile;
    if (p.isSet(pinsOpt)) {
        if (p.isSet(digestOpt) || p.isSet(revisionOpt)) {
            return usage(
                QCoreApplication::translate("Cli",
                                            "--pins gives the digest and the commit: leave out --image-digest and "
                                            "--model-revision."));
        }
        Result<Pins> read = Pins::readFrom(p.value(pinsOpt));
        if (!read) {
            c.err << read.message() << '\n';
            return ExitUsage;
        }
        pinsFile = std::move(read).value();
        if (p.isSet(profileOpt) && p.value(profileOpt) != pinsFile->profile && !pinsFile->profile.isEmpty()) {
            return usage(QCoreApplication::translate("Cli", "the pins file is for profile %1, not %2.")
                             .arg(pinsFile->profile, p.value(profileOpt)));
        }
    }
    if (const QString problem = pinOptionsProblem(p.value(digestOpt), p.value(revisionOpt)); !problem.isEmpty()) {
        return usage(problem);
    }
    const bool json = p.isSet(jsonOpt);
    Inventory inventory(c.paths.inventoryFile());
    if (Status s = inventory.load(); !s) {
        c.err << s.message() << '\n';
        return ExitCheckFailed;
    }
    const std::optional<HostEntry> host = inventory.find(pos.at(1));
    if (!host) {
        c.err << QCoreApplication::translate("Cli",
                                             "No host named \"%1\" in the inventory (see 'flashdeck hosts list').\n")
                     .arg(pos.at(1));
        return ExitUsage;
    }
    const auto recipes = Recipe::builtIn();
    if (!recipes) {
        c.err << recipes.message() << '\n';
        return ExitCheckFailed;
    }
    const Recipe recipe = recipes.value().first();
    // Without --profile: the pins file's, else the profile the host's deployment was made with (a
    // rerun after an undeploy on an 8 x H200 host is the H200 entry again, not 4 x B300), else the
    // page's verified one.
    QString profileId = p.value(profileOpt);
    if (!p.isSet(profileOpt)) {
        if (pinsFile && !pinsFile->profile.isEmpty()) {
            profileId = pinsFile->profile;
        } else if (const Result<Deployment> d = Deployment::read(c.paths, host->name)) {
            profileId = d.value().profile;
        }
    }
    const RecipeProfile *listed = recipe.profile(profileId);
    if (!listed) {
        return usage(
            QCoreApplication::translate("Cli", "no profile \"%1\" (see 'flashdeck recipes list').").arg(profileId));
    }
    quint16 port = 0;
    if (p.isSet(portOpt)) {
        bool ok = false;
        const uint n = p.value(portOpt).toUInt(&ok);
        if (!ok || n == 0 || n > 65535) {
            return usage(QCoreApplication::translate("Cli", "--port takes a port number from 1 to 65535, not \"%1\".")
                             .arg(p.value(portOpt)));
        }
        port = quint16(n);
    }
    // A pins file's image is the profile's unless it names another one (then as --image would).
    QString image = p.value(imageOpt);
    if (pinsFile && image.isEmpty() && !pinsFile->image.isEmpty() &&
        pinsFile->image != recipe.imageOf(*listed).reference()) {
        image = pinsFile->image;
    }
    // Errors of the generator's command: words on stderr, or one JSON object under --json — with
    // its own code (scripts read these) and the exit code, as every other --json error has.
    const auto refuse = [&c, json](const char *code, const QString &message) {
        if (json) {
            const nlohmann::json object{{"error", {{"code", code}, {"message", message.toStdString()}}},
                                        {"exit_code", int(ExitUsage)}};
            c.out << QString::fromStdString(object.dump()) << '\n';
        } else {
            c.err << "flashdeck deploy: " << message << '\n';
        }
        return int(ExitUsage);
    };
    // SGLang's configuration generator's command: the page's way for GB-series, B200, H200 and AMD.
    QString launchText = pinsFile ? pinsFile->launchCommand : QString();
    if (p.isSet(launchOpt)) {
        const Result<QString> read = readLaunchCommand(p.value(launchOpt));
        if (!read) {
            return refuse("launch-command-unreadable", read.message());
        }
        launchText = read.value();
    }
    // The page's rule: no B300 flags on these hosts. A generator-only entry says so at once; the AMD
    // profile once its image is settled (it names one the operator confirms).
    const bool needsGenerator = listed->generatorOnly() || listed->vendor == probe::GpuVendor::Amd;
    if (launchText.trimmed().isEmpty() && listed->generatorOnly()) {
        return refuse("generator-command-needed", ImportedLaunch::generatorAdvice(listed->title));
    }
    std::optional<ImportedLaunch> imported;
    RecipeProfile base = *listed;
    if (!launchText.trimmed().isEmpty()) {
        const QString revision = pinsFile ? pinsFile->modelRevision
            : p.isSet(revisionOpt)        ? p.value(revisionOpt)
                                          : recipe.modelRevision;
        Result<std::pair<ImportedLaunch, RecipeProfile>> made = ImportedLaunch::forProfile(
            recipe, *listed, launchText, p.value(gpusOpt), port, revision, p.isSet(modelDirOpt));
        if (!made) {
            return refuse("launch-command-refused",
                          p.isSet(profileOpt)
                              ? made.message()
                              : QCoreApplication::translate("Cli",
                                                            "%1 (The profile is %2, the default: for other GPUs "
                                                            "give --profile; 'flashdeck recipes list' has them.)")
                                    .arg(made.message(), listed->title));
        }
        imported = made.value().first;
        base = made.value().second;
        if (!imported->image.isEmpty()) {
            if (p.isSet(imageOpt) && p.value(imageOpt) != imported->image) {
                return refuse(
                    "launch-command-refused",
                    QCoreApplication::translate("Cli", "--image %1 and the command's image %2 differ: give one.")
                        .arg(p.value(imageOpt), imported->image));
            }
            image = imported->image;
        }
    }
    const ProfileChoice choice{image, p.value(gpusOpt), port};
    const Result<RecipeProfile> chosen = choice.apply(recipe, base);
    if (!chosen) {
        return usage(listed->imageConfirm && !p.isSet(imageOpt)
                         ? QCoreApplication::translate(
                               "Cli",
                               "%1 Confirm it with --image %2, or give your own ROCm build of SGLang that "
                               "serves %3.")
                               .arg(chosen.message(), recipe.imageOf(*listed).reference(), recipe.modelRepo)
                         : chosen.message());
    }
    if (launchText.trimmed().isEmpty() && needsGenerator) {
        return refuse("generator-command-needed", ImportedLaunch::generatorAdvice(listed->title));
    }
    const RecipeProfile *profile = &chosen.value();
    const QString dir = Deployment::directory(c.paths, host->name);
    QDir().mkpath(dir);
    // F40: an acknowledgement of the licence summary, exactly as shown (its hash), for this host.
    const auto terms = LicenseTerms::builtIn();
    if (!terms) {
        c.err << terms.message() << '\n';
        return ExitCheckFailed;
    }
    Acknowledgements acks(c.paths.acknowledgementsFile());
    // --accept-license is recorded when the plan reaches the licence step on the host, not before
    // connecting to a host that may not exist or answer (the acknowledgement is for this host).
    std::optional<Acknowledgement> pending;
    if (p.isSet(licenseOpt)) {
        if (!terms.value().use(p.value(licenseOpt)) || !recipe.licenseUses.contains(p.value(licenseOpt))) {
            return usage(QCoreApplication::translate("Cli", "--accept-license takes %1.")
                             .arg(recipe.licenseUses.join(QLatin1Char('|'))));
        }
        pending = Acknowledgements::make(host->name, terms.value(), p.value(licenseOpt), QStringLiteral("cli"));
    }
    const auto acknowledged = acks.find(host->name, terms.value());
    if (!acknowledged) {
        c.err << acknowledged.message() << '\n';
        return ExitCheckFailed;
    }

    Redactor localRedactor;
    Redactor &redactor = c.redactor ? *c.redactor : localRedactor;
    DeployOptions options;
    options.deploymentId = DeploymentId(host->name, profile->id).toString();
    if (const std::optional<Acknowledgement> &a = pending ? pending : acknowledged.value()) {
        options.licenseAcknowledged = a->use;
        options.licenseRecord =
            QCoreApplication::translate("Cli", "%1 at %2, summary sha256 %3").arg(a->user, a->at, a->summarySha256);
    }
    bool number = true;
    options.readyTimeoutMs = p.isSet(timeoutOpt) ? p.value(timeoutOpt).toInt(&number) * 1000 : 0;
    if (!number || options.readyTimeoutMs < 0 || options.readyTimeoutMs > 7 * 24 * 3600 * 1000) {
        return usage(QCoreApplication::translate("Cli", "--ready-timeout takes seconds (0: no limit)."));
    }
    options.stallTimeoutMs = p.value(stallOpt).toInt(&number) * 1000;
    if (!number || options.stallTimeoutMs < 1000 || options.stallTimeoutMs > 24 * 3600 * 1000) {
        return usage(QCoreApplication::translate("Cli", "--stall-timeout takes seconds, from 1 to 86400."));
    }
    options.hicacheGbPerRank = p.value(hicacheOpt).toInt();
    options.operatorFlags = p.value(flagsOpt).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    options.modelDir = p.value(modelDirOpt);
    options.modelSource = p.isSet(sourceOpt)
        ? p.value(sourceOpt)
        : (options.modelDir.isEmpty() ? QStringLiteral("hub") : QStringLiteral("offline"));
    options.verifyChecksums = p.isSet(checksumOpt);
    options.imageDigest = pinsFile ? pinsFile->imageDigest : p.value(digestOpt);
    options.modelRevision = pinsFile ? pinsFile->modelRevision : p.value(revisionOpt);
    options.imported = imported;
    options.gpusChosen = p.isSet(gpusOpt);
    if (imported && !imported->imageDigest.isEmpty() && options.imageDigest.isEmpty()) {
        if (!Pins::isImageDigest(imported->imageDigest)) {
            return refuse("launch-command-refused",
                          QCoreApplication::translate("Cli",
                                                      "The command's image digest %1 is not sha256: and 64 hex "
                                                      "digits.")
                              .arg(imported->imageDigest));
        }
        options.imageDigest = imported->imageDigest;
    }
    if (!QStringList{QStringLiteral("hub"), QStringLiteral("offline"), QStringLiteral("modelscope")}.contains(
            options.modelSource)) {
        return usage(QCoreApplication::translate("Cli", "--model-source takes hub, offline or modelscope."));
    }
    if ((options.modelSource == QLatin1String("hub")) != options.modelDir.isEmpty()) {
        return usage(
            options.modelDir.isEmpty()
                ? QCoreApplication::translate("Cli", "--model-source %1 needs --model-dir, the folder on the host.")
                      .arg(options.modelSource)
                : QCoreApplication::translate(
                      "Cli",
                      "--model-dir is a folder on the host: use it with --model-source offline or "
                      "modelscope."));
    }
    if (options.verifyChecksums && options.modelSource == QLatin1String("hub")) {
        return usage(QCoreApplication::translate(
            "Cli", "--verify-checksums checks a folder on the host: use it with --model-dir."));
    }
    if (profile->operatorFlagsRequired && options.operatorFlags.isEmpty() && !imported) {
        return usage(
            QCoreApplication::translate("Cli", "%1 needs --operator-flags: %2").arg(profile->title, profile->note));
    }
    if (!json && p.isSet(resumeOpt)) {
        c.out << QCoreApplication::translate(
            "Cli", "Resuming: each step checks what is already there; nothing is pulled or started twice.\n");
    }

    if (imported) {
        // Before anything is pulled: what will run, and what Flashdeck sets on it and why.
        if (json) {
            c.out << QString::fromStdString(previewJson(*imported).dump()) << '\n';
        } else {
            c.out << imported->preview().join(QLatin1Char('\n')) << '\n';
        }
        c.out.flush();
    }
    SecretStore secrets;
    DeploySession session(dir, host->name, recipe, *profile, options, secrets, redactor);
    // Ctrl+C (or SIGTERM) cancels cleanly: the runner stops what is in flight and reports what is
    // left on the host. A second one stops at once.
    StopSignals stopSignals;
    QObject::connect(&stopSignals, &StopSignals::stopRequested, &stopSignals, [&](int) {
        if (!session.runner() || stopSignals.count() > 1) {
            c.out.flush();
            c.err << "flashdeck deploy: "
                  << QCoreApplication::translate("Cli", "stopped without waiting; run it again with --resume.\n");
            c.err.flush();
            ::_exit(130);
        }
        if (!json) {
            c.err << QCoreApplication::translate("Cli",
                                                 "Cancelling: stopping what runs and checking what is left on the host "
                                                 "(Ctrl+C again to quit at once)…\n");
            c.err.flush();
        }
        session.cancel();
    });
    QObject::connect(&session, &DeploySession::notice, &session, [&c](const QString &text) {
        c.err << text << '\n';
        c.err.flush();
    });
    QObject::connect(&session, &DeploySession::stepChanged, &session, [&](const StepRecord &r) {
        if (pending && r.step == QLatin1String("license") && r.status == StepStatus::Pass) {
            const Acknowledgement ack = *std::exchange(pending, std::nullopt);
            if (Status s = acks.record(ack); !s) {
                c.err << s.message() << '\n';
            } else if (!json) {
                c.err << QCoreApplication::translate("Cli",
                                                     "Recorded: %1 acknowledges the %2 for %3 use on %4 (summary %5…; "
                                                     "'flashdeck license' shows it).\n")
                             .arg(ack.user, terms.value().name(), ack.use, host->name, ack.summarySha256.left(12));
            }
        }
    });
    QObject::connect(&session, &DeploySession::stepChanged, &session,
                     [&c, json](const StepRecord &r) { printStep(c, r, json); });
    QObject::connect(&session, &DeploySession::progress, &session,
                     [&c, json](const StepProgress &step) { printProgress(c, step, json); });
    return runOnHost(*host, c, [&](ssh::HostConnection &connection, std::function<void(int)> done) {
        QObject::connect(&session, &DeploySession::finished, &connection, [&c, &dir, json, done](bool ok) {
            if (!json) {
                c.out << (ok ? QCoreApplication::translate("Cli", "Deployed. Journal and manifest: %1\n")
                             : QCoreApplication::translate("Cli", "Stopped at the failed step. Journal: %1\n"))
                             .arg(dir);
            }
            done(ok ? ExitOk : ExitCheckFailed);
        });
        session.start(connection);
    });
}

} // namespace flashdeck::cli
