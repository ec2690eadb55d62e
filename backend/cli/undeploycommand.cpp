#include "backend/cli/undeploycommand.h"

#include "backend/cli/clisession.h"
#include "backend/cli/exitcodes.h"
#include "backend/core/apppaths.h"
#include "backend/core/jsonread.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/dockerendpoint.h"
#include "backend/docker/ourcontainers.h"
#include "backend/expose/gatewayrecord.h"
#include "backend/fleet/hostsession.h"
#include "backend/fleet/inventory.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/recipe.h"
#include "backend/security/secretstore.h"
#include "backend/ssh/transport.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <memory>

namespace flashdeck::cli {

namespace {

struct Undeploy
{
    std::unique_ptr<docker::DockerClient> docker;
    QStringList todo; // container ids
    QStringList removed; // names
    QString error;
};

void removeNext(const std::shared_ptr<Undeploy> &u, const std::function<void()> &finished)
{
    if (u->todo.isEmpty()) {
        finished();
        return;
    }
    const QString id = u->todo.takeFirst();
    // stop (SIGTERM, 30 s grace: SGLang frees the GPUs), then remove.
    u->docker->call("POST", QStringLiteral("/containers/%1/stop?t=30").arg(id), {},
                    [u, id, finished](const docker::DockerResponse &stopped) {
                        if (!stopped.ok() && stopped.status != 304 && stopped.status != 404) {
                            u->error = stopped.message();
                        }
                        u->docker->call("DELETE", QStringLiteral("/containers/%1?force=1").arg(id), {},
                                        [u, id, finished](const docker::DockerResponse &gone) {
                                            if (!gone.ok() && gone.status != 404) {
                                                u->error = gone.message();
                                            }
                                            removeNext(u, finished);
                                        });
                    });
}

/** What was removed, as words or one JSON object; the record says undeployed unless a removal failed. */
void report(CliContext &c, bool json, const QString &host, const Undeploy &u)
{
    // Every window and command reading the manifest says it is undeployed (the Deploy page no
    // longer shows the last run's green steps).
    if (u.error.isEmpty()) {
        if (const Status s = recipe::Deployment::recordUndeployed(c.paths, host, QDateTime::currentDateTimeUtc()); !s) {
            c.err << s.message() << '\n';
        }
    }
    if (json) {
        nlohmann::json names = nlohmann::json::array();
        for (const QString &n : u.removed) {
            names.push_back(n.toStdString());
        }
        c.out << QString::fromStdString(
                     nlohmann::json{{"host", host.toStdString()}, {"removed", names}, {"ok", u.error.isEmpty()}}.dump())
              << '\n';
    } else if (u.removed.isEmpty()) {
        c.out << QCoreApplication::translate("Cli", "No Flashdeck container on %1.\n").arg(host);
    } else {
        c.out << QCoreApplication::translate("Cli", "Stopped and removed: %1\n")
                     .arg(u.removed.join(QStringLiteral(", ")));
    }
    if (!u.error.isEmpty()) {
        c.err << u.error << '\n';
    }
}

/** The keys of servers that no longer exist are worth nothing: forget them, then `done`. */
void forgetKeys(CliContext &c, security::SecretStore &secrets, const QStringList &ids,
                const std::function<void(int)> &done)
{
    if (ids.isEmpty()) {
        done(ExitOk);
        return;
    }
    auto pending = std::make_shared<qsizetype>(ids.size());
    for (const QString &id : ids) {
        secrets.remove(security::SecretStore::apiKeyKey(id), [&c, pending, done](const Status &s) {
            if (!s) {
                c.err << s.message() << '\n';
            }
            if (--*pending == 0) {
                done(ExitOk);
            }
        });
    }
}

/** Lists Flashdeck's containers of deployments `ids` into `u`; false (said) when Docker refused. */
bool takeOurs(CliContext &c, const docker::DockerResponse &list, const QStringList &ids, Undeploy &u)
{
    if (!list.ok()) {
        c.err << list.message() << '\n';
        return false;
    }
    for (const docker::OurContainer &ct : docker::OurContainers::of(docker::OurContainers::parse(list.json()), ids)) {
        u.todo.append(ct.id);
        u.removed.append(ct.name.isEmpty() ? QStringLiteral("?") : ct.name);
    }
    return true;
}

} // namespace

int runUndeployCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption json(QStringLiteral("json"), QCoreApplication::translate("Cli", "Print JSON."));
    p.addOption(json);
    if (!p.parse(args) || p.positionalArguments().size() != 2) {
        c.err << "flashdeck undeploy: "
              << (p.errorText().isEmpty() ? QCoreApplication::translate("Cli", "needs HOST.") : p.errorText())
              << "\nUsage: flashdeck undeploy HOST [--json]\n";
        return ExitUsage;
    }
    int notFound = ExitOk;
    const std::optional<fleet::HostEntry> host = findHost(c, p.positionalArguments().at(1), &notFound);
    if (!host) {
        return notFound;
    }
    // An exposed server's gateway would pass requests on to whatever listens on its port next.
    if (const auto gateway = expose::GatewayRecord::read(c.paths, host->name); gateway && gateway.value()) {
        c.err << QCoreApplication::translate("Cli",
                                             "%1 is open to the team at %2: run 'flashdeck unexpose %1' first, so "
                                             "its gateway does not pass requests to whatever listens on port %3 "
                                             "next.")
                     .arg(host->name, gateway.value()->url())
                     .arg(gateway.value()->upstreamPort)
              << '\n';
        return ExitCheckFailed;
    }
    const QStringList ids = recipe::Recipe::deploymentIds(host->name);
    const bool asJson = p.isSet(json);
    auto u = std::make_shared<Undeploy>();
    security::SecretStore secrets;
    return runOnHost(*host, c, [&, u](fleet::HostSession &session, std::function<void(int)> done) {
        ssh::Transport &connection = session.connection();
        docker::DockerEndpoint &endpoint = docker::DockerEndpoint::of(connection);
        u->docker = std::make_unique<docker::DockerClient>(endpoint);
        const auto removeOurs = [&, u, done](const docker::DockerResponse &list) {
            if (!takeOurs(c, list, ids, *u)) {
                done(ExitCheckFailed);
                return;
            }
            removeNext(u, [&, u, done] {
                report(c, asJson, host->name, *u);
                if (!u->error.isEmpty()) {
                    done(ExitCheckFailed);
                    return;
                }
                forgetKeys(c, secrets, ids, done);
            });
        };
        endpoint.whenOpen(
            &connection,
            [u, removeOurs] {
                const QString filter = docker::OurContainers::filter();
                u->docker->call("GET",
                                QStringLiteral("/containers/json?all=1&filters=") + docker::DockerClient::q(filter), {},
                                removeOurs);
            },
            [&c, done](const QString &message) {
                c.err << message << '\n';
                done(ExitCheckFailed);
            });
    });
}

} // namespace flashdeck::cli
