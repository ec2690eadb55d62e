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
 * delivery. A host time plus it is never later than its arrival. Readings that arrive more than
 * kStepMs "late" are a stall (they come together, then on time again) or the host's clock
 * stepped back (they keep coming late): the offset follows only once they have kept coming late
 * for kStepTrustMs of this machine's time, so a burst after a stall, however long, never moves
 * it. A clock stepped forward lowers the offset at the first reading. The times given never go
 * back (a series drops a point older than its last): while a step back is not yet believed they
 * stay at the last one given.
 */
class HostClock final
{
public:
    static constexpr qint64 kStepMs = 5000;
    static constexpr qint64 kStepTrustMs = 30000;

    /** `hostMs` on this machine's clock, for a reading that arrived at `arrivedMs` (both ms since the epoch). */
    qint64 toLocal(qint64 hostMs, qint64 arrivedMs);

private:
    std::optional<qint64> m_offset; // this clock − the host's, less the fastest delivery
    std::optional<qint64> m_lateSinceMs; // arrival of the first of the late readings in a row
    std::optional<qint64> m_lastMs; // the last time given
};

} // namespace flashdeck::metrics
