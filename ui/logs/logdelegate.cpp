#include "ui/logs/logdelegate.h"

#include "ui/logs/logmodel.h"

#include <QApplication>
#include <QPainter>

namespace flashdeck::ui {

LogDelegate::LogDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{ }

QColor LogDelegate::stripeColor(int severity)
{
    switch (LogModel::Severity(severity)) {
    case LogModel::Severity::Ok:
        return QColor(0x1a, 0x98, 0x50); // green: ready, qmul4 fast path, DSpark loaded
    case LogModel::Severity::Warn:
        return QColor(0xe6, 0x9f, 0x00); // amber: qmul4 fallback, stalls
    case LogModel::Severity::Error:
        return QColor(0xd7, 0x30, 0x27); // red: OOM, shards, port, JIT, crash
    case LogModel::Severity::Info:
        return QColor(0x56, 0xb4, 0xe9); // blue: weights, KV pool, decode batches
    case LogModel::Severity::Plain:
        break;
    }
    return {};
}

void LogDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const int severity = index.data(LogModel::SeverityRole).toInt();
    const QColor stripe = stripeColor(severity);
    const bool selected = option.state & QStyle::State_Selected;
    const QPalette &pal = option.palette;
    painter->save();
    painter->fillRect(option.rect, selected ? pal.highlight() : pal.base());
    if (stripe.isValid()) {
        if (!selected && severity != int(LogModel::Severity::Info)) {
            QColor tint = stripe;
            tint.setAlpha(38);
            painter->fillRect(option.rect, tint);
        }
        painter->fillRect(QRect(option.rect.left(), option.rect.top(), 4, option.rect.height()), stripe);
    }
    painter->setFont(option.font);
    painter->setPen(selected ? pal.highlightedText().color() : pal.text().color());
    const QRect textRect = option.rect.adjusted(10, 0, -4, 0);
    const QString text = index.data(Qt::DisplayRole).toString();
    painter->drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft | Qt::TextSingleLine,
                      option.fontMetrics.elidedText(text, Qt::ElideRight, textRect.width()));
    painter->restore();
}

QSize LogDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    return {option.rect.width(), option.fontMetrics.height() + 4};
}

} // namespace flashdeck::ui
