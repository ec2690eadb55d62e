#pragma once

#include <QByteArray>
#include <QList>

namespace flashdeck::bytes {
class BlockSlicer;
}

namespace flashdeck::docker {

/** One log line of a container: which stream, and its text without the newline. */
struct LogLine
{
    int stream = 1; // 1 stdout, 2 stderr
    QByteArray text;
    bool cut = false; // longer than kMaxLine: the rest up to the newline was dropped
};

/**
 * Decodes `GET /containers/{id}/logs` bodies: the 8-byte multiplexed frames
 * (`[stream, 0, 0, 0, size as big-endian uint32]` then the payload) when the container has no
 * TTY, raw bytes otherwise; then splits into lines. Chunks may cut frames and lines anywhere.
 */
class LogFrameDecoder final
{
public:
    /** A line is cut here, so one runaway line cannot take the memory (host contract §6). */
    static constexpr qsizetype kMaxLine = 1024 * 1024;

    explicit LogFrameDecoder(bool multiplexed = true)
        : m_multiplexed(multiplexed)
    { }

    /**
     * New complete lines in `chunk` (with what earlier chunks left). A line wholly inside the
     * chunk shares its memory (bytes::BlockSlicer: read it by its size).
     */
    QList<LogLine> feed(const QByteArray &chunk);
    /** What is left at the end of the stream: a last line without a newline. */
    QList<LogLine> finish();
    /** Set when a frame header is impossible (a stream byte other than 0–2). */
    bool corrupt() const { return m_corrupt; }

private:
    void emitText(int stream, bytes::BlockSlicer &block, qsizetype from, qsizetype size, QList<LogLine> &out);

    bool m_multiplexed;
    bool m_corrupt = false;
    QByteArray m_frames;
    QByteArray m_partial[3];
    bool m_discarding[3] = {false, false, false}; // past kMaxLine: drop until the next newline
};

} // namespace flashdeck::docker
