#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <vector>

namespace flashdeck::sim {

/** The launch_server flags the simulator honours (host contract §4–5). */
struct SglangArgs
{
    std::string modelPath = "MiniMaxAI/MiniMax-M3.1-Flash";
    std::string revision;
    std::string servedModelName;
    std::string host = "127.0.0.1";
    int port = 30000;
    int tp = 1;
    std::string apiKey;
    bool enableMetrics = false;
    std::string speculativeAlgorithm;
    std::string reasoningParser;
    double memFractionStatic = 0.8;

    /** Parses `python3 -m sglang.launch_server …` arguments; returns an error or empty. */
    std::string parse(int argc, char **argv);
    std::string modelName() const { return servedModelName.empty() ? modelPath : servedModelName; }
};

/** Faults and timing from the scenario and the environment. */
struct SglangSimOptions
{
    /** Every simulated duration is multiplied by this (FLASHDECK_SIM_TIME_FACTOR). */
    double timeFactor = 1.0;
    /**
     * "ok" (compiled, qmul4), "fallback" (fp16_fallback: CUDA < 13.4), "cached" (no line), "once"
     * (qmul4 printed by the first start only: a later one finds its kernel in the minfer cache).
     */
    std::string qmul4 = "ok";
    bool dspark = true;
    bool neverReady = false;
    std::uint32_t seed = 20261130;
    /** Expected KV pool, tokens (F09: ≈10.4 M for the balanced B300 profile). */
    std::int64_t kvTokens = 10400000;
    /** Where gpu-load.json goes (FLASHDECK_SIM_DIR); empty: none. */
    std::string simDir;
    int gpuCount = 4;
    std::int64_t gpuMemoryMiB = 293660;
    /** Host GPUs this server loads (FLASHDECK_SIM_GPUS, from `--gpus`); empty: all. */
    std::vector<int> gpus;
    /** Its own load file in simDir (gpu-load-<container>.json), summed by the GPU tools. */
    std::string loadFile = "gpu-load-sglang.json";
    /** Where it really listens (FLASHDECK_SIM_LISTEN, the published host port); empty: --host/--port. */
    std::string listenHost;
    int listenPort = -1;
    /** Scenario faults: "missing_shard", "oom_kv", "oom_cuda", "import_error" (also an image's), or empty. */
    std::string fault;
    /** Scenario `slowdown`: loading and compiling take this many times longer (slow-start). */
    double slowdown = 1.0;
    /** In a container without FMHA_SM100_ALLOW_JIT=1 the MSA kernel cannot compile (F17). */
    bool jitAllowed = true;
    /** The first start's download (F17): the revision's bytes, and how long it takes (scenario). */
    std::int64_t weightsBytes = 252000000000;
    double downloadSeconds = 40;
    /**
     * Scenario fault `ignores_eos`: the answer ends where it ends even with ignore_eos (real SGLang
     * decodes on to max_tokens, which is what a load test at a fixed output length relies on).
     */
    bool ignoresEos = false;
    /** Scenario `reasoning_words`: how long it thinks; 0: 140 to 220 words. */
    int reasoningWords = 0;
    /** Scenario `vision_factor`: the preprocessor's patch factor (Qwen2-VL's 28: patch 14 × merge 2). */
    int visionFactor = 28;
    /** Scenario fault `download_stall_at`: the download hangs at this fraction; < 0: never. */
    double downloadStallAt = -1;
    /** Checkpoint shards to load (the model folder's index, or the Hub checkpoint's 48). */
    int shards = 48;
    /** 1-based shard that is missing or cut short in the mounted folder; 0: none. */
    int badShard = 0;
    /** Why --model-path cannot be loaded at all (HF_HUB_OFFLINE=1 with no such folder). */
    std::string modelError;
    /** Requests served at once; more wait in the queue (#queue-req). Scenario `max_running`. */
    int maxRunning = 256;
    /** Real seconds each request holds its slot (scenario `request_seconds`): load tests need it. */
    double requestSeconds = 0;
    /** Real seconds between streamed chunks (scenario `token_seconds`); 0: 20 ms scaled by the time factor. */
    double tokenSeconds = 0;
};

/** A Prometheus histogram the simulator fills as SGLang's tokenizer manager does. */
struct SimHistogram
{
    /** Upper bounds in seconds, +Inf implied (the shape of SGLang's default TTFT buckets). */
    static constexpr double kBounds[] = {0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 2.0, 4.0, 6.0, 8.0, 10.0, 20.0, 40.0, 60.0};
    static constexpr int kBuckets = int(sizeof(kBounds) / sizeof(kBounds[0]));
    std::atomic<std::int64_t> counts[kBuckets + 1] = {}; // per bucket, not cumulative; the last is +Inf
    std::atomic<std::int64_t> sumMicros{0};
    std::atomic<std::int64_t> count{0};
    void observe(double seconds);
    /** `name_bucket{labels,le=…}`, `_sum`, `_count` lines. */
    std::string text(const std::string &name, const std::string &labels) const;
};

/**
 * With HF_HUB_OFFLINE=1 and a --model-path inside a bind mount (FLASHDECK_SIM_BINDS), reads the
 * host folder as SGLang would read the mounted one (F27): config.json, the index's shards
 * (each checked against its safetensors header), and the dspark/ draft (F18).
 */
void inspectModelFolder(const SglangArgs &a, SglangSimOptions &o);

/** Live counters shared by the HTTP handlers, the log ticker and the GPU load writer. */
struct SglangState
{
    std::atomic<int> phase{0}; // 0 loading, 1 warming up (HTTP up, /health 503), 2 ready
    std::atomic<int> running{0};
    std::atomic<int> queued{0};
    std::atomic<std::int64_t> usedTokens{0};
    std::atomic<std::int64_t> requestsTotal{0};
    std::atomic<std::int64_t> generatedTokens{0};
    std::atomic<std::int64_t> weightsMiB{0};
    std::atomic<std::int64_t> kvMiB{0};
    std::atomic<std::int64_t> abortedTotal{0};
    SimHistogram ttft;
    SimHistogram e2e;
    std::mutex rngMutex;
    std::mt19937 rng;
};

} // namespace flashdeck::sim
