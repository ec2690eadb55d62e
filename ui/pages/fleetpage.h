#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QTimer;
class QTreeWidget;

namespace flashdeck {
class FleetWatcher;
}

namespace flashdeck::ui {

class FleetModel;

/**
 * The Fleet page (screens.md): every host at a glance in a sortable, filterable table with
 * sparklines for KV use and throughput, the alerts below it, and an empty state that offers
 * to add a host or try the simulated demo host. Double-click opens the host's metrics.
 */
class FleetPage final : public QWidget
{
    Q_OBJECT

public:
    explicit FleetPage(FleetWatcher &watcher, QWidget *parent = nullptr);

    FleetModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    /** The columns the operator hid (the header's context menu), by their stable keys ("updated", …). */
    QStringList hiddenColumns() const;
    void setHiddenColumns(const QStringList &keys);
    /** The stable key of a column (what Settings keeps). */
    static QString columnKey(int column);

Q_SIGNALS:
    void hiddenColumnsChanged(const QStringList &keys);
    void addHostRequested();
    void demoRequested();
    void openHost(const QString &host);

private:
    void refreshSummary();
    void chooseColumns(const QPoint &at);
    void refreshAlerts();

    FleetWatcher &m_watcher;
    FleetModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QStackedWidget *m_stack;
    QTableView *m_table;
    QTreeWidget *m_alerts;
    QLabel *m_summary;
    QLineEdit *m_filter;
    QTimer *m_coalesce; // many hosts update many times a second: redraw the lists at most 4 ×/s
};

} // namespace flashdeck::ui
