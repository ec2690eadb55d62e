// The SGLang simulator: what a `python3 -m sglang.launch_server …` container does, as far as
// Flashdeck can see it — its startup log (real strings, shared reference sglang-facts §3,
// §11, §12), its HTTP API (§1, §2, §4, §5) and the GPU memory it takes (gpu-load.json for the
// simulated nvidia-smi). Durations scale with FLASHDECK_SIM_TIME_FACTOR; text is seeded.

#include "tests/simhost/sglang/sglangsim.h"

#include "tests/simhost/sglang/hubdownload.h"
#include "tests/simhost/sglang/streamchunk.h"
#include "tests/simhost/sglang/visionprocessor.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <limits>
#include <signal.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

using nlohmann::json;

namespace flashdeck::sim {

namespace {

std::mutex g_logMutex;

std::string stamp()
{
    const std::time_t now = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
    return buf;
}

// "[YYYY-MM-DD HH:MM:SS TP0] message" for scheduler lines, "[…] message" for the main process.
void logLine(const std::string &message, bool tp0 = true)
{
    const std::lock_guard lock(g_logMutex);
    std::printf("[%s%s] %s\n", stamp().c_str(), tp0 ? " TP0" : "", message.c_str());
    std::fflush(stdout);
}

void pause(const SglangSimOptions &o, double seconds)
{
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<long long>(seconds * o.timeFactor * 1e6)));
}

std::string fixed(double v, int decimals = 2)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

char g_loadPath[4096];

// The load file goes with the server: on SIGTERM/SIGINT (docker stop, a test's kill) it is
// removed before exiting; after SIGKILL the daemon removes it.
extern "C" void removeLoadAndExit(int sig)
{
    if (g_loadPath[0]) {
        ::unlink(g_loadPath);
    }
    ::_exit(128 + sig);
}

void writeGpuLoad(const SglangSimOptions &o, const SglangState &s)
{
    if (o.simDir.empty()) {
        return;
    }
    json gpus = json::array();
    const int util = s.running > 0 ? 92 : (s.phase < 2 && s.weightsMiB > 0 ? 35 : 0);
    for (int i = 0; i < o.gpuCount; ++i) {
        const bool mine = o.gpus.empty() || std::find(o.gpus.begin(), o.gpus.end(), i) != o.gpus.end();
        gpus.push_back({{"memory_used_mib", mine ? s.weightsMiB + s.kvMiB : 0},
                        {"utilization_gpu", mine ? util : 0},
                        {"utilization_memory", mine ? util / 2 : 0},
                        {"power_w", mine && util > 0 ? 380.0 + 6.0 * util : -1.0},
                        {"temp_c", mine && util > 0 ? 48 + util / 4 : -1},
                        {"pid", mine ? ::getpid() : 0}});
    }
    const std::string path = o.simDir + "/" + o.loadFile;
    if (!g_loadPath[0] && path.size() < sizeof g_loadPath) {
        std::memcpy(g_loadPath, path.c_str(), path.size() + 1);
        ::signal(SIGTERM, removeLoadAndExit);
        ::signal(SIGINT, removeLoadAndExit);
    }
    const std::string tmp = path + ".tmp";
    std::ofstream(tmp) << json{{"gpus", gpus}}.dump();
    std::rename(tmp.c_str(), path.c_str()); // atomic for readers
}

void traceback(const std::vector<std::string> &frames, const std::string &error)
{
    logLine("Scheduler hit an exception: Traceback (most recent call last):");
    for (const auto &f : frames) {
        std::fprintf(stdout, "%s\n", f.c_str());
    }
    std::fprintf(stdout, "%s\n\n", error.c_str());
    std::fflush(stdout);
    logLine("Received sigquit from a child process. It usually means the child failed.", false);
}

std::string words(SglangState &s, int n)
{
    static const char *vocab[] = {"the",    "model", "server", "runs",    "on",   "four", "GPUs",   "with",    "a",
                                  "pinned", "image", "and",    "answers", "over", "the",  "tunnel", "quickly", "today"};
    std::string out;
    const std::lock_guard lock(s.rngMutex);
    for (int i = 0; i < n; ++i) {
        out += (i ? " " : "") + std::string(vocab[s.rng() % (sizeof vocab / sizeof *vocab)]);
    }
    return out;
}

