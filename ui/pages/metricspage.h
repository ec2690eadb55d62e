#pragma once

#include <QList>
#include <QWidget>

#include <memory>

class QButtonGroup;
class QHBoxLayout;
class QLabel;
class QScrollArea;
class QStackedWidget;
class QTimer;

namespace flashdeck {
namespace fleet {
class FleetWatcher;
} // namespace fleet
namespace prom {
class PromHistory;
} // namespace prom
} // namespace flashdeck

namespace flashdeck::ui {

class TimeChart;

/**
 * The Metrics page (screens.md): live charts of one host on a shared time window (1 min, 5 min,
 * 1 h, 24 h) — GPU utilisation, memory, power and temperature per GPU; KV pool use and tokens with
 * the profile's expected capacity; running vs queued requests; throughput; TTFT; spec accept
 * length. Redrawn at most four times a second, only while visible.
 */
class MetricsPage final : public QWidget
{
    Q_OBJECT

public:
    explicit MetricsPage(fleet::FleetWatcher &watcher, QWidget *parent = nullptr);
    ~MetricsPage() override;

    void setHost(const QString &host);
    QString host() const { return m_host; }
    void setWindowMs(qint64 windowMs);
    /** Redraws now (the timer does it while the page is shown). */
    void refresh();
    const QList<TimeChart *> &charts() const { return m_charts; }

protected:
    /** Drawn when shown, not at the next tick: a page opened from the Fleet shows its charts at once. */
    void showEvent(QShowEvent *event) override;

private:
    /** The title, the summary and the time window's buttons. */
    QHBoxLayout *makeHeader();
    /** The grid of charts, in a scroll area. */
    QScrollArea *makeCharts();
    /** The redraw timer and the watcher's signals that redraw or rebuild the page. */
    void startRedraws();
    void rebuildLines();
    /** A host Prometheus watches: its charts from range queries (made, or read again, now). */
    void followPrometheus();

    fleet::FleetWatcher &m_watcher;
    QString m_host;
    qint64 m_windowMs = 5 * 60 * 1000;
    QLabel *m_title;
    QLabel *m_summary;
    QLabel *m_empty = nullptr;
    QStackedWidget *m_stack = nullptr;
    QButtonGroup *m_windows;
    QList<TimeChart *> m_charts;
    QList<int> m_gpuIndexes; // the GPUs the lines were built for
    int m_historyGeneration = 0; // counts each history made or dropped (the lines hold the one they read)
    int m_linesGeneration = -1; // the history generation the lines were built for
    QTimer *m_timer;
    qint64 m_lastRefreshMs = 0;
    std::unique_ptr<prom::PromHistory> m_history; // the host's charts when Prometheus watches it
    QString m_historyHost;
    qint64 m_historyWindowMs = 0;
    qint64 m_historyAtMs = 0;
};

} // namespace flashdeck::ui
