#include "backend/cli/unexposecommand.h"

#include "backend/cli/clisession.h"
#include "backend/cli/exitcodes.h"
#include "backend/cli/hostlock.h"
#include "backend/core/apppaths.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/dockerendpoint.h"
#include "backend/expose/gatewayrecord.h"
#include "backend/expose/gatewayremoval.h"
#include "backend/fleet/hostsession.h"
#include "backend/ssh/transport.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <memory>

namespace flashdeck::cli {

namespace {

void report(CliContext &c, bool json, const QString &host, const QStringList &removed)
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
void sayFailure(CliContext &c, bool json, const QString &host, const QString &why)
{
    if (json) {
        c.out << QString::fromStdString(
                     nlohmann::json{{"host", host.toStdString()}, {"ok", false}, {"error", why.toStdString()}}.dump())
              << '\n';
        c.out.flush();
    }
    c.err << why << '\n';
}

void removeGateway(HostSession &session, CliContext &c, const QString &host, bool json, bool &answered,
                   const std::function<void(int)> &done)
{
    ssh::Transport &connection = session.connection();
    docker::DockerEndpoint &endpoint = docker::DockerEndpoint::of(connection);
    endpoint.whenOpen(
        &connection,
        [&c, &connection, &endpoint, &answered, host, json, done] {
            auto client = std::make_shared<docker::DockerClient>(endpoint);
            auto *removal = new expose::GatewayRemoval(connection, *client, &connection);
            removal->start([&c, &answered, removal, client, host, json, done](const Result<QStringList> &removed) {
                removal->deleteLater();
                answered = true;
                if (!removed) {
                    sayFailure(c, json, host, removed.message());
                    done(ExitCheckFailed);
                    return;
                }
                if (const Status s = expose::GatewayRecord::remove(c.paths, host); !s) {
                    c.err << s.message() << '\n';
                }
                report(c, json, host, removed.value());
                done(ExitOk);
            });
        },
        [&c, &answered, host, json, done](const QString &message) {
            answered = true;
            sayFailure(c, json, host, message);
            done(ExitCheckFailed);
        });
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
    const std::optional<HostEntry> host = findHost(c, p.positionalArguments().at(1), &notFound);
    if (!host) {
        return notFound;
    }
    const bool asJson = p.isSet(json);
    const Result<std::unique_ptr<HeldLock>> held = claimHost(c.paths, host->name);
    if (!held) {
        sayFailure(c, asJson, host->name, held.message());
        return ExitCheckFailed;
    }
    bool answered = false;
    const int code =
        runOnHost(*host, c, [&c, &host, asJson, &answered](HostSession &session, std::function<void(int)> done) {
            removeGateway(session, c, host->name, asJson, answered, done);
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
