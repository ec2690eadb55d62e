#include "backend/cli/statuscommand.h"

#include "backend/cli/cliapikey.h"
#include "backend/cli/exitcodes.h"
#include "backend/core/apppaths.h"
#include "backend/core/format.h"
#include "backend/core/settings.h"
#include "backend/core/stopsignals.h"
#include "backend/expose/gatewayrecord.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/inventory.h"
#include "backend/metrics/alertseverity.h"
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
#include <optional>
#include <variant>

namespace flashdeck::cli {

namespace {

const QString kStatusUsage = QStringLiteral("Usage: flashdeck status [HOST…] [--json] [--watch] [--interval SECONDS] "
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

namespace {

/** What `status` was asked: its options read and checked, the hosts found in the inventory. */
struct StatusRequest
{
    bool json = false;
    bool watch = false;
    int intervalMs = 2000;
    int timeoutMs = 30000;
    QStringList names; // the hosts named; empty: every one
    QList<fleet::HostEntry> hosts;
    std::optional<fleet::HostEntry> through; // carries the tunnel to a Prometheus reached through a host
    prom::PromConfig prom;
    std::optional<QString> pinsFile; // --pins
    metrics::AlertThresholds thresholds;
};

/** The options, checked; an exit code when they are wrong (said on stderr). */
std::variant<StatusRequest, int> readStatusRequest(const QStringList &args, CliContext &c)
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
        c.err << "flashdeck status: " << p.errorText() << '\n' << kStatusUsage << '\n';
        return ExitUsage;
    }
    StatusRequest r;
    r.json = p.isSet(jsonOpt);
    r.watch = p.isSet(watchOpt);
    r.intervalMs = std::max(1, p.value(intervalOpt).toInt()) * 1000;
    r.timeoutMs = std::max(1, p.value(timeoutOpt).toInt()) * 1000;
    r.names = p.positionalArguments().mid(1);
    r.prom = prom::PromConfig::fromSettings(Settings(c.paths));
    if (p.isSet(sourceOpt)) {
        const QString source = p.value(sourceOpt).toLower();
        if (source != QLatin1String("ssh") && source != QLatin1String("prometheus")) {
            c.err << "flashdeck status: "
                  << QCoreApplication::translate("Cli", "--source is ssh or prometheus, not \"%1\".\n")
                         .arg(p.value(sourceOpt));
            return ExitUsage;
        }
        r.prom.source = source == QLatin1String("ssh") ? prom::FleetSource::Ssh : prom::FleetSource::Prometheus;
    }
    if (p.isSet(promUrlOpt)) {
        r.prom.url = QUrl(p.value(promUrlOpt));
        r.prom.source = prom::FleetSource::Prometheus;
    }
    if (r.prom.source == prom::FleetSource::Prometheus) {
        if (const Status s = r.prom.check(); !s) {
            c.err << "flashdeck status: " << s.message() << '\n';
            return ExitUsage;
        }
    }
    if (p.isSet(pinsOpt)) {
        r.pinsFile = p.value(pinsOpt);
    }
    return r;
}

/** The alerts' thresholds and the fleet's pins; an exit code when --pins cannot be read. */
int readThresholds(StatusRequest &r, CliContext &c)
{
    r.thresholds = metrics::AlertThresholds::fromSettings(Settings(c.paths));
    if (r.pinsFile) {
        r.thresholds.usePinsFile(*r.pinsFile);
        if (!r.thresholds.pinsError.isEmpty()) {
            c.err << r.thresholds.pinsError << '\n';
            return ExitUsage;
        }
    } else if (!r.thresholds.pinsError.isEmpty()) {
        c.err << QCoreApplication::translate("Cli", "%1 (Settings → Fleet): pins are not compared.\n")
                     .arg(r.thresholds.pinsError);
    }
    return ExitOk;
}

/** The hosts asked for, from the inventory; an exit code when one is not there (said on stderr). */
int findHosts(StatusRequest &r, CliContext &c)
{
    fleet::Inventory inventory(c.paths.inventoryFile());
    if (Status s = inventory.load(); !s) {
        c.err << s.message() << '\n';
        return ExitCheckFailed;
    }
    for (const QString &name : std::as_const(r.names)) {
        const std::optional<fleet::HostEntry> h = inventory.find(name);
        if (!h) {
            c.err << QCoreApplication::translate(
                         "Cli", "No host named \"%1\" in the inventory (see 'flashdeck hosts list').\n")
                         .arg(name);
            return ExitUsage;
        }
        r.hosts.append(*h);
    }
    if (r.names.isEmpty()) {
        r.hosts = inventory.hosts();
    }
    const bool usePrometheus = r.prom.source == prom::FleetSource::Prometheus;
    if (r.hosts.isEmpty() && !usePrometheus) {
        c.err << QCoreApplication::translate("Cli", "No hosts yet: add one with 'flashdeck hosts add'.\n");
        return ExitUsage;
    }
    if (usePrometheus && !r.prom.throughHost.isEmpty()) {
        r.through = inventory.find(r.prom.throughHost);
    }
    return ExitOk;
}

/** A Prometheus reached through an inventory host needs that host; an exit code when it is not there. */
int checkThrough(const StatusRequest &r, CliContext &c)
{
    if (r.prom.source == prom::FleetSource::Prometheus && !r.prom.throughHost.isEmpty()) {
        if (!r.through) {
            c.err << "flashdeck status: "
                  << QCoreApplication::translate(
                         "Cli", "the Prometheus is reached through \"%1\", which is not in the inventory.\n")
                         .arg(r.prom.throughHost);
            return ExitUsage;
        }
    }
    return ExitOk;
}

/**
 * The operator's Prometheus, when it is the source: the hosts it knows come from it, the others
 * over SSH as always; when it cannot answer in time, every inventory host over SSH (said on stderr).
 */
void usePrometheus(fleet::FleetWatcher &fleet, const StatusRequest &r, CliContext &c)
{
    const StoredApiKey secret = r.prom.auth == prom::PromAuth::None
        ? StoredApiKey{}
        : storedSecret(QLatin1String(prom::PromConfig::kSecretKey), QStringLiteral("Prometheus"),
                       prom::PromConfig::kSecretEnv);
    if (r.prom.auth != prom::PromAuth::None && secret.key.isEmpty()) {
        c.err << (r.prom.auth == prom::PromAuth::Bearer
                      ? QCoreApplication::translate("Cli",
                                                    "No Prometheus token: %1; set %2 or save it in Settings → Fleet.\n")
                      : QCoreApplication::translate(
                            "Cli", "No Prometheus password: %1; set %2 or save it in Settings → Fleet.\n"))
                     .arg(secret.whyNone, QLatin1String(prom::PromConfig::kSecretEnv));
    }
    if (c.redactor && !secret.key.isEmpty()) {
        c.redactor->addSecret(secret.key);
    }
    QEventLoop first;
    QTimer::singleShot(r.timeoutMs + r.prom.timeoutMs, &first, &QEventLoop::quit);
    QObject::connect(&fleet, &fleet::FleetWatcher::prometheusRefreshed, &first, &QEventLoop::quit);
    fleet.usePrometheus(r.prom, secret.key, r.intervalMs);
    if (!fleet.prometheus()->answered()) {
        first.exec();
    }
    const prom::PromFleetSource *source = fleet.prometheus();
    if (!source->answered() || !source->error().isEmpty()) {
        c.err << (source->error().isEmpty() ? QCoreApplication::translate("Cli", "Prometheus gave no answer in time.")
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

/** A gateway record that cannot be read: whether the host is exposed is unknown, and how to settle it. */
QString unreadableGateway(const QString &host, const QString &why)
{
    return QCoreApplication::translate("Cli",
                                       "%1 Whether %2 is exposed is unknown: a gateway may still run there. "
                                       "'flashdeck unexpose %2' removes whatever gateway is there and the record.")
        .arg(why, host);
}

/** Prints every host once, as a table with notes or one JSON object each; false when one is not up. */
bool printStatusHosts(const fleet::FleetWatcher &fleet, const QStringList &order, qsizetype overSsh, bool json,
                      CliContext &c)
{
    bool allUp = true;
    QList<QStringList> rows;
    QStringList notes; // errors and alerts, under the table, by host
    for (const QString &name : order) {
        const metrics::HostStatus s = fleet.status(name);
        // Exporters Prometheus cannot scrape are a warning about them, not a host that is down.
        allUp = allUp && (s.state == metrics::HostState::Up || s.state == metrics::HostState::Unscraped);
        // What `expose` placed, as recorded: null only when no record is there. A record this
        // machine cannot read is {"error": words}: a gateway may well run, so never "not exposed".
        const auto gateway = expose::GatewayRecord::read(c.paths, name);
        const bool exposed = gateway && gateway.value().has_value();
        if (json) {
            nlohmann::json j = s.toJson();
            j["exposed"] = exposed ? gateway.value()->statusJson()
                : gateway          ? nlohmann::json()
                          : nlohmann::json{{"error", unreadableGateway(s.host, gateway.message()).toStdString()}};
            c.out << QString::fromStdString(j.dump()) << '\n';
            continue;
        }
        if (exposed) {
            const expose::GatewayRecord &g = *gateway.value();
            notes.append(QCoreApplication::translate("Cli", "%1: exposed at %2 to %3 (pin sha256//%4)")
                             .arg(s.host, g.url(), g.allow.join(QStringLiteral(", ")), g.publicKeySha256));
        } else if (!gateway) {
            notes.append(QStringLiteral("%1: %2").arg(s.host, unreadableGateway(s.host, gateway.message())));
        }
        rows.append(cells(s));
        if (!s.inInventory) {
            notes.append(QCoreApplication::translate("Cli",
                                                     "%1: known to Prometheus, not in the inventory (add it with "
                                                     "'flashdeck hosts add %1 USER@ADDRESS' to deploy there)")
                             .arg(s.host));
        }
        if (!s.error.isEmpty()) {
            notes.append(QStringLiteral("%1: %2").arg(s.host, s.error));
        }
        for (const metrics::Alert &a : s.alerts) {
            notes.append(QStringLiteral("%1: %2: %3").arg(s.host, metrics::severityWord(a.severity), a.message));
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
                         .arg(order.size() - overSsh)
                  << (overSsh == 0 ? QString() : QCoreApplication::translate("Cli", ", SSH for %1").arg(overSsh))
                  << ".\n";
        }
    }
    c.out.flush();
    return allUp;
}

/**
 * Waits for every SSH host's first answers (or the timeout), prints, and with --watch prints
 * again each interval until Ctrl+C. The exit code of the last print.
 */
int printUntilDone(fleet::FleetWatcher &fleet, const StatusRequest &r, const QStringList &order,
                   const QList<fleet::HostEntry> &overSsh, CliContext &c)
{
    const auto print = [&] {
        return printStatusHosts(fleet, order, overSsh.size(), r.json, c) ? ExitOk : ExitCheckFailed;
    };
    QEventLoop loop;
    QElapsedTimer waited;
    waited.start();
    QTimer check;
    check.setInterval(100);
    bool printedOnce = false;
    int rc = ExitOk;
    StopSignals stop;
    QObject::connect(&stop, &StopSignals::stopRequested, &loop, [&loop] { loop.quit(); });
    QTimer watchTimer;
    watchTimer.setInterval(r.intervalMs);
    QObject::connect(&watchTimer, &QTimer::timeout, &loop, [&] { rc = print(); });
    // --watch: Prometheus is asked again each interval; a refresh that fails is said on stderr, and
    // the hosts it watched are watched over SSH until it answers again.
    QObject::connect(&fleet, &fleet::FleetWatcher::prometheusRefreshed, &loop, [&] {
        if (printedOnce && fleet.prometheus() && !fleet.prometheus()->error().isEmpty()) {
            c.err << fleet.prometheus()->error() << ' '
                  << QCoreApplication::translate("Cli", "Watching over SSH until it answers.\n");
        }
    });
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        bool settled = true;
        for (const fleet::HostEntry &h : overSsh) {
            const metrics::HostMonitor *m = fleet.monitor(h.name);
            settled = settled && m && m->settled();
        }
        if (!printedOnce && (settled || waited.elapsed() > r.timeoutMs)) {
            printedOnce = true;
            check.stop();
            rc = print();
            if (r.watch) {
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

} // namespace

int runStatusCommand(const QStringList &args, CliContext &c)
{
    auto read = readStatusRequest(args, c);
    if (const int *rc = std::get_if<int>(&read)) {
        return *rc;
    }
    StatusRequest &r = std::get<StatusRequest>(read);
    for (const auto step : {&findHosts, &readThresholds}) {
        if (const int rc = step(r, c); rc != ExitOk) {
            return rc;
        }
    }
    if (const int rc = checkThrough(r, c); rc != ExitOk) {
        return rc;
    }
    // The same watcher as the Fleet page: one connection and one monitor per host, never a prompt
    // (host keys are accepted with `hosts check`), the deployment's API key from the keyring.
    security::SecretStore secrets;
    QList<fleet::HostEntry> watched = r.hosts;
    if (r.through && !r.names.isEmpty() && !r.names.contains(r.through->name)) {
        watched.append(*r.through); // its session carries the tunnel to Prometheus
    }
    fleet::FleetWatcher fleet(c.paths, r.thresholds, &secrets);
    fleet.setHosts(watched);
    if (r.prom.source == prom::FleetSource::Prometheus) {
        usePrometheus(fleet, r, c);
    }
    QList<fleet::HostEntry> overSsh;
    QStringList order;
    for (const fleet::HostEntry &h : std::as_const(r.hosts)) {
        order.append(h.name);
        if (!fleet.watchedByPrometheus(h.name)) {
            overSsh.append(h);
        }
    }
    // Hosts only Prometheus knows: listed after the inventory's (all of them, unless hosts were named).
    const QStringList onlyInPrometheus = r.names.isEmpty() ? fleet.prometheusOnlyHosts() : QStringList();
    if (r.hosts.isEmpty() && onlyInPrometheus.isEmpty()) {
        c.err << QCoreApplication::translate("Cli", "No hosts: the inventory has none and Prometheus named none.\n");
        return ExitCheckFailed;
    }
    order.append(onlyInPrometheus);
    return printUntilDone(fleet, r, order, overSsh, c);
}

} // namespace flashdeck::cli
