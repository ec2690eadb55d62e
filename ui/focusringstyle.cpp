#include "ui/focusringstyle.h"

#include <QPainter>
#include <QStyleOption>

namespace flashdeck::ui {

void FocusRingStyle::drawRing(const QStyleOption *option, QPainter *painter)
{
    if (!(option->state & State_HasFocus) || !(option->state & State_KeyboardFocusChange)) {
        return;
    }
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(option->palette.color(QPalette::Highlight), 2));
    painter->setBrush(Qt::NoBrush);
    painter->drawRoundedRect(QRectF(option->rect).adjusted(2, 2, -2, -2), 3, 3);
    painter->restore();
}

void FocusRingStyle::drawControl(ControlElement element, const QStyleOption *option, QPainter *painter,
                                 const QWidget *widget) const
{
    QProxyStyle::drawControl(element, option, painter, widget);
    if (element == CE_PushButton) {
        drawRing(option, painter);
    }
}

void FocusRingStyle::drawComplexControl(ComplexControl control, const QStyleOptionComplex *option, QPainter *painter,
                                        const QWidget *widget) const
{
    QProxyStyle::drawComplexControl(control, option, painter, widget);
    if (control == CC_ToolButton) {
        drawRing(option, painter);
    }
}

} // namespace flashdeck::ui
