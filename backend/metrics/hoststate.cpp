#include "backend/metrics/hoststate.h"

#include <QCoreApplication>

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
    case HostState::Unscraped:
        return QStringLiteral("unscraped");
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

namespace {

// The names above are contracts (status --json); these are their words, listed for lupdate.
[[maybe_unused]] constexpr const char *kWords[] = {
    QT_TRANSLATE_NOOP("HostState", "connecting"),  QT_TRANSLATE_NOOP("HostState", "up"),
    QT_TRANSLATE_NOOP("HostState", "unreachable"), QT_TRANSLATE_NOOP("HostState", "failed"),
    QT_TRANSLATE_NOOP("HostState", "ok"),          QT_TRANSLATE_NOOP("HostState", "starting"),
    QT_TRANSLATE_NOOP("HostState", "down"),        QT_TRANSLATE_NOOP("HostState", "unscraped"),
};

} // namespace

QString hostStateText(HostState state)
{
    return QCoreApplication::translate("HostState", hostStateName(state).toUtf8().constData());
}

QString serverHealthText(ServerHealth health)
{
    const QString name = serverHealthName(health);
    return name.isEmpty() ? name : QCoreApplication::translate("HostState", name.toUtf8().constData());
}

} // namespace flashdeck::metrics
