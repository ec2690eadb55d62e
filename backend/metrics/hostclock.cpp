#include "backend/metrics/hostclock.h"

#include <algorithm>

namespace flashdeck::metrics {

qint64 HostClock::toLocal(qint64 hostMs, qint64 arrivedMs)
{
    const qint64 offset = arrivedMs - hostMs;
    if (!m_offset || offset < *m_offset) {
        m_offset = offset;
        m_lateSinceMs.reset();
    } else if (offset > *m_offset + kStepMs) {
        // Late by seconds: a stall of the connection (readings queued on the way, delivered
        // together) or the host's clock stepped back (every reading late from now on). Only time
        // tells them apart: a stall's burst arrives at one moment, a stepped clock keeps on.
        if (!m_lateSinceMs) {
            m_lateSinceMs = arrivedMs;
        } else if (arrivedMs - *m_lateSinceMs >= kStepTrustMs) {
            m_offset = offset;
            m_lateSinceMs.reset();
        }
    } else {
        m_lateSinceMs.reset();
    }
    const qint64 local = hostMs + *m_offset;
    m_lastMs = m_lastMs ? std::max(*m_lastMs, local) : local;
    return *m_lastMs;
}

} // namespace flashdeck::metrics
