#include "ui/fleet/fleetmodel.h"

#include "backend/core/format.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/metrics/alertseverity.h"
#include "backend/metrics/hostmonitor.h"
#include "ui/fleet/teamaccess.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QIcon>
#include <QTimer>

namespace flashdeck::ui {

namespace {

/** Docker's container states (the Engine API's State.Status) in the language spoken; others as Docker says. */
QString dockerStateText(const QString &state)
{
    static const char *const kStates[][2] = {
        {"created", QT_TRANSLATE_NOOP("DockerState", "created")},
        {"running", QT_TRANSLATE_NOOP("DockerState", "running")},
        {"paused", QT_TRANSLATE_NOOP("DockerState", "paused")},
        {"restarting", QT_TRANSLATE_NOOP("DockerState", "restarting")},
        {"removing", QT_TRANSLATE_NOOP("DockerState", "removing")},
        {"exited", QT_TRANSLATE_NOOP("DockerState", "exited")},
        {"dead", QT_TRANSLATE_NOOP("DockerState", "dead")},
    };
    for (const auto &[name, words] : kStates) {
        if (state == QLatin1String(name)) {
            return QCoreApplication::translate("DockerState", words);
        }
    }
    return state;
}

QIcon icon(const char *name)
{
    return QIcon(QStringLiteral(":/icons/status-%1.svg").arg(QLatin1String(name)));
}

int severityRank(const QString &s)
{
    return s == QLatin1String("critical") ? 2 : (s == QLatin1String("warning") ? 1 : 0);
}

} // namespace

FleetModel::FleetModel(fleet::FleetWatcher &watcher, QObject *parent)
    : QAbstractTableModel(parent)
    , m_watcher(watcher)
    , m_team(new TeamAccess(watcher.paths(), this))
    , m_clock(new QTimer(this))
{
    connect(m_team, &TeamAccess::changed, this, [this](const QString &host) {
        const int row = int(m_hosts.indexOf(host));
        if (row >= 0) {
            Q_EMIT dataChanged(index(row, Team), index(row, Team));
        }
    });
    connect(&m_watcher, &fleet::FleetWatcher::hostsChanged, this, &FleetModel::reset);
    connect(&m_watcher, &fleet::FleetWatcher::statusChanged, this, &FleetModel::hostChanged);
    // A Prometheus refresh changes every host it watches at once: one change for the whole table
    // (a sorted view re-sorts once, not once per host).
    connect(&m_watcher, &fleet::FleetWatcher::prometheusRefreshed, this, [this] {
        if (!m_hosts.isEmpty()) {
            Q_EMIT dataChanged(index(0, 0), index(int(m_hosts.size()) - 1, ColumnCount - 1));
        }
    });
    m_clock->setInterval(1000);
    connect(m_clock, &QTimer::timeout, this, [this] {
        if (!m_hosts.isEmpty()) {
            Q_EMIT dataChanged(index(0, Updated), index(int(m_hosts.size()) - 1, Updated), {Qt::DisplayRole});
        }
    });
    m_clock->start();
    m_hosts = m_watcher.fleetHosts();
    m_team->setHosts(m_hosts);
}

void FleetModel::reset()
{
    const QStringList now = m_watcher.fleetHosts();
    m_team->setHosts(now);
    // Hosts added or removed (from the command line, say) while the others keep their order: rows
    // come and go one by one, and the table keeps its selection and scroll position. A reset
    // cleared the operator's selection every time a host was added elsewhere.
    QStringList staying;
    for (const QString &h : std::as_const(m_hosts)) {
        if (now.contains(h)) {
            staying.append(h);
        }
    }
    QStringList stayingInNew;
    for (const QString &h : now) {
        if (m_hosts.contains(h)) {
            stayingInNew.append(h);
        }
    }
    if (staying != stayingInNew) {
        beginResetModel();
        m_hosts = now;
        endResetModel();
        return;
    }
    for (int row = int(m_hosts.size()) - 1; row >= 0; --row) {
        if (!now.contains(m_hosts.at(row))) {
            beginRemoveRows({}, row, row);
            m_hosts.removeAt(row);
            endRemoveRows();
        }
    }
    // What is left keeps the new order, so each place where it differs is a new host's.
    for (int row = 0; row < int(now.size()); ++row) {
        if (row >= int(m_hosts.size()) || m_hosts.at(row) != now.at(row)) {
            beginInsertRows({}, row, row);
            m_hosts.insert(row, now.at(row));
            endInsertRows();
        }
    }
    if (!m_hosts.isEmpty()) {
        Q_EMIT dataChanged(index(0, 0), index(int(m_hosts.size()) - 1, ColumnCount - 1));
    }
}

void FleetModel::hostChanged(const QString &host)
{
    if (m_watcher.watchedByPrometheus(host)) {
        return; // its change comes with the refresh's (prometheusRefreshed)
    }
    const int row = int(m_hosts.indexOf(host));
    if (row >= 0) {
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
}

int FleetModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_hosts.size());
}

int FleetModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString FleetModel::hostAt(int row) const
{
    return m_hosts.value(row);
}

QVariant FleetModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case State:
        return tr("State");
    case Host:
        return tr("Host");
    case Gpus:
        return tr("GPUs");
    case Pins:
        //: Column: the image digest and model revision a host runs (固定版本).
        return tr("Pins");
    case Container:
        return tr("Container");
    case Health:
        return tr("Health");
    case Team:
        //: Column: whether the server is open to colleagues through Flashdeck's gateway.
        return tr("Team");
    case KvUse:
        return tr("KV use");
    case Queue:
        return tr("Queue");
    case Throughput:
        return tr("Throughput");
    case Errors:
        return tr("Errors");
    case GpuMemory:
        return tr("GPU memory");
    case Disk:
        return tr("Disk free");
    case Updated:
        return tr("Updated");
    case Alerts:
        return tr("Alerts");
    default:
        return {};
    }
}

namespace {

using metrics::HostStatus;

/** The worst severity of the host's alerts; empty when none. */
QString worstSeverity(const HostStatus &s)
{
    QString worst;
    for (const metrics::Alert &a : s.alerts) {
        if (worst.isEmpty() || severityRank(a.severity) > severityRank(worst)) {
            worst = a.severity;
        }
    }
    return worst;
}

QVariant stateData(const HostStatus &s, int role)
{
    if (role == Qt::DisplayRole) {
        return metrics::hostStateText(s.state);
    }
    if (role == Qt::DecorationRole) {
        return s.state == metrics::HostState::Up        ? icon("pass")
            : s.state == metrics::HostState::Connecting ? icon("running")
            : s.state == metrics::HostState::Unscraped  ? icon("warn")
                                                        : icon("fail");
    }
    if (role == Qt::ToolTipRole) {
        return s.error.isEmpty() ? QVariant() : QVariant(s.error);
    }
    if (role == FleetModel::SortRole) {
        return s.state == metrics::HostState::Up ? 0 : 1;
    }
    return {};
}

QVariant hostData(const QString &host, const fleet::HostEntry *entry, const HostStatus &s, int role)
{
    if (role == Qt::DisplayRole || role == FleetModel::SortRole) {
        if (role == Qt::DisplayRole && !entry) {
            return FleetModel::tr("%1  · not in the inventory").arg(host);
        }
        return entry && entry->simulated && role == Qt::DisplayRole ? host + FleetModel::tr("  · SIMULATED") : host;
    }
    if (role == Qt::ToolTipRole) {
        const QString from = s.source == QLatin1String("prometheus") ? FleetModel::tr("Figures from Prometheus.")
                                                                     : FleetModel::tr("Figures over SSH.");
        return entry ? QStringLiteral("%1\n%2").arg(entry->sshSpec(), from)
                     : FleetModel::tr("Known to Prometheus, not in the inventory: add it (Settings → Hosts) to deploy, "
                                      "follow logs or chat there.");
    }
    return {};
}

QVariant gpusData(const HostStatus &s, int role)
{
    if (role == Qt::DisplayRole) {
        if (s.gpus.isEmpty()) {
            return s.gpuError.isEmpty() ? fmt::unknown() : FleetModel::tr("none readable");
        }
        return QStringLiteral("%1 × %2").arg(s.gpus.size()).arg(s.gpus.first().name);
    }
    if (role == Qt::ToolTipRole && !s.gpuError.isEmpty()) {
        return s.gpuError;
    }
    if (role == FleetModel::SortRole) {
        return int(s.gpus.size());
    }
    return {};
}

QVariant pinsData(const HostStatus &s, const metrics::AlertThresholds &fleet, int role)
{
    const std::optional<recipe::Pins> &wanted = fleet.pins;
    const auto drift = std::find_if(s.alerts.cbegin(), s.alerts.cend(),
                                    [](const metrics::Alert &a) { return a.id == QLatin1String("pins-drift"); });
    if (role == Qt::DisplayRole || role == FleetModel::SortRole) {
        if (!s.pins) {
            // A deployment that never reached its pins still has a profile; an undeployed one
            // runs nothing (its profile there read as if it still ran).
            if (role == FleetModel::SortRole) {
                return QString();
            }
            return s.undeployed ? FleetModel::tr("undeployed") : s.profile.isEmpty() ? fmt::unknown() : s.profile;
        }
        // The digest's and the commit's first seven hex digits (git's short form): enough to tell
        // builds apart at a glance; the tooltip has them whole.
        const QString pins =
            QStringLiteral("%1 · %2").arg(s.pins->imageDigest.mid(7, 7), s.pins->modelRevision.left(7));
        if (role == FleetModel::SortRole) {
            return QString((drift != s.alerts.cend() ? QStringLiteral("0") : QStringLiteral("1")) + pins);
        }
        return drift != s.alerts.cend() ? FleetModel::tr("%1 · drift").arg(pins) : pins;
    }
    if (role == Qt::DecorationRole && s.pins && wanted) {
        return drift != s.alerts.cend() ? icon("warn") : icon("pass");
    }
    if (role == Qt::ToolTipRole && s.pins) {
        QString tip = FleetModel::tr("Profile %1\nImage digest %2\nModel revision %3")
                          .arg(s.pins->profile, s.pins->imageDigest, s.pins->modelRevision);
        if (drift != s.alerts.cend()) {
            tip += QLatin1Char('\n') + drift->message;
        } else if (wanted) {
            tip += QLatin1Char('\n') + FleetModel::tr("The same as %1").arg(fleet.pinsFile);
        } else {
            tip += QLatin1Char('\n') +
                FleetModel::tr("Choose the fleet's pins file in Settings to flag hosts that differ.");
        }
        return tip;
    }
    return {};
}

QVariant containerData(const HostStatus &s, int role)
{
    if (role == Qt::DisplayRole) {
        return s.container ? dockerStateText(s.container->state)
                           : (s.containerKnown ? FleetModel::tr("none") : fmt::unknown());
    }
    if (role == Qt::DecorationRole) {
        switch (FleetModel::containerMark(s)) {
        case FleetModel::ContainerMark::None:
            return {};
        case FleetModel::ContainerMark::Up:
            return icon("pass");
        case FleetModel::ContainerMark::Underway:
            return icon("running");
        case FleetModel::ContainerMark::Down:
            return icon("fail");
        }
    }
    if (role == Qt::ToolTipRole && s.container) {
        //: A container's name, then its status in Docker's own words ("Up 2 seconds").
        return FleetModel::tr("%1 — Docker: %2").arg(s.container->name, s.container->status);
    }
    if (role == FleetModel::SortRole) {
        return s.container ? s.container->state : QString();
    }
    return {};
}

QVariant healthData(const HostStatus &s, int role)
{
    if (role == Qt::DisplayRole) {
        if (s.health == metrics::ServerHealth::Unknown && s.containerKnown && !s.container) {
            return FleetModel::tr("no deployment");
        }
        return s.health == metrics::ServerHealth::Unknown ? fmt::unknown() : metrics::serverHealthText(s.health);
    }
    if (role == Qt::DecorationRole && s.health != metrics::ServerHealth::Unknown) {
        return s.health == metrics::ServerHealth::Ok      ? icon("pass")
            : s.health == metrics::ServerHealth::Starting ? icon("running")
                                                          : icon("fail");
    }
    if (role == FleetModel::SortRole) {
        return metrics::serverHealthName(s.health);
    }
    return {};
}

QVariant teamData(const TeamAccess::State &team, const HostStatus &s, int role)
{
    if (!team) {
        if (role == Qt::DisplayRole) {
            return fmt::unknown();
        }
        return role == Qt::ToolTipRole ? QVariant(team.message()) : QVariant();
    }
    const std::optional<expose::GatewayRecord> &g = team.value();
    if (!g && (s.profile.isEmpty() || s.undeployed)) {
        return role == Qt::DisplayRole ? QVariant(fmt::unknown()) : QVariant(); // no server to open
    }
    if (role == Qt::DisplayRole) {
        //: The server is reachable only from the host itself (and through Flashdeck's SSH tunnels).
        return g ? FleetModel::tr("open :%1").arg(g->port) : FleetModel::tr("loopback");
    }
    if (role == Qt::ToolTipRole) {
        return g ? FleetModel::tr("Open to the team at %1 through Flashdeck's gateway\nAllowed networks: %2\n"
                                  "Public-key pin: sha256//%3")
                       .arg(g->url(), g->allow.join(QStringLiteral(", ")), g->publicKeySha256)
                 : FleetModel::tr("The server listens on the host's loopback only. Deploy page → Open to the team… "
                                  "lets colleagues in through a TLS gateway.");
    }
    if (role == FleetModel::SortRole) {
        return g ? g->url() : QString();
    }
    return {};
}

/** The server's figures: KV use, queue, throughput, errors (sparklines from the SSH monitor). */
QVariant serverData(int column, const HostStatus &s, const metrics::HostMonitor *monitor, int role)
{
    const metrics::ServerSnapshot srv = s.server.value_or(metrics::ServerSnapshot{});
    const bool sort = role == FleetModel::SortRole;
    switch (column) {
    case FleetModel::KvUse:
        if (role == Qt::DisplayRole) {
            return fmt::percent(srv.tokenUsage, 1);
        }
        if (role == Qt::ToolTipRole && srv.usedTokens) {
            return FleetModel::tr("%1 of %2").arg(fmt::tokens(srv.usedTokens), fmt::tokens(srv.maxTokens));
        }
        if (role == FleetModel::SeriesRole && monitor) {
            return QVariant::fromValue(quintptr(monitor->series(QStringLiteral("kv.usage"))));
        }
        return sort ? QVariant(srv.tokenUsage.value_or(-1)) : QVariant();
    case FleetModel::Queue:
        if (role == Qt::DisplayRole) {
            return srv.queued ? QString::number(*srv.queued, 'f', 0) : fmt::unknown();
        }
        if (role == Qt::ToolTipRole && srv.running) {
            return FleetModel::tr("%1 running, %2 queued").arg(*srv.running).arg(srv.queued.value_or(0));
        }
        return sort ? QVariant(srv.queued.value_or(-1)) : QVariant();
    case FleetModel::Throughput:
        if (role == Qt::DisplayRole) {
            return fmt::tokensPerSecond(srv.genThroughput);
        }
        if (role == FleetModel::SeriesRole && monitor) {
            return QVariant::fromValue(quintptr(monitor->series(QStringLiteral("server.throughput"))));
        }
        return sort ? QVariant(srv.genThroughput.value_or(-1)) : QVariant();
    default: // Errors
        if (role == Qt::DisplayRole) {
            return fmt::percent(s.rates.errorRate, 1);
        }
        return sort ? QVariant(s.rates.errorRate.value_or(-1)) : QVariant();
    }
}

/** The host's own figures: GPU memory, free disk, when it was last heard. */
QVariant resourceData(int column, const HostStatus &s, int role)
{
    const bool sort = role == FleetModel::SortRole;
    switch (column) {
    case FleetModel::GpuMemory: {
        double used = 0;
        double total = 0;
        for (const probe::GpuSample &g : s.gpus) {
            used += double(g.memoryUsedMiB.value_or(0));
            total += double(g.memoryTotalMiB.value_or(0));
        }
        if (role == Qt::DisplayRole) {
            return s.gpus.isEmpty() || total <= 0 ? fmt::unknown() : fmt::gibOf(used, total);
        }
        return sort ? QVariant(total > 0 ? used / total : -1.0) : QVariant();
    }
    case FleetModel::Disk:
        if (role == Qt::DisplayRole) {
            return fmt::gigabytes(s.diskFreeBytes);
        }
        return sort ? QVariant(s.diskFreeBytes.value_or(-1)) : QVariant();
    default: // Updated
        if (role == Qt::DisplayRole) {
            return fmt::ago(s.updatedMs, QDateTime::currentMSecsSinceEpoch());
        }
        if (role == Qt::ToolTipRole && s.updatedMs > 0) {
            return QDateTime::fromMSecsSinceEpoch(s.updatedMs).toString(Qt::ISODate);
        }
        return sort ? QVariant(s.updatedMs) : QVariant();
    }
}

QVariant alertsData(const HostStatus &s, int role)
{
    const QString worst = worstSeverity(s);
    if (role == Qt::DisplayRole) {
        if (s.alerts.isEmpty()) {
            return FleetModel::tr("none");
        }
        return s.alerts.size() == 1
            ? s.alerts.first().message
            : FleetModel::tr("%1 alerts: %2").arg(s.alerts.size()).arg(s.alerts.first().message);
    }
    if (role == Qt::DecorationRole && !worst.isEmpty()) {
        return worst == QLatin1String("critical") ? icon("fail")
            : worst == QLatin1String("warning")   ? icon("warn")
                                                  : icon("running"); // an upgrade runs: planned
    }
    if (role == Qt::ToolTipRole && !s.alerts.isEmpty()) {
        QStringList lines;
        for (const metrics::Alert &a : s.alerts) {
            lines.append(QStringLiteral("%1: %2").arg(metrics::severityWord(a.severity), a.message));
        }
        return lines.join(QLatin1Char('\n'));
    }
    if (role == FleetModel::SortRole || role == FleetModel::SeverityRole) {
        return severityRank(worst) * 1000 + int(s.alerts.size());
    }
    return {};
}

} // namespace

