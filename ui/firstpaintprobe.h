#pragma once

#include <QElapsedTimer>
#include <QObject>

namespace flashdeck::ui {

/**
 * For the start-up benchmark (tests/bench/bench_startup): once any widget of the application
 * has painted and that paint has reached the screen (the next turn of the event loop), prints
 * `first-paint <ms since the process started>` on stdout and quits. Installed on the
 * application only when FLASHDECK_FIRST_PAINT_EXIT is set.
 */
class FirstPaintProbe final : public QObject
{
    Q_OBJECT

public:
    explicit FirstPaintProbe(QObject *parent = nullptr);
    /** Installs one on the application when FLASHDECK_FIRST_PAINT_EXIT is set; false otherwise. */
    static bool installIfAsked();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool m_seen = false;
};

} // namespace flashdeck::ui
