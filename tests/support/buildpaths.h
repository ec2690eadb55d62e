#pragma once

#include <QString>

namespace flashdeck::test {

/*
 * Where this build's programs and the checkout's test files are, as absolute paths. They are
 * compiled into buildpaths.cpp alone, not passed to every test as macros: a macro holding the
 * checkout's path made each test's object depend on where the clone lives, so ccache served no
 * test object to a fresh clone (CI makes one per run) and every run compiled them all again.
 */

/** The flashdeck program of this build. */
QString flashdeckBinary();
/** tests/data in the checkout, followed by `rest` ("/images/small-square.png"). */
QString testData(QStringView rest = {});
/** The simulated host's tools (nvidia-smi, docker, sglang-sim, …): the directory. */
QString simBin();
/** tests/simhost/scenarios in the checkout, followed by `rest`. */
QString simScenarios(QStringView rest = {});
/** The simulated host's daemon (simhostd) and its network-namespace helper (simhost-netns). */
QString simDaemon();
QString simNetns();
/** tests/simhost/registry.json in the checkout. */
QString simRegistry();
/** flashdeck_socketprobe (tests/support/socketprobe.cpp): a listener as another user sees it. */
QString socketProbe();

} // namespace flashdeck::test
