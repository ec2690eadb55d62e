#include "backend/cli/prunecommand.h"

#include "backend/cli/clisession.h"
#include "backend/cli/exitcodes.h"
#include "backend/core/apppaths.h"
#include "backend/core/format.h"
#include "backend/core/jsonread.h"
#include "backend/deploy/pulledimages.h"
#include "backend/deploy/upgradeplan.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/dockerendpoint.h"
#include "backend/docker/imageref.h"
#include "backend/expose/gatewayimage.h"
#include "backend/expose/gatewayrecord.h"
#include "backend/fleet/hostsession.h"
#include "backend/recipe/deployment.h"
#include "backend/ssh/transport.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QSet>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <limits>
#include <memory>

namespace flashdeck::cli {

namespace {

struct Prune
{
    std::unique_ptr<docker::DockerClient> docker;
    QList<deploy::PulledImages::Image> todo;
    QSet<QString> usedIds; // image ids some container (any state) was created from
    QSet<QString> pinned; // name@digest the deployment or an unfinished upgrade needs
    QSet<QString> planned; // those of them an unfinished upgrade needs
    QSet<QString> gateway; // those of them the host's gateway (flashdeck expose) runs
    QString unrecorded; // Flashdeck's gateway image, looked for though no pull of it was recorded
    bool dryRun = false;
    nlohmann::json removed = nlohmann::json::array();
    nlohmann::json kept = nlohmann::json::array();
    qint64 freed = 0;
    bool failed = false;
};

void pruneNext(const std::shared_ptr<Prune> &u, deploy::PulledImages &record, const std::function<void()> &finished)
{
    if (u->todo.isEmpty()) {
        finished();
        return;
    }
    const deploy::PulledImages::Image image = u->todo.takeFirst();
    const auto keep = [u](const QString &ref, const QString &why) {
        u->kept.push_back({{"image", ref.toStdString()}, {"reason", why.toStdString()}});
    };
    u->docker->call(
        "GET", QStringLiteral("/images/%1/json").arg(image.reference), {},
        [u, image, keep, &record, finished](const docker::DockerResponse &inspect) {
            if (image.reference == u->unrecorded && !inspect.ok()) { // not on the host: nothing to say
                pruneNext(u, record, finished);
                return;
            }
            if (inspect.status == 404) { // removed by someone else: nothing to free, nothing to remember
                (void)record.forget(image.reference);
                keep(image.reference, QCoreApplication::translate("Cli", "no longer on the host"));
                pruneNext(u, record, finished);
                return;
            }
            if (!inspect.ok()) {
                u->failed = true;
                keep(image.reference, inspect.message());
                pruneNext(u, record, finished);
                return;
            }
            const QString id = QString::fromStdString(jsonread::string(inspect.json(), "Id"));
            const qint64 bytes =
                jsonread::integer(inspect.json(), "Size", 0, std::numeric_limits<qint64>::max()).value_or(image.bytes);
            if (u->pinned.contains(image.reference)) {
                keep(image.reference,
                     u->planned.contains(image.reference)
                         ? QCoreApplication::translate("Cli", "an unfinished upgrade needs it (its rollback)")
                         : u->gateway.contains(image.reference)
                         ? QCoreApplication::translate("Cli", "Flashdeck's gateway (flashdeck expose) runs it")
                         : QCoreApplication::translate("Cli", "the deployment runs it"));
                pruneNext(u, record, finished);
                return;
            }
            if (u->usedIds.contains(id)) {
                keep(image.reference, QCoreApplication::translate("Cli", "a container uses it"));
                pruneNext(u, record, finished);
                return;
            }
            if (u->dryRun) {
                u->removed.push_back({{"image", image.reference.toStdString()}, {"bytes", bytes}});
                u->freed += bytes;
                pruneNext(u, record, finished);
                return;
            }
            u->docker->call("DELETE", QStringLiteral("/images/%1").arg(image.reference), {},
                            [u, image, bytes, keep, &record, finished](const docker::DockerResponse &gone) {
                                if (!gone.ok()) {
                                    u->failed = gone.status != 409; // in use: dockerd's own reason is enough
                                    keep(image.reference, QStringLiteral("dockerd: ") + gone.message());
                                } else {
                                    // Only a "Deleted" entry frees space; an "Untagged" alone means
                                    // another name still holds the image.
                                    bool deleted = false;
                                    for (const nlohmann::json &e :
                                         gone.json().is_array() ? gone.json() : nlohmann::json::array()) {
                                        deleted = deleted || e.contains("Deleted");
                                    }
                                    u->removed.push_back(
                                        {{"image", image.reference.toStdString()}, {"bytes", deleted ? bytes : 0}});
                                    u->freed += deleted ? bytes : 0;
                                    (void)record.forget(image.reference);
                                }
                                pruneNext(u, record, finished);
                            });
        });
}

/**
 * What must stay whatever the containers say: the recorded deployment's image, and both ends of
 * an unfinished upgrade (its rollback needs the old one).
 */
void pinWhatMustStay(const AppPaths &paths, const QString &host, const QString &dir, Prune &u)
{
    const auto pin = [&u](const QString &image, const QString &digest, bool planned) {
        if (const Result<docker::ImageRef> ref = docker::ImageRef::parse(image); ref && !digest.isEmpty()) {
            u.pinned.insert(ref.value().name + QLatin1Char('@') + digest);
            if (planned) {
                u.planned.insert(ref.value().name + QLatin1Char('@') + digest);
            }
        }
    };
    // An undeployed deployment runs nothing: its image is free to go (a container still using it
    // keeps it anyway, below).
    if (const Result<recipe::Deployment> d = recipe::Deployment::read(paths, host); d && !d.value().isUndeployed()) {
        pin(d.value().image, d.value().imageDigest, false);
    }
    if (const auto plan = deploy::UpgradePlan::read(deploy::UpgradePlan::fileOf(dir)); plan && plan.value()) {
        pin(plan.value()->from.image, plan.value()->from.imageDigest, true);
        pin(plan.value()->to.image, plan.value()->to.imageDigest, true);
    }
    // The gateway's image while it is exposed; a record that cannot be read may name a running
    // gateway too: its image stays then as well.
    const auto gateway = expose::GatewayRecord::read(paths, host);
    if (!gateway || gateway.value()) {
        const QString image =
            gateway && !gateway.value()->image.isEmpty() ? gateway.value()->image : expose::GatewayImage::pinned();
        u.pinned.insert(image);
        u.gateway.insert(image);
    }
}

/**
 * Flashdeck's gateway image is Flashdeck's whoever pulled it (expose pulls it by the digest
 * Flashdeck pins): looked at too, kept while a gateway runs it, else removed like the others.
 */
void addGatewayImage(Prune &u)
{
    const QString pinned = expose::GatewayImage::pinned();
    for (const deploy::PulledImages::Image &i : u.todo) {
        if (i.reference == pinned) {
            return;
        }
    }
    u.todo.append({pinned, 0, {}});
    u.unrecorded = pinned;
}

/** What went (or would), what was kept and why, and the space freed: as words or one JSON object. */
void printPrune(CliContext &c, bool asJson, const QString &host, const Prune &u)
{
    if (asJson) {
        c.out << QString::fromStdString(nlohmann::json{
                     {"host", host.toStdString()},
                     {"dry_run", u.dryRun},
                     {"removed", u.removed},
                     {"kept", u.kept},
                     {"freed_bytes",
                      u.freed}}.dump())
              << '\n';
        return;
    }
    for (const nlohmann::json &r : u.removed) {
        c.out << (u.dryRun ? QCoreApplication::translate("Cli", "would remove %1 (%2)\n")
                           : QCoreApplication::translate("Cli", "removed %1 (%2)\n"))
                     .arg(QString::fromStdString(r["image"].get<std::string>()),
                          fmt::gbExact(r["bytes"].get<qint64>()));
    }
    for (const nlohmann::json &k : u.kept) {
        c.out << QCoreApplication::translate("Cli", "kept %1: %2\n")
                     .arg(QString::fromStdString(k["image"].get<std::string>()),
                          QString::fromStdString(k["reason"].get<std::string>()));
    }
    if (u.removed.empty() && u.kept.empty()) {
        c.out << QCoreApplication::translate(
                     "Cli",
                     "Flashdeck pulled no image on %1 that it could remove (it removes only images it pulled).\n")
                     .arg(host);
    }
    c.out << (u.dryRun ? QCoreApplication::translate("Cli", "Would free %1 on %2.\n")
                       : QCoreApplication::translate("Cli", "Freed %1 on %2.\n"))
                 .arg(fmt::gbExact(u.freed), host);
}

} // namespace

int runPruneCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QCoreApplication::translate("Cli", "Print JSON."));
    const QCommandLineOption dryRunOpt(QStringLiteral("dry-run"),
                                       QCoreApplication::translate("Cli", "Say what would go; remove nothing."));
    p.addOptions({jsonOpt, dryRunOpt});
    if (!p.parse(args) || p.positionalArguments().size() != 2) {
        c.err << "flashdeck prune: "
              << (p.errorText().isEmpty() ? QCoreApplication::translate("Cli", "needs HOST.") : p.errorText())
              << "\nUsage: flashdeck prune HOST [--dry-run] [--json]\n";
        return ExitUsage;
    }
    int notFound = ExitOk;
    const std::optional<fleet::HostEntry> host = findHost(c, p.positionalArguments().at(1), &notFound);
    if (!host) {
        return notFound;
    }
    const QString dir = recipe::Deployment::directory(c.paths, host->name);
    deploy::PulledImages record(deploy::PulledImages::fileOf(dir));
    const Result<QList<deploy::PulledImages::Image>> pulled = record.read();
    if (!pulled) {
        c.err << pulled.message() << '\n';
        return ExitCheckFailed;
    }
    auto u = std::make_shared<Prune>();
    u->todo = pulled.value();
    u->dryRun = p.isSet(dryRunOpt);
    pinWhatMustStay(c.paths, host->name, dir, *u);
    addGatewayImage(*u);
    const bool asJson = p.isSet(jsonOpt);
    const auto report = [&c, &host, u, asJson] { printPrune(c, asJson, host->name, *u); };
    if (u->todo.isEmpty()) {
        report();
        return ExitOk;
    }
    return runOnHost(*host, c, [&, u](fleet::HostSession &session, std::function<void(int)> done) {
        ssh::Transport &connection = session.connection();
        docker::DockerEndpoint &endpoint = docker::DockerEndpoint::of(connection);
        u->docker = std::make_unique<docker::DockerClient>(endpoint);
        endpoint.whenOpen(
            &connection,
            [&, u, done] {
                u->docker->call("GET", QStringLiteral("/containers/json?all=1"), {},
                                [&, u, done](const docker::DockerResponse &list) {
                                    if (!list.ok() || !list.json().is_array()) {
                                        c.err << list.message() << '\n';
                                        done(ExitCheckFailed);
                                        return;
                                    }
                                    for (const nlohmann::json &ct : list.json()) {
                                        u->usedIds.insert(QString::fromStdString(jsonread::string(ct, "ImageID")));
                                    }
                                    pruneNext(u, record, [&, u, done] {
                                        report();
                                        done(u->failed ? ExitCheckFailed : ExitOk);
                                    });
                                });
            },
            [&c, done](const QString &message) {
                c.err << message << '\n';
                done(ExitCheckFailed);
            });
    });
}

} // namespace flashdeck::cli
