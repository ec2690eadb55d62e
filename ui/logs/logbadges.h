#pragma once

#include <QtGlobal>

class QHBoxLayout;
class QLabel;
class QWidget;

namespace flashdeck::logs {
class LogHighlights;
} // namespace flashdeck::logs

namespace flashdeck::ui {

/**
 * The badges pinned above a log (screens.md §Logs): the qmul4 check, the DSpark draft, the KV
 * pool and whether the server is ready. Its labels are children of the panel that shows them,
 * made when the panel makes its own widgets, so the panel's widgets and their order stay as one.
 */
class LogBadges final
{
    Q_DISABLE_COPY_MOVE(LogBadges)

public:
    explicit LogBadges(QWidget *panel);

    /** The row for the panel's layout: the badges in reading order, then a stretch. */
    [[nodiscard]] QHBoxLayout *buildRow() const;
    /**
     * Says what `highlights` found. `noLog`: no line at all and no start under way, so the
     * badges say so rather than "starting" or "waiting".
     */
    void show(const logs::LogHighlights &highlights, bool noLog) const;

private:
    QLabel *m_qmul4;
    QLabel *m_dspark;
    QLabel *m_ready;
    QLabel *m_kv;
};

} // namespace flashdeck::ui
