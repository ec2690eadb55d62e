// The simulated host's `rocm-smi --showuse --showmemuse --showmeminfo vram --json`: an object
// keyed "card0", "card1", …, every value a string (shared reference sglang-facts §13; real
// single-card example in marimo-team/marimo issue #9237). Only the keys of the options asked
// for are printed; with none of them, the real tool's "WARNING: No JSON data to report".
// `--showpids` adds the KFD processes under "system" as rocm-smi's print2DArray files them in
// JSON (ROCm/rocm_smi_lib python_smi_tools/rocm_smi.py, showPids): "PID<pid>": "<name>, <GPU
// count>, <VRAM bytes>, <SDMA>, <CU occupancy>", the row lowercased and joined with ", " (a
// real MI300X printed {"system": {"PID28389": "llama-server, 1, 2353860608, 11011, 0"}}). It
// says how many GPUs a process uses, not which; with no process, it adds nothing.
// `--showproductname` names each card ("Card Series"), with the keys a real card prints.

#include "tests/simhost/simscenario.h"

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>

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
    const bool pids = args.contains(QStringLiteral("--showpids"));
    const bool product = args.contains(QStringLiteral("--showproductname"));
    if (!args.contains(QStringLiteral("--json")) || !(use || memUse || vram || pids || product)) {
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
        if (product) { // the keys of a real card's --showproductname (marimo-team/marimo issue #9237)
            card["Card Series"] = g.name.toStdString();
            card["Card Model"] = "0x75a3";
            card["Card Vendor"] = "Advanced Micro Devices, Inc. [AMD/ATI]";
            card["Card SKU"] = "N/A";
            card["Subsystem ID"] = "0x75a3";
            card["Device Rev"] = "0x00";
            card["Node ID"] = std::to_string(i + 2);
            card["GUID"] = std::to_string(26967 + i);
            card["GFX Version"] = "gfx950";
        }
        if (!card.empty()) {
            out["card" + std::to_string(i)] = card;
        }
    }
    if (pids) {
        struct Kfd
        {
            std::string name;
            int gpus = 0;
            qint64 vramBytes = 0;
        };
        std::map<qint64, Kfd> byPid;
        for (const auto &load : loads) {
            for (const auto &p : load.processes) {
                Kfd &k = byPid[p.pid];
                k.name = p.name.toLower().toStdString();
                k.gpus += 1;
                k.vramBytes += p.usedMiB * 1024 * 1024;
            }
        }
        json system = json::object();
        for (const auto &[pid, k] : byPid) {
            system["PID" + std::to_string(pid)] =
                k.name + ", " + std::to_string(k.gpus) + ", " + std::to_string(k.vramBytes) + ", 0, 0";
        }
        if (!system.empty()) {
            out["system"] = system;
        }
    }
    if (out.empty()) {
        std::printf("WARNING: No JSON data to report\n");
        return 0;
    }
    std::printf("%s\n", out.dump().c_str());
    return 0;
}
