#include "tests/support/buildpaths.h"

// The only file that sees the paths (tests/support/CMakeLists.txt): see buildpaths.h.

namespace flashdeck::test {

QString flashdeckBinary()
{
    return QStringLiteral(FLASHDECK_BINARY);
}

QString testData(QStringView rest)
{
    return QStringLiteral(FLASHDECK_TEST_DATA) + rest;
}

QString simBin()
{
    return QStringLiteral(FLASHDECK_SIM_BIN);
}

QString simScenarios(QStringView rest)
{
    return QStringLiteral(FLASHDECK_SIM_SCENARIOS) + rest;
}

QString simDaemon()
{
    return QStringLiteral(FLASHDECK_SIM_DAEMON);
}

QString simNetns()
{
    return QStringLiteral(FLASHDECK_SIM_NETNS);
}

QString simRegistry()
{
    return QStringLiteral(FLASHDECK_SIM_REGISTRY);
}

QString socketProbe()
{
    return QStringLiteral(FLASHDECK_SOCKET_PROBE);
}

} // namespace flashdeck::test
