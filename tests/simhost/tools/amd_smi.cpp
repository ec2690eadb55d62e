// The simulated host's `amd-smi metric --json`, `amd-smi static [--asic] --json` and
// `amd-smi process --json`, in the shapes real releases print (shared reference sglang-facts
// §13): a top-level list in older releases, {"gpu_data": [...]} in newer ones (scenario
// "amd_smi_shape"), values as {"value": N, "unit": "…"}, and the string "N/A" wherever the real
// tool has no reading. Memory in MB, as amd-smi reports it.
//
// `static`: the keys and their order are a real amd-smi's: an MI210's `amd-smi static --json`
// in AMD's own test data (ROCm/device-metrics-exporter, pkg/testrunner, the test
// TestParseAMDSMIStaticOutput), the asic keys as ROCm/amdsmi builds them
// (py-interface/amdsmi_interface.py, amdsmi_get_gpu_asic_info). The values are the scenario's
// GPU: "market_name" is its name ("AMD Instinct MI355X"), which `amd-smi metric` never prints.
// `--asic` (`-a`) keeps the "asic" section alone, as the real option does.
// `process`: ROCm/amdsmi amdsmi_cli/amdsmi_commands.py, process(): per GPU a "process_list" of
// {"process_info": {"name", "pid", "memory_usage": {"gtt_mem", "cpu_mem", "vram_mem"},
// "mem_usage", "usage": {"gfx", "enc"}}}, memory in bytes ({"value": N, "unit": "B"}), engine
// time in ns; a GPU that has none lists {"process_info": "No running processes detected"}.

#include "tests/simhost/simscenario.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <cstdio>

using flashdeck::sim::SimGpu;
using flashdeck::sim::SimGpuProcess;
using flashdeck::sim::SimScenario;
// In the order the tool prints its keys (Python dicts keep theirs), not sorted.
using json = nlohmann::ordered_json;

namespace {

json measure(double value, const char *unit)
{
    return json{{"value", value}, {"unit", unit}};
}

json measure(qint64 value, const char *unit)
{
    return json{{"value", value}, {"unit", unit}};
}

json metricGpus(const SimScenario &scenario)
{
    const auto loads = scenario.currentLoad();
    json gpus = json::array();
    for (int i = 0; i < scenario.gpus.size(); ++i) {
        const auto &g = scenario.gpus[i];
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
    return gpus;
}

json asicOf(const SimGpu &g)
{
    // Ids and serial are simulated (as the B300's UUIDs are); the keys are the real ones.
    const bool mi355 = g.name.contains(QStringLiteral("MI355X"));
    return json{{"market_name", g.name.toStdString()},
                {"vendor_id", "0x1002"},
                {"vendor_name", "Advanced Micro Devices Inc. [AMD/ATI]"},
                {"subvendor_id", "0x1002"},
                {"device_id", mi355 ? "0x75a3" : "0x74a1"},
                {"subsystem_id", mi355 ? "0x75a3" : "0x74a1"},
                {"rev_id", "0x00"},
                {"asic_serial", "0x" + g.uuid.mid(2).toUpper().toStdString()},
                {"oam_id", g.hostIndex},
                {"num_compute_units", 256},
                {"target_graphics_version", mi355 ? "gfx950" : "gfx942"}};
}

json staticGpus(const SimScenario &scenario, bool asicOnly)
{
    json gpus = json::array();
    for (int i = 0; i < scenario.gpus.size(); ++i) {
        const SimGpu &g = scenario.gpus[i];
        json gpu{{"gpu", i}, {"asic", asicOf(g)}};
        if (!asicOnly) {
            gpu["bus"] = {{"bdf", g.pciBusId.toLower().toStdString()},
                          {"max_pcie_width", 16},
                          {"max_pcie_speed", measure(qint64(32), "GT/s")},
                          {"pcie_interface_version", "Gen 5"},
                          {"slot_type", "OAM"}};
            gpu["vbios"] = {{"name", "AMD MI355X_RAS_ENABLE"}, {"build_date", "N/A"}, {"part_number", "N/A"}};
            gpu["limit"] = {{"max_power", measure(qint64(g.powerLimitW), "W")},
                            {"min_power", measure(qint64(0), "W")},
                            {"socket_power", measure(qint64(g.powerLimitW), "W")}};
            gpu["driver"] = {{"name", "amdgpu"}, {"version", scenario.driverVersion.toStdString()}};
            gpu["board"] = {{"model_number", "N/A"},
                            {"product_serial", "N/A"},
                            {"fru_id", "N/A"},
                            {"product_name", g.name.toStdString()},
                            {"manufacturer_name", "AMD"}};
            gpu["process_isolation"] = "Disabled";
            gpu["vram"] = {{"type", "HBM"},
                           {"vendor", "N/A"},
                           {"size", measure(g.memoryTotalMiB, "MB")},
                           {"bit_width", 8192},
                           {"max_bandwidth", {{"value", "N/A"}, {"unit", "GB/s"}}}};
        }
        gpus.push_back(gpu);
    }
    return gpus;
}

json processInfo(const SimGpuProcess &p)
{
    const qint64 bytes = p.usedMiB * 1024 * 1024;
    return json{{"name", p.name.toStdString()},
                {"pid", p.pid},
                {"memory_usage",
                 {{"gtt_mem", measure(qint64(2097152), "B")},
                  {"cpu_mem", measure(qint64(0), "B")},
                  {"vram_mem", measure(bytes, "B")}}},
                {"mem_usage", measure(bytes + 2097152, "B")},
                {"usage", {{"gfx", measure(qint64(0), "ns")}, {"enc", measure(qint64(0), "ns")}}}};
}

json processGpus(const SimScenario &scenario)
{
    const auto loads = scenario.currentLoad();
    json gpus = json::array();
    for (int i = 0; i < scenario.gpus.size(); ++i) {
        json list = json::array();
        for (const SimGpuProcess &p : loads.value(i).processes) {
            list.push_back(json{{"process_info", processInfo(p)}});
        }
        if (list.empty()) {
            list.push_back(json{{"process_info", "No running processes detected"}});
        }
        gpus.push_back(json{{"gpu", i}, {"process_list", list}});
    }
    return gpus;
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
    QString command;
    bool asJson = false;
    bool asicOnly = false;
    for (int i = 1; i < argc; ++i) {
        const QString a = QString::fromLocal8Bit(argv[i]);
        if (command.isEmpty() && !a.startsWith(QLatin1Char('-'))) {
            command = a;
        } else if (a == QStringLiteral("--json") || a == QStringLiteral("-j")) {
            asJson = true;
        } else if (a == QStringLiteral("--asic") || a == QStringLiteral("-a")) {
            asicOnly = true;
        }
    }
    const bool known = command == QStringLiteral("metric") || command == QStringLiteral("static") ||
        command == QStringLiteral("process");
    if (!known || !asJson) {
        std::fprintf(stderr, "simulated amd-smi: only `amd-smi metric|static|process --json` is simulated\n");
        return 2;
    }
    const json gpus = command == QStringLiteral("static") ? staticGpus(*scenario, asicOnly)
        : command == QStringLiteral("process")            ? processGpus(*scenario)
                                                          : metricGpus(*scenario);
    const json out = scenario->amdSmiShape == QStringLiteral("list") ? gpus : json{{"gpu_data", gpus}};
    std::printf("%s\n", out.dump(4).c_str());
    return 0;
}
