// The simulated host's `amd-smi metric --json`, in the shapes real releases print (shared
// reference sglang-facts §13): a top-level list in older releases, {"gpu_data": [...]} in
// newer ones (scenario "amd_smi_shape"), values as {"value": N, "unit": "…"}, and the string
// "N/A" wherever the real tool has no reading. Memory in MB, as amd-smi reports it.

#include "tests/simhost/simscenario.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <cstdio>

using flashdeck::sim::SimScenario;
using nlohmann::json;

namespace {

json measure(double value, const char *unit)
{
    return json{{"value", value}, {"unit", unit}};
}

json measure(qint64 value, const char *unit)
{
    return json{{"value", value}, {"unit", unit}};
}

} // namespace

int main(int argc, char **argv)
{
    QString error;
    const auto scenario = SimScenario::fromEnvironment(&error);
    if (!scenario) {
        std::fprintf(stderr, "simulated amd-smi: %s\n", qPrintable(error));
        return 9;
    }
    if (scenario->missingTools.contains(QStringLiteral("amd-smi"))) {
        std::fprintf(stderr, "bash: line 1: amd-smi: command not found\n"); // as bash -c says it
        return 127;
    }
    bool metric = false;
    bool asJson = false;
    for (int i = 1; i < argc; ++i) {
        const QString a = QString::fromLocal8Bit(argv[i]);
        if (a == QStringLiteral("metric")) {
            metric = true;
        } else if (a == QStringLiteral("--json") || a == QStringLiteral("-j")) {
            asJson = true;
        }
    }
    if (!metric || !asJson) {
        std::fprintf(stderr, "simulated amd-smi: only `amd-smi metric --json` is simulated\n");
        return 2;
    }
    const auto loads = scenario->currentLoad();
    json gpus = json::array();
    for (int i = 0; i < scenario->gpus.size(); ++i) {
        const auto &g = scenario->gpus[i];
        const auto load = loads.value(i);
        const qint64 used = load.memoryUsedMiB;
        json na = "N/A";
        gpus.push_back(json{
            {"gpu", i},
            {"usage",
             {{"gfx_activity", measure(qint64(load.utilizationGpu), "%")},
              {"umc_activity", measure(qint64(load.utilizationMemory), "%")},
              {"mm_activity", na},
              {"vcn_activity", json::array({na, na, na, na})},
              {"jpeg_activity", json::array({na, na, na, na})}}},
            {"power",
             {{"socket_power", measure(load.powerW >= 0 ? load.powerW : g.idlePowerW, "W")},
              {"gfx_voltage", na},
              {"soc_voltage", na},
              {"mem_voltage", na},
              {"power_management", "ENABLED"},
              {"throttle_status", "UNTHROTTLED"}}},
            {"temperature",
             {{"edge", na},
              {"hotspot", measure(qint64(load.tempC >= 0 ? load.tempC : g.idleTempC), "C")},
              {"mem", measure(qint64((load.tempC >= 0 ? load.tempC : g.idleTempC) - 2), "C")}}},
            {"mem_usage",
             {{"total_vram", measure(g.memoryTotalMiB, "MB")},
              {"used_vram", measure(used, "MB")},
              {"free_vram", measure(g.memoryTotalMiB - used, "MB")},
              {"total_visible_vram", measure(g.memoryTotalMiB, "MB")},
              {"used_visible_vram", measure(used, "MB")},
              {"free_visible_vram", measure(g.memoryTotalMiB - used, "MB")},
              {"total_gtt", measure(qint64(1031894), "MB")},
              {"used_gtt", measure(qint64(20), "MB")},
              {"free_gtt", measure(qint64(1031874), "MB")}}},
        });
    }
    const json out = scenario->amdSmiShape == QStringLiteral("list") ? gpus : json{{"gpu_data", gpus}};
    std::printf("%s\n", out.dump(4).c_str());
    return 0;
}