bool authorised(const SglangArgs &a, const httplib::Request &req)
{
    if (a.apiKey.empty()) {
        return true;
    }
    return req.get_header_value("Authorization") == "Bearer " + a.apiKey ||
        req.get_header_value("x-api-key") == a.apiKey;
}

void accessLog(const httplib::Request &req, const httplib::Response &res)
{
    const char *reason = res.status == 200 ? "OK"
        : res.status == 401                ? "Unauthorized"
        : res.status == 404                ? "Not Found"
        : res.status == 503                ? "Service Unavailable"
                                           : "";
    logLine("INFO:     127.0.0.1:0 - \"" + req.method + " " + req.path + " HTTP/1.1\" " + std::to_string(res.status) +
                " " + reason,
            false);
}

json loadsJson(const SglangSimOptions &o, const SglangState &s)
{
    const double usage = double(s.usedTokens) / double(o.kvTokens);
    return {{"timestamp", std::time(nullptr)},
            {"version", "0.5.10-sim"},
            {"accelerator", "cuda"},
            {"num_accelerators", o.gpuCount},
            {"loads",
             json::array({{{"dp_rank", 0},
                           {"num_running_reqs", s.running.load()},
                           {"num_waiting_reqs", s.queued.load()},
                           {"num_used_tokens", s.usedTokens.load()},
                           {"num_total_tokens", o.kvTokens},
                           {"max_total_num_tokens", o.kvTokens},
                           {"token_usage", usage},
                           {"gen_throughput", s.running > 0 ? 1635.11 : 0.0},
                           {"cache_hit_rate", 0.0},
                           {"speculative", {{"accept_length", 3.08}, {"accept_rate", 0.41}}}}})}};
}

std::string metricsText(const SglangArgs &a, const SglangSimOptions &o, const SglangState &s)
{
    std::string labels = "{model_name=\"" + a.modelName() + "\",tp_rank=\"0\",dp_rank=\"0\"}";
    std::string out;
    auto gauge = [&](const std::string &name, const std::string &value) {
        out += "# TYPE sglang:" + name + " gauge\nsglang:" + name + labels + " " + value + "\n";
    };
    gauge("token_usage", fixed(double(s.usedTokens) / double(o.kvTokens), 4));
    gauge("num_used_tokens", std::to_string(s.usedTokens));
    gauge("max_total_num_tokens", std::to_string(o.kvTokens));
    gauge("num_running_reqs", std::to_string(s.running));
    gauge("num_queue_reqs", std::to_string(s.queued));
    gauge("gen_throughput", s.running > 0 ? "1635.11" : "0.0");
    gauge("cache_hit_rate", "0.0");
    gauge("spec_accept_length", "3.08");
    out += "# TYPE sglang:num_requests_total counter\nsglang:num_requests_total" + labels + " " +
        std::to_string(s.requestsTotal) + "\n";
    out += "# TYPE sglang:num_aborted_requests_total counter\nsglang:num_aborted_requests_total" + labels + " " +
        std::to_string(s.abortedTotal) + "\n";
    // Tokenizer metrics carry model_name only (sglang-facts §5).
    const std::string tokenizerLabels = "model_name=\"" + a.modelName() + "\"";
    out += s.ttft.text("sglang:time_to_first_token_seconds", tokenizerLabels);
    out += s.e2e.text("sglang:e2e_request_latency_seconds", tokenizerLabels);
    return out;
}

