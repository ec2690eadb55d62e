#include "ui/pages/metricspage.h"

#include "backend/core/format.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/metrics/hostmonitor.h"
#include "backend/metrics/metricid.h"
#include "backend/metrics/timeseries.h"
#include "backend/prometheus/promfleetsource.h"
#include "backend/prometheus/promhistory.h"
#include "ui/charts/timechart.h"

#include <QButtonGroup>
#include <QCoreApplication>
#include <QDateTime>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace flashdeck::ui {

namespace {

// Okabe–Ito: told apart with the common colour-vision deficiencies, light and dark.
const QList<QColor> kColors{QColor(0x00, 0x72, 0xb2), QColor(0xe6, 0x9f, 0x00), QColor(0x00, 0x9e, 0x73),
                            QColor(0xcc, 0x79, 0xa7), QColor(0x56, 0xb4, 0xe9), QColor(0xd5, 0x5e, 0x00),
                            QColor(0xf0, 0xe4, 0x42), QColor(0x99, 0x99, 0x99)};

enum ChartId { GpuUtil, GpuMemory, GpuPower, GpuTemp, KvPercent, KvTokens, Requests, Throughput, Latency, Accept };

} // namespace

MetricsPage::MetricsPage(fleet::FleetWatcher &watcher, QWidget *parent)
    : QWidget(parent)
    , m_watcher(watcher)
    , m_title(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_windows(new QButtonGroup(this))
    , m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("metricsPage"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    layout->addLayout(makeHeader());

    QScrollArea *scroll = makeCharts();
    m_empty = new QLabel(tr("<h3>No host chosen</h3><p>Pick a host in the bar above, or double-click one on the Fleet "
                            "page, to see its GPUs and its server live.</p>"),
                         this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(scroll);
    layout->addWidget(m_stack, 1);

    startRedraws();
    setHost({});
}

QHBoxLayout *MetricsPage::makeHeader()
{
    auto *header = new QHBoxLayout;
    QFont f = m_title->font();
    f.setPointSizeF(f.pointSizeF() * 1.25);
    f.setBold(true);
    m_title->setFont(f);
    m_summary->setObjectName(QStringLiteral("metricsSummary"));
    header->addWidget(m_title);
    header->addSpacing(12);
    header->addWidget(m_summary, 1);
    const QList<std::pair<QString, qint64>> windows{{tr("1 min"), 60 * 1000},
                                                    {tr("5 min"), 5 * 60 * 1000},
                                                    {tr("1 h"), 3600 * 1000},
                                                    {tr("24 h"), 24 * 3600 * 1000}};
    for (int i = 0; i < windows.size(); ++i) {
        auto *b = new QToolButton(this);
        b->setText(windows[i].first);
        b->setCheckable(true);
        b->setChecked(i == 1); // 5 min
        b->setObjectName(QStringLiteral("window%1").arg(i));
        m_windows->addButton(b, i);
        header->addWidget(b);
    }
    m_windows->setExclusive(true);
    connect(m_windows, &QButtonGroup::idClicked, this,
            [this, windows](int id) { setWindowMs(windows.value(id).second); });
    return header;
}

QScrollArea *MetricsPage::makeCharts()
{
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("metricsCharts"));
    scroll->setAccessibleName(tr("Charts"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *grid = new QWidget(scroll);
    auto *gridLayout = new QGridLayout(grid);
    gridLayout->setContentsMargins(0, 0, 0, 0);
    gridLayout->setSpacing(8);
    // Each chart's unit is its metric's (MetricId): the page never spells one of its own.
    using metrics::Metric;
    // The units are listed for translation where they are defined (metricid.cpp).
    const auto unit = [](Metric m) { return QCoreApplication::translate("Metrics", metrics::MetricId::info(m).unit); };
    const QList<std::pair<QString, QString>> specs{{tr("GPU utilisation"), unit(Metric::GpuUtilisation)},
                                                   {tr("GPU memory used"), unit(Metric::GpuMemoryUsed)},
                                                   {tr("GPU power"), unit(Metric::GpuPower)},
                                                   {tr("GPU temperature"), unit(Metric::GpuTemperature)},
                                                   {tr("KV pool use"), unit(Metric::KvUsage)},
                                                   {tr("KV pool tokens"), unit(Metric::KvUsedTokens)},
                                                   {tr("Requests"), unit(Metric::ServerRunning)},
                                                   {tr("Generation throughput"), unit(Metric::ServerThroughput)},
                                                   {tr("Latency (TTFT, end to end)"), unit(Metric::TtftP50)},
                                                   {tr("Spec accept length"), unit(Metric::SpecAcceptLength)}};
    for (int i = 0; i < specs.size(); ++i) {
        auto *chart = new TimeChart(specs[i].first, specs[i].second, grid);
        chart->setMinimumWidth(220);
        chart->setObjectName(QStringLiteral("chart%1").arg(i));
        m_charts.append(chart);
        gridLayout->addWidget(chart, i / 3, i % 3);
    }
    for (const auto &[chart, metric] : {std::pair{GpuUtil, Metric::GpuUtilisation}, {KvPercent, Metric::KvUsage}}) {
        if (const metrics::MetricInfo &i = metrics::MetricId::info(metric); i.hasRange()) {
            m_charts[chart]->setFixedRange(i.min, i.max);
        }
    }
    scroll->setWidget(grid);
    return scroll;
}

void MetricsPage::startRedraws()
{
    m_timer->setInterval(250); // at most 4 redraws a second (issue 7)
    connect(m_timer, &QTimer::timeout, this, [this] {
        // Redraw when a pixel's worth of time has passed: 4 ×/s for a minute, about every
        // 3 minutes for a day (a 24 h chart 480 px wide moves 1 px per 180 s).
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const qint64 pixelMs = m_windowMs / std::max(200, m_charts.first()->width());
        if (isVisible() && now - m_lastRefreshMs >= std::clamp<qint64>(pixelMs, 250, 10000)) {
            refresh();
        }
    });
    m_timer->start();
    connect(&m_watcher, &fleet::FleetWatcher::hostsChanged, this, [this] { setHost(m_host); });
    connect(&m_watcher, &fleet::FleetWatcher::prometheusRefreshed, this, [this] {
        if (isVisible()) {
            followPrometheus();
        }
    });
}

MetricsPage::~MetricsPage() = default;

void MetricsPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    rebuildLines(); // GPUs seen since the host was chosen
    refresh();
}

void MetricsPage::setWindowMs(qint64 windowMs)
{
    m_windowMs = windowMs;
    followPrometheus();
    static const QList<qint64> known{60 * 1000, 5 * 60 * 1000, 3600 * 1000, 24 * 3600 * 1000};
    if (QAbstractButton *b = m_windows->button(int(known.indexOf(windowMs)))) {
        b->setChecked(true);
    }
    refresh();
}

void MetricsPage::setHost(const QString &host)
{
    m_host = host;
    m_gpuIndexes = {-1}; // forces a rebuild
    followPrometheus();
    rebuildLines();
    refresh();
}

void MetricsPage::followPrometheus()
{
    prom::PromFleetSource *source = m_watcher.prometheus();
    if (!source || !m_watcher.watchedByPrometheus(m_host)) {
        if (m_history) {
            // Back to SSH: the lines read the host's own samples again (they read a history now gone).
            m_history.reset();
            ++m_historyGeneration;
            m_historyHost.clear();
            rebuildLines();
        }
        return;
    }
    if (!m_history || m_historyHost != m_host) {
        m_history = std::make_unique<prom::PromHistory>(source->client(), source->config().hostLabel,
                                                        source->labelValues(m_host));
        ++m_historyGeneration;
        m_historyHost = m_host;
        m_historyWindowMs = 0;
        connect(m_history.get(), &prom::PromHistory::loaded, this, [this] {
            rebuildLines();
            refresh();
        });
    }
    // Read again when the window changes, and every minute at most otherwise (its steps are 15 s
    // or more; Prometheus is a shared server).
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (m_historyWindowMs != m_windowMs || now - m_historyAtMs >= 60000) {
        m_historyWindowMs = m_windowMs;
        m_historyAtMs = now;
        m_history->load(m_windowMs);
    }
}

void MetricsPage::rebuildLines()
{
    const metrics::HostMonitor *monitor = m_watcher.monitor(m_host);
    // Prometheus's GPUs, else (no GPU series there yet) the ones sampled over SSH.
    QList<int> gpus = m_history ? m_history->gpuIndexes() : QList<int>();
    if (gpus.isEmpty() && monitor) {
        gpus = monitor->gpuIndexes();
    }
    if (gpus == m_gpuIndexes && m_linesGeneration == m_historyGeneration) {
        return;
    }
    m_gpuIndexes = gpus;
    m_linesGeneration = m_historyGeneration;
    for (TimeChart *c : std::as_const(m_charts)) {
        c->clearLines();
    }
    fleet::FleetWatcher *w = &m_watcher;
    const QString host = m_host;
    const prom::PromHistory *history = m_history.get();
    using metrics::Metric;
    using metrics::MetricId;
    // The metric's own key and scale (MiB → GiB, a fraction → %): the page spells neither.
    const auto line = [this, w, host, history](int chart, const QString &label, const QColor &color, Metric metric,
                                               int gpu = -1) {
        const QString key = MetricId::key(metric, gpu);
        QPointer<const prom::PromHistory> from(history);
        m_charts[chart]->addLine(
            label, color,
            [w, host, key, from, fromPrometheus = history != nullptr]() -> const metrics::TimeSeries * {
                if (fromPrometheus) {
                    const prom::PromHistory *h = from.data(); // read once: -O3's null check
                    const metrics::TimeSeries *kept = h ? h->series(key) : nullptr;
                    if (kept && !kept->isEmpty()) {
                        return kept;
                    }
                    // Prometheus has nothing for this metric: what was sampled over SSH is kept
                    // and shown, not a blank chart (the page says which source drew what).
                }
                const metrics::HostMonitor *m = w->monitor(host);
                return m ? m->series(key) : nullptr;
            },
            MetricId::info(metric).toShown);
    };
    for (int i = 0; i < gpus.size(); ++i) {
        const int g = gpus[i];
        const QColor color = kColors[i % kColors.size()];
        const QString label = QStringLiteral("GPU %1").arg(g);
        line(GpuUtil, label, color, Metric::GpuUtilisation, g);
        line(GpuMemory, label, color, Metric::GpuMemoryUsed, g);
        line(GpuPower, label, color, Metric::GpuPower, g);
        line(GpuTemp, label, color, Metric::GpuTemperature, g);
    }
    line(KvPercent, tr("KV use"), kColors[0], Metric::KvUsage);
    line(KvTokens, tr("used"), kColors[0], Metric::KvUsedTokens);
    if (monitor && monitor->expectedKvTokens() > 0) {
        m_charts[KvTokens]->setReference(tr("expected pool (profile)"), double(monitor->expectedKvTokens()) / 1e6);
    }
    line(Requests, tr("running"), kColors[2], Metric::ServerRunning);
    line(Requests, tr("queued"), kColors[5], Metric::ServerQueued);
    line(Throughput, tr("generated"), kColors[0], Metric::ServerThroughput);
    line(Latency, tr("TTFT p50"), kColors[4], Metric::TtftP50);
    line(Latency, tr("TTFT p95"), kColors[0], Metric::TtftP95);
    line(Latency, tr("e2e p95"), kColors[5], Metric::E2eP95);
    line(Accept, tr("accept length"), kColors[3], Metric::SpecAcceptLength);
}

void MetricsPage::refresh()
{
    m_lastRefreshMs = QDateTime::currentMSecsSinceEpoch();
    rebuildLines();
    const metrics::HostMonitor *monitor = m_watcher.monitor(m_host);
    const bool watched = monitor || m_history;
    m_stack->setCurrentIndex(watched ? 1 : 0);
    if (m_host.isEmpty() || !watched) {
        m_title->setText(tr("Metrics"));
        m_summary->setText(m_host.isEmpty()
                               ? tr("Choose a host in the bar above, or double-click one on the Fleet page.")
                               : tr("%1 is not watched yet.").arg(m_host));
    } else {
        const metrics::HostStatus s = m_watcher.status(m_host);
        m_title->setText(tr("Metrics — %1").arg(m_host));
        QStringList parts{metrics::hostStateText(s.state)};
        if (!s.gpus.isEmpty()) {
            parts.append(QStringLiteral("%1 × %2").arg(s.gpus.size()).arg(s.gpus.first().name));
        }
        if (s.server) {
            parts.append(
                tr("KV %1 of %2").arg(fmt::percent(s.server->tokenUsage, 1), fmt::tokens(s.server->maxTokens)));
        }
        if (s.health != metrics::ServerHealth::Unknown) {
            parts.append(tr("server %1").arg(metrics::serverHealthText(s.health)));
        }
        if (!s.historyError.isEmpty()) {
            parts.append(s.historyError);
        }
        if (m_history) {
            // Say what Prometheus has: ten blank charts with no word were read as a broken page.
            if (!m_history->error().isEmpty()) {
                parts.append(tr("Prometheus could not give the charts (%1); they show what Flashdeck sampled over SSH")
                                 .arg(m_history->error()));
            } else if (!m_history->everLoaded()) {
                parts.append(tr("asking Prometheus for the charts…"));
            } else if (m_history->seriesWithData() == 0) {
                parts.append(tr("Prometheus has no series for %1 in this window (are its exporters scraped?); the "
                                "charts show what Flashdeck sampled over SSH")
                                 .arg(m_host));
            } else {
                parts.append(tr("charts from Prometheus (%n series; a metric it lacks is drawn from what Flashdeck "
                                "sampled over SSH)",
                                nullptr, m_history->seriesWithData()));
            }
        }
        m_summary->setText(parts.join(QStringLiteral(" · ")));
        m_summary->setWordWrap(true);
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (TimeChart *c : std::as_const(m_charts)) {
        c->refresh(now, m_windowMs);
    }
}

} // namespace flashdeck::ui
