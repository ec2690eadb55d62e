#include "backend/cli/upgradecommand.h"

#include "backend/cli/clisession.h"
#include "backend/cli/exitcodes.h"
#include "backend/cli/stepprinter.h"
#include "backend/core/apppaths.h"
#include "backend/core/stopsignals.h"
#include "backend/deploy/upgradesession.h"
#include "backend/deploy/upgradesetup.h"
#include "backend/fleet/inventory.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/licenseterms.h"
#include "backend/recipe/pins.h"
#include "backend/security/redactor.h"
#include "backend/security/secretstore.h"
#include "backend/ssh/hostconnection.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QTextStream>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <list>
#include <unistd.h>

namespace flashdeck::cli {

namespace {

const QString kUsage = QStringLiteral(
    "Usage: flashdeck upgrade HOST [HOST…] (--image-digest sha256:… | --model-revision COMMIT | --pins FILE)\n"
    "                         [--json] [--max-unavailable N] [--ready-timeout SECONDS] [--stall-timeout SECONDS]\n"
    "       flashdeck upgrade HOST [HOST…] --resume [--json]");

/** One host of the upgrade: what it runs, what it moves to, and how it went. */
struct HostUpgrade
{
    HostEntry host;
    UpgradeSetup setup; // its profile: the session holds a reference, the list keeps it in place
    std::unique_ptr<UpgradeSession> session;
    std::unique_ptr<ssh::HostConnection> connection;
    std::optional<UpgradeOutcome> outcome;
    int code = -1; // the host's exit code once it ended
    bool started = false;
};

QString resultWords(const HostUpgrade &h)
{
    if (h.setup.unchanged) {
        return QStringLiteral("already on these pins");
    }
    if (!h.started) {
        return QStringLiteral("not started");
    }
    if (!h.outcome) {
        return QStringLiteral("not reached (SSH)");
    }
    return upgradeOutcomeName(*h.outcome);
}

} // namespace

int runUpgradeCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption digestOpt(QStringLiteral("image-digest"), QStringLiteral("The image digest to move to."),
                                       QStringLiteral("sha256:…"));
    const QCommandLineOption revisionOpt(QStringLiteral("model-revision"),
                                         QStringLiteral("The model commit (40 hex digits) to move to."),
                                         QStringLiteral("COMMIT"));
    const QCommandLineOption pinsOpt(QStringLiteral("pins"),
                                     QStringLiteral("Move to the digest and commit of a pins file ('flashdeck pins "
                                                    "lock' writes one)."),
                                     QStringLiteral("FILE"));
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QStringLiteral("One JSON object per step transition."));
    const QCommandLineOption resumeOpt(QStringLiteral("resume"),
                                       QStringLiteral("Continue an interrupted upgrade or rollback."));
    const QCommandLineOption maxOpt(QStringLiteral("max-unavailable"),
                                    QStringLiteral("How many hosts upgrade at once (default 1)."), QStringLiteral("N"),
                                    QStringLiteral("1"));
    const QCommandLineOption timeoutOpt(QStringLiteral("ready-timeout"),
                                        QStringLiteral("At most this many seconds for each server to be ready."),
                                        QStringLiteral("SECONDS"));
    const QCommandLineOption stallOpt(QStringLiteral("stall-timeout"),
                                      QStringLiteral("Fail the Ready step after this many seconds without progress "
                                                     "(default 900)."),
                                      QStringLiteral("SECONDS"), QStringLiteral("900"));
    p.addOptions({digestOpt, revisionOpt, pinsOpt, jsonOpt, resumeOpt, maxOpt, timeoutOpt, stallOpt});
    const auto usage = [&c](const QString &message) {
        c.err << "flashdeck upgrade: " << message << '\n' << kUsage << '\n';
        return int(ExitUsage);
    };
    if (!p.parse(args)) {
        return usage(p.errorText());
    }
    const QStringList names = p.positionalArguments().mid(1);
    if (names.isEmpty()) {
        return usage(QStringLiteral("needs HOST."));
    }
    const bool json = p.isSet(jsonOpt);
    const bool resume = p.isSet(resumeOpt);
    const bool pinsGiven = p.isSet(digestOpt) || p.isSet(revisionOpt) || p.isSet(pinsOpt);
    if (resume == pinsGiven) {
        return usage(resume ? QStringLiteral("--resume continues the recorded upgrade: leave out the pins.")
                            : QStringLiteral("say what to move to: --image-digest, --model-revision or --pins."));
    }
    if (p.isSet(pinsOpt) && (p.isSet(digestOpt) || p.isSet(revisionOpt))) {
        return usage(QStringLiteral("--pins gives the digest and the commit: leave out --image-digest and "
                                    "--model-revision."));
    }
    if (p.isSet(digestOpt) && !Pins::isImageDigest(p.value(digestOpt))) {
        return usage(
            QStringLiteral("--image-digest takes sha256: and 64 hex digits, not \"%1\".").arg(p.value(digestOpt)));
    }
    if (p.isSet(revisionOpt) && !Pins::isModelRevision(p.value(revisionOpt))) {
        return usage(QStringLiteral("--model-revision takes a full commit id (40 hex digits), not \"%1\".")
                         .arg(p.value(revisionOpt)));
    }
    bool number = true;
    const int maxUnavailable = p.value(maxOpt).toInt(&number);
    if (!number || maxUnavailable < 1) {
        return usage(QStringLiteral("--max-unavailable takes a number of hosts, at least 1."));
    }
    const int readyTimeoutMs = p.isSet(timeoutOpt) ? p.value(timeoutOpt).toInt(&number) * 1000 : 0;
    if (!number || readyTimeoutMs < 0) {
        return usage(QStringLiteral("--ready-timeout takes seconds (0: no limit)."));
    }
    const int stallTimeoutMs = p.value(stallOpt).toInt(&number) * 1000;
    if (!number || stallTimeoutMs < 1000 || stallTimeoutMs > 24 * 3600 * 1000) {
        return usage(QStringLiteral("--stall-timeout takes seconds, from 1 to 86400."));
    }
    std::optional<Pins> pinsFile;
    if (p.isSet(pinsOpt)) {
        Result<Pins> read = Pins::readFrom(p.value(pinsOpt));
        if (!read) {
            c.err << read.message() << '\n';
            return ExitUsage;
        }
        pinsFile = std::move(read).value();
    }

    Inventory inventory(c.paths.inventoryFile());
    if (Status s = inventory.load(); !s) {
        c.err << s.message() << '\n';
        return ExitCheckFailed;
    }
    const auto recipes = Recipe::builtIn();
    const auto terms = LicenseTerms::builtIn();
    if (!recipes || !terms) {
        c.err << (!recipes ? recipes.message() : terms.message()) << '\n';
        return ExitCheckFailed;
    }
    const Recipe recipe = recipes.value().first();

    // Every host is checked before any starts: a typo in the fifth name must not leave four
    // upgraded and the rest not.
    UpgradeTarget target;
    target.resume = resume;
    target.pinsFile = pinsFile;
    target.imageDigest = p.value(digestOpt);
    target.modelRevision = p.value(revisionOpt);
    std::list<HostUpgrade> hosts;
    for (const QString &name : names) {
        const std::optional<HostEntry> entry = inventory.find(name);
        if (!entry) {
            c.err << "No host named \"" << name << "\" in the inventory (see 'flashdeck hosts list').\n";
            return ExitUsage;
        }
        Result<UpgradeSetup> setup = UpgradeSetup::prepare(c.paths, name, recipe, terms.value(), target);
        if (!setup) {
            c.err << setup.message() << '\n';
            return ExitCheckFailed;
        }
        HostUpgrade h{*entry, std::move(setup).value(), nullptr, nullptr, std::nullopt, -1, false};
        h.setup.options.readyTimeoutMs = readyTimeoutMs;
        h.setup.options.stallTimeoutMs = stallTimeoutMs;
        hosts.push_back(std::move(h));
    }

    Redactor localRedactor;
    Redactor &redactor = c.redactor ? *c.redactor : localRedactor;
    SecretStore secrets;
    QEventLoop loop;
    bool rolledBack = false; // no new host starts after a rollback
    StopSignals stopSignals;
    QObject::connect(&stopSignals, &StopSignals::stopRequested, &loop, [&](int) {
        if (stopSignals.count() > 1) {
            c.err << "flashdeck upgrade: stopped without waiting; run it again with --resume.\n";
            c.err.flush();
            ::_exit(130);
        }
        if (!json) {
            c.err << "Cancelling: the running step stops and the upgrade is kept for --resume (Ctrl+C again to quit "
                     "at once)…\n";
            c.err.flush();
        }
        rolledBack = true; // and start no other host
        for (HostUpgrade &h : hosts) {
            if (h.session) {
                h.session->cancel();
            }
        }
    });
    const bool several = hosts.size() > 1;
    std::function<void()> startNext;
    const auto running = [&hosts] {
        int n = 0;
        for (const HostUpgrade &h : hosts) {
            n += h.started && h.code < 0;
        }
        return n;
    };
    const auto hostDone = [&](HostUpgrade &h, int code) {
        h.code = code;
        rolledBack = rolledBack || code != ExitOk;
        QTimer::singleShot(0, &loop, [&] { startNext(); });
    };
    startNext = [&] {
        for (HostUpgrade &h : hosts) {
            if (running() >= maxUnavailable) {
                break;
            }
            if (h.started || h.setup.unchanged || rolledBack) {
                continue;
            }
            h.started = true;
            HostUpgrade *hp = &h;
            const QString tag = several || json ? h.host.name : QString();
            if (!json) {
                c.out << "== " << h.host.name << ": upgrade " << h.setup.plan.summary() << '\n';
                c.out.flush();
            }
            h.connection = startOnHost(
                h.host, c,
                [&, hp, tag](ssh::HostConnection &connection, std::function<void(int)> done) {
                    const QString dir = Deployment::directory(c.paths, hp->host.name);
                    hp->session =
                        std::make_unique<UpgradeSession>(dir, hp->host.name, recipe, hp->setup.profile,
                                                         hp->setup.options, hp->setup.plan, secrets, redactor);
                    UpgradeSession *s = hp->session.get();
                    QObject::connect(s, &UpgradeSession::phaseChanged, s, [&, hp, s](UpgradePhase phase) {
                        if (json) {
                            c.out << QString::fromStdString(
                                         nlohmann::json{{"phase", upgradePhaseName(phase).toStdString()},
                                                        {"host", hp->host.name.toStdString()}}
                                             .dump())
                                  << '\n';
                        } else if (phase == UpgradePhase::Rollback) {
                            c.out << "== " << hp->host.name << ": rolling back to "
                                  << UpgradePlan::shortPins(s->plan().from) << " ("
                                  << (s->plan().failedStep.isEmpty() ? QStringLiteral("stopped")
                                                                     : s->plan().failedStep + QStringLiteral(" failed"))
                                  << ")\n";
                        }
                        c.out.flush();
                    });
                    QObject::connect(s, &UpgradeSession::stepChanged, s,
                                     [&c, json, tag](const StepRecord &r) { printStep(c, r, json, tag); });
                    QObject::connect(s, &UpgradeSession::progress, s,
                                     [&c, json, tag](const StepProgress &pr) { printProgress(c, pr, json, tag); });
                    QObject::connect(s, &UpgradeSession::notice, s, [&c](const QString &text) {
                        c.err << text << '\n';
                        c.err.flush();
                    });
                    QObject::connect(s, &UpgradeSession::finished, s, [&, hp, s, done](UpgradeOutcome outcome) {
                        hp->outcome = outcome;
                        if (!json) {
                            const UpgradePlan &plan = s->plan();
                            switch (outcome) {
                            case UpgradeOutcome::Upgraded:
                                c.out << hp->host.name << " upgraded to " << UpgradePlan::shortPins(plan.to) << ".\n";
                                break;
                            case UpgradeOutcome::RolledBack:
                                c.out << hp->host.name << ": the upgrade failed at " << plan.failedStep << " ("
                                      << plan.failedSeen << "); the host is back on its old pins "
                                      << UpgradePlan::shortPins(plan.from) << ", verified again.\n";
                                break;
                            case UpgradeOutcome::RollbackFailed:
                                c.out << hp->host.name << ": the upgrade failed at " << plan.failedStep
                                      << " and the rollback to " << UpgradePlan::shortPins(plan.from)
                                      << " failed too (above). The host needs you: fix what the failed step says, "
                                         "then 'flashdeck upgrade "
                                      << hp->host.name << " --resume' retries the rollback.\n";
                                break;
                            case UpgradeOutcome::Stopped:
                                c.out << hp->host.name << ": stopped; 'flashdeck upgrade " << hp->host.name
                                      << " --resume' continues the " << upgradePhaseName(plan.phase) << ".\n";
                                break;
                            }
                            c.out.flush();
                        }
                        done(outcome == UpgradeOutcome::Upgraded ? ExitOk : ExitCheckFailed);
                    });
                    s->start(connection);
                },
                [&, hp](int code) { hostDone(*hp, code); });
        }
        if (running() == 0) {
            loop.quit();
        }
    };
    QTimer::singleShot(0, &loop, [&] { startNext(); });
    loop.exec();

    // The summary: every host, what it ran, what it was to run, how it went.
    int code = ExitOk;
    nlohmann::json summary = nlohmann::json::array();
    QStringList rows;
    for (const HostUpgrade &h : hosts) {
        const QString result = resultWords(h);
        summary.push_back({{"host", h.host.name.toStdString()},
                           {"from", h.setup.plan.from.toJson()},
                           {"to", h.setup.plan.to.toJson()},
                           {"result", result.toStdString()}});
        rows.append(QStringLiteral("%1  %2  %3  %4")
                        .arg(h.host.name.leftJustified(16), UpgradePlan::shortPins(h.setup.plan.from).leftJustified(34),
                             UpgradePlan::shortPins(h.setup.plan.to).leftJustified(34), result));
        if (h.setup.unchanged) {
            continue;
        }
        if (h.code > ExitCheckFailed && code == ExitOk) {
            code = h.code; // an SSH failure keeps its own code
        } else if (h.code != ExitOk) {
            code = code == ExitOk ? int(ExitCheckFailed) : code;
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

} // namespace flashdeck::cli
