// The simulated host's `rocm-smi --showuse --showmemuse --showmeminfo vram --json`: an object
// keyed "card0", "card1", …, every value a string (shared reference sglang-facts §13; real
// single-card example in marimo-team/marimo issue #9237). Only the keys of the options asked
// for are printed; with none of them, the real tool's "WARNING: No JSON data to report".

#include "tests/simhost/simscenario.h"

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <cstdio>

using flashdeck::sim::SimScenario;
using nlohmann::json;

int main(int argc, char **argv)
{
    QString error;
    const auto scenario = SimScenario::fromEnvironment(&error);
    if (!scenario) {
        std::fprintf(stderr, "simulated rocm-smi: %s\n", qPrintable(error));
        return 9;
    }
    QStringList args;
    for (int i = 1; i < argc; ++i) {
        args.append(QString::fromLocal8Bit(argv[i]));
    }
    const bool use = args.contains(QStringLiteral("--showuse"));
    const bool memUse = args.contains(QStringLiteral("--showmemuse"));
    const qsizetype memInfo = args.indexOf(QStringLiteral("--showmeminfo"));
    const bool vram = memInfo >= 0 && args.value(memInfo + 1) == QStringLiteral("vram");
    if (!args.contains(QStringLiteral("--json")) || !(use || memUse || vram)) {
        std::printf("WARNING: No JSON data to report\n");
        return 0;
    }
    const auto loads = scenario->currentLoad();
    json out = json::object();
    for (int i = 0; i < scenario->gpus.size(); ++i) {
        const auto &g = scenario->gpus[i];
        const auto load = loads.value(i);
        const qint64 totalBytes = g.memoryTotalMiB * 1024 * 1024;
        const qint64 usedBytes = load.memoryUsedMiB * 1024 * 1024;
        json card = json::object();
        if (use) {
            card["GPU use (%)"] = std::to_string(load.utilizationGpu);
        }
        if (memUse) {
            card["GPU Memory Allocated (VRAM%)"] = std::to_string(totalBytes ? usedBytes * 100 / totalBytes : 0);
            card["GPU Memory Read/Write Activity (%)"] = std::to_string(load.utilizationMemory);
            card["Memory Activity"] = "N/A";
            card["Avg. Memory Bandwidth"] = "0";
        }
        if (vram) {
            card["VRAM Total Memory (B)"] = std::to_string(totalBytes);
            card["VRAM Total Used Memory (B)"] = std::to_string(usedBytes);
        }
        out["card" + std::to_string(i)] = card;
    }
    std::printf("%s\n", out.dump().c_str());
    return 0;
}
