#pragma once

// What the fleet benchmarks read of their own process: a positive setting from the environment,
// CPU time (every thread: the SSH workers too) and VmRSS / VmHWM.

#include "backend/logs/logrules.h"

#include <QByteArray>
#include <QFile>
#include <QtGlobal>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sys/resource.h>
#include <vector>

namespace flashdeck::bench {

/**
 * The log rules built into Flashdeck, as the benchmarks of the log classify with them; on a build
 * without them, says why on stderr and exits 1.
 */
inline flashdeck::logs::LogRules builtInRulesOrExit()
{
    auto rules = flashdeck::logs::LogRules::builtIn();
    if (!rules) {
        std::fprintf(stderr, "%s\n", qPrintable(rules.message()));
        std::exit(1);
    }
    return rules.value();
}

/** The median of several runs' figures (the upper one of an even count); 0 for none. */
inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

/** A positive integer from the environment, else `fallback`. */
inline int envInt(const char *name, int fallback)
{
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    return ok && v > 0 ? v : fallback;
}

/** User + system seconds of every thread of this process so far. */
inline double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/** "VmRSS:" or "VmHWM:" from /proc/self/status, in MB. */
inline double procMb(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly)) {
        return -1;
    }
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(field)) {
            return line.mid(int(qstrlen(field))).trimmed().split(' ').first().toDouble() / 1024.0;
        }
    }
    return -1;
}

} // namespace flashdeck::bench
