#include "ui/charts/timechart.h"

#include "backend/metrics/timeseries.h"

#include <QDateTime>
#include <QDateTimeAxis>
#include <QLegendMarker>
#include <QLineSeries>
#include <QToolTip>
#include <QValueAxis>

#include <cmath>

namespace flashdeck::ui {

struct TimeChart::Line
{
    QString name;
    QColor color;
    std::function<const metrics::TimeSeries *()> resolve;
    double scale = 1.0;
    QList<QLineSeries *> segments; // one per run of values between gaps; the first carries the legend
};

TimeChart::TimeChart(const QString &title, const QString &unit, QWidget *parent)
    : QChartView(parent)
    , m_chart(new QChart)
    , m_x(new QDateTimeAxis(m_chart))
    , m_y(new QValueAxis(m_chart))
    , m_unit(unit)
{
    m_chart->setTitle(title);
    setAccessibleName(title); // a screen reader names the chart as its title reads
    m_chart->setAnimationOptions(QChart::NoAnimation); // live series: no animation (issue 7)
    m_chart->setMargins(QMargins(4, 2, 4, 2));
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_chart->legend()->setFont(small);
    m_x->setFormat(QStringLiteral("HH:mm:ss"));
    m_x->setLabelsFont(small);
    m_x->setTickCount(4);
    m_y->setLabelsFont(small);
    // Before any data: 0 to 1 in quarters, labelled so (with "%.0f" it read "0, 0, 0, 1, 1").
    m_y->setRange(0, 1);
    m_y->setTickCount(5);
    formatValueAxis();
    m_y->setTitleText(unit);
    m_y->setTitleFont(small);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    // Follow the palette (light and dark) rather than a chart theme of its own.
    m_chart->setBackgroundBrush(palette().base());
    m_chart->setTitleBrush(palette().text());
    m_chart->legend()->setLabelColor(palette().color(QPalette::Text));
    m_x->setLabelsColor(palette().color(QPalette::Text));
    m_y->setLabelsColor(palette().color(QPalette::Text));
    m_y->setTitleBrush(palette().text());
    // A real range before the chart is shown: Qt 6.4's QDateTimeAxis lays its labels out for the
    // default range when attached early and then never draws them (seen offscreen and on xcb).
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_x->setRange(QDateTime::fromMSecsSinceEpoch(now - 5 * 60 * 1000), QDateTime::fromMSecsSinceEpoch(now));
    setChart(m_chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(190);
}

TimeChart::~TimeChart()
{
    qDeleteAll(m_lines);
}

void TimeChart::addLine(const QString &name, QColor color, std::function<const metrics::TimeSeries *()> resolve,
                        double scale)
{
    auto *line = new Line{name, color, std::move(resolve), scale, {}};
    m_lines.append(line);
    segment(*line, 0);
}

void TimeChart::clearLines()
{
    for (Line *l : std::as_const(m_lines)) {
        for (QLineSeries *s : std::as_const(l->segments)) {
            m_chart->removeSeries(s);
            delete s;
        }
    }
    qDeleteAll(m_lines);
    m_lines.clear();
}

QLineSeries *TimeChart::segment(Line &line, int i)
{
    while (line.segments.size() <= i) {
        auto *s = new QLineSeries(m_chart);
        s->setName(line.name);
        QPen pen(line.color, 1.6);
        s->setPen(pen);
        m_chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
        if (!line.segments.isEmpty()) {
            for (QLegendMarker *m : m_chart->legend()->markers(s)) {
                m->setVisible(false); // one legend entry per line, however many gaps it has
            }
        }
        connect(s, &QLineSeries::hovered, this, [this, name = line.name](const QPointF &p, bool state) {
            if (state) {
                QToolTip::showText(
                    QCursor::pos(),
                    QStringLiteral("%1: %2 %3\n%4")
                        .arg(name)
                        .arg(p.y(), 0, 'f', p.y() < 10 ? 2 : 0)
                        .arg(m_unit)
                        .arg(QDateTime::fromMSecsSinceEpoch(qint64(p.x())).toString(QStringLiteral("HH:mm:ss"))),
                    this);
            } else {
                QToolTip::hideText();
            }
        });
        line.segments.append(s);
    }
    return line.segments[i];
}

void TimeChart::setReference(const QString &name, double value)
{
    if (!m_reference) {
        m_reference = new QLineSeries(m_chart);
        QPen pen(palette().color(QPalette::PlaceholderText), 1.2, Qt::DashLine);
        m_reference->setPen(pen);
        m_chart->addSeries(m_reference);
        m_reference->attachAxis(m_x);
        m_reference->attachAxis(m_y);
    }
    m_reference->setName(name);
    m_referenceValue = value;
}

void TimeChart::setFixedRange(double min, double max)
{
    m_fixedRange = true;
    m_y->setRange(min, max);
    m_y->setTickCount(5);
    formatValueAxis();
}

void TimeChart::formatValueAxis()
{
    const double step = (m_y->max() - m_y->min()) / std::max(1, m_y->tickCount() - 1);
    const int decimals = step <= 0 || step >= 1 ? 0 : std::min(3, int(std::ceil(-std::log10(step) - 1e-9)));
    // A spacing like 0.25 needs two decimals, not one: add one until every tick reads exactly.
    int d = decimals;
    while (d < 3 && std::abs(std::round(step * std::pow(10, d)) - step * std::pow(10, d)) > 1e-6) {
        ++d;
    }
    m_yDecimals = d;
    m_y->setLabelFormat(QStringLiteral("%.") + QString::number(d) + QLatin1Char('f'));
}

QStringList TimeChart::yLabels() const
{
    QStringList labels;
    const int ticks = m_y->tickCount();
    const double step = (m_y->max() - m_y->min()) / std::max(1, ticks - 1);
    for (int i = 0; i < ticks; ++i) {
        labels.append(QString::number(m_y->min() + i * step, 'f', m_yDecimals)); // what "%.Nf" prints
    }
    return labels;
}

void TimeChart::refresh(qint64 nowMs, qint64 windowMs)
{
    const qint64 from = nowMs - windowMs;
    // Two points (min, max) per column of two pixels: spikes survive, QtCharts draws half as much.
    const int columns = std::max(50, int(m_chart->plotArea().width() / 2));
    double lo = 0;
    double hi = 0;
    bool any = false;
    m_pointsDrawn = 0;
    for (Line *line : std::as_const(m_lines)) {
        QList<QList<QPointF>> runs(1);
        if (const metrics::TimeSeries *series = line->resolve()) {
            for (const auto &p : series->window(from, nowMs, columns)) {
                if (std::isnan(p.v)) {
                    if (!runs.last().isEmpty()) {
                        runs.append(QList<QPointF>{}); // the host said nothing here: a new segment
                    }
                    continue;
                }
                const double v = p.v * line->scale;
                runs.last().append(QPointF(double(p.tMs), v));
                lo = any ? std::min(lo, v) : v;
                hi = any ? std::max(hi, v) : v;
                any = true;
            }
        }
        for (int i = 0; i < std::max<int>(int(runs.size()), int(line->segments.size())); ++i) {
            QLineSeries *s = segment(*line, i);
            s->replace(i < runs.size() ? runs[i] : QList<QPointF>{});
            m_pointsDrawn += i < runs.size() ? int(runs[i].size()) : 0;
        }
    }
    if (m_reference) {
        m_reference->replace({QPointF(double(from), m_referenceValue), QPointF(double(nowMs), m_referenceValue)});
        hi = any ? std::max(hi, m_referenceValue) : m_referenceValue;
        any = true;
    }
    // Antialiasing costs a third of a dense frame (bench_metrics): keep it where lines are sparse
    // enough to show it, drop it for days of eight GPUs.
    setRenderHint(QPainter::Antialiasing, m_pointsDrawn < 2500);
    m_x->setRange(QDateTime::fromMSecsSinceEpoch(from), QDateTime::fromMSecsSinceEpoch(nowMs));
    m_x->setFormat(windowMs > 2 * 3600 * 1000 ? QStringLiteral("HH:mm") : QStringLiteral("HH:mm:ss"));
    if (!m_fixedRange) {
        const double top = any ? (hi > 0 ? hi * 1.1 : 1.0) : 1.0;
        m_y->setRange(std::min(0.0, lo), top);
        m_y->applyNiceNumbers(); // ticks at 0, 2, 4 … rather than 0, 1.4, 2.8
        formatValueAxis();
    }
}

} // namespace flashdeck::ui
