#pragma once

#include <QStyledItemDelegate>

namespace flashdeck::ui {

/**
 * One log line: a severity stripe on the left and a tinted background (screens.md §Logs),
 * monospace, one row high, elided at the right edge. The colours are chosen to read on light
 * and dark palettes alike: saturated stripes, tints at low alpha over the base colour.
 */
class LogDelegate final : public QStyledItemDelegate
{
    Q_OBJECT

public:
    explicit LogDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    /** The stripe colour of a LogModel::Severity (the legend uses the same). */
    static QColor stripeColor(int severity);
};

} // namespace flashdeck::ui
