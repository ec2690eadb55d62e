#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QHBoxLayout;
class QSplitter;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QTimer;
class QTreeWidget;
class QVBoxLayout;

namespace flashdeck {
class AppPaths;
namespace fleet {
class FleetWatcher;
} // namespace fleet
namespace security {
class Redactor;
} // namespace security
} // namespace flashdeck

namespace flashdeck::ui {

class FleetModel;
class UpgradePanel;

/**
 * The Fleet page (screens.md): every host at a glance in a sortable, filterable table with
 * sparklines for KV use and throughput, the alerts below it, and an empty state that offers
 * to add a host or try the simulated demo host. Double-click opens the host's metrics.
 */
class FleetPage final : public QWidget
{
    Q_OBJECT

public:
    explicit FleetPage(fleet::FleetWatcher &watcher, QWidget *parent = nullptr);

    FleetModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    /** The columns the operator hid (the header's context menu), by their stable keys ("updated", …). */
    QStringList hiddenColumns() const;
    void setHiddenColumns(const QStringList &keys);
    /** The stable key of a column (what Settings keeps). */
    static QString columnKey(int column);
    /**
     * Offers "Upgrade…" for the selected hosts (a rolling upgrade, UpgradePanel below the table).
     * The window calls it; a page without it only watches.
     */
    void enableUpgrades(const AppPaths &paths, security::Redactor &redactor);
    /** The hosts selected in the table, in its order. */
    QStringList selectedHosts() const;
    /** Asks for the pins (UpgradeDialog), then upgrades the selected hosts in turn. */
    void upgradeSelected();
    UpgradePanel *upgradePanel() const { return m_upgrades; }

Q_SIGNALS:
    void hiddenColumnsChanged(const QStringList &keys);
    void addHostRequested();
    /** "Add to inventory…" for a host only Prometheus knows: its name as Prometheus names it. */
    void addKnownHostRequested(const QString &host);
    void demoRequested();
    void openHost(const QString &host);

private:
    // The constructor's parts, called in this order: the order widgets are made in is their tab order.
    void buildHeader(QVBoxLayout *layout);
    QWidget *buildEmptyState();
    void buildTable();
    /** The table above the alerts: what the page shows once there is a host. */
    QSplitter *buildAlerts();
    /** Redraws the summary and the alerts as the fleet changes (a host's status at most 4 × a second). */
    void watchFleet();
    /** "Add to inventory…" for a host only Prometheus knows, beside the filter. */
    void buildAddKnown();

    void refreshSummary();
    void refreshSource();
    void chooseColumns(const QPoint &at);
    void refreshAlerts();
    void updateUpgradeButton();

    fleet::FleetWatcher &m_watcher;
    FleetModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QStackedWidget *m_stack;
    QTableView *m_table;
    QTreeWidget *m_alerts;
    QLabel *m_summary;
    QLabel *m_source = nullptr;
    QLineEdit *m_filter;
    QPushButton *m_upgrade = nullptr;
    QPushButton *m_addKnown = nullptr;
    UpgradePanel *m_upgrades = nullptr;
    QWidget *m_alertBox = nullptr;
    QSplitter *m_split = nullptr;
    QHBoxLayout *m_header = nullptr;
    QTimer *m_coalesce; // many hosts update many times a second: redraw the lists at most 4 ×/s
};

} // namespace flashdeck::ui
