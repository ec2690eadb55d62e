#pragma once

#include "backend/fleet/hostentry.h"

namespace flashdeck::test {

/**
 * An inventory host nobody answers for (nothing listens on its port): the pages must not need one
 * to show and follow its records.
 */
inline fleet::HostEntry unansweredHost(const QString &name)
{
    fleet::HostEntry h;
    h.name = name;
    h.address = QStringLiteral("127.0.0.1");
    h.port = 1;
    h.user = QStringLiteral("root");
    return h;
}

} // namespace flashdeck::test
