// `sglang-sim`: run by the simulated `docker run` (and by tests directly) in place of
// `python3 -m sglang.launch_server`. Faults come from the scenario in FLASHDECK_SIM_DIR.

#include "tests/simhost/sglang/sglangsim.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <signal.h>
#include <string>
#include <thread>
#include <unistd.h>

namespace flashdeck::sim {
int runSglangSim(const SglangArgs &a, const SglangSimOptions &o);
int runRouterSim(int argc, char **argv);
} // namespace flashdeck::sim

int main(int argc, char **argv)
{
    if (argc > 1 && std::string(argv[1]) == "--router") { // python3 -m sglang_router.launch_router …
        return flashdeck::sim::runRouterSim(argc - 1, argv + 1);
    }
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
                if (sc.value("vendor", std::string("nvidia")) != "nvidia") {
                    options.qmul4 = "cached"; // no CUDA kernel to compile: no qmul4 line on ROCm
                }
                // qmul4 is an sm100 (Blackwell) kernel: a Hopper start compiles none and prints no
                // nvfp4_to_fp8 line, so no check may read one there.
                if (sc.at("gpus").at(0).value("architecture", std::string("Blackwell")) != "Blackwell") {
                    options.qmul4 = "cached";
                }
                options.dspark = faults.value("dspark", options.dspark);
                options.downloadSeconds = sc.value("weights_download_seconds", options.downloadSeconds);
                options.downloadStallAt = faults.value("download_stall_at", options.downloadStallAt);
                options.reasoningWords = faults.value("reasoning_words", options.reasoningWords);
                options.ignoresEos = faults.value("ignores_eos", options.ignoresEos);
                options.visionFactor = faults.value("vision_factor", options.visionFactor);
                options.neverReady = faults.value("never_ready", options.neverReady);
                options.kvTokens = faults.value("kv_tokens", options.kvTokens);
                options.fault = faults.value("launch", options.fault);
                options.slowdown = faults.value("slowdown", options.slowdown);
                options.maxRunning = faults.value("max_running", options.maxRunning);
                options.requestSeconds = faults.value("request_seconds", options.requestSeconds);
                options.tokenSeconds = faults.value("token_seconds", options.tokenSeconds);
            } catch (const nlohmann::json::exception &e) {
                std::fprintf(stderr, "sglang-sim: bad scenario: %s\n", e.what());
                return 2;
            }
        }
    }
    // F20: a CUDA Toolkit older than 13.4 *in the image* (not the driver, which only has to
    // support the image's runtime) makes the NVFP4 KV kernel fall back, silently.
    if (const char *cuda = std::getenv("FLASHDECK_SIM_IMAGE_CUDA"); cuda && options.qmul4 == "ok") {
        const char *dot = std::strchr(cuda, '.');
        if (dot && std::atoi(cuda) * 100 + std::atoi(dot + 1) < 1304) {
            options.qmul4 = "fallback";
        }
    }
    if (const char *fault = std::getenv("FLASHDECK_SIM_IMAGE_FAULT"); fault && options.fault.empty()) {
        options.fault = fault; // the image's own breakage (registry.json launch_fault)
    }
    if (const char *gpus = std::getenv("FLASHDECK_SIM_GPUS")) {
        for (const char *p = gpus; *p;) {
            char *end = nullptr;
            options.gpus.push_back(static_cast<int>(std::strtol(p, &end, 10)));
            p = *end == ',' ? end + 1 : end;
            if (end == p && *p) {
                break;
            }
        }
    }
    if (const char *container = std::getenv("FLASHDECK_SIM_CONTAINER")) {
        // A container dies with its daemon (dockerd without live-restore does the same).
        // Not PR_SET_PDEATHSIG: that fires when the daemon *thread* that spawned us ends.
        std::thread([parent = ::getppid()] {
            while (::getppid() == parent) {
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
            }
            ::kill(::getpid(), SIGTERM); // the handler removes the load file
        }).detach();
        // Started by the simulated daemon: it removes this file when the container exits.
        options.loadFile = std::string("gpu-load-") + container + ".json";
        const char *jit = std::getenv("FMHA_SM100_ALLOW_JIT");
        options.jitAllowed = jit && std::string(jit) == "1";
    } else {
        options.loadFile = "gpu-load-sglang-" + std::to_string(::getpid()) + ".json";
    }
    if (const char *listen = std::getenv("FLASHDECK_SIM_LISTEN")) {
        const std::string l = listen;
        const auto colon = l.rfind(':');
        options.listenHost = l.substr(0, colon);
        options.listenPort = std::atoi(l.c_str() + colon + 1);
    }
    flashdeck::sim::inspectModelFolder(args, options);
    return flashdeck::sim::runSglangSim(args, options);
}
