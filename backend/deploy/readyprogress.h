#pragma once

#include <QString>
#include <QtGlobal>

namespace flashdeck::deploy {

/**
 * What the Ready step knows of a first start while it waits (F17: 252 GB downloaded, kernels
 * compiled, then the weights loaded and the server warmed up): the weights' bytes in the host's
 * Hugging Face cache as they grow, the kernel cache, and the server's log milestones. It says
 * where the start is in words, with the rate and the time left, and when the start last moved,
 * so the step waits as long as it takes and fails only on a stall.
 *
 * Times are milliseconds on one clock of the caller's (a test passes its own).
 */
class ReadyProgress
{
public:
    enum class Phase { Starting, Downloading, Loading, WarmingUp, Ready };

    /** `totalBytes`: the pinned revision's size; 0 when nothing is downloaded (a model folder). */
    ReadyProgress(qint64 totalBytes, qint64 nowMs);

    /** A measurement of the weights cache and of the kernel cache; true when either grew. */
    bool sample(qint64 weightsBytes, qint64 kernelCacheBytes, qint64 nowMs);
    /** A line of the server's log: activity, and a milestone when it is one; true when the text changed. */
    bool logLine(const QString &line, qint64 nowMs);
    /** Bytes of the log arrived (a progress bar's carriage returns count too). */
    void logActivity(qint64 nowMs) { m_lastProgressMs = nowMs; }

    Phase phase() const { return m_phase; }
    qint64 done() const { return m_weights; }
    qint64 total() const { return m_total; }
    qint64 lastProgressMs() const { return m_lastProgressMs; }
    /** Where the start is: "Downloading the weights: 120.4 of 252.0 GB · 118 MB/s · about 19 min left". */
    QString text(qint64 nowMs) const;
    /** For the step's outcome: what was downloaded, and when the milestones came. */
    QString summary(qint64 nowMs) const;
    /** For a stall: the last thing that moved and what the cache holds. */
    QString lastSeen(qint64 nowMs) const;
    /** "45 s", "12 min", "1 h 5 min". */
    static QString duration(qint64 ms);

private:
    double rate() const; // bytes per second over the download so far; 0 before two samples

    qint64 m_total;
    qint64 m_startMs;
    qint64 m_lastProgressMs;
    qint64 m_weights = -1;
    qint64 m_kernels = -1;
    qint64 m_firstWeights = -1; // the first sample that grew, and when: the rate's base
    qint64 m_firstWeightsMs = 0;
    qint64 m_lastWeightsMs = 0;
    qint64 m_downloadedMs = -1; // when the cache reached the total
    qint64 m_httpUpMs = -1;
    qint64 m_readyMs = -1;
    int m_loadPercent = -1;
    QString m_listening; // "http://0.0.0.0:30000"
    Phase m_phase = Phase::Starting;
};

} // namespace flashdeck::deploy