/** The launch up to the KV pool; false when a scenario fault ends it (logged as SGLang does). */
bool startupLog(const SglangArgs &a, const SglangSimOptions &o, SglangState &s)
{
    logLine("server_args=ServerArgs(model_path='" + a.modelPath + "', revision='" + a.revision +
                "', tp_size=" + std::to_string(a.tp) + ", host='" + a.host + "', port=" + std::to_string(a.port) +
                ", mem_fraction_static=" + fixed(a.memFractionStatic) +
                ", api_key=" + (a.apiKey.empty() ? "None" : "'[REDACTED]'") + ", speculative_algorithm=" +
                (a.speculativeAlgorithm.empty() ? "None" : "'" + a.speculativeAlgorithm + "'") +
                ", reasoning_parser=" + (a.reasoningParser.empty() ? "None" : "'" + a.reasoningParser + "'") +
                ", enable_metrics=" + (a.enableMetrics ? "True" : "False") + ")",
            false);
    if (a.speculativeAlgorithm == "DSPARK" && o.dspark) {
        logLine("DSpark draft weights are bundled in the target checkpoint; defaulting --speculative-draft-model-path "
                "to --model-path (" +
                    a.modelPath + ").",
                false);
    }
    if (o.fault == "import_error") {
        // A broken nightly: the scheduler dies importing its kernels, before any weight loads.
        traceback({"  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 2881, in "
                   "run_scheduler_process",
                   "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, moe_ep_rank, pp_rank, dp_rank)",
                   "  File \"/sgl-workspace/sglang/python/sglang/srt/layers/attention/nvfp4_kv.py\", line 18, in "
                   "<module>",
                   "    from sgl_kernel import nvfp4_to_fp8_qmul4"},
                  "ImportError: cannot import name 'nvfp4_to_fp8_qmul4' from 'sgl_kernel' "
                  "(/usr/local/lib/python3.12/dist-packages/sgl_kernel/__init__.py)");
        return false;
    }
    if (!o.modelError.empty()) {
        traceback({"  File \"/usr/local/lib/python3.12/dist-packages/transformers/utils/hub.py\", line 469, in "
                   "cached_files"},
                  o.modelError);
        return false;
    }
    pause(o, 1.3);
    logLine("Init torch distributed ends. elapsed=1.33 s, mem usage=0.61 GB");
    const double total = double(o.gpuMemoryMiB) / 1024.0 * 1.048576;
    logLine("Load weight begin. avail mem=" + fixed(total - 0.9) + " GB");
    // A first start fetches the pinned revision into the Hugging Face cache (F17: 252 GB).
    downloadFromHub(a, o, [](const std::string &line) { logLine(line, false); });
    const std::int64_t weights = o.gpuMemoryMiB * 33 / 100;
    if (o.fault == "oom_cuda") {
        pause(o, 3.0 * o.slowdown);
        traceback({"  File \"/sgl-workspace/sglang/python/sglang/srt/model_loader/loader.py\", line 412, in load_model",
                   "    model.load_weights(self._get_all_weights(model_config, model))"},
                  "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB. GPU 0 has a total capacity "
                  "of " +
                      fixed(total / 1.073741824) + " GiB of which 1.21 GiB is free.");
        return false;
    }
    // The checkpoint's shards (model-000NN-of-000MM files), tqdm on stderr without a prefix.
    const int shards = o.shards;
    const int step = std::max(1, shards / 12);
    for (int shard = step; shard <= shards; shard = (shard == shards ? shards + 1 : std::min(shards, shard + step))) {
        pause(o, 20.0 * o.slowdown / 12.0);
        const bool bad = (o.fault == "missing_shard" && shard > shards / 2) || (o.badShard > 0 && shard >= o.badShard);
        if (bad) {
            std::fprintf(stderr,
                         "Loading safetensors checkpoint shards:  %d%% Completed | %d/%d [00:%02d<00:%02d, "
                         "2.40it/s]\n",
                         (shard - 1) * 100 / shards, shard - 1, shards, shard / 2, (shards - shard) / 2);
            traceback(
                {"  File \"/usr/local/lib/python3.12/dist-packages/safetensors/torch.py\", line 313, in load_file",
                 "    with safe_open(filename, framework=\"pt\", device=device) as f:"},
                "safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer");
            return false;
        }
        s.weightsMiB = weights * shard / shards;
        writeGpuLoad(o, s);
        std::fprintf(stderr,
                     "Loading safetensors checkpoint shards: %3d%% Completed | %d/%d [00:%02d<00:%02d, 2.40it/s]\n",
                     shard * 100 / shards, shard, shards, shard / 2, (shards - shard) / 2);
        std::fflush(stderr);
    }
    logLine("Load weight end. elapsed=20.41 s, type=MiniMaxM3ForCausalLM, quant=modelopt_fp4, avail mem=" +
            fixed(total * 0.66) + " GB, mem usage=" + fixed(total * 0.33) + " GB.");
    if (a.speculativeAlgorithm == "DSPARK" && o.dspark) {
        logLine("Draft checkpoint bundles a DSpark head; loading draft arch MiniMaxM3DSparkForCausalLM.");
    }
    if (o.qmul4 != "cached" && !o.jitAllowed) {
        traceback({"  File \"/usr/local/lib/python3.12/dist-packages/msa_v1/aot_cache.py\", line 88, in load"},
                  "RuntimeError: JIT compilation is disabled and AOT kernel fmha_sm100_fwd_h64_d128 was not found; set "
                  "FMHA_SM100_ALLOW_JIT=1 to allow JIT compilation");
        return false;
    }
    bool compiles = o.qmul4 != "cached";
    if (o.qmul4 == "once") {
        // The kernel compiled by an earlier start is in the host's minfer cache: no line this time.
        const std::string kernels = hostDirBoundTo("/root/.cache/minfer");
        const std::string marker = kernels + "/nvfp4_to_fp8_qmul4.sm100.so";
        compiles = kernels.empty() || !std::ifstream(marker).good();
        if (compiles && !kernels.empty()) {
            std::ofstream(marker) << "simulated kernel\n";
        }
    }
    if (compiles) {
        pause(o, 12.0 * o.slowdown);
        const char *backend = o.qmul4 == "fallback" ? "fp16_fallback" : "qmul4";
        logLine(std::string("Compiled inference.dequant.nvfp4_to_fp8 backend=") + backend + " in 12.3s");
    }
    if (o.fault == "oom_kv") {
        traceback({"  File \"/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py\", line 1650, in "
                   "init_memory_pool"},
                  "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current value: "
                  "mem_fraction_static=" +
                      fixed(a.memFractionStatic));
        return false;
    }
    s.kvMiB = static_cast<std::int64_t>(o.gpuMemoryMiB * a.memFractionStatic) - s.weightsMiB;
    writeGpuLoad(o, s);
    logLine("KV Cache is allocated. #tokens: " + std::to_string(o.kvTokens) + ", K size: 61.20 GB, V size: 61.20 GB");
    if (a.speculativeAlgorithm == "DSPARK" && o.dspark) {
        logLine("Initialized DSpark draft runner. attention_backend=trtllm_mha, model=" + a.modelPath +
                ", gamma=5, verify_num_draft_tokens=6");
    }
    pause(o, 5.0);
    logLine("max_total_num_tokens=" + std::to_string(o.kvTokens) +
            ", chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=256, context_len=1048576, "
            "available_gpu_mem=" +
            fixed(total * (1.0 - a.memFractionStatic)) + " GB");
    return true;
}

} // namespace

