#include "ui/pages/fleetpage.h"

#include "backend/core/format.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/metrics/alertseverity.h"
#include "backend/metrics/hostmonitor.h"
#include "backend/prometheus/promfleetsource.h"
#include "ui/deploy/upgradedialog.h"
#include "ui/fleet/fleetmodel.h"
#include "ui/fleet/sparklinedelegate.h"
#include "ui/fleet/upgradepanel.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace flashdeck::ui {

FleetPage::FleetPage(fleet::FleetWatcher &watcher, QWidget *parent)
    : QWidget(parent)
    , m_watcher(watcher)
    , m_model(new FleetModel(watcher, this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_stack(new QStackedWidget(this))
    , m_table(new QTableView(this))
    , m_alerts(new QTreeWidget(this))
    , m_summary(new QLabel(this))
    , m_filter(new QLineEdit(this))
    , m_coalesce(new QTimer(this))
{
    setObjectName(QStringLiteral("fleetPage"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    buildHeader(layout);
    QWidget *empty = buildEmptyState();
    buildTable();
    QSplitter *split = buildAlerts();
    m_stack->addWidget(empty);
    m_stack->addWidget(split);
    layout->addWidget(m_stack, 1);
    watchFleet();
    buildAddKnown();
    refreshSummary();
    refreshAlerts();
}

void FleetPage::buildHeader(QVBoxLayout *layout)
{
    auto *header = new QHBoxLayout;
    auto *title = new QLabel(tr("<b>Fleet</b>"), this);
    QFont f = title->font();
    f.setPointSizeF(f.pointSizeF() * 1.25);
    title->setFont(f);
    m_summary->setObjectName(QStringLiteral("fleetSummary"));
    m_filter->setObjectName(QStringLiteral("fleetFilter"));
    m_filter->setAccessibleName(tr("Filter hosts"));
    m_filter->setPlaceholderText(tr("Filter hosts, GPUs, states…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setMaximumWidth(280);
    header->addWidget(title);
    header->addSpacing(12);
    header->addWidget(m_summary, 1);
    header->addWidget(m_filter);
    m_header = header;
    layout->addLayout(header);
    // Where the figures come from, when Prometheus is the fleet's source (Settings → Fleet).
    m_source = new QLabel(this);
    m_source->setObjectName(QStringLiteral("fleetSource"));
    m_source->setWordWrap(true);
    m_source->hide();
    layout->addWidget(m_source);
}

QWidget *FleetPage::buildEmptyState()
{
    // Empty state: what to do first.
    auto *empty = new QWidget(this);
    auto *emptyLayout = new QVBoxLayout(empty);
    emptyLayout->addStretch(1);
    auto *emptyText = new QLabel(tr("<h3>No hosts yet</h3><p>Add a GPU server you reach over SSH, or try the "
                                    "simulated 4 × B300 demo host to see everything work first.</p>"),
                                 empty);
    emptyText->setAlignment(Qt::AlignCenter);
    emptyText->setWordWrap(true);
    auto *buttons = new QHBoxLayout;
    auto *add = new QPushButton(tr("Add host…"), empty);
    add->setObjectName(QStringLiteral("fleetAddHost"));
    auto *demo = new QPushButton(tr("Try the demo host"), empty);
    demo->setObjectName(QStringLiteral("fleetTryDemo"));
    buttons->addStretch(1);
    buttons->addWidget(add);
    buttons->addWidget(demo);
    buttons->addStretch(1);
    emptyLayout->addWidget(emptyText);
    emptyLayout->addLayout(buttons);
    emptyLayout->addStretch(2);
    connect(add, &QPushButton::clicked, this, &FleetPage::addHostRequested);
    connect(demo, &QPushButton::clicked, this, &FleetPage::demoRequested);
    return empty;
}

void FleetPage::buildTable()
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(FleetModel::SortRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    m_table->setObjectName(QStringLiteral("fleetTable"));
    m_table->setAccessibleName(tr("Hosts"));
    m_table->setAccessibleDescription(tr("One row per host: state, GPUs, pins, server health and load"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(FleetModel::Host, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection); // several hosts: a rolling upgrade
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    auto *spark = new SparklineDelegate(m_table);
    m_table->setItemDelegateForColumn(FleetModel::KvUse, spark);
    m_table->setItemDelegateForColumn(FleetModel::Throughput, spark);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 14);
    // What matters fits a 1366 px screen without sideways scrolling (issue 23): the widths below
    // add up to about 1 150 px with "Updated" hidden (the last, Alerts, takes the rest); longer texts are elided (the
    // tooltip and the Metrics page have them whole), and the header's context menu hides or shows any column.
    const QList<std::pair<int, int>> widths{
        {FleetModel::State, 70},      {FleetModel::Host, 120},     {FleetModel::Gpus, 96},
        {FleetModel::Pins, 126},      {FleetModel::Container, 64}, {FleetModel::Health, 100},
        {FleetModel::Team, 70},       {FleetModel::KvUse, 84},     {FleetModel::Queue, 46},
        {FleetModel::Throughput, 88}, {FleetModel::Errors, 42},    {FleetModel::GpuMemory, 112},
        {FleetModel::Disk, 68},       {FleetModel::Updated, 70},   {FleetModel::Alerts, 60}};
    for (const auto &[column, width] : widths) {
        m_table->setColumnWidth(column, width);
    }
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_table->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table->horizontalHeader(), &QWidget::customContextMenuRequested, this, &FleetPage::chooseColumns);
    setHiddenColumns({columnKey(FleetModel::Updated)});
    connect(m_table, &QTableView::doubleClicked, this,
            [this](const QModelIndex &i) { Q_EMIT openHost(i.data(FleetModel::HostRole).toString()); });
}

QSplitter *FleetPage::buildAlerts()
{
    m_alerts->setObjectName(QStringLiteral("fleetAlerts"));
    m_alerts->setAccessibleName(tr("Alerts"));
    m_alerts->setHeaderLabels({tr("Severity"), tr("Host"), tr("Alert"), tr("Since"), tr("Last seen")});
    m_alerts->setRootIsDecorated(false);
    m_alerts->setAlternatingRowColors(true);
    m_alerts->setColumnWidth(0, 110);
    m_alerts->setColumnWidth(1, 150);
    m_alerts->setColumnWidth(2, 560);
    m_alerts->setColumnWidth(3, 110);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    auto *alertBox = new QWidget(split);
    m_alertBox = alertBox;
    m_split = split;
    auto *alertLayout = new QVBoxLayout(alertBox);
    alertLayout->setContentsMargins(0, 8, 0, 0);
    alertLayout->addWidget(new QLabel(tr("<b>Alerts</b> — active now, worst first; ended ones greyed"), alertBox));
    alertLayout->addWidget(m_alerts);
    split->addWidget(alertBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    return split;
}

void FleetPage::watchFleet()
{
    m_coalesce->setSingleShot(true);
    m_coalesce->setInterval(250);
    connect(m_coalesce, &QTimer::timeout, this, [this] {
        refreshSummary();
        refreshAlerts();
    });
    connect(&m_watcher, &fleet::FleetWatcher::statusChanged, m_coalesce, [this] {
        if (!m_coalesce->isActive()) {
            m_coalesce->start();
        }
    });
    connect(&m_watcher, &fleet::FleetWatcher::hostsChanged, this, [this] {
        refreshSummary();
        refreshAlerts();
    });
    connect(&m_watcher, &fleet::FleetWatcher::prometheusRefreshed, this, &FleetPage::refreshSource);
}

void FleetPage::buildAddKnown()
{
    // A host only Prometheus knows can join the inventory (to deploy, follow logs, chat there).
    m_addKnown = new QPushButton(tr("Add to inventory…"), this);
    m_addKnown->setObjectName(QStringLiteral("fleetAddKnownHost"));
    m_addKnown->setToolTip(tr("Add the selected host, which Prometheus knows and the inventory does not"));
    m_addKnown->hide();
    m_header->addWidget(m_addKnown);
    const auto knownOnly = [this] {
        const QStringList hosts = selectedHosts();
        return hosts.size() == 1 && !m_watcher.entry(hosts.first()) ? hosts.first() : QString();
    };
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this, knownOnly] { m_addKnown->setVisible(!knownOnly().isEmpty()); });
    connect(m_addKnown, &QPushButton::clicked, this, [this, knownOnly] {
        if (const QString host = knownOnly(); !host.isEmpty()) {
            Q_EMIT addKnownHostRequested(host);
        }
    });
}

void FleetPage::refreshSummary()
{
    const QStringList hosts = m_watcher.fleetHosts();
    m_stack->setCurrentIndex(hosts.isEmpty() ? 0 : 1);
    int up = 0;
    int alerts = 0;
    int gpus = 0;
    for (const QString &h : hosts) {
        const metrics::HostStatus s = m_watcher.status(h);
        up += s.state == metrics::HostState::Up ? 1 : 0;
        alerts += int(s.alerts.size());
        gpus += int(s.gpus.size());
    }
    m_summary->setText(tr("%n host(s)", nullptr, int(hosts.size())) + QStringLiteral(" · ") + tr("%1 up").arg(up) +
                       QStringLiteral(" · ") + tr("%n GPU(s)", nullptr, gpus) + QStringLiteral(" · ") +
                       (alerts == 0 ? tr("no alerts") : tr("%n alert(s)", nullptr, alerts)));
}

void FleetPage::refreshSource()
{
    const prom::PromFleetSource *source = m_watcher.prometheus();
    m_source->setVisible(source && source->answered());
    if (!source || !source->answered() || !source->error().isEmpty()) {
        m_addKnown->hide(); // no host only Prometheus knows is listed now
    }
    if (!source || !source->answered()) {
        return;
    }
    const QString where = source->config().url.toString(QUrl::RemoveUserInfo);
    if (!source->error().isEmpty()) {
        m_source->setText(
            tr("⚠ %1 Every host is watched over SSH until Prometheus answers again.").arg(source->error()));
        return;
    }
    int fromPrometheus = 0;
    for (const QString &h : m_watcher.fleetHosts()) {
        fromPrometheus += m_watcher.watchedByPrometheus(h) ? 1 : 0;
    }
    const int overSsh = int(m_watcher.fleetHosts().size()) - fromPrometheus;
    QString text = tr("Figures from Prometheus at %1 for %n host(s)", nullptr, fromPrometheus).arg(where);
    if (overSsh > 0) {
        text += tr(", over SSH for %n", nullptr, overSsh);
    }
    text += tr(" · refreshed in %1 ms").arg(source->lastRefreshMs());
    if (!source->warnings().isEmpty()) {
        text += QStringLiteral(" · ⚠ ") + source->warnings().join(QStringLiteral("; "));
    }
    m_source->setText(text);
}

void FleetPage::refreshAlerts()
{
    struct Row
    {
        QString host;
        metrics::Alert alert;
        bool active;
    };
    QList<Row> rows;
    for (const QString &h : m_watcher.fleetHosts()) {
        if (m_watcher.watchedByPrometheus(h)) {
            for (const metrics::Alert &a : m_watcher.status(h).alerts) {
                rows.append({h, a, true});
            }
        } else if (const metrics::HostMonitor *m = m_watcher.monitor(h)) {
            for (const metrics::Alert &a : m->alerts().active()) {
                rows.append({h, a, true});
            }
            for (const metrics::Alert &a : m->alerts().history().mid(0, 20)) {
                rows.append({h, a, false});
            }
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        if (a.active != b.active) {
            return a.active;
        }
        const bool ac = a.alert.severity == QLatin1String("critical");
        const bool bc = b.alert.severity == QLatin1String("critical");
        if (ac != bc) {
            return ac;
        }
        return a.alert.lastMs > b.alert.lastMs;
    });
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_alerts->clear();
    for (const Row &r : rows) {
        auto *item = new QTreeWidgetItem(m_alerts);
        const QString icon = r.alert.severity == QLatin1String("critical") ? QStringLiteral("fail")
            : r.alert.severity == QLatin1String("warning")                 ? QStringLiteral("warn")
                                                                           : QStringLiteral("running"); // planned
        item->setIcon(0, QIcon(QStringLiteral(":/icons/status-%1.svg").arg(icon)));
        const QString severity = metrics::severityWord(r.alert.severity);
        item->setText(0, r.active ? severity : tr("%1 (ended)").arg(severity));
        item->setText(1, r.host);
        item->setText(2, r.alert.message);
        item->setText(3, fmt::ago(r.alert.sinceMs, now));
        item->setToolTip(3, QDateTime::fromMSecsSinceEpoch(r.alert.sinceMs).toString(Qt::ISODate));
        item->setText(4, fmt::ago(r.alert.lastMs, now));
        item->setToolTip(4, QDateTime::fromMSecsSinceEpoch(r.alert.lastMs).toString(Qt::ISODate));
        if (!r.active) {
            for (int c = 0; c < 5; ++c) {
                item->setForeground(c, palette().brush(QPalette::Disabled, QPalette::Text));
            }
        }
    }
    if (rows.isEmpty()) {
        auto *item = new QTreeWidgetItem(m_alerts);
        item->setIcon(0, QIcon(QStringLiteral(":/icons/status-pass.svg")));
        item->setText(0, tr("all clear"));
        item->setText(2, tr("No alert on any host"));
    }
}

QString FleetPage::columnKey(int column)
{
    static const char *const keys[] = {"state",  "host",       "gpus", "pins",    "container",
                                       "health", "team",       "kv",   "queue",   "throughput",
                                       "errors", "gpu-memory", "disk", "updated", "alerts"};
    return column >= 0 && column < int(std::size(keys)) ? QString::fromLatin1(keys[column]) : QString();
}

QStringList FleetPage::hiddenColumns() const
{
    QStringList keys;
    for (int c = 0; c < FleetModel::ColumnCount; ++c) {
        if (m_table->isColumnHidden(c)) {
            keys.append(columnKey(c));
        }
    }
    return keys;
}

void FleetPage::setHiddenColumns(const QStringList &keys)
{
    for (int c = 0; c < FleetModel::ColumnCount; ++c) {
        // The host's name is what every row is: it never goes.
        m_table->setColumnHidden(c, c != FleetModel::Host && keys.contains(columnKey(c)));
    }
}

void FleetPage::chooseColumns(const QPoint &at)
{
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("fleetColumns"));
    for (int c = 0; c < FleetModel::ColumnCount; ++c) {
        if (c == FleetModel::Host) {
            continue;
        }
        QAction *a = menu.addAction(m_model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
        a->setCheckable(true);
        a->setChecked(!m_table->isColumnHidden(c));
        connect(a, &QAction::toggled, this, [this, c](bool shown) {
            m_table->setColumnHidden(c, !shown);
            Q_EMIT hiddenColumnsChanged(hiddenColumns());
        });
    }
    menu.exec(m_table->horizontalHeader()->mapToGlobal(at));
}

void FleetPage::enableUpgrades(const AppPaths &paths, security::Redactor &redactor)
{
    if (m_upgrade) {
        return;
    }
    m_upgrade = new QPushButton(tr("Upgrade…"), this);
    m_upgrade->setObjectName(QStringLiteral("fleetUpgrade"));
    m_upgrade->setToolTip(tr("Move the selected hosts to another image digest or model revision, in turn; each rolls "
                             "back on any failure and no other host starts after a rollback"));
    m_header->addWidget(m_upgrade);
    m_upgrades = new UpgradePanel(m_watcher, paths, redactor, m_split);
    m_split->addWidget(m_upgrades);
    connect(m_upgrade, &QPushButton::clicked, this, &FleetPage::upgradeSelected);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &FleetPage::updateUpgradeButton);
    connect(m_upgrades, &UpgradePanel::finished, this, &FleetPage::updateUpgradeButton);
    updateUpgradeButton();
}

QStringList FleetPage::selectedHosts() const
{
    QStringList hosts;
    for (const QModelIndex &row : m_table->selectionModel()->selectedRows(FleetModel::Host)) {
        hosts.append(row.data(FleetModel::HostRole).toString());
    }
    return hosts;
}

void FleetPage::updateUpgradeButton()
{
    if (!m_upgrade) {
        return;
    }
    const QStringList hosts = selectedHosts();
    bool deployed = !hosts.isEmpty();
    for (const QString &h : hosts) {
        deployed = deployed && m_watcher.entry(h) && m_watcher.status(h).pins.has_value();
    }
    m_upgrade->setEnabled(deployed && !m_upgrades->running());
}

void FleetPage::upgradeSelected()
{
    const QStringList hosts = selectedHosts();
    const std::optional<recipe::Pins> firstPins = hosts.isEmpty() ? std::nullopt : m_watcher.status(hosts.first()).pins;
    if (!firstPins || !m_upgrades) {
        return;
    }
    UpgradeDialog dialog(hosts, *firstPins, this);
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    QString error;
    if (!m_upgrades->start(hosts, dialog.target(), dialog.maxUnavailable(), &error)) {
        m_upgrades->show();
        QMessageBox::warning(this, tr("Upgrade"), error);
    }
    updateUpgradeButton();
}

} // namespace flashdeck::ui
