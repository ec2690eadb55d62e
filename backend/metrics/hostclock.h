#pragma once

#include <QtGlobal>

#include <optional>

namespace flashdeck::metrics {

/**
 * Places the times a host stamps on its readings (nvidia-smi's `timestamp`) on this machine's
 * clock, so a chart shows readings as far apart as the host took them, even when SSH delivered
 * several at once after a stall, without trusting the two clocks to agree.
 *
 * The offset is the smallest (arrival − host time) seen: the clocks' difference plus the fastest
 * delivery. A host time plus it is never later than its arrival. A host clock stepped back (its
 * readings now all arrive more than kStepMs "late") is believed after kStepsToTrust such readings
 * in a row; a clock stepped forward lowers the offset at the first reading.
 */
class HostClock final
{
public:
    static constexpr qint64 kStepMs = 5000;
    static constexpr int kStepsToTrust = 10;

    /** `hostMs` on this machine's clock, for a reading that arrived at `arrivedMs` (both ms since the epoch). */
    qint64 toLocal(qint64 hostMs, qint64 arrivedMs);
    /** The offset in use (this clock − the host's, less the fastest delivery); none before a reading. */
    std::optional<qint64> offsetMs() const { return m_offset; }

private:
    std::optional<qint64> m_offset;
    int m_lateInARow = 0;
};

} // namespace flashdeck::metrics
