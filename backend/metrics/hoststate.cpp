#include "backend/metrics/hoststate.h"

namespace flashdeck::metrics {

QString hostStateName(HostState state)
{
    switch (state) {
    case HostState::Connecting:
        return QStringLiteral("connecting");
    case HostState::Up:
        return QStringLiteral("up");
    case HostState::Unreachable:
        return QStringLiteral("unreachable");
    case HostState::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

bool isAway(HostState state)
{
    return state == HostState::Unreachable || state == HostState::Failed;
}

QString serverHealthName(ServerHealth health)
{
    switch (health) {
    case ServerHealth::Unknown:
        return {};
    case ServerHealth::Ok:
        return QStringLiteral("ok");
    case ServerHealth::Starting:
        return QStringLiteral("starting");
    case ServerHealth::Down:
        return QStringLiteral("down");
    }
    return {};
}

} // namespace flashdeck::metrics
