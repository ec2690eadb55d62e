#pragma once

#include <QChartView>
#include <QColor>
#include <QList>
#include <QString>

#include <functional>

class QDateTimeAxis;
class QLineSeries;
class QValueAxis;

namespace flashdeck::metrics {
class TimeSeries;
}

namespace flashdeck::ui {

/**
 * A small live chart of TimeSeries over a time window (issue 7): one line per series,
 * downsampled to the chart's width (min/max per pixel column), drawn with replace() and no
 * animation; a gap in the data is a gap in the line (each run of values is its own segment);
 * an optional dashed reference line (the profile's expected KV pool). Hover shows the value
 * and time.
 */
class TimeChart final : public QChartView
{
    Q_OBJECT

public:
    explicit TimeChart(const QString &title, const QString &unit, QWidget *parent = nullptr);
    ~TimeChart() override;

    /** The series to draw; `resolve` finds it at each refresh (hosts come and go). */
    void addLine(const QString &name, QColor color, std::function<const metrics::TimeSeries *()> resolve,
                 double scale = 1.0);
    void clearLines();
    void setReference(const QString &name, double value);
    void setFixedRange(double min, double max);
    /** Redraws [nowMs - windowMs, nowMs]. */
    void refresh(qint64 nowMs, qint64 windowMs);
    int lineCount() const { return int(m_lines.size()); }
    /** Points drawn at the last refresh, over all lines (for tests). */
    int pointsDrawn() const { return m_pointsDrawn; }
    /** The value axis's tick labels as drawn (for tests: no two alike, "0, 0, 1, 1, 1" was). */
    QStringList yLabels() const;

private:
    struct Line;
    /** A label format with as many decimals as the tick spacing needs (0.25 → "%.2f"). */
    void formatValueAxis();
    QLineSeries *segment(Line &line, int i);

    QChart *m_chart;
    QDateTimeAxis *m_x;
    QValueAxis *m_y;
    QString m_unit;
    QList<Line *> m_lines;
    QLineSeries *m_reference = nullptr;
    double m_referenceValue = 0;
    bool m_fixedRange = false;
    int m_pointsDrawn = 0;
    int m_yDecimals = 0;
};

} // namespace flashdeck::ui
