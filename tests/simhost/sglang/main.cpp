// `sglang-sim`: run by the simulated `docker run` (and by tests directly) in place of
// `python3 -m sglang.launch_server`. Faults come from the scenario in FLASHDECK_SIM_DIR.

#include "tests/simhost/sglang/sglangsim.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace flashdeck::sim {
int runSglangSim(const SglangArgs &a, const SglangSimOptions &o);
}

int main(int argc, char **argv)
{
    flashdeck::sim::SglangArgs args;
    if (const std::string error = args.parse(argc, argv); !error.empty()) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 2;
    }
    flashdeck::sim::SglangSimOptions options;
    if (const char *f = std::getenv("FLASHDECK_SIM_TIME_FACTOR")) {
        options.timeFactor = std::atof(f);
    }
    if (const char *dir = std::getenv("FLASHDECK_SIM_DIR")) {
        options.simDir = dir;
        std::ifstream in(options.simDir + "/scenario.json");
        if (in) {
            try {
                const nlohmann::json sc = nlohmann::json::parse(in);
                options.gpuCount = static_cast<int>(sc.at("gpus").size());
                options.gpuMemoryMiB = sc.at("gpus").at(0).value("memory_total_mib", options.gpuMemoryMiB);
                const nlohmann::json faults = sc.value("faults", nlohmann::json::object());
                options.qmul4 = faults.value("qmul4", options.qmul4);
                options.dspark = faults.value("dspark", options.dspark);
                options.neverReady = faults.value("never_ready", options.neverReady);
                options.kvTokens = faults.value("kv_tokens", options.kvTokens);
            } catch (const nlohmann::json::exception &e) {
                std::fprintf(stderr, "sglang-sim: bad scenario: %s\n", e.what());
                return 2;
            }
        }
    }
    return flashdeck::sim::runSglangSim(args, options);
}
