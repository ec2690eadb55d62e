#include "backend/cli/statuscommand.h"

#include "backend/cli/cliapikey.h"
#include "backend/cli/exitcodes.h"
#include "backend/core/apppaths.h"
#include "backend/core/format.h"
#include "backend/core/settings.h"
#include "backend/core/stopsignals.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/inventory.h"
#include "backend/metrics/hostmonitor.h"
#include "backend/prometheus/promfleetsource.h"
#include "backend/security/redactor.h"
#include "backend/security/secretstore.h"
#include "backend/ssh/hostconnection.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTextStream>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace flashdeck::cli {

namespace {

const QString kUsage = QStringLiteral("Usage: flashdeck status [HOST…] [--json] [--watch] [--interval SECONDS] "
                                      "[--timeout SECONDS] [--pins FILE] [--source ssh|prometheus] "
                                      "[--prometheus-url URL]");

QString orDash(const std::optional<double> &v, int decimals = 0, const QString &suffix = {})
{
    return v ? QString::number(*v, 'f', decimals) + suffix : QStringLiteral("–");
}

/**
 * The table's columns, in order, in the operator's language (the human view, as its cells are;
 * scripts read --json's keys, which never change).
 */
QStringList columnTitles()
{
    return {QCoreApplication::translate("Cli", "HOST"),   QCoreApplication::translate("Cli", "STATE"),
            QCoreApplication::translate("Cli", "GPUS"),   QCoreApplication::translate("Cli", "CONTAINER"),
            QCoreApplication::translate("Cli", "HEALTH"), QCoreApplication::translate("Cli", "KV"),
            QCoreApplication::translate("Cli", "RUN"),    QCoreApplication::translate("Cli", "QUEUE"),
            QCoreApplication::translate("Cli", "TOK/S"),  QCoreApplication::translate("Cli", "TTFT P95"),
            QCoreApplication::translate("Cli", "DISK"),   QCoreApplication::translate("Cli", "ALERTS")};
}

/** An alert's severity in the operator's language (the JSON keeps "critical", "warning", "info"). */
QString severityWord(const QString &severity)
{
    if (severity == QLatin1String("critical")) {
        return QCoreApplication::translate("Cli", "critical");
    }
    if (severity == QLatin1String("warning")) {
        return QCoreApplication::translate("Cli", "warning");
    }
    if (severity == QLatin1String("info")) {
        return QCoreApplication::translate("Cli", "info");
    }
    return severity;
}

/** One host's cells, in columnTitles()' order. */
QStringList cells(const metrics::HostStatus &s)
{
    QString gpus = QStringLiteral("–");
    if (!s.gpus.isEmpty()) {
        double util = 0;
        double used = 0;
        double total = 0;
        int withUtil = 0;
        for (const probe::GpuSample &g : s.gpus) {
            if (g.utilizationGpu) {
                util += *g.utilizationGpu;
                ++withUtil;
            }
            used += double(g.memoryUsedMiB.value_or(0));
            total += double(g.memoryTotalMiB.value_or(0));
        }
        // The window's Fleet table says the same figures (one formatter, GiB for memory).
        gpus = QStringLiteral("%1× %2 %3 %4")
                   .arg(s.gpus.size())
                   .arg(s.gpus.first().name.section(QLatin1Char(' '), 0, 2))
                   .arg(withUtil ? fmt::percent(util / withUtil / 100.0) : fmt::unknown())
                   .arg(fmt::gibOf(used, total));
    }
    const metrics::ServerSnapshot srv = s.server.value_or(metrics::ServerSnapshot{});
    QStringList alerts;
    for (const metrics::Alert &a : s.alerts) {
        alerts.append(a.id);
    }
    return {s.host,
            metrics::hostStateText(s.state),
            gpus,
            s.container ? s.container->state
                        : (s.containerKnown ? QCoreApplication::translate("Cli", "none") : QStringLiteral("–")),
            s.health != metrics::ServerHealth::Unknown ? metrics::serverHealthText(s.health)
                : s.containerKnown && !s.container     ? QCoreApplication::translate("Cli", "no deployment")
                                                       : QStringLiteral("–"),
            fmt::percent(srv.tokenUsage, 1), // as the Fleet table's KV column
            orDash(srv.running),
            orDash(srv.queued),
            orDash(srv.genThroughput, 0),
            orDash(s.rates.ttftP95, 2, QStringLiteral(" s")),
            fmt::gigabytes(s.diskFreeBytes),
            alerts.isEmpty() ? QCoreApplication::translate("Cli", "no alerts") : alerts.join(QLatin1Char(' '))};
}

/**
 * Columns a terminal gives `text`: East Asian wide characters (Chinese words) take two
 * (Unicode UAX #11's Wide and Fullwidth blocks, the ones our words use).
 */
qsizetype columns(const QString &text)
{
    qsizetype n = 0;
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        const bool wide = (u >= 0x1100 && u <= 0x115F) || (u >= 0x2E80 && u <= 0xA4CF) ||
            (u >= 0xAC00 && u <= 0xD7A3) || (u >= 0xF900 && u <= 0xFAFF) || (u >= 0xFE30 && u <= 0xFE4F) ||
            (u >= 0xFF00 && u <= 0xFF60) || (u >= 0xFFE0 && u <= 0xFFE6);
        n += wide ? 2 : 1;
    }
    return n;
}

