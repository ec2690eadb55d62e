#include "backend/metrics/hostclock.h"

namespace flashdeck::metrics {

qint64 HostClock::toLocal(qint64 hostMs, qint64 arrivedMs)
{
    const qint64 offset = arrivedMs - hostMs;
    if (!m_offset || offset < *m_offset) {
        m_offset = offset;
        m_lateInARow = 0;
    } else if (offset > *m_offset + kStepMs) {
        // Late by seconds: a stall of the connection (the readings queued on the way) or the host's
        // clock stepped back. A stall ends; a clock step stays, so only a run of late readings moves it.
        if (++m_lateInARow >= kStepsToTrust) {
            m_offset = offset;
            m_lateInARow = 0;
        }
    } else {
        m_lateInARow = 0;
    }
    return hostMs + *m_offset;
}

} // namespace flashdeck::metrics
