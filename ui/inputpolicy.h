#pragma once

#include <QObject>

namespace flashdeck::ui {

/**
 * The window's keyboard and wheel manners, for every widget it shows (KDE's HIG, WCAG 2.1's
 * keyboard criteria), in one place instead of on each widget:
 * - Tab and Shift+Tab leave tables, trees and lists (arrows move inside them): Qt's item views
 *   take Tab to move the current cell, which trapped the keyboard in the Fleet table.
 * - Tab leaves text boxes too (the Playground's message, the generator's command): Qt's text
 *   edits type a tab character, which trapped the keyboard there.
 * - A combo or spin box takes the wheel only when it has focus; otherwise the wheel scrolls the
 *   page under it. The wheel over Settings used to switch "Figures from" from SSH to Prometheus.
 *   Such boxes get focus by Tab or click (Qt::StrongFocus), not by the wheel.
 * Installed on the application by the main window while it lives.
 */
class InputPolicy final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InputPolicy)

public:
    explicit InputPolicy(QObject *parent = nullptr);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};

} // namespace flashdeck::ui
