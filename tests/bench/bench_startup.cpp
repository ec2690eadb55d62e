// Start to first painted window (`make bench`, issue 27): Flashdeck's window against a minimal
// Qt Widgets + Charts program built in the same tree (startup_reference), each started as a
// whole process `FLASHDECK_BENCH_STARTUP_RUNS` times (default 15), alternating, offscreen (or
// on $DISPLAY when FLASHDECK_BENCH_STARTUP_DISPLAY is set). Each process reports when its first
// paint reached the screen, counted from its own start (/proc/self/stat), and exits; the medians
// and their ratio are printed. Flashdeck starts with a fresh configuration directory and no
// hosts (the first-run Fleet page), and again with three hosts in the inventory that do not
// answer (the Fleet page with rows, connections being made). Nothing asserts; figures go to
// docs/PERFORMANCE.md.

#include "tests/bench/benchmachine.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

/** One start: the process's own first-paint time, or -1. */
double once(const QString &program, const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("FLASHDECK_FIRST_PAINT_EXIT"), QStringLiteral("1"));
    if (!qEnvironmentVariableIsSet("FLASHDECK_BENCH_STARTUP_DISPLAY")) {
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    }
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return -1;
    }
    for (const QByteArray &line : p.readAllStandardOutput().split('\n')) {
        if (line.startsWith("first-paint ")) {
            return line.mid(12).toDouble();
        }
    }
    return -1;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? -1 : v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    bool ok = false;
    int runs = qEnvironmentVariableIntValue("FLASHDECK_BENCH_STARTUP_RUNS", &ok);
    runs = ok && runs > 0 ? runs : 15;
    const QString dir = QCoreApplication::applicationDirPath();
    const QString reference = dir + QStringLiteral("/startup_reference");
    const QString flashdeck = QDir(dir + QStringLiteral("/../../bin")).absoluteFilePath(QStringLiteral("flashdeck"));

    QTemporaryDir withHosts;
    {
        QFile inventory(withHosts.filePath(QStringLiteral("hosts.json")));
        // Three hosts at addresses of TEST-NET-1 (RFC 5737): nothing answers, as on a train.
        if (!inventory.open(QIODevice::WriteOnly) || inventory.write(R"({"version":1,"hosts":[
              {"name":"gpu1","address":"192.0.2.1","user":"ops"},
              {"name":"gpu2","address":"192.0.2.2","user":"ops"},
              {"name":"gpu3","address":"192.0.2.3","user":"ops"}]})") <= 0) {
            std::fprintf(stderr, "could not write the inventory\n");
            return 1;
        }
    }
    std::vector<double> ref;
    std::vector<double> empty;
    std::vector<double> hosts;
    for (int i = 0; i < runs; ++i) {
        ref.push_back(once(reference, {}));
        QTemporaryDir fresh;
        empty.push_back(once(flashdeck, {QStringLiteral("--config-dir"), fresh.path()}));
        hosts.push_back(once(flashdeck, {QStringLiteral("--config-dir"), withHosts.path()}));
    }
    const double r = median(ref);
    flashdeck::bench::printMachine();
    std::printf("Start to first painted window, median of %d runs (ms since the process started):\n\n", runs);
    std::printf("| program | median | min | max | ratio to the reference |\n| --- | --- | --- | --- | --- |\n");
    const auto row = [r](const char *name, const std::vector<double> &v) {
        std::printf("| %s | %.0f ms | %.0f ms | %.0f ms | %.2f× |\n", name, median(v),
                    *std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()), median(v) / r);
    };
    row("Qt Widgets + Charts reference", ref);
    row("Flashdeck, first run (no hosts)", empty);
    row("Flashdeck, three hosts that do not answer", hosts);
    return 0;
}
