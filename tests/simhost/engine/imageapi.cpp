// System and image routes of the simulated host. Shapes follow the Docker Engine API
// reference (v1.47: /_ping, /version, /info, /distribution/{name}/json, /images/create,
// /images/{name}/json) and what dockerd really streams during a pull.

#include "tests/simhost/diskuse.h"
#include "tests/simhost/engine/engine.h"
#include "tests/simhost/engine/engineapi.h"
#include "tests/simhost/engine/httpserver.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <thread>

using nlohmann::json;

namespace flashdeck::sim {

std::string route(const std::string &path)
{
    return "(?:/v[0-9]+\\.[0-9]+)?" + path;
}

void sendError(http::Response &res, int status, const std::string &message)
{
    res.status = status;
    res.set_content(json{{"message", message}}.dump() + "\n", "application/json");
}

std::string rfc3339(std::int64_t nanos)
{
    if (nanos <= 0) {
        return "0001-01-01T00:00:00Z";
    }
    const std::time_t seconds = static_cast<std::time_t>(nanos / 1000000000);
    std::tm tm{};
    ::gmtime_r(&seconds, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    char frac[16];
    std::snprintf(frac, sizeof frac, ".%09lld", static_cast<long long>(nanos % 1000000000));
    std::string f = frac; // RFC3339Nano drops trailing zeros
    while (!f.empty() && (f.back() == '0' || f.back() == '.')) {
        const bool dot = f.back() == '.';
        f.pop_back();
        if (dot) {
            break;
        }
    }
    return std::string(buf) + f + "Z";
}

namespace {

// Go's units.HumanSize: decimal units, four significant digits ("1.2GB", "529.4kB").
std::string humanSize(double bytes)
{
    static const char *units[] = {"B", "kB", "MB", "GB", "TB"};
    int i = 0;
    while (bytes >= 1000.0 && i < 4) {
        bytes /= 1000.0;
        ++i;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g%s", bytes, units[i]);
    return buf;
}

// jsonmessage's progress bar: 50 columns of '=' with a '>' head, then "current/total".
std::string progressBar(std::int64_t current, std::int64_t total)
{
    const int width = 50;
    const int filled = total > 0 ? static_cast<int>(double(current) * width / double(total)) : 0;
    std::string bar = "[";
    for (int i = 0; i < width; ++i) {
        bar += i < filled ? '=' : (i == filled ? '>' : ' ');
    }
    return bar + "] " + humanSize(double(current)) + "/" + humanSize(double(total));
}

json progressLine(const std::string &status, const std::string &id, std::int64_t current, std::int64_t total)
{
    return {{"status", status},
            {"progressDetail", {{"current", current}, {"total", total}}},
            {"progress", progressBar(current, total)},
            {"id", id}};
}

double pullRate(const json &scenario)
{
    // MB/s before the time factor: a ~14 GB download takes ~6 s at factor 1.
    return scenario.value("pull", json::object()).value("rate_mb_per_s", 2500.0);
}

void pauseScaled(const Engine &engine, double seconds)
{
    std::this_thread::sleep_for(
        std::chrono::microseconds(static_cast<long long>(seconds * engine.options().timeFactor * 1e6)));
}

json imageJson(const Engine &engine, const RegistryImage &image)
{
    json layers = json::array();
    for (const auto &l : image.layers) {
        layers.push_back(l.first);
    }
    const std::string ref = image.repo + ":" + image.tag;
    return {{"Id", image.id},
            {"RepoTags", engine.repoTags(image)},
            {"RepoDigests", engine.repoDigests(image)},
            {"Parent", ""},
            {"Comment", "buildkit.dockerfile.v0"},
            {"Created", image.created},
            {"DockerVersion", ""},
            {"Author", ""},
            {"Config",
             {{"Env",
               {"PATH=/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/"
                "sbin:/bin",
                "NVIDIA_VISIBLE_DEVICES=all", "NVIDIA_DRIVER_CAPABILITIES=compute,utility"}},
              {"Cmd", {"/bin/bash"}},
              {"WorkingDir", "/sgl-workspace/sglang"},
              {"Labels", {{"org.opencontainers.image.ref.name", "ubuntu"}}}}},
            {"Architecture", "amd64"},
            {"Os", "linux"},
            {"Size", image.size},
            {"GraphDriver", {{"Name", "overlay2"}, {"Data", json::object()}}},
            {"RootFS", {{"Type", "layers"}, {"Layers", layers}}},
            {"Metadata", {{"LastTagTime", "0001-01-01T00:00:00Z"}}}};
}

/** Streams a pull the way dockerd does; false when the client went away. */
bool streamPull(Engine &engine, const RegistryImage &image, const ImageRef &ref, http::DataSink &sink)
{
    auto emit = [&](const json &line) {
        const std::string text = line.dump() + "\r\n";
        return sink.is_writable() && sink.write(text.data(), text.size());
    };
    const bool present = engine.hasImage(image);
    if (!emit({{"status", "Pulling from " + image.repo}, {"id", ref.digest.empty() ? ref.tag : ref.digest}})) {
        return false;
    }
    const std::size_t n = image.layers.size();
    if (present) {
        for (std::size_t i = 0; i < n; ++i) {
            emit({{"status", "Already exists"}, {"progressDetail", json::object()}, {"id", image.shortLayerId(i)}});
        }
    } else {
        const json scenario = engine.scenario();
        const double rate = pullRate(scenario) * 1e6;
        // Free space now: the scenario's less what the store and the caches took since (diskuse.h).
        const double avail = scenario.value("disk", json::object()).value("avail_bytes", 1e15) -
            double(DiskUse::read(engine.options().simDir).usedBytes());
        // Layers an interrupted pull already fetched are in the layer store: "Already exists".
        std::vector<std::size_t> todo;
        for (std::size_t i = 0; i < n; ++i) {
            if (engine.hasLayer(image.layers[i].first)) {
                emit({{"status", "Already exists"}, {"progressDetail", json::object()}, {"id", image.shortLayerId(i)}});
            } else {
                emit({{"status", "Pulling fs layer"},
                      {"progressDetail", json::object()},
                      {"id", image.shortLayerId(i)}});
                todo.push_back(i);
            }
        }
        for (std::size_t k = 3; k < todo.size(); ++k) {
            emit({{"status", "Waiting"}, {"progressDetail", json::object()}, {"id", image.shortLayerId(todo[k])}});
        }
        // Three downloads at a time (dockerd's max-concurrent-downloads), ten updates each; each
        // group is unpacked once it is down, so an interrupted pull keeps the groups it finished.
        // The unpacked image must fit on the disk.
        double written = 0;
        // Scenario `pull.retry_layer` (an index into the layers still to fetch): that download
        // breaks halfway once, as on a flaky link. dockerd counts down "Retrying in N seconds",
        // resumes with a range request and then reports the layer's total as the bytes still
        // missing, its current from 0 (what a real dockerd 20.10 printed).
        const json pullFaults = scenario.value("pull", json::object());
        const std::size_t retryLayer = pullFaults.value("retry_layer", std::size_t(-1));
        for (std::size_t first = 0; first < todo.size(); first += 3) {
            const std::size_t last = std::min(todo.size(), first + 3);
            std::int64_t biggest = 0;
            for (std::size_t k = first; k < last; ++k) {
                biggest = std::max(biggest, image.layers[todo[k]].second);
            }
            for (int step = 1; step <= 10; ++step) {
                pauseScaled(engine, double(biggest) / rate / 10.0);
                for (std::size_t k = first; k < last; ++k) {
                    const std::int64_t total = image.layers[todo[k]].second;
                    const std::int64_t resumedAt = k == retryLayer && step > 5 ? total * 5 / 10 : 0;
                    if (!emit(progressLine("Downloading", image.shortLayerId(todo[k]), total * step / 10 - resumedAt,
                                           total - resumedAt))) {
                        return false; // the client went away: what was unpacked stays in the layer store
                    }
                    if (k == retryLayer && step == 5) {
                        for (int wait = 5; wait >= 1; --wait) {
                            emit({{"status",
                                   "Retrying in " + std::to_string(wait) + (wait == 1 ? " second" : " seconds")},
                                  {"progressDetail", json::object()},
                                  {"id", image.shortLayerId(todo[k])}});
                            pauseScaled(engine, 1.0);
                        }
                    }
                }
            }
            for (std::size_t k = first; k < last; ++k) {
                emit({{"status", "Verifying Checksum"},
                      {"progressDetail", json::object()},
                      {"id", image.shortLayerId(todo[k])}});
                emit({{"status", "Download complete"},
                      {"progressDetail", json::object()},
                      {"id", image.shortLayerId(todo[k])}});
            }
            for (std::size_t k = first; k < last; ++k) {
                const std::size_t i = todo[k];
                const std::int64_t total = image.layers[i].second;
                for (int step = 1; step <= 4; ++step) {
                    pauseScaled(engine, double(total) / (rate * 4.0) / 4.0);
                    written += double(image.size) * double(total) / double(image.downloadBytes()) / 4.0;
                    if (written > avail) {
                        const std::string message =
                            "failed to register layer: write "
                            "/usr/local/lib/python3.12/dist-packages/torch/lib/libtorch_cuda.so: "
                            "no space left on device";
                        emit({{"errorDetail", {{"message", message}}}, {"error", message}});
                        return true;
                    }
                    if (!emit(progressLine("Extracting", image.shortLayerId(i), total * step / 4, total))) {
                        return false;
                    }
                }
                engine.addLayer(image.layers[i].first);
                emit({{"status", "Pull complete"}, {"progressDetail", json::object()}, {"id", image.shortLayerId(i)}});
            }
        }
    }
    engine.addPulledImage(image, ref);
    emit({{"status", "Digest: " + image.digest}});
    emit({{"status",
           std::string(present ? "Status: Image is up to date for " : "Status: Downloaded newer image for ") +
               ref.familiar()}});
    return true;
}

} // namespace

void registerSystemRoutes(http::Server &server, Engine &engine)
{
    // Not Docker's: what a test counts on the simulated host (issue 42: one dial-stdio for every
    // call of a process, one log follow). The asking connection is not counted.
    server.Get("/_sim/counts", [&server, &engine](const http::Request &, http::Response &res) {
        const json counts = {{"connections", server.connections() - 1}, {"log_follows", engine.follows().load()}};
        res.set_content(counts.dump(), "application/json");
    });
    server.Get(route("/_ping"), [](const http::Request &, http::Response &res) {
        res.set_header("Builder-Version", "2");
        res.set_header("Swarm", "inactive");
        res.set_header("Cache-Control", "no-cache, no-store, must-revalidate");
        res.set_header("Pragma", "no-cache");
        res.set_content("OK", "text/plain; charset=utf-8");
    });
    server.Get(route("/version"), [](const http::Request &, http::Response &res) {
        const json details = {{"ApiVersion", kApiVersion},
                              {"Arch", "amd64"},
                              {"BuildTime", "2025-01-21T00:00:00.000000000+00:00"},
                              {"Experimental", "false"},
                              {"GitCommit", "4c9b3b0"},
                              {"GoVersion", "go1.22.11"},
                              {"KernelVersion", "6.8.0-51-generic"},
                              {"MinAPIVersion", "1.24"},
                              {"Os", "linux"}};
        const json v = {{"Platform", {{"Name", "Docker Engine - Community"}}},
                        {"Components",
                         {{{"Name", "Engine"}, {"Version", kEngineVersion}, {"Details", details}},
                          {{"Name", "containerd"},
                           {"Version", "1.7.25"},
                           {"Details", {{"GitCommit", "bcc810d6b9066471b0b6fa75f557a15a1cbf31bb"}}}},
                          {{"Name", "runc"}, {"Version", "1.2.4"}, {"Details", {{"GitCommit", "v1.2.4-0-g6c52b3f"}}}},
                          {{"Name", "docker-init"}, {"Version", "0.19.0"}, {"Details", {{"GitCommit", "de40ad0"}}}}}},
                        {"Version", kEngineVersion},
                        {"ApiVersion", kApiVersion},
                        {"MinAPIVersion", "1.24"},
                        {"GitCommit", "4c9b3b0"},
                        {"GoVersion", "go1.22.11"},
                        {"Os", "linux"},
                        {"Arch", "amd64"},
                        {"KernelVersion", "6.8.0-51-generic"},
                        {"BuildTime", "2025-01-21T00:00:00.000000000+00:00"}};
        res.set_content(v.dump() + "\n", "application/json");
    });
    server.Get(route("/info"), [&engine](const http::Request &, http::Response &res) {
        const json scenario = engine.scenario();
        const bool nvidia = scenario.value("vendor", std::string("nvidia")) == "nvidia";
        json runtimes = {
            {"io.containerd.runc.v2",
             {{"path", "runc"}, {"status", {{"org.opencontainers.runtime-spec.features", "{}"}}}}},
            {"runc", {{"path", "runc"}, {"status", {{"org.opencontainers.runtime-spec.features", "{}"}}}}}};
        if (nvidia) {
            runtimes["nvidia"] = {{"path", "nvidia-container-runtime"}};
        }
        int running = 0;
        int stopped = 0;
        const auto all = engine.containers();
        {
            const std::lock_guard lock(engine.mutex());
            for (const auto &c : all) {
                (c->status == "running" ? running : stopped)++;
            }
        }
        int images = 0;
        for (const auto &image : engine.options().registry.images) {
            images += engine.hasImage(image) ? 1 : 0;
        }
        const json host = scenario.value("host", json::object());
        const json info = {
            {"ID", "5e1b7c2a-3f0d-4c8e-9a61-b300f1a5d3e4"},
            {"Containers", running + stopped},
            {"ContainersRunning", running},
            {"ContainersPaused", 0},
            {"ContainersStopped", stopped},
            {"Images", images},
            {"Driver", "overlay2"},
            {"DriverStatus",
             json::array({json::array({"Backing Filesystem", "extfs"}), json::array({"Supports d_type", "true"})})},
            {"Plugins",
             {{"Volume", {"local"}},
              {"Network", {"bridge", "host", "ipvlan", "macvlan", "null", "overlay"}},
              {"Log",
               {"awslogs", "fluentd", "gcplogs", "gelf", "journald", "json-file", "local", "splunk", "syslog"}}}},
            {"MemoryLimit", true},
            {"SwapLimit", true},
            {"CgroupDriver", "systemd"},
            {"CgroupVersion", "2"},
            {"NEventsListener", 0},
            {"KernelVersion", "6.8.0-51-generic"},
            {"OperatingSystem", host.value("os", std::string("Ubuntu 24.04.1 LTS"))},
            {"OSVersion", "24.04"},
            {"OSType", "linux"},
            {"Architecture", "x86_64"},
            {"IndexServerAddress", "https://index.docker.io/v1/"},
            {"NCPU", host.value("cpus", 224)},
            {"MemTotal", host.value("mem_total_kib", std::int64_t(2113407488)) * 1024},
            {"DockerRootDir", "/var/lib/docker"},
            {"Name", host.value("hostname", std::string("gpu-sim"))},
            {"ServerVersion", kEngineVersion},
            {"Runtimes", runtimes},
            {"DefaultRuntime", "runc"},
            {"LoggingDriver", "json-file"},
            {"Swarm", {{"NodeID", ""}, {"LocalNodeState", "inactive"}}},
            {"LiveRestoreEnabled", false},
            {"Isolation", ""},
            {"InitBinary", "docker-init"},
            {"SecurityOptions", {"name=apparmor", "name=seccomp,profile=builtin", "name=cgroupns"}},
            {"Warnings", json::array()}};
        res.set_content(info.dump() + "\n", "application/json");
    });
}

void registerImageRoutes(http::Server &server, Engine &engine)
{
    server.Get(route("/distribution/(.+)/json"), [&engine](const http::Request &req, http::Response &res) {
        const ImageRef ref = ImageRef::parse(req.matches[1]);
        const RegistryImage *image = engine.options().registry.find(ref);
        if (!image) {
            sendError(res, 404, "docker.io/" + ref.familiar() + ": not found");
            return;
        }
        const json d = {
            {"Descriptor",
             {{"mediaType", "application/vnd.oci.image.index.v1+json"}, {"digest", image->digest}, {"size", 856}}},
            {"Platforms", {{{"architecture", "amd64"}, {"os", "linux"}}}}};
        res.set_content(d.dump() + "\n", "application/json");
    });
    server.Post(route("/images/create"), [&engine](const http::Request &req, http::Response &res) {
        const std::string from = req.get_param_value("fromImage");
        if (from.empty()) {
            sendError(res, 400, "only fromImage is supported by this host");
            return;
        }
        ImageRef ref = ImageRef::parse(from);
        const std::string tag = req.get_param_value("tag");
        if (tag.rfind("sha256:", 0) == 0) {
            ref.digest = tag;
        } else if (!tag.empty()) {
            ref.tag = tag;
        }
        // Scenario `pull.refuse`: dockerd cannot fetch from the registry and says why before it
        // streams anything (an unreachable CDN, a proxy, a rate limit): an error status with its
        // {"message": …} body, as the docker CLI prints it after "Error response from daemon:".
        if (const json refuse = engine.scenario().value("pull", json::object()).value("refuse", json());
            refuse.is_object()) {
            sendError(res, refuse.value("status", 500), refuse.value("message", std::string("pull refused")));
            return;
        }
        const RegistryImage *image = engine.options().registry.find(ref);
        if (!image) {
            bool repoKnown = false;
            for (const auto &i : engine.options().registry.images) {
                repoKnown = repoKnown || i.repo == ref.repo;
            }
            sendError(res, 404,
                      repoKnown ? "manifest for " + ref.familiar() + " not found: manifest unknown: manifest unknown"
                                : "pull access denied for " + ref.repo +
                              ", repository does not exist or may require 'docker login': denied: requested access to "
                              "the resource is denied");
            return;
        }
        res.set_chunked_content_provider("application/json", [&engine, image, ref](std::size_t, http::DataSink &sink) {
            streamPull(engine, *image, ref, sink);
            sink.done();
            return true;
        });
    });
    server.Get(route("/images/json"), [&engine](const http::Request &, http::Response &res) {
        json list = json::array();
        for (const auto &image : engine.options().registry.images) {
            if (!engine.hasImage(image)) {
                continue;
            }
            list.push_back({{"Id", image.id},
                            {"ParentId", ""},
                            {"RepoTags", engine.repoTags(image)},
                            {"RepoDigests", engine.repoDigests(image)},
                            {"Created", 1762636447},
                            {"Size", image.size},
                            {"SharedSize", -1},
                            {"Labels", json::object()},
                            {"Containers", -1}});
        }
        res.set_content(list.dump() + "\n", "application/json");
    });
    server.Delete(route("/images/(.+)"), [&engine](const http::Request &req, http::Response &res) {
        json answer;
        const std::string force = req.get_param_value("force");
        const EngineResult r = engine.removeImage(req.matches[1], force == "1" || force == "true", &answer);
        if (!r.ok()) {
            sendError(res, r.status, r.message);
            return;
        }
        res.set_content(answer.dump() + "\n", "application/json");
    });
    server.Get(route("/images/(.+)/json"), [&engine](const http::Request &req, http::Response &res) {
        const RegistryImage *image = engine.localImage(req.matches[1]);
        if (!image) {
            sendError(res, 404, "No such image: " + std::string(req.matches[1]));
            return;
        }
        res.set_content(imageJson(engine, *image).dump() + "\n", "application/json");
    });
}

} // namespace flashdeck::sim
