#include "backend/cli/unexposecommand.h"

#include "backend/cli/clisession.h"
#include "backend/cli/exitcodes.h"
#include "backend/core/apppaths.h"
#include "backend/expose/gatewayoperation.h"
#include "backend/fleet/hostsession.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <memory>

namespace flashdeck::cli {

namespace {

void reportUnexposed(CliContext &c, bool json, const QString &host, const QStringList &removed)
{
    if (json) {
        nlohmann::json names = nlohmann::json::array();
        for (const QString &n : removed) {
            names.push_back(n.toStdString());
        }
        c.out << QString::fromStdString(
                     nlohmann::json{{"host", host.toStdString()}, {"removed", names}, {"ok", true}}.dump())
              << '\n';
    } else if (removed.isEmpty()) {
        c.out << QCoreApplication::translate("Cli", "%1 was not exposed: no gateway there.\n").arg(host);
    } else {
        c.out << QCoreApplication::translate("Cli",
                                             "Stopped and removed the gateway %1 and its folder (certificate and "
                                             "key); the server was not touched.\n")
                     .arg(removed.join(QStringLiteral(", ")));
    }
    c.out.flush();
}

/** Why unexpose failed: on stderr, and with --json as one object like expose's ({"host","ok":false,"error"}). */
void sayUnexposeFailure(CliContext &c, bool json, const QString &host, const QString &why)
{
    if (json) {
        c.out << QString::fromStdString(
                     nlohmann::json{{"host", host.toStdString()}, {"ok", false}, {"error", why.toStdString()}}.dump())
              << '\n';
        c.out.flush();
    }
    c.err << why << '\n';
}

void removeGateway(fleet::HostSession &session, CliContext &c, const QString &host, bool json, bool &answered,
                   expose::GatewayOperation::Claim claim, const std::function<void(int)> &done)
{
    auto *operation = new expose::GatewayOperation(c.paths, session, &session);
    QObject::connect(
        operation, &expose::GatewayOperation::unexposed, operation,
        [&c, &answered, operation, host, json, done](const Result<QStringList> &removed, const QString &recordProblem) {
            operation->deleteLater();
            answered = true;
            if (!removed) {
                sayUnexposeFailure(c, json, host, removed.message());
                done(ExitCheckFailed);
                return;
            }
            if (!recordProblem.isEmpty()) {
                // The gateway is gone, but status and the window would still read it as open.
                sayUnexposeFailure(c, json, host,
                                   QCoreApplication::translate(
                                       "Cli", "The gateway on %1 was removed, but its record here could not be: %2")
                                       .arg(host, recordProblem));
                done(ExitCheckFailed);
                return;
            }
            reportUnexposed(c, json, host, removed.value());
            done(ExitOk);
        });
    if (const Status s = operation->unexpose(std::move(claim)); !s) {
        operation->deleteLater();
        answered = true;
        sayUnexposeFailure(c, json, host, s.message());
        done(ExitCheckFailed);
    }
}

} // namespace

int runUnexposeCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption json(QStringLiteral("json"), QCoreApplication::translate("Cli", "Print JSON."));
    p.addOption(json);
    if (!p.parse(args) || p.positionalArguments().size() != 2) {
        c.err << "flashdeck unexpose: "
              << (p.errorText().isEmpty() ? QCoreApplication::translate("Cli", "needs HOST.") : p.errorText())
              << "\nUsage: flashdeck unexpose HOST [--json]\n";
        return ExitUsage;
    }
    int notFound = ExitOk;
    const std::optional<fleet::HostEntry> host = findHost(c, p.positionalArguments().at(1), &notFound);
    if (!host) {
        return notFound;
    }
    const bool asJson = p.isSet(json);
    Result<expose::GatewayOperation::Claim> held = expose::GatewayOperation::claim(c.paths, host->name);
    if (!held) {
        sayUnexposeFailure(c, asJson, host->name, held.message());
        return ExitCheckFailed;
    }
    auto claim = std::make_shared<expose::GatewayOperation::Claim>(std::move(held).value());
    bool answered = false;
    const int code = runOnHost(
        *host, c, [&c, &host, asJson, &answered, claim](fleet::HostSession &session, std::function<void(int)> done) {
            removeGateway(session, c, host->name, asJson, answered, std::move(*claim), done);
        });
    if (asJson && !answered && code != ExitOk) {
        // The host was not reached: the words are on stderr already; the object says so too.
        c.out << QString::fromStdString(nlohmann::json{
                     {"host", host->name.toStdString()},
                     {"ok", false},
                     {"error",
                      QCoreApplication::translate("Cli", "Could not reach %1 (exit code %2).")
                          .arg(host->name)
                          .arg(code)
                          .toStdString()}}.dump())
              << '\n';
    }
    return code;
}

} // namespace flashdeck::cli
