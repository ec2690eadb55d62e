#pragma once

#include <QStyledItemDelegate>

namespace flashdeck::ui {

/**
 * A cell with its value on the right and, to its left, the last five minutes of the row's
 * series (FleetModel::SeriesRole) as a sparkline; a gap in the series is a gap in the line.
 */
class SparklineDelegate final : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    static constexpr qint64 kWindowMs = 5 * 60 * 1000;
};

} // namespace flashdeck::ui
