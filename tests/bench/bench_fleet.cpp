// The fleet at scale (`make bench`, issue 7): 50 simulated hosts × 8 GPUs watched at once, as
// Flashdeck watches them — one SSH connection per host on its own thread, a long-lived
// `nvidia-smi --query-gpu … -lms 1000` channel, /metrics through a tunnel every 2 s, Docker
// every 5 s, free disk every minute, every sample into the series store, alerts judged —
// for 10 minutes. Prints Flashdeck's CPU (% of one core) and RSS each minute, then a summary.
// The hosts are served by a few simulated hosts (sshd + Docker simulator + SGLang simulator
// with --enable-metrics and 8 GPUs), each behind several host entries: to Flashdeck every entry
// is a separate host with its own connection. Nothing here asserts; figures go to
// docs/PERFORMANCE.md.
//
// FLASHDECK_BENCH_FLEET_HOSTS (50), FLASHDECK_BENCH_FLEET_SIMS (5),
// FLASHDECK_BENCH_FLEET_SECONDS (600).

#include "backend/metrics/hostmonitor.h"
#include "backend/metrics/timeseries.h"
#include "backend/ssh/hostconnection.h"
#include "tests/bench/benchmachine.h"
#include "tests/bench/benchprocess.h"
#include "tests/simhost/simhostfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QStandardPaths>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <vector>

using namespace flashdeck;
using flashdeck::bench::cpuSeconds;
using flashdeck::bench::envInt;
using flashdeck::bench::procMb;

