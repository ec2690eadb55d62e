#include "backend/cli/pinscommand.h"

#include "backend/cli/exitcodes.h"
#include "backend/expose/gatewaymanifest.h"
#include "backend/expose/gatewayrecord.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/pins.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <nlohmann/json.hpp>

namespace flashdeck::cli {

QString pinOptionsProblem(const QString &imageDigest, const QString &modelRevision)
{
    if (!imageDigest.isEmpty() && !recipe::Pins::isImageDigest(imageDigest)) {
        return QCoreApplication::translate(
                   "Cli",
                   "--image-digest takes sha256: and 64 hex digits, not \"%1\" ('flashdeck pins HOST' "
                   "prints a host's).")
            .arg(imageDigest);
    }
    if (!modelRevision.isEmpty() && !recipe::Pins::isModelRevision(modelRevision)) {
        return QCoreApplication::translate(
                   "Cli",
                   "--model-revision takes a full commit id (40 hex digits), not \"%1\" ('flashdeck pins "
                   "HOST' prints a host's).")
            .arg(modelRevision);
    }
    return {};
}

int runPinsCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QCoreApplication::translate("Cli", "Print JSON."));
    const QCommandLineOption outputOpt(QStringLiteral("output"),
                                       QCoreApplication::translate("Cli", "pins lock: write the pins to FILE."),
                                       QStringLiteral("FILE"));
    p.addOptions({jsonOpt, outputOpt});
    const QString usage = QStringLiteral("Usage: flashdeck pins HOST [--json]\n"
                                         "       flashdeck pins lock HOST --output FILE\n");
    const QStringList pos = p.parse(args) ? p.positionalArguments() : QStringList();
    const bool lock = pos.size() == 3 && pos.at(1) == QLatin1String("lock");
    if (!(pos.size() == 2 || lock) || (lock && !p.isSet(outputOpt)) || (!lock && p.isSet(outputOpt))) {
        c.err << "flashdeck pins: "
              << (!p.errorText().isEmpty() ? p.errorText()
                      : lock               ? QCoreApplication::translate("Cli", "pins lock needs --output FILE.")
                                           : QCoreApplication::translate("Cli", "needs HOST."))
              << '\n'
              << usage;
        return ExitUsage;
    }
    const QString host = pos.last();
    const Result<recipe::Deployment> deployment = recipe::Deployment::read(c.paths, host);
    if (!deployment) {
        c.err << deployment.message() << '\n';
        return ExitCheckFailed;
    }
    const Result<recipe::Pins> pins = recipe::Pins::of(deployment.value());
    if (!pins) {
        c.err << pins.message() << '\n';
        return ExitCheckFailed;
    }
    if (lock) {
        if (const Status s = pins.value().writeTo(p.value(outputOpt)); !s) {
            c.err << QCoreApplication::translate("Cli", "Cannot write %1: %2.\n").arg(p.value(outputOpt), s.message());
            return ExitCheckFailed;
        }
        c.out << QCoreApplication::translate("Cli", "Pins of %1 written to %2.\n").arg(host, p.value(outputOpt));
        return ExitOk;
    }
    // The gateway `expose` placed, beside the server's pins: null when none, {"error"} when unreadable.
    const auto gateway = expose::GatewayRecord::read(c.paths, host);
    if (p.isSet(jsonOpt)) {
        nlohmann::json j = pins.value().toJson();
        j["gateway"] = !gateway           ? nlohmann::json{{"error", gateway.message().toStdString()}}
            : gateway.value().has_value() ? expose::GatewayManifest::toJson(*gateway.value())
                                          : nlohmann::json();
        c.out << QString::fromStdString(j.dump()) << '\n';
        return ExitOk;
    }
    const recipe::Pins &v = pins.value();
    c.out << "host            " << v.host << '\n'
          << "profile         " << v.profile << '\n'
          << "image           " << v.image << '\n'
          << "image digest    " << v.imageDigest << '\n'
          << "model revision  " << v.modelRevision << '\n'
          << "launch sha256   " << (v.launchSha256.isEmpty() ? QStringLiteral("–") : v.launchSha256) << '\n'
          << "deployed at     " << (v.deployedAt.isEmpty() ? QStringLiteral("–") : v.deployedAt) << '\n';
    if (!gateway) {
        c.out << "gateway         " << gateway.message() << '\n';
    } else if (gateway.value()) {
        const expose::GatewayRecord &g = *gateway.value();
        c.out << "gateway image   " << expose::GatewayManifest::image(g) << '\n'
              << "gateway         " << g.url() << " -> 127.0.0.1:" << g.upstreamPort << ", "
              << expose::GatewayManifest::tlsMode(g) << ", allow " << g.allow.join(QStringLiteral(" ")) << '\n';
    }
    if (!v.launchCommand.isEmpty()) {
        c.out << QCoreApplication::translate("Cli", "launch command  SGLang's configuration generator's, as given:\n")
              << v.launchCommand << '\n';
    }
    return ExitOk;
}

} // namespace flashdeck::cli
