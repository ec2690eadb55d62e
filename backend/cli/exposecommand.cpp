#include "backend/cli/exposecommand.h"

#include "backend/cli/clisession.h"
#include "backend/cli/exitcodes.h"
#include "backend/cli/exposecheck.h"
#include "backend/cli/exposerequest.h"
#include "backend/core/apppaths.h"
#include "backend/core/stopsignals.h"
#include "backend/expose/gatewayimage.h"
#include "backend/expose/gatewayoperation.h"
#include "backend/expose/gatewaypreview.h"
#include "backend/expose/gatewayrecord.h"
#include "backend/fleet/hostsession.h"

#include <QCoreApplication>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <memory>
#include <unistd.h>
#include <utility>

namespace flashdeck::cli {

namespace {

void printJson(CliContext &c, const nlohmann::json &j)
{
    c.out << QString::fromStdString(j.dump()) << '\n';
    c.out.flush();
}

void printPreview(CliContext &c, const ExposeRequest &r)
{
    const QString text = expose::GatewayPreview::text(r.options);
    if (r.json) {
        printJson(c,
                  {{"host", r.host.toStdString()},
                   {"preview", text.toStdString()},
                   {"image", expose::GatewayImage::pinned().toStdString()}});
        return;
    }
    c.out << text
          << QCoreApplication::translate("Cli", "Image: %1:%2, pinned as %3.\n")
                 .arg(expose::GatewayImage::repository(), expose::GatewayImage::tag(), expose::GatewayImage::pinned())
          << QCoreApplication::translate("Cli", "Preview only: nothing was changed on %1.\n").arg(r.host);
}

void printExposed(CliContext &c, bool json, const expose::GatewayRecord &g)
{
    if (json) {
        nlohmann::json j{{"host", g.host.toStdString()},
                         {"ok", true},
                         {"exposed", g.statusJson()},
                         {"certificate_sha256", g.certificateSha256.toStdString()},
                         {"certificate_expires", g.certificateExpires.toStdString()},
                         {"image", g.image.toStdString()},
                         {"container", g.containerName.toStdString()},
                         {"curl", g.curlLine().toStdString()}};
        printJson(c, j);
        return;
    }
    c.out << QCoreApplication::translate("Cli", "Exposed %1 at %2 (container %3, %4).\n")
                 .arg(g.host, g.url(), g.containerName, g.image)
          << QCoreApplication::translate("Cli", "Allowed networks: %1\n").arg(g.allow.join(QStringLiteral(", ")))
          << (g.selfSigned
                  ? QCoreApplication::translate("Cli", "Self-signed certificate made on the host, valid until %1.\n")
                  : QCoreApplication::translate("Cli", "Your certificate, valid until %1.\n"))
                 .arg(g.certificateExpires)
          << QCoreApplication::translate("Cli", "SHA-256 public-key pin: sha256//%1\n").arg(g.publicKeySha256)
          << QCoreApplication::translate("Cli", "Certificate SHA-256 fingerprint: %1\n").arg(g.certificateSha256)
          << QCoreApplication::translate("Cli", "A colleague in an allowed network checks it with:\n") << "  "
          << g.curlLine() << '\n';
    if (g.selfSigned) {
        c.out << QCoreApplication::translate(
            "Cli",
            "(--insecure skips the certificate authority check a self-signed certificate cannot pass; the "
            "pin checks the server's key instead.)\n");
    }
    c.out.flush();
}

void sayFailure(CliContext &c, bool json, const QString &host, const QString &why)
{
    if (json) {
        printJson(c, {{"host", host.toStdString()}, {"ok", false}, {"error", why.toStdString()}});
    }
    c.err << why << '\n';
}

} // namespace

namespace {

/**
 * The placement on the connected host, holding the host's run lock; `done` gets the exit code
 * once it has ended. A stop signal cancels it: what was placed is removed again, and said.
 */
void place(fleet::HostSession &session, CliContext &c, const ExposeRequest &r, expose::GatewayPlan plan,
           expose::GatewayOperation::Claim claim, StopSignals &stop, const std::function<void(int)> &done)
{
    auto *operation = new expose::GatewayOperation(c.paths, session, &session);
    QObject::connect(operation, &expose::GatewayOperation::progress, operation, [&c, &r](const QString &w) {
        if (r.json) {
            printJson(c, {{"host", r.host.toStdString()}, {"progress", w.toStdString()}});
        } else {
            c.out << "  " << w << '\n';
            c.out.flush();
        }
    });
    QObject::connect(operation, &expose::GatewayOperation::exposed, operation,
                     [&c, &r, operation, done](const Result<expose::GatewayRecord> &placed) {
                         operation->deleteLater();
                         if (!placed) {
                             sayFailure(c, r.json, r.host, placed.message());
                             done(ExitCheckFailed);
                             return;
                         }
                         printExposed(c, r.json, placed.value());
                         done(ExitOk);
                     });
    QObject::connect(&stop, &StopSignals::stopRequested, operation, [&c, &r, &stop, operation](int) {
        if (stop.count() > 1) {
            c.out.flush();
            c.err << "flashdeck expose: "
                  << QCoreApplication::translate("Cli",
                                                 "stopped without waiting: what was placed may be left; 'flashdeck "
                                                 "unexpose %1' removes it.\n")
                         .arg(r.host);
            c.err.flush();
            ::_exit(130);
        }
        if (!r.json) {
            c.err << QCoreApplication::translate(
                "Cli", "Cancelling: removing what was placed (Ctrl+C again to quit at once)…\n");
            c.err.flush();
        }
        operation->cancel();
    });
    if (const Status s = operation->expose(std::move(plan), std::move(claim)); !s) {
        operation->deleteLater();
        sayFailure(c, r.json, r.host, s.message());
        done(ExitCheckFailed);
    }
}

} // namespace

int runExposeCommand(const QStringList &args, CliContext &c)
{
    auto read = ExposeRequest::read(args, c);
    if (std::holds_alternative<int>(read)) {
        return std::get<int>(read);
    }
    ExposeRequest &r = std::get<ExposeRequest>(read);
    int notFound = ExitOk;
    const std::optional<fleet::HostEntry> host = findHost(c, r.host, &notFound);
    if (!host) {
        return notFound;
    }
    if (r.check) {
        return runExposeCheck(r, *host, c);
    }
    const Result<int> upstream = expose::GatewayOperation::upstreamPort(c.paths, r.host);
    if (!upstream && !r.preview) {
        sayFailure(c, r.json, r.host, upstream.message());
        return ExitCheckFailed;
    }
    r.options.upstreamPort = upstream ? upstream.value() : 30000;
    if (r.preview) {
        printPreview(c, r);
        return ExitOk;
    }
    expose::GatewayPlan plan;
    plan.host = host->name;
    plan.hostAddress = host->address;
    plan.options = r.options;
    plan.certificatePem = r.certificatePem;
    plan.keyPem = std::exchange(r.keyPem, {});
    if (const Status usable = expose::GatewayOperation::certificateUsable(plan, r.certificateFile); !usable) {
        plan.keyPem.fill('\0');
        sayFailure(c, r.json, r.host, usable.message());
        return ExitCheckFailed;
    }
    // One change of the host at a time: two exposes, or an expose beside a deploy, would remove
    // each other's gateway folder.
    Result<expose::GatewayOperation::Claim> held = expose::GatewayOperation::claim(c.paths, host->name);
    if (!held) {
        plan.keyPem.fill('\0');
        sayFailure(c, r.json, r.host, held.message());
        return ExitCheckFailed;
    }
    // Ctrl+C (or SIGTERM) before the host is reached: nothing was placed, nothing to undo.
    StopSignals stop;
    QMetaObject::Connection early = QObject::connect(&stop, &StopSignals::stopRequested, &stop, [&c, &r](int) {
        sayFailure(c, r.json, r.host,
                   QStringLiteral("flashdeck expose: ") +
                       QCoreApplication::translate("Cli", "stopped before anything was placed on the host."));
        c.out.flush();
        c.err.flush();
        ::_exit(130);
    });
    auto shared = std::make_shared<expose::GatewayPlan>(std::move(plan));
    auto claim = std::make_shared<expose::GatewayOperation::Claim>(std::move(held).value());
    bool reached = false;
    const int code = runOnHost(*host, c, [&](fleet::HostSession &session, std::function<void(int)> done) {
        reached = true;
        QObject::disconnect(early);
        place(session, c, r, std::move(*shared), std::move(*claim), stop, done);
    });
    shared->keyPem.fill('\0');
    if (r.json && !reached && code != ExitOk) {
        // The host was not reached: its words are on stderr already; the object says so too.
        printJson(c,
                  {{"host", r.host.toStdString()},
                   {"ok", false},
                   {"error",
                    QCoreApplication::translate("Cli", "Could not reach %1 (exit code %2).")
                        .arg(r.host)
                        .arg(code)
                        .toStdString()}});
    }
    return code;
}

} // namespace flashdeck::cli
