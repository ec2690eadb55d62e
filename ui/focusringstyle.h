#pragma once

#include <QProxyStyle>

namespace flashdeck::ui {

/**
 * The platform's style with a focus ring a keyboard user can see (WCAG 2.1, 2.4.7): Fusion
 * draws none on push and tool buttons, so Run, Acknowledge and the log's toolbar showed no
 * focus at all. A two-pixel ring in the palette's highlight, inside the button, only when the
 * focus came from the keyboard (Qt's State_KeyboardFocusChange: a click shows no ring).
 */
class FocusRingStyle final : public QProxyStyle
{
    Q_OBJECT

public:
    using QProxyStyle::QProxyStyle;

    void drawControl(ControlElement element, const QStyleOption *option, QPainter *painter,
                     const QWidget *widget = nullptr) const override;
    void drawComplexControl(ComplexControl control, const QStyleOptionComplex *option, QPainter *painter,
                            const QWidget *widget = nullptr) const override;

private:
    static void drawRing(const QStyleOption *option, QPainter *painter);
};

} // namespace flashdeck::ui