void SimHistogram::observe(double seconds)
{
    int i = 0;
    while (i < kBuckets && seconds > kBounds[i]) {
        ++i;
    }
    ++counts[i];
    sumMicros += static_cast<std::int64_t>(seconds * 1e6);
    ++count;
}

std::string SimHistogram::text(const std::string &name, const std::string &labels) const
{
    std::string out = "# TYPE " + name + " histogram\n";
    std::int64_t cumulative = 0;
    for (int i = 0; i <= kBuckets; ++i) {
        cumulative += counts[i];
        const std::string le = i < kBuckets ? fixed(kBounds[i], 1) : std::string("+Inf");
        out += name + "_bucket{" + labels + ",le=\"" + le + "\"} " + std::to_string(cumulative) + ".0\n";
    }
    out += name + "_sum{" + labels + "} " + fixed(double(sumMicros) / 1e6, 6) + "\n";
    out += name + "_count{" + labels + "} " + std::to_string(count.load()) + ".0\n";
    return out;
}

std::string SglangArgs::parse(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        auto value = [&](std::string &out) {
            if (i + 1 >= argc) {
                return false;
            }
            out = argv[++i];
            return true;
        };
        std::string v;
        if (flag == "-m" || flag == "sglang.launch_server") {
            continue;
        } else if (flag == "--model-path" || flag == "--model") {
            value(modelPath);
        } else if (flag == "--revision") {
            value(revision);
        } else if (flag == "--served-model-name") {
            value(servedModelName);
        } else if (flag == "--host") {
            value(host);
        } else if (flag == "--port" && value(v)) {
            port = std::atoi(v.c_str());
        } else if ((flag == "--tp" || flag == "--tp-size") && value(v)) {
            tp = std::atoi(v.c_str());
        } else if (flag == "--api-key") {
            value(apiKey);
        } else if (flag == "--enable-metrics") {
            enableMetrics = true;
        } else if (flag == "--speculative-algorithm") {
            value(speculativeAlgorithm);
        } else if (flag == "--reasoning-parser") {
            value(reasoningParser);
        } else if (flag == "--mem-fraction-static" && value(v)) {
            memFractionStatic = std::atof(v.c_str());
        } else if (flag == "--tool-call-parser" || flag == "--attention-backend" || flag == "--chunked-prefill-size" ||
                   flag == "--hicache-size" || flag == "--dp" || flag == "--dp-size" || flag == "--pp" ||
                   flag == "--pp-size" || flag == "--ep-size" || flag == "--moe-runner-backend" ||
                   flag == "--quantization" || flag == "--dtype" || flag == "--watchdog-timeout" ||
                   flag == "--sampling-defaults" || flag == "--context-length" || flag == "--kv-cache-dtype" ||
                   flag == "--mm-attention-backend" || flag == "--max-running-requests") {
            value(v); // accepted (the generator writes them), no visible effect here
        } else if (flag == "--trust-remote-code" || flag == "--enable-hierarchical-cache" ||
                   flag == "--skip-server-warmup" || flag == "--enable-dp-attention") {
            continue;
        } else {
            return "launch_server: error: unrecognized arguments: " + flag;
        }
    }
    return {};
}