/** Rows under their headers: each column as wide as its widest cell (the last one free). */
QString table(const QList<QStringList> &rows)
{
    const QStringList titles = columnTitles();
    QList<qsizetype> width;
    for (const QString &h : titles) {
        width.append(columns(h));
    }
    for (const QStringList &r : rows) {
        for (qsizetype i = 0; i < r.size() && i < width.size(); ++i) {
            width[i] = std::max(width[i], columns(r.at(i)));
        }
    }
    const auto format = [&width](const QStringList &r) {
        QStringList padded;
        for (qsizetype i = 0; i < r.size(); ++i) {
            padded.append(i + 1 < r.size() ? r.at(i) +
                                  QString(std::max<qsizetype>(0, width.at(i) - columns(r.at(i))), QLatin1Char(' '))
                                           : r.at(i));
        }
        return padded.join(QStringLiteral("  "));
    };
    QString out = format(titles) + QLatin1Char('\n');
    for (const QStringList &r : rows) {
        out += format(r) + QLatin1Char('\n');
    }
    return out;
}

} // namespace

int runStatusCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption jsonOpt(QStringLiteral("json"),
                                     QCoreApplication::translate("Cli", "One JSON object per host."));
    const QCommandLineOption watchOpt(QStringLiteral("watch"),
                                      QCoreApplication::translate("Cli", "Keep printing until Ctrl+C."));
    const QCommandLineOption intervalOpt(QStringLiteral("interval"),
                                         QCoreApplication::translate("Cli", "Seconds between prints (--watch)."),
                                         QStringLiteral("SECONDS"), QStringLiteral("2"));
    const QCommandLineOption timeoutOpt(
        QStringLiteral("timeout"),
        QCoreApplication::translate("Cli", "Seconds to wait for every host's first answers."),
        QStringLiteral("SECONDS"), QStringLiteral("30"));
    const QCommandLineOption pinsOpt(
        QStringLiteral("pins"),
        QCoreApplication::translate("Cli",
                                    "Flag every host whose deployment runs other pins than this pins "
                                    "file (default: the one chosen in Settings → Fleet)."),
        QStringLiteral("FILE"));
    const QCommandLineOption sourceOpt(
        QStringLiteral("source"),
        QCoreApplication::translate("Cli",
                                    "Where the figures come from: ssh (each host's session) or "
                                    "prometheus (default: Settings → Fleet)."),
        QStringLiteral("SOURCE"));
    const QCommandLineOption promUrlOpt(
        QStringLiteral("prometheus-url"),
        QCoreApplication::translate("Cli",
                                    "The Prometheus to read (default: Settings → Fleet); implies "
                                    "--source prometheus."),
        QStringLiteral("URL"));
    p.addOptions({jsonOpt, watchOpt, intervalOpt, timeoutOpt, pinsOpt, sourceOpt, promUrlOpt});
    if (!p.parse(args)) {
        c.err << "flashdeck status: " << p.errorText() << '\n' << kUsage << '\n';
        return ExitUsage;
    }
    Inventory inventory(c.paths.inventoryFile());
    if (Status s = inventory.load(); !s) {
        c.err << s.message() << '\n';
        return ExitCheckFailed;
    }
    prom::PromConfig promConfig = prom::PromConfig::fromSettings(Settings(c.paths));
    if (p.isSet(sourceOpt)) {
        const QString source = p.value(sourceOpt).toLower();
        if (source != QLatin1String("ssh") && source != QLatin1String("prometheus")) {
            c.err << "flashdeck status: "
                  << QCoreApplication::translate("Cli", "--source is ssh or prometheus, not \"%1\".\n")
                         .arg(p.value(sourceOpt));
            return ExitUsage;
        }
        promConfig.source = source == QLatin1String("ssh") ? prom::FleetSource::Ssh : prom::FleetSource::Prometheus;
    }
    if (p.isSet(promUrlOpt)) {
        promConfig.url = QUrl(p.value(promUrlOpt));
        promConfig.source = prom::FleetSource::Prometheus;
    }
    if (promConfig.source == prom::FleetSource::Prometheus) {
        if (const Status s = promConfig.check(); !s) {
            c.err << "flashdeck status: " << s.message() << '\n';
            return ExitUsage;
        }
    }
    QList<HostEntry> hosts;
    const QStringList names = p.positionalArguments().mid(1);
    for (const QString &name : names) {
        const std::optional<HostEntry> h = inventory.find(name);
        if (!h) {
            c.err << QCoreApplication::translate(
                         "Cli", "No host named \"%1\" in the inventory (see 'flashdeck hosts list').\n")
                         .arg(name);
            return ExitUsage;
        }
        hosts.append(*h);
    }
    if (names.isEmpty()) {
        hosts = inventory.hosts();
    }
    if (hosts.isEmpty() && promConfig.source == prom::FleetSource::Ssh) {
        c.err << QCoreApplication::translate("Cli", "No hosts yet: add one with 'flashdeck hosts add'.\n");
        return ExitUsage;
    }
    const bool json = p.isSet(jsonOpt);

    // The same watcher as the Fleet page: one connection and one monitor per host, never a prompt
    // (host keys are accepted with `hosts check`), the deployment's API key from the keyring.
    SecretStore secrets;
    const Settings settings(c.paths);
    metrics::AlertThresholds thresholds = metrics::AlertThresholds::fromSettings(settings);
    if (p.isSet(pinsOpt)) {
        thresholds.usePinsFile(p.value(pinsOpt));
        if (!thresholds.pinsError.isEmpty()) {
            c.err << thresholds.pinsError << '\n';
            return ExitUsage;
        }
    } else if (!thresholds.pinsError.isEmpty()) {
        c.err << QCoreApplication::translate("Cli", "%1 (Settings → Fleet): pins are not compared.\n")
                     .arg(thresholds.pinsError);
    }

    // The operator's Prometheus first, when it is the source: the hosts it knows come from it,
    // the others over SSH as always; when it cannot answer, every inventory host over SSH.
    QList<HostEntry> watched = hosts;
    const bool usePrometheus = promConfig.source == prom::FleetSource::Prometheus;
    if (usePrometheus && !promConfig.throughHost.isEmpty()) {
        const std::optional<HostEntry> through = inventory.find(promConfig.throughHost);
        if (!through) {
            c.err << "flashdeck status: "
                  << QCoreApplication::translate(
                         "Cli", "the Prometheus is reached through \"%1\", which is not in the inventory.\n")
                         .arg(promConfig.throughHost);
            return ExitUsage;
        }
        if (!names.contains(through->name) && !names.isEmpty()) {
            watched.append(*through); // its session carries the tunnel
        }
    }
    FleetWatcher fleet(c.paths, thresholds, &secrets);
    fleet.setHosts(watched);
    if (usePrometheus) {
        const StoredApiKey secret = promConfig.auth == prom::PromAuth::None
            ? StoredApiKey{}
            : storedSecret(QLatin1String(prom::PromConfig::kSecretKey), QStringLiteral("Prometheus"),
                           prom::PromConfig::kSecretEnv);
        if (promConfig.auth != prom::PromAuth::None && secret.key.isEmpty()) {
            c.err << (promConfig.auth == prom::PromAuth::Bearer
                          ? QCoreApplication::translate(
                                "Cli", "No Prometheus token: %1; set %2 or save it in Settings → Fleet.\n")
                          : QCoreApplication::translate(
                                "Cli", "No Prometheus password: %1; set %2 or save it in Settings → Fleet.\n"))
                         .arg(secret.whyNone, QLatin1String(prom::PromConfig::kSecretEnv));
        }
        if (c.redactor && !secret.key.isEmpty()) {
            c.redactor->addSecret(secret.key);
        }
        QEventLoop first;
        QTimer::singleShot(std::max(1, p.value(timeoutOpt).toInt()) * 1000 + promConfig.timeoutMs, &first,
                           &QEventLoop::quit);
        QObject::connect(&fleet, &FleetWatcher::prometheusRefreshed, &first, &QEventLoop::quit);
        fleet.usePrometheus(promConfig, secret.key, std::max(1, p.value(intervalOpt).toInt()) * 1000);
        if (!fleet.prometheus()->answered()) {
            first.exec();
        }
        const prom::PromFleetSource *source = fleet.prometheus();
        if (!source->answered() || !source->error().isEmpty()) {
            c.err << (source->error().isEmpty()
                          ? QCoreApplication::translate("Cli", "Prometheus gave no answer in time.")
                          : source->error())
                  << ' ' << QCoreApplication::translate("Cli", "Watching the inventory's hosts over SSH instead.\n");
            if (!source->answered()) {
                fleet.usePrometheus(prom::PromConfig{}, {});
            }
        } else {
            for (const QString &w : source->warnings()) {
                c.err << "Prometheus: " << w << '\n';
            }
        }
    }
    QList<HostEntry> overSsh;
    for (const HostEntry &h : hosts) {
        if (!fleet.watchedByPrometheus(h.name)) {
            overSsh.append(h);
        }
    }
    // Hosts only Prometheus knows: listed after the inventory's (all of them, unless hosts were named).
    const QStringList onlyInPrometheus = names.isEmpty() ? fleet.prometheusOnlyHosts() : QStringList();
    if (hosts.isEmpty() && onlyInPrometheus.isEmpty()) {
        c.err << QCoreApplication::translate("Cli", "No hosts: the inventory has none and Prometheus named none.\n");
        return ExitCheckFailed;
    }
    const auto statusOf = [&fleet](const QString &name) { return fleet.status(name); };
    QStringList order;
    for (const HostEntry &h : hosts) {
        order.append(h.name);
    }
    order.append(onlyInPrometheus);

    auto print = [&] {
        bool allUp = true;
        QList<QStringList> rows;
        QStringList notes; // errors and alerts, under the table, by host
        for (const QString &name : order) {
            const metrics::HostStatus s = statusOf(name);
            // Exporters Prometheus cannot scrape are a warning about them, not a host that is down.
            allUp = allUp && (s.state == metrics::HostState::Up || s.state == metrics::HostState::Unscraped);
            if (json) {
                c.out << QString::fromStdString(s.toJson().dump()) << '\n';
                continue;
            }
            rows.append(cells(s));
            if (!s.inInventory) {
                notes.append(
                    QCoreApplication::translate("Cli",
                                                "%1: known to Prometheus, not in the inventory (add it with 'flashdeck "
                                                "hosts add %1 USER@ADDRESS' to deploy there)")
                        .arg(s.host));
            }
            if (!s.error.isEmpty()) {
                notes.append(QStringLiteral("%1: %2").arg(s.host, s.error));
            }
            for (const metrics::Alert &a : s.alerts) {
                notes.append(QStringLiteral("%1: %2: %3").arg(s.host, severityWord(a.severity), a.message));
            }
        }
        if (!json) {
            c.out << table(rows);
            for (const QString &n : notes) {
                c.out << "  " << n << '\n';
            }
            if (fleet.prometheus() && fleet.prometheus()->error().isEmpty()) {
                c.out << "  "
                      << QCoreApplication::translate("Cli", "Source: Prometheus at %1 for %2 host(s)")
                             .arg(fleet.prometheus()->config().url.toString(QUrl::RemoveUserInfo))
                             .arg(order.size() - overSsh.size())
                      << (overSsh.isEmpty() ? QString()
                                            : QCoreApplication::translate("Cli", ", SSH for %1").arg(overSsh.size()))
                      << ".\n";
            }
        }
        c.out.flush();
        return allUp;
    };

    // First answers from every host (or its failure), then print; with --watch, again and again.
    QEventLoop loop;
    QElapsedTimer waited;
    waited.start();
    const int timeoutMs = std::max(1, p.value(timeoutOpt).toInt()) * 1000;
    QTimer check;
    check.setInterval(100);
    bool printedOnce = false;
    int rc = ExitOk;
    StopSignals stop;
    QObject::connect(&stop, &StopSignals::stopRequested, &loop, [&loop] { loop.quit(); });
    QTimer watchTimer;
    watchTimer.setInterval(std::max(1, p.value(intervalOpt).toInt()) * 1000);
    QObject::connect(&watchTimer, &QTimer::timeout, &loop, [&] { rc = print() ? ExitOk : ExitCheckFailed; });
    // --watch: Prometheus is asked again each interval; a refresh that fails is said on stderr, and
    // the hosts it watched are watched over SSH until it answers again.
    QObject::connect(&fleet, &FleetWatcher::prometheusRefreshed, &loop, [&] {
        if (printedOnce && fleet.prometheus() && !fleet.prometheus()->error().isEmpty()) {
            c.err << fleet.prometheus()->error() << ' '
                  << QCoreApplication::translate("Cli", "Watching over SSH until it answers.\n");
        }
    });
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        bool settled = true;
        for (const HostEntry &h : overSsh) {
            const metrics::HostMonitor *m = fleet.monitor(h.name);
            settled = settled && m && m->settled();
        }
        if (!printedOnce && (settled || waited.elapsed() > timeoutMs)) {
            printedOnce = true;
            check.stop();
            rc = print() ? ExitOk : ExitCheckFailed;
            if (p.isSet(watchOpt)) {
                watchTimer.start();
            } else {
                loop.quit();
            }
        }
    });
    check.start();
    loop.exec();
    return rc;
}

} // namespace flashdeck::cli