QVariant FleetModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_hosts.size()) {
        return {};
    }
    const QString host = m_hosts.at(index.row());
    if (role == HostRole) {
        return host;
    }
    const int column = index.column();
    if (role == Qt::TextAlignmentRole) {
        const bool alignRight = column >= KvUse && column <= Disk;
        return alignRight ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    }
    const metrics::HostStatus s = m_watcher.status(host);
    switch (column) {
    case State:
        return stateData(s, role);
    case Host:
        return hostData(host, m_watcher.entry(host), s, role);
    case Gpus:
        return gpusData(s, role);
    case Pins:
        return pinsData(s, m_watcher.thresholds(), role);
    case Container:
        return containerData(s, role);
    case Health:
        return healthData(s, role);
    case Team:
        return teamData(m_team->of(host), s, role);
    case KvUse:
    case Queue:
    case Throughput:
    case Errors:
        // Sparklines from the SSH monitor's own history (a host Prometheus watches has its charts
        // on the Metrics page).
        return serverData(column, s, m_watcher.watchedByPrometheus(host) ? nullptr : m_watcher.monitor(host), role);
    case GpuMemory:
    case Disk:
    case Updated:
        return resourceData(column, s, role);
    case Alerts:
        return alertsData(s, role);
    default:
        return {};
    }
}

FleetModel::ContainerMark FleetModel::containerMark(const metrics::HostStatus &s)
{
    if (!s.container) {
        return ContainerMark::None;
    }
    if (s.container->state == QLatin1String("running")) {
        return ContainerMark::Up;
    }
    // A run puts the container through created (create, then start) and, for an upgrade,
    // exited and removed while the new one comes: on its way, not down.
    return s.deployRunning || s.upgradeRunning ? ContainerMark::Underway : ContainerMark::Down;
}

} // namespace flashdeck::ui
