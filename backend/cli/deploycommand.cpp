#include "backend/cli/deploycommand.h"

#include "backend/cli/clisession.h"
#include "backend/cli/deployrequest.h"
#include "backend/cli/exitcodes.h"
#include "backend/cli/stepprinter.h"
#include "backend/core/apppaths.h"
#include "backend/core/stopsignals.h"
#include "backend/deploy/deploysession.h"
#include "backend/fleet/hostsession.h"
#include "backend/recipe/deployment.h"
#include "backend/security/redactor.h"
#include "backend/security/secretstore.h"
#include "backend/ssh/transport.h"

#include <QCoreApplication>
#include <QDir>

#include <nlohmann/json.hpp>

#include <optional>
#include <unistd.h>
#include <utility>

namespace flashdeck::cli {

namespace {

/** The preview of an imported command as one --json line. */
nlohmann::json previewJson(const recipe::ImportedLaunch &launch)
{
    const auto list = [](const QStringList &l) {
        nlohmann::json a = nlohmann::json::array();
        for (const QString &s : l) {
            a.push_back(s.toStdString());
        }
        return a;
    };
    nlohmann::json owned = nlohmann::json::array();
    for (const recipe::OwnedFlag &o : launch.owned) {
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

/** The deployment itself, on the host's connection: steps printed as they change, Ctrl+C cancels. */
int runDeployment(CliContext &c, DeployRequest &r, deploy::Acknowledgements &acks)
{
    const QString dir = recipe::Deployment::directory(c.paths, r.host.name);
    const bool json = r.json;
    security::Redactor localRedactor;
    security::Redactor &redactor = c.redactor ? *c.redactor : localRedactor;
    security::SecretStore secrets;
    deploy::DeploySession session(dir, r.host.name, r.recipe, r.profile, r.options, secrets, redactor);
    // One run of a host at a time, whichever window or terminal: refused before connecting.
    if (const Status claimed = session.claim(); !claimed) {
        c.err << "flashdeck deploy: " << claimed.message() << '\n';
        return ExitCheckFailed;
    }
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
    QObject::connect(&session, &deploy::DeploySession::notice, &session, [&c](const QString &text) {
        c.err << text << '\n';
        c.err.flush();
    });
    QObject::connect(&session, &deploy::DeploySession::stepChanged, &session, [&](const recipe::StepRecord &step) {
        if (r.license.pending && step.step == QLatin1String("license") && step.status == recipe::StepStatus::Pass) {
            const deploy::Acknowledgement ack = *std::exchange(r.license.pending, std::nullopt);
            if (Status s = acks.record(ack); !s) {
                c.err << s.message() << '\n';
            } else if (!json) {
                c.err << QCoreApplication::translate("Cli",
                                                     "Recorded: %1 acknowledges the %2 for %3 use on %4 (summary %5…; "
                                                     "'flashdeck license' shows it).\n")
                             .arg(ack.user, r.license.terms.name(), ack.use, r.host.name, ack.summarySha256.left(12));
            }
        }
    });
    QObject::connect(&session, &deploy::DeploySession::stepChanged, &session,
                     [&c, json](const recipe::StepRecord &step) { printStep(c, step, json); });
    QObject::connect(&session, &deploy::DeploySession::progress, &session,
                     [&c, json](const recipe::StepProgress &step) { printProgress(c, step, json); });
    return runOnHost(r.host, c, [&](fleet::HostSession &onHost, std::function<void(int)> done) {
        ssh::Transport &connection = onHost.connection();
        QObject::connect(&session, &deploy::DeploySession::finished, &connection, [&c, &dir, json, done](bool ok) {
            if (!json) {
                c.out << (ok ? QCoreApplication::translate("Cli", "Deployed. Journal and manifest: %1\n")
                             : QCoreApplication::translate("Cli", "Stopped at the failed step. Journal: %1\n"))
                             .arg(dir);
            }
            done(ok ? ExitOk : ExitCheckFailed);
        });
        if (const Status started = session.start(connection); !started) {
            c.err << "flashdeck deploy: " << started.message() << '\n';
            done(ExitCheckFailed);
        }
    });
}

} // namespace

int runDeployCommand(const QStringList &args, CliContext &c)
{
    deploy::Acknowledgements acks(c.paths.acknowledgementsFile());
    DeployRequest r;
    if (const Stop stop = readDeployRequest(args, c, acks, r)) {
        return *stop;
    }
    QDir().mkpath(recipe::Deployment::directory(c.paths, r.host.name));
    if (!r.json && r.resume) {
        c.out << QCoreApplication::translate(
            "Cli", "Resuming: each step checks what is already there; nothing is pulled or started twice.\n");
    }
    if (r.imported) {
        // Before anything is pulled: what will run, and what Flashdeck sets on it and why.
        if (r.json) {
            c.out << QString::fromStdString(previewJson(*r.imported).dump()) << '\n';
        } else {
            c.out << r.imported->preview().join(QLatin1Char('\n')) << '\n';
        }
        c.out.flush();
    }
    return runDeployment(c, r, acks);
}

} // namespace flashdeck::cli