int runSglangSim(const SglangArgs &a, const SglangSimOptions &o)
{
    SglangState s;
    s.rng.seed(o.seed);
    if (!startupLog(a, o, s)) {
        if (g_loadPath[0]) {
            ::unlink(g_loadPath);
        }
        return 1;
    }

    httplib::Server server;
    // Uvicorn serves /health and /metrics while every slot decodes; httplib's default pool (8
    // threads here) would block them behind long requests, which a real server never does.
    server.new_task_queue = [] { return new httplib::ThreadPool(128); };
    // Keep-alive as uvicorn keeps it: an idle connection closes after 5 s (its
    // timeout_keep_alive), and there is no cap on the requests one connection carries. httplib's
    // default closes every connection after its fifth request, so a monitor scraping /metrics
    // every 2 s reconnected (a new SSH channel each time) every few seconds, which a real server
    // never makes it do.
    server.set_keep_alive_timeout(5);
    server.set_keep_alive_max_count(std::numeric_limits<std::size_t>::max());
    // SO_REUSEADDR as uvicorn sets it (httplib's default is SO_REUSEPORT alone): the sockets this
    // server closes then wait in TIME_WAIT in a way the next server on the port may rebind over.
    server.set_socket_options([](socket_t sock) {
        const int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    server.set_logger(accessLog);
    server.set_pre_routing_handler([&](const httplib::Request &req, httplib::Response &res) {
        // Exempt from the key: OPTIONS, /health*, /ready*, /metrics (sglang utils/auth.py).
        const bool exempt = req.method == "OPTIONS" || req.path.rfind("/health", 0) == 0 ||
            req.path.rfind("/ready", 0) == 0 || req.path.rfind("/metrics", 0) == 0;
        if (!exempt && !authorised(a, req)) {
            res.status = 401;
            res.set_content(R"({"error": "Unauthorized"})", "application/json");
            return httplib::Server::HandlerResponse::Handled;
        }
        return httplib::Server::HandlerResponse::Unhandled;
    });
    server.Get("/health",
               [&](const httplib::Request &, httplib::Response &res) { res.status = s.phase == 2 ? 200 : 503; });
    server.Get("/health_generate",
               [&](const httplib::Request &, httplib::Response &res) { res.status = s.phase == 2 ? 200 : 503; });
    server.Get("/v1/models", [&](const httplib::Request &, httplib::Response &res) {
        const json body{{"object", "list"},
                        {"data",
                         json::array({{{"id", a.modelName()},
                                       {"object", "model"},
                                       {"created", std::time(nullptr)},
                                       {"owned_by", "sglang"},
                                       {"root", a.modelName()},
                                       {"max_model_len", 1048576}}})}};
        res.set_content(body.dump(), "application/json");
    });
    server.Get("/model_info", [&](const httplib::Request &, httplib::Response &res) {
        res.set_content(json{{"model_path", a.modelPath},
                             {"is_generation", true},
                             {"has_image_understanding", true},
                             {"model_type", "minimax_m3"},
                             {"architectures", json::array({"MiniMaxM3ForCausalLM"})}}
                            .dump(),
                        "application/json");
    });
    server.Get("/server_info", [&](const httplib::Request &, httplib::Response &res) {
        res.set_content(json{{"model_path", a.modelPath},
                             {"tp_size", a.tp},
                             {"port", a.port},
                             {"api_key", a.apiKey.empty() ? json(nullptr) : json("[REDACTED]")},
                             {"speculative_algorithm", a.speculativeAlgorithm},
                             {"reasoning_parser", a.reasoningParser},
                             {"enable_metrics", a.enableMetrics},
                             {"max_total_num_tokens", o.kvTokens},
                             {"version", "0.5.10-sim"}}
                            .dump(),
                        "application/json");
    });
    server.Get("/v1/loads", [&](const httplib::Request &, httplib::Response &res) {
        res.set_content(loadsJson(o, s).dump(), "application/json");
    });
    if (a.enableMetrics) {
        server.Get("/metrics", [&](const httplib::Request &, httplib::Response &res) {
            res.set_content(metricsText(a, o, s), "text/plain; version=0.0.4");
        });
    }
    server.Post("/v1/chat/completions", [&](const httplib::Request &req, httplib::Response &res) {
        if (req.get_header_value("Content-Type").rfind("application/json", 0) != 0) {
            res.status = 400; // sglang-facts §1.3
            res.set_content("Unsupported Media Type: Only 'application/json' is allowed", "text/plain");
            return;
        }
        json body;
        try {
            body = json::parse(req.body);
        } catch (const json::exception &) {
            res.status = 400;
            res.set_content(
                R"({"object":"error","message":"invalid JSON","type":"BadRequestError","param":null,"code":400})",
                "application/json");
            return;
        }
        const bool thinking = !(body.contains("chat_template_kwargs") &&
                                body["chat_template_kwargs"].value("thinking_mode", std::string()) == "disabled");
        bool image = false;
        std::size_t promptChars = 0;
        for (const json &m : body.value("messages", json::array())) {
            if (m.contains("content") && m["content"].is_string()) {
                promptChars += m["content"].get_ref<const std::string &>().size();
            }
            if (m.contains("content") && m["content"].is_array()) {
                for (const json &part : m["content"]) {
                    image = image || part.value("type", std::string()) == "image_url";
                }
            }
        }
        // The vision preprocessor runs before the scheduler: a picture it refuses is a 400.
        if (const std::string refused = visionRefusal(body.value("messages", json::array()), o.visionFactor);
            !refused.empty()) {
            res.status = 400;
            res.set_content(json{{"object", "error"},
                                 {"message", refused},
                                 {"type", "BadRequestError"},
                                 {"param", nullptr},
                                 {"code", 400}}
                                .dump(),
                            "application/json");
            return;
        }
        // KV held while it runs: the prompt (about 4 characters a token) and the answer's budget.
        const std::int64_t kvTokens = static_cast<std::int64_t>(promptChars / 4) + 512;
        // A reasoning model thinks before it answers, at length: 140 to 220 words (70 to 110
        // tokens here, a token being 12 characters), so a 64-token budget ends inside the thought.
        const std::string reasoning = thinking ? "The user asks a question. " +
                words(s, o.reasoningWords > 0 ? o.reasoningWords : 140 + int(s.requestsTotal.load() * 37 % 81)) + "."
                                               : "";
        const std::string answer = (image ? "The image shows a round red shape. " : "") + words(s, 24) + ".";
        const bool split = !a.reasoningParser.empty();
        ++s.requestsTotal;
        const std::string id = "chatcmpl-" + std::to_string(s.requestsTotal.load());
        const auto arrived = std::chrono::steady_clock::now();
        const auto since = [arrived] {
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - arrived).count();
        };
        // Past max_running, a request waits in the queue for a slot, as the scheduler's does.
        ++s.queued;
        for (int running = s.running.load();;) {
            if (running < o.maxRunning && s.running.compare_exchange_weak(running, running + 1)) {
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            running = s.running.load();
        }
        --s.queued;
        s.usedTokens += kvTokens; // the prefill takes its KV at once
        writeGpuLoad(o, s);
        if (o.requestSeconds > 0) { // prefill and decode of a long answer, in real time
            std::this_thread::sleep_for(std::chrono::microseconds(static_cast<long long>(o.requestSeconds * 1e6)));
        }
        std::vector<std::pair<std::string, std::string>> deltas; // field, text: one token each
        std::int64_t reasoningDeltas = 0;
        if (!reasoning.empty()) {
            // Without a reasoning parser the tags stay in content (sglang-facts §4.3).
            const char *field = split ? "reasoning_content" : "content";
            if (!split) {
                deltas.emplace_back(field, "<think>");
            }
            for (std::size_t p = 0; p < reasoning.size(); p += 12, ++reasoningDeltas) {
                deltas.emplace_back(field, reasoning.substr(p, 12));
            }
            if (!split) {
                deltas.emplace_back(field, "</think>");
            }
        }
        for (std::size_t p = 0; p < answer.size(); p += 12) {
            deltas.emplace_back("content", answer.substr(p, 12));
        }
        // max_tokens cuts the output short, thinking included, as the scheduler does:
        // finish_reason "length" (and no content at all when the budget ended inside the thought).
        std::string finish = "stop";
        // ignore_eos: the scheduler decodes past the end-of-sequence token up to max_tokens, so
        // every reply of a fixed-length load test is as long as asked (unless the fault says not).
        const auto ignoreEos = body.find("ignore_eos");
        if (ignoreEos != body.end() && ignoreEos->is_boolean() && ignoreEos->get<bool>() && !o.ignoresEos &&
            body.contains("max_tokens") && body["max_tokens"].is_number_integer()) {
            const auto wanted =
                static_cast<std::size_t>(std::clamp<std::int64_t>(body["max_tokens"].get<std::int64_t>(), 1, 1 << 20));
            while (deltas.size() < wanted) {
                deltas.emplace_back("content", " and so on");
            }
        }
        if (body.contains("max_tokens") && body["max_tokens"].is_number_integer() &&
            body["max_tokens"].get<std::int64_t>() < static_cast<std::int64_t>(deltas.size())) {
            deltas.resize(static_cast<std::size_t>(std::max<std::int64_t>(1, body["max_tokens"].get<std::int64_t>())));
            finish = "length";
            reasoningDeltas = std::min<std::int64_t>(reasoningDeltas, static_cast<std::int64_t>(deltas.size()));
        }
        if (!body.value("stream", false)) {
            pause(o, 0.4);
            std::string content;
            std::string thought;
            for (const auto &d : deltas) {
                (d.first == "content" ? content : thought) += d.second;
            }
            json message{{"role", "assistant"}, {"content", content.empty() ? json(nullptr) : json(content)}};
            message["reasoning_content"] = thought.empty() ? json(nullptr) : json(thought);
            s.ttft.observe(since());
            s.e2e.observe(since());
            res.set_content(
                json{{"id", id},
                     {"object", "chat.completion"},
                     {"model", a.modelName()},
                     {"choices", json::array({{{"index", 0}, {"message", message}, {"finish_reason", finish}}})},
                     {"usage",
                      {{"prompt_tokens", static_cast<std::int64_t>(promptChars / 4)},
                       {"completion_tokens", static_cast<std::int64_t>(deltas.size())},
                       {"total_tokens", static_cast<std::int64_t>(promptChars / 4 + deltas.size())},
                       {"reasoning_tokens", reasoningDeltas}}}}
                    .dump(),
                "application/json");
            --s.running;
            s.usedTokens -= kvTokens;
            writeGpuLoad(o, s);
            return;
        }
        const bool includeUsage = body.contains("stream_options") && body["stream_options"].is_object() &&
            body["stream_options"].value("include_usage", false);
        // The shape of SGLang's ChatCompletionStreamResponse (sglang-facts §4.3): the role in the
        // first delta, the text deltas, a last choice chunk with finish_reason, then usage when asked.
        std::vector<std::string> events;
        auto event = [&](const json &delta, const json &finishReason) {
            events.push_back(
                sim::streamChunk(id, a.modelName(), delta, finishReason, static_cast<std::int64_t>(::time(nullptr))));
        };
        event({{"role", "assistant"}, {"content", ""}, {"reasoning_content", nullptr}}, nullptr);
        for (const auto &d : deltas) {
            event({{d.first, d.second}}, nullptr);
        }
        event(json::object(), finish);
        if (includeUsage) {
            events.push_back("data: " +
                             json{{"id", id},
                                  {"object", "chat.completion.chunk"},
                                  {"created", static_cast<std::int64_t>(::time(nullptr))},
                                  {"model", a.modelName()},
                                  {"choices", json::array()},
                                  {"usage",
                                   {{"prompt_tokens", static_cast<std::int64_t>(promptChars / 4)},
                                    {"completion_tokens", static_cast<std::int64_t>(deltas.size())},
                                    {"total_tokens", static_cast<std::int64_t>(promptChars / 4 + deltas.size())},
                                    {"reasoning_tokens", reasoningDeltas}}}}
                                 .dump() +
                             "\n\n");
        }
        events.push_back("data: [DONE]\n\n");
        res.set_chunked_content_provider(
            "text/event-stream",
            [&, events, since, n = std::size_t(0)](std::size_t, httplib::DataSink &sink) mutable {
                if (n < events.size()) {
                    // Time to first token, then the token rate (the role chunk goes out with the first).
                    if (n == 0) {
                        pause(o, 0.3);
                    } else if (n != 1 && o.tokenSeconds > 0) {
                        std::this_thread::sleep_for(
                            std::chrono::microseconds(static_cast<long long>(o.tokenSeconds * 1e6)));
                    } else if (n != 1) {
                        pause(o, 0.02);
                    }
                    if (n == 1) {
                        s.ttft.observe(since());
                    }
                    const std::string &e = events[n];
                    ++n;
                    if (n > 1 && n < events.size()) {
                        ++s.generatedTokens;
                    }
                    if (!sink.write(e.data(), e.size())) {
                        return false;
                    }
                    if (n == events.size()) {
                        sink.done();
                    }
                    return true;
                }
                sink.done();
                return true;
            },
            [&, since, kvTokens](bool success) {
                --s.running;
                s.usedTokens -= kvTokens;
                if (success) {
                    s.e2e.observe(since());
                } else {
                    ++s.abortedTotal; // the client went away mid-stream
                }
                writeGpuLoad(o, s);
            });
    });

    const std::string bindHost = o.listenHost.empty() ? a.host : o.listenHost;
    const int bindPort = o.listenPort < 0 ? a.port : o.listenPort;
    const bool bound = bindPort == 0 ? server.bind_to_any_port(bindHost) > 0 : server.bind_to_port(bindHost, bindPort);
    if (!bound) {
        logLine("ERROR: [Errno 98] error while attempting to bind on address ('" + a.host + "', " +
                    std::to_string(a.port) + "): address already in use",
                false);
        return 1;
    }
    std::thread http([&] { server.listen_after_bind(); });
    logLine("INFO:     Started server process [" + std::to_string(::getpid()) + "]", false);
    logLine("INFO:     Waiting for application startup.", false);
    logLine("INFO:     Application startup complete.", false);
    logLine("INFO:     Uvicorn running on http://" + a.host + ":" + std::to_string(a.port) + " (Press CTRL+C to quit)",
            false);
    s.phase = 1;
    if (!o.neverReady) {
        pause(o, 2.0); // warm-up request
        logLine("INFO:     127.0.0.1:0 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK", false);
        s.phase = 2;
        writeGpuLoad(o, s); // warm-up done: the GPUs go idle, the memory stays
        logLine("The server is fired up and ready to roll!", false);
    }
    // Decode lines every few seconds while requests run (TP0 only, sglang-facts §11).
    for (;;) {
        pause(o, 4.0);
        if (s.running > 0) {
            logLine("Decode batch, #running-req: " + std::to_string(s.running) +
                    ", #token: " + std::to_string(s.usedTokens) +
                    ", token usage: " + fixed(double(s.usedTokens) / double(o.kvTokens)) +
                    ", accept len: 3.08, accept rate: 0.41, cuda graph: True, gen throughput (token/s): 1635.11, "
                    "#queue-req: " +
                    std::to_string(s.queued));
        }
    }
    http.join();
    return 0;
}

} // namespace flashdeck::sim
