#include "backend/cli/upgradecommand.h"

#include "backend/cli/clisession.h"
#include "backend/cli/exitcodes.h"
#include "backend/cli/pinscommand.h"
#include "backend/cli/stepprinter.h"
#include "backend/core/apppaths.h"
#include "backend/core/stopsignals.h"
#include "backend/deploy/upgradesession.h"
#include "backend/deploy/upgradesetup.h"
#include "backend/expose/gatewaymanifest.h"
#include "backend/expose/gatewayrecord.h"
#include "backend/fleet/hostsession.h"
#include "backend/fleet/inventory.h"
#include "backend/fleet/rollingupgrade.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/licenseterms.h"
#include "backend/recipe/pins.h"
#include "backend/security/redactor.h"
#include "backend/security/secretstore.h"
#include "backend/ssh/hostconnection.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <unistd.h>

namespace flashdeck::cli {

namespace {

const QString kUpgradeUsage = QStringLiteral(
    "Usage: flashdeck upgrade HOST [HOST…] (--image-digest sha256:… | --model-revision COMMIT | --pins FILE)\n"
    "                         [--json] [--max-unavailable N] [--ready-timeout SECONDS] [--stall-timeout SECONDS]\n"
    "       flashdeck upgrade HOST [HOST…] --resume [--json]");

/** What the human form says when a host's upgrade ends. */
QString outcomeWords(const QString &host, deploy::UpgradeOutcome outcome, const deploy::UpgradePlan &plan)
{
    switch (outcome) {
    case deploy::UpgradeOutcome::Upgraded:
        return QStringLiteral("%1 upgraded to %2.\n").arg(host, deploy::UpgradePlan::shortPins(plan.to));
    case deploy::UpgradeOutcome::RolledBack:
        return QCoreApplication::translate(
                   "Cli", "%1: the upgrade failed at %2 (%3); the host is back on its old pins %4, verified again.\n")
            .arg(host, plan.failedStep, plan.failedSeen, deploy::UpgradePlan::shortPins(plan.from));
    case deploy::UpgradeOutcome::RollbackFailed:
        return QCoreApplication::translate(
                   "Cli",
                   "%1: the upgrade failed at %2 and the rollback to %3 failed too (above). The host needs "
                   "you: fix what the failed step says, then 'flashdeck upgrade %1 --resume' retries the "
                   "rollback.\n")
            .arg(host, plan.failedStep, deploy::UpgradePlan::shortPins(plan.from));
    case deploy::UpgradeOutcome::Stopped:
        break;
    }
    return QCoreApplication::translate("Cli", "%1: stopped; 'flashdeck upgrade %1 --resume' continues the %2.\n")
        .arg(host, deploy::upgradePhaseName(plan.phase));
}

/** upgrade's options, read by one parser. */
struct UpgradeFlags
{
    QCommandLineOption digestOpt, revisionOpt, pinsOpt, jsonOpt, resumeOpt, maxOpt, timeoutOpt, stallOpt;
};

UpgradeFlags upgradeFlags()
{
    const QCommandLineOption digestOpt(QStringLiteral("image-digest"),
                                       QCoreApplication::translate("Cli", "The image digest to move to."),
                                       QStringLiteral("sha256:…"));
    const QCommandLineOption revisionOpt(
        QStringLiteral("model-revision"),
        QCoreApplication::translate("Cli", "The model commit (40 hex digits) to move to."), QStringLiteral("COMMIT"));
    const QCommandLineOption pinsOpt(
        QStringLiteral("pins"),
        QCoreApplication::translate("Cli",
                                    "Move to the digest and commit of a pins file ('flashdeck pins "
                                    "lock' writes one)."),
        QStringLiteral("FILE"));
    const QCommandLineOption jsonOpt(QStringLiteral("json"),
                                     QCoreApplication::translate("Cli", "One JSON object per step transition."));
    const QCommandLineOption resumeOpt(
        QStringLiteral("resume"), QCoreApplication::translate("Cli", "Continue an interrupted upgrade or rollback."));
    const QCommandLineOption maxOpt(QStringLiteral("max-unavailable"),
                                    QCoreApplication::translate("Cli", "How many hosts upgrade at once (default 1)."),
                                    QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption timeoutOpt(
        QStringLiteral("ready-timeout"),
        QCoreApplication::translate("Cli", "At most this many seconds for each server to be ready."),
        QStringLiteral("SECONDS"));
    const QCommandLineOption stallOpt(
        QStringLiteral("stall-timeout"),
        QCoreApplication::translate("Cli",
                                    "Fail the Ready step after this many seconds without progress "
                                    "(default 900)."),
        QStringLiteral("SECONDS"), QStringLiteral("900"));
    return {digestOpt, revisionOpt, pinsOpt, jsonOpt, resumeOpt, maxOpt, timeoutOpt, stallOpt};
}

int upgradeUsageError(CliContext &c, const QString &message)
{
    c.err << "flashdeck upgrade: " << message << '\n' << kUpgradeUsage << '\n';
    return int(ExitUsage);
}

/** What the command line asks for, checked. */
struct UpgradeRequest
{
    QStringList names;
    bool json = false;
    bool resume = false;
    int maxUnavailable = 1;
    int readyTimeoutMs = 0;
    int stallTimeoutMs = 0;
    std::optional<recipe::Pins> pinsFile;
};

/** The exit code where the command stops; none: go on. */
using Stop = std::optional<int>;

Stop readUpgradeRequest(const QCommandLineParser &p, const UpgradeFlags &f, CliContext &c, UpgradeRequest &r)
{
    const bool pinsGiven = p.isSet(f.digestOpt) || p.isSet(f.revisionOpt) || p.isSet(f.pinsOpt);
    if (r.resume == pinsGiven) {
        return upgradeUsageError(
            c,
            r.resume
                ? QCoreApplication::translate("Cli", "--resume continues the recorded upgrade: leave out the pins.")
                : QCoreApplication::translate("Cli",
                                              "say what to move to: --image-digest, --model-revision or --pins."));
    }
    if (p.isSet(f.pinsOpt) && (p.isSet(f.digestOpt) || p.isSet(f.revisionOpt))) {
        return upgradeUsageError(
            c,
            QCoreApplication::translate("Cli",
                                        "--pins gives the digest and the commit: leave out --image-digest and "
                                        "--model-revision."));
    }
    if (const QString problem = pinOptionsProblem(p.value(f.digestOpt), p.value(f.revisionOpt)); !problem.isEmpty()) {
        return upgradeUsageError(c, problem);
    }
    bool number = true;
    r.maxUnavailable = p.value(f.maxOpt).toInt(&number);
    if (!number || r.maxUnavailable < 1) {
        return upgradeUsageError(
            c, QCoreApplication::translate("Cli", "--max-unavailable takes a number of hosts, at least 1."));
    }
    r.readyTimeoutMs = p.isSet(f.timeoutOpt) ? p.value(f.timeoutOpt).toInt(&number) * 1000 : 0;
    if (!number || r.readyTimeoutMs < 0) {
        return upgradeUsageError(c, QCoreApplication::translate("Cli", "--ready-timeout takes seconds (0: no limit)."));
    }
    r.stallTimeoutMs = p.value(f.stallOpt).toInt(&number) * 1000;
    if (!number || r.stallTimeoutMs < 1000 || r.stallTimeoutMs > 24 * 3600 * 1000) {
        return upgradeUsageError(c,
                                 QCoreApplication::translate("Cli", "--stall-timeout takes seconds, from 1 to 86400."));
    }
    if (p.isSet(f.pinsOpt)) {
        Result<recipe::Pins> read = recipe::Pins::readFrom(p.value(f.pinsOpt));
        if (!read) {
            c.err << read.message() << '\n';
            return ExitUsage;
        }
        r.pinsFile = std::move(read).value();
    }
    return std::nullopt;
}

/** The hosts' turns, phases, steps and notices as they come (JSON lines, or words). */
void printAsItGoes(CliContext &c, fleet::RollingUpgrade &rolling, bool json, bool several)
{
    const auto tag = [several, json](const QString &host) { return several || json ? host : QString(); };
    QObject::connect(&rolling, &fleet::RollingUpgrade::hostStarted, &rolling,
                     [&c, json](const QString &host, const deploy::UpgradePlan &plan) {
                         if (!json) {
                             c.out << "== " << host << ": upgrade " << plan.summary() << '\n';
                             c.out.flush();
                         }
                     });
    QObject::connect(
        &rolling, &fleet::RollingUpgrade::phaseChanged, &rolling,
        [&c, json](const QString &host, deploy::UpgradePhase phase, const deploy::UpgradePlan &plan) {
            if (json) {
                c.out << QString::fromStdString(nlohmann::json{
                             {"phase", deploy::upgradePhaseName(phase).toStdString()},
                             {"host",
                              host.toStdString()}}.dump())
                      << '\n';
            } else if (phase == deploy::UpgradePhase::Rollback) {
                c.out << "== "
                      << (plan.failedStep.isEmpty()
                              ? QCoreApplication::translate("Cli", "%1: rolling back to %2 (stopped)\n")
                                    .arg(host, deploy::UpgradePlan::shortPins(plan.from))
                              : QCoreApplication::translate("Cli", "%1: rolling back to %2 (%3 failed)\n")
                                    .arg(host, deploy::UpgradePlan::shortPins(plan.from), plan.failedStep));
            }
            c.out.flush();
        });
    QObject::connect(
        &rolling, &fleet::RollingUpgrade::stepChanged, &rolling,
        [&c, json, tag](const QString &host, const recipe::StepRecord &r) { printStep(c, r, json, tag(host)); });
    QObject::connect(&rolling, &fleet::RollingUpgrade::progress, &rolling,
                     [&c, json, tag](const QString &host, const recipe::StepProgress &pr) {
                         printProgress(c, pr, json, tag(host));
                     });
    QObject::connect(&rolling, &fleet::RollingUpgrade::notice, &rolling, [&c](const QString &, const QString &text) {
        c.err << text << '\n';
        c.err.flush();
    });
}

/**
 * The host's gateway (flashdeck expose) after its upgrade: it runs on beside the new server and
 * proxies to the same loopback port, which an upgrade keeps; said, and checked against the new
 * manifest. Null when the host is not exposed. A port that moved anyway is said with the fix.
 */
nlohmann::json gatewayAfter(CliContext &c, const QString &host, bool json)
{
    const auto gateway = expose::GatewayRecord::read(c.paths, host);
    if (!gateway || !gateway.value()) {
        return gateway ? nlohmann::json() : nlohmann::json{{"error", gateway.message().toStdString()}};
    }
    const expose::GatewayRecord &g = *gateway.value();
    const Result<recipe::Deployment> d = recipe::Deployment::read(c.paths, host);
    const int port = d && d.value().port > 0 ? d.value().port : g.upstreamPort;
    const bool kept = port == g.upstreamPort;
    if (!json) {
        c.out << (kept ? QCoreApplication::translate("Cli",
                                                     "%1: the gateway at %2 is kept and proxies to the server "
                                                     "on 127.0.0.1:%3 ('flashdeck expose %1 --check' proves it).\n")
                             .arg(host, g.url())
                             .arg(port)
                       : QCoreApplication::translate("Cli",
                                                     "%1: the server now listens on 127.0.0.1:%3, the gateway at %2 "
                                                     "still sends to %4: place it again with 'flashdeck unexpose "
                                                     "%1' and then: %5\n")
                             .arg(host, g.url())
                             .arg(port)
                             .arg(g.upstreamPort)
                             .arg(expose::GatewayManifest::exposeCommand(g)));
    }
    return {{"url", g.url().toStdString()}, {"upstream_port", g.upstreamPort}, {"kept", kept}};
}

/** The summary: every host, what it ran, what it was to run, how it went; the exit code. */
int printSummary(CliContext &c, const fleet::RollingUpgrade &rolling, const std::map<QString, int> &sshCodes, bool json)
{
    int code = rolling.allUpgraded() ? int(ExitOk) : int(ExitCheckFailed);
    nlohmann::json summary = nlohmann::json::array();
    QStringList rows;
    for (const fleet::RollingUpgrade::Host &h : rolling.hosts()) {
        const QString result = fleet::RollingUpgrade::resultOf(h);
        summary.push_back({{"host", h.name.toStdString()},
                           {"from", h.setup.plan.from.toJson()},
                           {"to", h.setup.plan.to.toJson()},
                           {"result", result.toStdString()},
                           {"gateway", gatewayAfter(c, h.name, json)}});
        rows.append(QStringLiteral("%1  %2  %3  %4")
                        .arg(h.name.leftJustified(16),
                             deploy::UpgradePlan::shortPins(h.setup.plan.from).leftJustified(34),
                             deploy::UpgradePlan::shortPins(h.setup.plan.to).leftJustified(34), result));
        if (const auto ssh = sshCodes.find(h.name);
            ssh != sshCodes.end() && code == ExitCheckFailed && rolling.hosts().size() == 1) {
            code = ssh->second; // one host that could not be reached: its SSH code
        }
    }
    if (json) {
        c.out << QString::fromStdString(nlohmann::json{{"summary", summary}}.dump()) << '\n';
    } else {
        c.out << '\n'
              << QStringLiteral("%1  %2  %3  %4")
                     .arg(QStringLiteral("HOST").leftJustified(16), QStringLiteral("FROM").leftJustified(34),
                          QStringLiteral("TO").leftJustified(34), QStringLiteral("RESULT"))
              << '\n'
              << rows.join(QLatin1Char('\n')) << '\n';
    }
    c.out.flush();
    return code;
}

/**
 * Every host checked and planned before any starts: a typo in the fifth name must not leave four
 * upgraded and the rest not.
 */
Stop addHosts(CliContext &c, const fleet::Inventory &inventory, const recipe::Recipe &recipe,
              const recipe::LicenseTerms &terms, const UpgradeRequest &r, const deploy::UpgradeTarget &target,
              fleet::RollingUpgrade &rolling)
{
    for (const QString &name : r.names) {
        if (!inventory.find(name)) {
            c.err << QCoreApplication::translate(
                         "Cli", "No host named \"%1\" in the inventory (see 'flashdeck hosts list').\n")
                         .arg(name);
            return ExitUsage;
        }
        Result<deploy::UpgradeSetup> setup = deploy::UpgradeSetup::prepare(c.paths, name, recipe, terms, target);
        if (!setup) {
            c.err << setup.message() << '\n';
            return ExitCheckFailed;
        }
        setup.value().options.readyTimeoutMs = r.readyTimeoutMs;
        setup.value().options.stallTimeoutMs = r.stallTimeoutMs;
        rolling.add(name, recipe::Deployment::directory(c.paths, name), std::move(setup).value());
    }

    return std::nullopt;
}

/** The command line read and checked: the hosts, the pins to move to (or --resume), the pace. */
Stop parseRequest(const QStringList &args, CliContext &c, UpgradeRequest &r, deploy::UpgradeTarget &target)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const UpgradeFlags f = upgradeFlags();
    p.addOptions({f.digestOpt, f.revisionOpt, f.pinsOpt, f.jsonOpt, f.resumeOpt, f.maxOpt, f.timeoutOpt, f.stallOpt});
    if (!p.parse(args)) {
        return upgradeUsageError(c, p.errorText());
    }
    r.names = p.positionalArguments().mid(1);
    if (r.names.isEmpty()) {
        return upgradeUsageError(c, QCoreApplication::translate("Cli", "needs HOST."));
    }
    r.json = p.isSet(f.jsonOpt);
    r.resume = p.isSet(f.resumeOpt);
    if (const Stop stop = readUpgradeRequest(p, f, c, r)) {
        return stop;
    }
    target.resume = r.resume;
    target.pinsFile = r.pinsFile;
    target.imageDigest = p.value(f.digestOpt);
    target.modelRevision = p.value(f.revisionOpt);
    return std::nullopt;
}

/** Each host's session, opened when its turn comes, closed when it ends (or its code). */
struct HostSessions
{
    std::map<QString, std::unique_ptr<fleet::HostSession>> connections;
    std::map<QString, std::function<void(int)>> release;
    std::map<QString, int> sshCodes;
};

/** How the rolling upgrade reaches a host when its turn comes: `sessions` keeps its session. */
fleet::RollingUpgrade::Connect connectOnTurn(CliContext &c, const fleet::Inventory &inventory, HostSessions &sessions)
{
    return [&c, &inventory, &sessions](const QString &name, std::function<void(ssh::Transport &)> ready,
                                       std::function<void(const QString &)> failed) {
        const std::optional<fleet::HostEntry> entry = inventory.find(name);
        sessions.connections[name] = startOnHost(
            *entry, c,
            [&release = sessions.release, name, ready](fleet::HostSession &session, std::function<void(int)> done) {
                release[name] = std::move(done);
                ready(session.connection());
            },
            [&sshCodes = sessions.sshCodes, &release = sessions.release, name, failed](int code) {
                if (!release.count(name)) { // never reached: startOnHost said why on stderr
                    sshCodes[name] = code;
                    failed(QCoreApplication::translate("Cli", "SSH exit code %1").arg(code));
                }
            });
    };
}

/**
 * Runs the upgrade, `maxUnavailable` hosts at a time, to its end (Ctrl+C cancels it and keeps it
 * for --resume; twice quits at once), then prints the summary; returns the exit code.
 */
int runToTheEnd(CliContext &c, fleet::RollingUpgrade &rolling, HostSessions &sessions, bool json, int maxUnavailable)
{
    QObject::connect(&rolling, &fleet::RollingUpgrade::hostFinished, &rolling,
                     [&c, &sessions, json](const QString &host, std::optional<deploy::UpgradeOutcome> outcome,
                                           const deploy::UpgradePlan &plan) {
                         if (outcome && !json) {
                             c.out << outcomeWords(host, *outcome, plan);
                             c.out.flush();
                         }
                         if (const auto done = sessions.release.find(host); done != sessions.release.end()) {
                             done->second(outcome == deploy::UpgradeOutcome::Upgraded ? ExitOk : ExitCheckFailed);
                         }
                     });
    QEventLoop loop;
    QObject::connect(&rolling, &fleet::RollingUpgrade::finished, &loop, &QEventLoop::quit);
    StopSignals stopSignals;
    QObject::connect(&stopSignals, &StopSignals::stopRequested, &loop, [&](int) {
        if (stopSignals.count() > 1) {
            c.err << "flashdeck upgrade: "
                  << QCoreApplication::translate("Cli", "stopped without waiting; run it again with --resume.\n");
            c.err.flush();
            ::_exit(130);
        }
        if (!json) {
            c.err << QCoreApplication::translate("Cli",
                                                 "Cancelling: the running step stops and the upgrade is kept for "
                                                 "--resume (Ctrl+C again to quit at once)…\n");
            c.err.flush();
        }
        rolling.cancel();
    });
    rolling.start(maxUnavailable);
    loop.exec();

    return printSummary(c, rolling, sessions.sshCodes, json);
}

} // namespace

int runUpgradeCommand(const QStringList &args, CliContext &c)
{
    UpgradeRequest r;
    deploy::UpgradeTarget target;
    if (const Stop stop = parseRequest(args, c, r, target)) {
        return *stop;
    }
    fleet::Inventory inventory(c.paths.inventoryFile());
    if (Status s = inventory.load(); !s) {
        c.err << s.message() << '\n';
        return ExitCheckFailed;
    }
    const auto recipes = recipe::Recipe::builtIn();
    const auto terms = recipe::LicenseTerms::builtIn();
    if (!recipes || !terms) {
        c.err << (!recipes ? recipes.message() : terms.message()) << '\n';
        return ExitCheckFailed;
    }
    const recipe::Recipe recipe = recipes.value().first();

    security::Redactor localRedactor;
    security::Redactor &redactor = c.redactor ? *c.redactor : localRedactor;
    security::SecretStore secrets;
    HostSessions sessions;
    fleet::RollingUpgrade rolling(recipe, secrets, redactor, connectOnTurn(c, inventory, sessions));
    if (const Stop stop = addHosts(c, inventory, recipe, terms.value(), r, target, rolling)) {
        return *stop;
    }
    printAsItGoes(c, rolling, r.json, r.names.size() > 1);
    return runToTheEnd(c, rolling, sessions, r.json, r.maxUnavailable);
}

} // namespace flashdeck::cli
