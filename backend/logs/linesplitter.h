#pragma once

#include <QByteArray>
#include <QList>

namespace flashdeck::logs {

/** One line of a log as it arrived. */
struct SplitLine
{
    QByteArray text; // bytes as sent: invalid UTF-8 is kept, the view replaces it when shown
    bool progress = false; // ended by a lone '\r': a tqdm bar redrawing itself
    bool cut = false; // longer than the limit: the rest up to the next line end was dropped
};

/**
 * Splits a byte stream into lines at '\n', '\r\n' or a lone '\r' (progress bars redraw with it,
 * sglang-facts §3.1), whatever the chunk boundaries. A line longer than `maxLine` bytes (1 MiB)
 * is cut there and marked, so one runaway line cannot take the memory.
 */
class LineSplitter final
{
public:
    explicit LineSplitter(qsizetype maxLine = 1024 * 1024)
        : m_maxLine(maxLine)
    { }

    QList<SplitLine> feed(const QByteArray &chunk);
    /** The last line when the stream ends without a line end. */
    QList<SplitLine> finish();

private:
    QByteArray m_pending;
    bool m_pendingCR = false; // the previous chunk ended in '\r': a '\n' next belongs to it
    bool m_discarding = false; // past the limit: drop until the next line end
    qsizetype m_maxLine;
};

} // namespace flashdeck::logs