namespace {

/** Turns the simulated host's scenario into an 8-GPU one (B300s with their own ids). */
bool eightGpus(const test::SimHostFixture &sim)
{
    QFile f(sim.simDir() + QStringLiteral("/scenario.json"));
    if (!f.open(QIODevice::ReadWrite)) {
        return false;
    }
    nlohmann::json sc = nlohmann::json::parse(f.readAll().toStdString());
    nlohmann::json gpus = nlohmann::json::array();
    for (int i = 0; i < 8; ++i) {
        nlohmann::json g = sc["gpus"][0];
        char uuid[64];
        std::snprintf(uuid, sizeof uuid, "GPU-5b300000-1a2b-4e6f-9a31-00fd0000b30%d", i);
        char bus[32];
        std::snprintf(bus, sizeof bus, "00000000:%02X:00.0", 0x18 + i * 0x10);
        g["uuid"] = uuid;
        g["pci_bus_id"] = bus;
        gpus.push_back(g);
    }
    sc["gpus"] = gpus;
    return f.resize(0) && f.write(QByteArray::fromStdString(sc.dump())) > 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const int hostCount = envInt("FLASHDECK_BENCH_FLEET_HOSTS", 50);
    const int simCount = std::min(hostCount, envInt("FLASHDECK_BENCH_FLEET_SIMS", 5));
    const int seconds = envInt("FLASHDECK_BENCH_FLEET_SECONDS", 600);

    std::vector<std::unique_ptr<test::SimHostFixture>> sims;
    std::vector<quint16> ports;
    for (int i = 0; i < simCount; ++i) {
        auto sim = std::make_unique<test::SimHostFixture>();
        QString error;
        if (!sim->start(QStringLiteral("b300x4"), &error, 0.05) || !eightGpus(*sim)) {
            std::fprintf(stderr, "simulated host %d: %s\n", i, qPrintable(error));
            return 1;
        }
        const quint16 port = test::freeLocalPort();
        ssh::RemoteCommand launch;
        launch.commandLine = "FLASHDECK_SIM_TIME_FACTOR=0.05 sglang-sim --model-path MiniMaxAI/MiniMax-M3.1-Flash "
                             "--tp 8 --host 127.0.0.1 --port " +
            QByteArray::number(port) + " --reasoning-parser minimax-m3 --enable-metrics";
        (void)sim->connection().run(launch);
        ports.push_back(port);
        sims.push_back(std::move(sim));
    }

    const double rssBefore = procMb("VmRSS:");
    std::vector<std::unique_ptr<ssh::HostConnection>> connections;
    std::vector<std::unique_ptr<metrics::HostMonitor>> monitors;
    for (int i = 0; i < hostCount; ++i) {
        const test::SimHostFixture &sim = *sims[std::size_t(i % simCount)];
        ssh::SshTarget target = sim.hostEntry(QStringLiteral("bench-%1").arg(i)).toTarget();
        target.reconnect = true;
        connections.push_back(std::make_unique<ssh::HostConnection>(target));
        metrics::MonitorConfig config; // the defaults: GPUs 1 s, server 2 s, Docker 5 s, disk 60 s
        config.serverPort = ports[std::size_t(i % simCount)];
        monitors.push_back(
            std::make_unique<metrics::HostMonitor>(QStringLiteral("bench-%1").arg(i), *connections.back(), config));
        monitors.back()->start();
        connections.back()->connectToHost();
    }

    // Settled: every host up with 8 GPUs and its server answering from /metrics.
    QElapsedTimer setup;
    setup.start();
    QDeadlineTimer deadline(180000);
    auto upCount = [&] {
        int up = 0;
        for (const auto &m : monitors) {
            up += m->status().gpus.size() == 8 && m->status().server.has_value() && m->settled() ? 1 : 0;
        }
        return up;
    };
    {
        // A real event loop, as the application runs (processEvents in a loop would spin a core).
        QEventLoop loop;
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
            if (upCount() == hostCount || deadline.hasExpired()) {
                loop.quit();
            }
        });
        poll.start(100);
        loop.exec();
    }
    bench::printMachine({QStringLiteral("aes"), QStringLiteral("pclmulqdq"), QStringLiteral("avx2")});
    std::printf("fleet benchmark: %d hosts × 8 GPUs on %d simulated hosts; %d of %d up with metrics after %.1f s\n",
                hostCount, simCount, upCount(), hostCount, double(setup.elapsed()) / 1000.0);
    std::printf("%8s %14s %10s %10s %12s\n", "minute", "CPU % of core", "RSS MB", "hosts up", "samples");

    auto sampleCount = [&] {
        qint64 n = 0;
        for (const auto &m : monitors) {
            if (const metrics::TimeSeries *s = m->series(QStringLiteral("gpu.0.util"))) {
                n += s->points(0, std::numeric_limits<qint64>::max()).size();
            }
        }
        return n;
    };
    const double cpuStart = cpuSeconds();
    const qint64 samplesStart = sampleCount();
    QElapsedTimer run;
    run.start();
    double cpuMark = cpuStart;
    qint64 markMs = 0;
    const qint64 stepMs = std::min<qint64>(60000, qint64(seconds) * 1000);
    QEventLoop loop;
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, &loop, [&] {
        if (run.elapsed() >= qint64(seconds) * 1000) {
            loop.quit();
        }
        if (run.elapsed() - markMs >= stepMs) {
            const double cpu = cpuSeconds();
            const qint64 at = run.elapsed();
            std::printf("%8.1f %14.1f %10.0f %10d %12lld\n", double(at) / 60000.0,
                        100.0 * (cpu - cpuMark) / (double(at - markMs) / 1000.0), procMb("VmRSS:"), upCount(),
                        static_cast<long long>(sampleCount()));
            std::fflush(stdout);
            cpuMark = cpu;
            markMs = at;
        }
    });
    tick.start(250);
    loop.exec();
    const double elapsed = double(run.elapsed()) / 1000.0;
    const double cpu = 100.0 * (cpuSeconds() - cpuStart) / elapsed;
    std::size_t seriesNow = 0;
    std::size_t seriesFull = 0;
    int seriesCount = 0;
    for (const auto &m : monitors) {
        for (const QString &name : m->seriesNames()) {
            seriesNow += m->series(name)->memoryBytes();
            seriesFull += m->series(name)->fullMemoryBytes();
            ++seriesCount;
        }
    }
    const double gpuRate = double(sampleCount() - samplesStart) / elapsed / double(hostCount);
    std::printf("\n%-52s %12s  %s\n", "result", "value", "goal");
    std::printf("%-52s %10.1f %%  < 15 %% of a core (issue 7)\n", "Flashdeck CPU, mean over the run", cpu);
    std::printf("%-52s %9.0f MB  < 400 MB (issue 7)\n", "Flashdeck RSS at the end", procMb("VmRSS:"));
    std::printf("%-52s %9.0f MB\n", "  of which before the first host (Qt, libssh)", rssBefore);
    std::printf("%-52s %9.0f MB\n", "peak RSS (VmHWM)", procMb("VmHWM:"));
    std::printf("%-52s %12d\n", "series held", seriesCount);
    std::printf("%-52s %9.1f MB\n", "series memory now", double(seriesNow) / 1e6);
    std::printf("%-52s %9.1f MB\n", "series memory once 24 h are held (rings full)", double(seriesFull) / 1e6);
    std::printf("%-52s %9.2f Hz\n", "GPU samples stored per host (gpu.0.util)", gpuRate);
    for (auto &m : monitors) {
        m->stop();
    }
    monitors.clear();
    connections.clear();
    return 0;
}
