#include "backend/cli/exposecommand.h"

#include "backend/cli/clisession.h"
#include "backend/cli/exitcodes.h"
#include "backend/cli/exposecheck.h"
#include "backend/cli/exposerequest.h"
#include "backend/cli/hostlock.h"
#include "backend/core/apppaths.h"
#include "backend/docker/dockerclient.h"
#include "backend/docker/dockerendpoint.h"
#include "backend/expose/gatewaycertificate.h"
#include "backend/expose/gatewayimage.h"
#include "backend/expose/gatewayplacement.h"
#include "backend/expose/gatewaypreview.h"
#include "backend/expose/gatewayrecord.h"
#include "backend/fleet/hostsession.h"
#include "backend/recipe/deployment.h"
#include "backend/ssh/transport.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <memory>

namespace flashdeck::cli {

namespace {

void printJson(CliContext &c, const nlohmann::json &j)
{
    c.out << QString::fromStdString(j.dump()) << '\n';
    c.out.flush();
}

/** The curl line a colleague in an allowed network runs; the pin checks the key. */
QString curlLine(const expose::GatewayRecord &r)
{
    // A self-signed certificate chains to no CA curl trusts: --insecure skips that check and the
    // pin replaces it (curl checks --pinnedpubkey with --insecure too).
    return QStringLiteral(
               "curl %1--pinnedpubkey 'sha256//%2' -H \"Authorization: Bearer $SGLANG_API_KEY\" %3/v1/models")
        .arg(r.selfSigned ? QStringLiteral("--insecure ") : QString(), r.publicKeySha256, r.url());
}

/** The server's port on the host's loopback, from the deployment's manifest; 0 (said) when none. */
int upstreamPort(CliContext &c, const QString &host, bool required)
{
    const Result<Deployment> d = Deployment::read(c.paths, host);
    if (d && !d.value().isUndeployed()) {
        return d.value().port > 0 ? d.value().port : 30000;
    }
    if (!required) {
        return 30000;
    }
    c.err << (d ? QCoreApplication::translate("Cli",
                                              "The deployment on %1 was undeployed: deploy again, then expose it.")
                      .arg(host)
                : d.message() + QLatin1Char(' ') +
                      QCoreApplication::translate("Cli", "Deploy first, then expose the server."))
          << '\n';
    return 0;
}

/** The operator's certificate must be one clients accept now: checked before connecting. */
bool certificateUsable(CliContext &c, const ExposeRequest &r)
{
    if (r.options.tls != expose::TlsMode::OperatorCertificate) {
        return true;
    }
    const auto cert = expose::GatewayCertificate::fromPem(r.certificatePem, r.certificateFile);
    const Status s = cert ? cert.value().usableAt(QDateTime::currentDateTimeUtc()) : cert.status();
    if (!s) {
        c.err << s.message() << ' ' << QCoreApplication::translate("Cli", "Nothing was changed.") << '\n';
    }
    return s.isOk();
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
                         {"curl", curlLine(g).toStdString()}};
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
          << curlLine(g) << '\n';
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

/** The placement on the connected host; `done` gets the exit code once it has ended. */
void place(HostSession &session, CliContext &c, const ExposeRequest &r, const HostEntry &host,
           const std::function<void(int)> &done)
{
    ssh::Transport &connection = session.connection();
    docker::DockerEndpoint &endpoint = docker::DockerEndpoint::of(connection);
    endpoint.whenOpen(
        &connection,
        [&c, &r, &host, &connection, &endpoint, done] {
            auto client = std::make_shared<docker::DockerClient>(endpoint);
            expose::GatewayPlan plan;
            plan.host = host.name;
            plan.hostAddress = host.address;
            plan.options = r.options;
            plan.certificatePem = r.certificatePem;
            plan.keyPem = r.keyPem;
            auto *placement = new expose::GatewayPlacement(connection, *client, std::move(plan), &connection);
            QObject::connect(placement, &expose::GatewayPlacement::progress, placement, [&c, &r](const QString &w) {
                if (r.json) {
                    printJson(c, {{"host", r.host.toStdString()}, {"progress", w.toStdString()}});
                } else {
                    c.out << "  " << w << '\n';
                    c.out.flush();
                }
            });
            placement->start([&c, &r, placement, client, done](const Result<expose::GatewayRecord> &placed) {
                placement->deleteLater();
                if (!placed) {
                    sayFailure(c, r.json, r.host, placed.message());
                    done(ExitCheckFailed);
                    return;
                }
                if (const Status s = placed.value().write(c.paths); !s) {
                    // Running, but status would say "not exposed" and unexpose would not find it.
                    sayFailure(c, r.json, r.host,
                               QCoreApplication::translate("Cli",
                                                           "The gateway runs, but its record could not be written: "
                                                           "%1. Free the space, then 'flashdeck unexpose %2' and "
                                                           "expose again.")
                                   .arg(s.message(), r.host));
                    done(ExitCheckFailed);
                    return;
                }
                printExposed(c, r.json, placed.value());
                done(ExitOk);
            });
        },
        [&c, &r, done](const QString &message) {
            sayFailure(c, r.json, r.host, message);
            done(ExitCheckFailed);
        });
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
    const std::optional<HostEntry> host = findHost(c, r.host, &notFound);
    if (!host) {
        return notFound;
    }
    if (r.check) {
        return runExposeCheck(r, *host, c);
    }
    r.options.upstreamPort = upstreamPort(c, r.host, !r.preview);
    if (r.options.upstreamPort == 0) {
        return ExitCheckFailed;
    }
    if (r.preview) {
        printPreview(c, r);
        return ExitOk;
    }
    if (!certificateUsable(c, r)) {
        return ExitCheckFailed;
    }
    // One change of the host at a time: two exposes, or an expose beside a deploy, would remove
    // each other's gateway folder.
    const Result<std::unique_ptr<HeldLock>> held = claimHost(c.paths, host->name);
    if (!held) {
        sayFailure(c, r.json, r.host, held.message());
        return ExitCheckFailed;
    }
    const int code = runOnHost(*host, c, [&c, &r, &host](HostSession &session, std::function<void(int)> done) {
        place(session, c, r, *host, done);
    });
    r.keyPem.fill('\0');
    return code;
}

} // namespace flashdeck::cli
