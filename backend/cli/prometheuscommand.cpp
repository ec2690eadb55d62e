#include "backend/cli/prometheuscommand.h"

#include "backend/cli/exitcodes.h"
#include "backend/core/apppaths.h"
#include "backend/core/atomicfile.h"
#include "backend/core/settings.h"
#include "backend/fleet/inventory.h"
#include "backend/prometheus/promconfig.h"
#include "backend/prometheus/promrules.h"
#include "backend/prometheus/promtargets.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QRegularExpression>
#include <QTextStream>

namespace flashdeck::cli {

namespace {

const QString kPrometheusUsage =
    QStringLiteral("Usage: flashdeck prometheus rules [--output FILE] [--host-label LABEL]\n"
                   "       flashdeck prometheus targets [--output FILE] [--on-host]");

int emit(CliContext &c, const QString &output, const QByteArray &data, const QString &what)
{
    if (output.isEmpty() || output == QLatin1String("-")) {
        c.out << QString::fromUtf8(data);
        c.out.flush();
        return ExitOk;
    }
    if (const Status s = writeFileAtomically(output, data); !s) {
        c.err << QCoreApplication::translate("Cli", "Could not write %1: %2\n").arg(output, s.message());
        return ExitCheckFailed;
    }
    c.err << QCoreApplication::translate("Cli", "%1 written to %2.\n").arg(what, output);
    return ExitOk;
}

} // namespace

int runPrometheusCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption outputOpt(QStringLiteral("output"),
                                       QCoreApplication::translate("Cli", "Write to FILE (default: stdout)."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption labelOpt(
        QStringLiteral("host-label"),
        QCoreApplication::translate("Cli",
                                    "rules: the label that tells hosts apart (default: Settings → "
                                    "Fleet, else instance)."),
        QStringLiteral("LABEL"));
    const QCommandLineOption onHostOpt(
        QStringLiteral("on-host"),
        QCoreApplication::translate("Cli", "targets: 127.0.0.1:PORT, for an agent on each host."));
    p.addOptions({outputOpt, labelOpt, onHostOpt});
    const QString verb = p.parse(args) ? p.positionalArguments().value(1) : QString();
    if (p.positionalArguments().size() != 2 || (verb != QLatin1String("rules") && verb != QLatin1String("targets"))) {
        c.err << "flashdeck prometheus: "
              << (!p.errorText().isEmpty() ? p.errorText()
                                           : QCoreApplication::translate("Cli", "needs rules or targets."))
              << '\n'
              << kPrometheusUsage << '\n';
        return ExitUsage;
    }
    const Settings settings(c.paths);
    const QString output = p.value(outputOpt);
    if (verb == QLatin1String("rules")) {
        const QString label =
            p.isSet(labelOpt) ? p.value(labelOpt).trimmed() : prom::PromConfig::fromSettings(settings).hostLabel;
        static const QRegularExpression labelName(QStringLiteral("^[a-zA-Z_][a-zA-Z0-9_]*$"));
        if (!labelName.match(label).hasMatch()) {
            c.err << "flashdeck prometheus: "
                  << QCoreApplication::translate(
                         "Cli", "\"%1\" is not a Prometheus label name (letters, digits and _, not first a digit).\n")
                         .arg(label);
            return ExitUsage;
        }
        return emit(c, output, prom::alertingRules(metrics::AlertThresholds::fromSettings(settings), label).toUtf8(),
                    QCoreApplication::translate("Cli", "The alerting rules"));
    }
    fleet::Inventory inventory(c.paths.inventoryFile());
    if (Status s = inventory.load(); !s) {
        c.err << s.message() << '\n';
        return ExitCheckFailed;
    }
    QList<prom::TargetHost> targets;
    for (const fleet::HostEntry &h : inventory.hosts()) {
        if (const Result<recipe::Deployment> d = recipe::Deployment::read(c.paths, h.name)) {
            targets.append({h.name, h.address, d.value()});
        }
    }
    const bool onHost = p.isSet(onHostOpt);
    // Flashdeck's servers listen on the host's loopback alone: say how a scrape reaches them. The
    // key: SGLang's decide_request_auth() lets /health*, /ready* and /metrics* through without it
    // ("to support k8s probes and Prometheus scraping without embedding secrets",
    // sglang python/sglang/srt/utils/auth.py); older builds exempted only /health (sglang-facts §2).
    c.err << QCoreApplication::translate("Cli", "%1 deployment(s). ").arg(targets.size())
          << (onHost ? QCoreApplication::translate(
                           "Cli",
                           "Each target is 127.0.0.1:PORT: run an agent on each host (Prometheus in "
                           "agent mode, or vmagent) with this file and remote-write to your Prometheus.")
                     : QCoreApplication::translate(
                           "Cli",
                           "The servers listen on each host's loopback only: a central Prometheus "
                           "reaches ADDRESS:PORT only once that port is opened to it alone (a firewall "
                           "rule), else use --on-host with an agent on each host."))
          << ' '
          << QCoreApplication::translate(
                 "Cli",
                 "SGLang serves /metrics without the API key (its auth exempts /metrics); an older image that answers "
                 "401 needs the key as the scrape job's bearer token.\n");
    return emit(c, output, prom::fileSdTargets(targets, onHost ? prom::ScrapeFrom::OnHost : prom::ScrapeFrom::Network),
                QCoreApplication::translate("Cli", "The targets"));
}

} // namespace flashdeck::cli
