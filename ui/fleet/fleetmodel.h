#pragma once

#include <QAbstractTableModel>
#include <QStringList>

class QTimer;

namespace flashdeck {
namespace fleet {
class FleetWatcher;
} // namespace fleet
namespace metrics {
struct HostStatus;
} // namespace metrics
} // namespace flashdeck

namespace flashdeck::ui {

class TeamAccess;

/**
 * One row per watched host (the Fleet page): state, GPUs, the deployment's pins, container, health, KV use, queue,
 * throughput, errors, GPU memory, disk, last update, alerts. Display text comes from the one
 * formatter; SortRole holds the raw number; SeriesRole the TimeSeries a sparkline draws.
 */
class FleetModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        State,
        Host,
        Gpus,
        Pins, // the deployment's pins (its profile in the tooltip)
        Container,
        Health,
        Team, // whether and how the host is open to the team (its gateway)
        KvUse,
        Queue,
        Throughput,
        Errors,
        GpuMemory,
        Disk,
        Updated,
        Alerts,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole, SeriesRole, HostRole, SeverityRole };
    /**
     * How the Container column marks a host's server container: none listed, up, on its way (a
     * deploy or upgrade of the host runs and its container is created, restarting or replaced),
     * or down. A red cross for a container a run is starting read as an outage.
     */
    enum class ContainerMark { None, Up, Underway, Down };
    static ContainerMark containerMark(const metrics::HostStatus &s);

    explicit FleetModel(fleet::FleetWatcher &watcher, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    QString hostAt(int row) const;

private:
    void reset();
    void hostChanged(const QString &host);

    fleet::FleetWatcher &m_watcher;
    TeamAccess *m_team;
    QStringList m_hosts;
    QTimer *m_clock; // "updated 3 s ago" ages by itself
};

} // namespace flashdeck::ui
