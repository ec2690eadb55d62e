#include "ui/fleet/sparklinedelegate.h"

#include "backend/metrics/timeseries.h"
#include "ui/fleet/fleetmodel.h"

#include <QApplication>
#include <QDateTime>
#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace flashdeck::ui {

void SparklineDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // background and selection

    const QRect r = option.rect.adjusted(6, 3, -6, -3);
    const int textWidth = option.fontMetrics.horizontalAdvance(text) + 8;
    const QRect spark(r.left(), r.top() + 2, std::max(0, r.width() - textWidth - 4), r.height() - 4);
    const QPalette::ColorGroup group = option.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
    const bool selected = option.state & QStyle::State_Selected;
    painter->save();
    painter->setPen(option.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawText(r, Qt::AlignRight | Qt::AlignVCenter, text);

    const auto *series =
        reinterpret_cast<const metrics::TimeSeries *>(index.data(FleetModel::SeriesRole).value<quintptr>());
    if (series && spark.width() > 16) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        // Five minutes, or less while the history is younger (at least 30 s), so a new row's
        // line spans the cell instead of huddling at its right end.
        const qint64 from = std::max(now - kWindowMs, std::min(series->oldestMs().value_or(now), now - 30000));
        const auto points = series->window(from, now, spark.width());
        double lo = 0;
        double hi = 0;
        bool any = false;
        for (const auto &p : points) {
            if (!std::isnan(p.v)) {
                lo = any ? std::min(lo, p.v) : p.v;
                hi = any ? std::max(hi, p.v) : p.v;
                any = true;
            }
        }
        if (any) {
            lo = std::min(lo, 0.0); // bars of "how much" start at zero
            const double span = hi - lo > 0 ? hi - lo : 1.0;
            QPainterPath path;
            bool penDown = false;
            for (const auto &p : points) {
                if (std::isnan(p.v)) {
                    penDown = false; // the host said nothing then: leave a gap
                    continue;
                }
                const QPointF at(spark.left() + double(p.tMs - from) / double(now - from) * spark.width(),
                                 spark.bottom() - (p.v - lo) / span * spark.height());
                if (penDown) {
                    path.lineTo(at);
                } else {
                    path.moveTo(at);
                    penDown = true;
                }
            }
            painter->setRenderHint(QPainter::Antialiasing);
            QColor line = option.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Highlight);
            painter->setPen(QPen(line, 1.4));
            painter->drawPath(path);
        }
    }
    painter->restore();
}

QSize SparklineDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setWidth(s.width() + 72);
    return s;
}

} // namespace flashdeck::ui
