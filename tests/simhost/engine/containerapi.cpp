// Container routes of the simulated Docker daemon, with the semantics real clients rely on
// (Docker Engine API v1.47 reference, and the docker CLI's own calls): wait answers its
// headers at once and its body at exit; attach answers 101 and streams frames; logs use the
// 8-byte multiplexed framing when the container has no TTY; kill on a stopped container is 409.

#include "tests/simhost/engine/engine.h"
#include "tests/simhost/engine/engineapi.h"
#include "tests/simhost/engine/httpserver.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstring>
#include <regex>
#include <signal.h>

using nlohmann::json;

namespace flashdeck::sim {

namespace {

// Go's units.HumanDuration, as `docker ps` shows it ("Up 5 seconds", "Exited (0) 2 minutes ago").
std::string humanDuration(std::int64_t nanos)
{
    const std::int64_t s = nanos / 1000000000;
    if (s < 1) {
        return "Less than a second";
    }
    if (s == 1) {
        return "1 second";
    }
    if (s < 60) {
        return std::to_string(s) + " seconds";
    }
    const std::int64_t m = s / 60;
    if (m == 1) {
        return "About a minute";
    }
    if (m < 60) {
        return std::to_string(m) + " minutes";
    }
    const std::int64_t h = m / 60;
    if (h == 1) {
        return "About an hour";
    }
    if (h < 48) {
        return std::to_string(h) + " hours";
    }
    return std::to_string(h / 24) + " days";
}

std::string statusText(const Container &c)
{
    const std::int64_t now = Engine::nowNanos();
    if (c.status == "running") {
        return "Up " + humanDuration(now - c.startedNanos);
    }
    if (c.status == "exited") {
        return "Exited (" + std::to_string(c.exitCode) + ") " + humanDuration(now - c.finishedNanos) + " ago";
    }
    if (c.status == "removing") {
        return "Removal In Progress";
    }
    return "Created";
}

json portsList(const Container &c)
{
    json ports = json::array();
    const json bindings = c.hostConfig.value("PortBindings", json::object());
    if (!bindings.is_object()) {
        return ports;
    }
    for (const auto &[key, list] : bindings.items()) {
        const int privatePort = std::atoi(key.c_str());
        const std::string type = key.find("/udp") != std::string::npos ? "udp" : "tcp";
        if (!list.is_array() || c.status != "running") {
            ports.push_back({{"PrivatePort", privatePort}, {"Type", type}});
            continue;
        }
        for (const auto &b : list) {
            const std::string ip = b.value("HostIp", std::string());
            ports.push_back({{"IP", ip.empty() ? "0.0.0.0" : ip},
                             {"PrivatePort", privatePort},
                             {"PublicPort", std::atoi(b.value("HostPort", std::string("0")).c_str())},
                             {"Type", type}});
        }
    }
    return ports;
}

json mounts(const Container &c)
{
    json out = json::array();
    for (const auto &bind : c.hostConfig.value("Binds", json::array())) {
        const std::string text = bind.get<std::string>();
        const auto colon = text.find(':');
        const auto second = text.find(':', colon + 1);
        const std::string mode = second == std::string::npos ? "" : text.substr(second + 1);
        out.push_back({{"Type", "bind"},
                       {"Source", text.substr(0, colon)},
                       {"Destination", text.substr(colon + 1, second - colon - 1)},
                       {"Mode", mode},
                       {"RW", mode.find("ro") == std::string::npos},
                       {"Propagation", "rprivate"}});
    }
    return out;
}

std::string commandLine(const Container &c)
{
    std::string out;
    for (const char *key : {"Entrypoint", "Cmd"}) {
        const json part = c.config.value(key, json());
        if (part.is_array()) {
            for (const auto &a : part) {
                if (!out.empty()) {
                    out += ' '; // not `" " + string`: GCC 12 -O3 misreports it (-Wrestrict, GCC bug 105329)
                }
                out += a.get<std::string>();
            }
        }
    }
    return out;
}

json labels(const Container &c)
{
    const json l = c.config.value("Labels", json::object());
    return l.is_object() ? l : json::object();
}

json inspectJson(const Container &c)
{
    json config = c.config;
    config["Hostname"] = c.id.substr(0, 12);
    config["Image"] = c.imageRef;
    config["Labels"] = labels(c);
    config["Tty"] = c.config.value("Tty", false);
    config["WorkingDir"] = c.config.value("WorkingDir", std::string("/sgl-workspace/sglang"));
    json hostConfig = c.hostConfig;
    hostConfig["AutoRemove"] = c.autoRemove();
    hostConfig["NetworkMode"] = c.hostConfig.value("NetworkMode", std::string("bridge"));
    json argv = json::array();
    for (const char *key : {"Entrypoint", "Cmd"}) {
        const json part = c.config.value(key, json());
        if (part.is_array()) {
            for (const auto &a : part) {
                argv.push_back(a);
            }
        }
    }
    const std::string path = argv.empty() ? "" : argv[0].get<std::string>();
    if (!argv.empty()) {
        argv.erase(argv.begin());
    }
    json ports = json::object();
    for (const auto &p : portsList(c)) {
        const std::string key = std::to_string(p.value("PrivatePort", 0)) + "/" + p.value("Type", std::string("tcp"));
        if (p.contains("PublicPort")) {
            ports[key].push_back({{"HostIp", p["IP"]}, {"HostPort", std::to_string(p.value("PublicPort", 0))}});
        } else {
            ports[key] = nullptr;
        }
    }
    const bool running = c.status == "running";
    return {{"Id", c.id},
            {"Created", rfc3339(c.createdNanos)},
            {"Path", path},
            {"Args", argv},
            {"State",
             {{"Status", c.status},
              {"Running", running},
              {"Paused", false},
              {"Restarting", false},
              {"OOMKilled", false},
              {"Dead", false},
              {"Pid", running ? c.pid : 0},
              {"ExitCode", c.exitCode},
              {"Error", c.error},
              {"StartedAt", rfc3339(c.startedNanos)},
              {"FinishedAt", rfc3339(c.finishedNanos)}}},
            {"Image", c.imageId},
            {"ResolvConfPath", "/var/lib/docker/containers/" + c.id + "/resolv.conf"},
            {"HostnamePath", "/var/lib/docker/containers/" + c.id + "/hostname"},
            {"HostsPath", "/var/lib/docker/containers/" + c.id + "/hosts"},
            {"LogPath", "/var/lib/docker/containers/" + c.id + "/" + c.id + "-json.log"},
            {"Name", "/" + c.name},
            {"RestartCount", 0},
            {"Driver", "overlay2"},
            {"Platform", "linux"},
            {"MountLabel", ""},
            {"ProcessLabel", ""},
            {"AppArmorProfile", "docker-default"},
            {"ExecIDs", nullptr},
            {"HostConfig", hostConfig},
            {"Mounts", mounts(c)},
            {"Config", config},
            {"NetworkSettings",
             {{"Bridge", ""},
              {"SandboxID", running ? c.id.substr(0, 12) + "sandbox" : ""},
              {"Ports", ports},
              {"IPAddress", running ? "172.17.0.2" : ""},
              {"Gateway", running ? "172.17.0.1" : ""},
              {"Networks", json::object()}}}};
}

json listJson(const Container &c)
{
    return {{"Id", c.id},
            {"Names", {"/" + c.name}},
            {"Image", c.imageRef},
            {"ImageID", c.imageId},
            {"Command", commandLine(c)},
            {"Created", c.createdNanos / 1000000000},
            {"Ports", portsList(c)},
            {"Labels", labels(c)},
            {"State", c.status},
            {"Status", statusText(c)},
            {"HostConfig", {{"NetworkMode", c.hostConfig.value("NetworkMode", std::string("bridge"))}}},
            {"NetworkSettings", {{"Networks", json::object()}}},
            {"Mounts", mounts(c)}};
}

/** `filters` in both shapes clients send: {"label":["k=v"]} and the older {"label":{"k=v":true}}. */
std::vector<std::string> filterValues(const json &filters, const char *key)
{
    std::vector<std::string> out;
    const json v = filters.value(key, json());
    if (v.is_array()) {
        for (const auto &s : v) {
            out.push_back(s.get<std::string>());
        }
    } else if (v.is_object()) {
        for (const auto &[k, on] : v.items()) {
            if (on.is_boolean() && on.get<bool>()) {
                out.push_back(k);
            }
        }
    }
    return out;
}

bool matches(const Container &c, const json &filters)
{
    const json l = labels(c);
    for (const auto &want : filterValues(filters, "label")) {
        const auto eq = want.find('=');
        const std::string key = want.substr(0, eq);
        if (!l.contains(key) || (eq != std::string::npos && l[key] != want.substr(eq + 1))) {
            return false;
        }
    }
    const auto names = filterValues(filters, "name");
    if (!names.empty() && std::none_of(names.begin(), names.end(), [&](const std::string &n) {
            return std::regex_search("/" + c.name, std::regex(n));
        })) {
        return false;
    }
    const auto ids = filterValues(filters, "id");
    if (!ids.empty() &&
        std::none_of(ids.begin(), ids.end(), [&](const std::string &i) { return c.id.rfind(i, 0) == 0; })) {
        return false;
    }
    const auto states = filterValues(filters, "status");
    return states.empty() || std::find(states.begin(), states.end(), c.status) != states.end();
}

std::string frame(int stream, const std::string &payload)
{
    std::string out(8, '\0');
    out[0] = static_cast<char>(stream);
    const auto n = static_cast<std::uint32_t>(payload.size());
    out[4] = static_cast<char>((n >> 24) & 0xff);
    out[5] = static_cast<char>((n >> 16) & 0xff);
    out[6] = static_cast<char>((n >> 8) & 0xff);
    out[7] = static_cast<char>(n & 0xff);
    return out + payload;
}

bool flag(const http::Request &req, const char *name)
{
    const std::string v = req.get_param_value(name);
    return v == "1" || v == "true" || v == "True";
}

std::int64_t timeParam(const http::Request &req, const char *name)
{
    const std::string v = req.get_param_value(name);
    return v.empty() ? 0 : static_cast<std::int64_t>(std::stod(v) * 1e9);
}

struct Stream
{
    std::size_t next = 0;
};

void sendResult(http::Response &res, const EngineResult &r)
{
    if (r.status >= 400) {
        sendError(res, r.status, r.message);
    } else {
        res.status = r.status;
    }
}

} // namespace

void registerContainerRoutes(http::Server &server, Engine &engine)
{
    server.Post(route("/containers/create"), [&engine](const http::Request &req, http::Response &res) {
        json body;
        try {
            body = json::parse(req.body);
        } catch (const json::exception &e) {
            sendError(res, 400, std::string("invalid JSON: ") + e.what());
            return;
        }
        std::string id;
        const EngineResult r = engine.create(req.get_param_value("name"), body, &id);
        if (!r.ok()) {
            sendError(res, r.status, r.message);
            return;
        }
        res.status = 201;
        res.set_content(json{{"Id", id}, {"Warnings", json::array()}}.dump() + "\n", "application/json");
    });
    server.Get(route("/containers/json"), [&engine](const http::Request &req, http::Response &res) {
        json filters = json::object();
        if (req.has_param("filters")) {
            try {
                filters = json::parse(req.get_param_value("filters"));
            } catch (const json::exception &e) {
                sendError(res, 400, std::string("invalid filter: ") + e.what());
                return;
            }
        }
        const bool all = flag(req, "all");
        json list = json::array();
        const auto containers = engine.containers();
        const std::lock_guard lock(engine.mutex());
        for (auto it = containers.rbegin(); it != containers.rend(); ++it) { // newest first
            if ((all || (*it)->status == "running") && matches(**it, filters)) {
                list.push_back(listJson(**it));
            }
        }
        res.set_content(list.dump() + "\n", "application/json");
    });
    server.Get(route("/containers/([^/]+)/json"), [&engine](const http::Request &req, http::Response &res) {
        const auto c = engine.find(req.matches[1]);
        if (!c) {
            sendError(res, 404, "No such container: " + std::string(req.matches[1]));
            return;
        }
        const std::lock_guard lock(engine.mutex());
        res.set_content(inspectJson(*c).dump() + "\n", "application/json");
    });
    server.Post(route("/containers/([^/]+)/start"), [&engine](const http::Request &req, http::Response &res) {
        sendResult(res, engine.start(req.matches[1]));
    });
    server.Post(route("/containers/([^/]+)/stop"), [&engine](const http::Request &req, http::Response &res) {
        const std::string t = req.has_param("t") ? req.get_param_value("t") : req.get_param_value("timeout");
        int signal = SIGTERM;
        if (req.get_param_value("signal") == "SIGKILL" || req.get_param_value("signal") == "9") {
            signal = SIGKILL;
        }
        sendResult(res, engine.stop(req.matches[1], t.empty() ? 10 : std::atoi(t.c_str()), signal));
    });
    server.Post(route("/containers/([^/]+)/kill"), [&engine](const http::Request &req, http::Response &res) {
        const std::string s = req.get_param_value("signal");
        int signal = SIGKILL;
        if (s == "SIGTERM" || s == "TERM" || s == "15") {
            signal = SIGTERM;
        } else if (s == "SIGINT" || s == "INT" || s == "2") {
            signal = SIGINT;
        }
        sendResult(res, engine.kill(req.matches[1], signal));
    });
    server.Delete(route("/containers/([^/]+)"), [&engine](const http::Request &req, http::Response &res) {
        sendResult(res, engine.remove(req.matches[1], flag(req, "force")));
    });
    server.Post(route("/containers/([^/]+)/wait"), [&engine](const http::Request &req, http::Response &res) {
        const auto c = engine.find(req.matches[1]);
        if (!c) {
            sendError(res, 404, "No such container: " + std::string(req.matches[1]));
            return;
        }
        const std::string condition = req.get_param_value("condition");
        int exitsAtCall = 0;
        {
            const std::lock_guard lock(engine.mutex());
            exitsAtCall = c->exits;
        }
        // Headers go out now (httplib writes them before calling the provider); the body at exit.
        res.set_chunked_content_provider("application/json",
                                         [&engine, c, condition, exitsAtCall](std::size_t, http::DataSink &sink) {
                                             std::unique_lock lock(engine.mutex());
                                             auto done = [&] {
                                                 if (condition == "removed") {
                                                     return c->removed;
                                                 }
                                                 if (condition == "next-exit") {
                                                     return c->exits > exitsAtCall;
                                                 }
                                                 return c->status != "running" || c->removed; // not-running
                                             };
                                             while (!done()) {
                                                 if (!sink.is_writable()) {
                                                     return false;
                                                 }
                                                 engine.changed().wait_for(lock, std::chrono::milliseconds(500));
                                             }
                                             json body = {{"StatusCode", c->exitCode}, {"Error", nullptr}};
                                             if (!c->error.empty()) {
                                                 body["Error"] = {{"Message", c->error}};
                                             }
                                             lock.unlock();
                                             const std::string text = body.dump() + "\n";
                                             sink.write(text.data(), text.size());
                                             sink.done();
                                             return true;
                                         });
    });
    auto streamLogs = [&engine](const std::shared_ptr<Container> &c, const http::Request &req, bool attach,
                                http::Response &res) {
        const bool follow = attach ? flag(req, "stream") : flag(req, "follow");
        const bool timestamps = !attach && flag(req, "timestamps");
        const bool wantOut = flag(req, "stdout");
        const bool wantErr = flag(req, "stderr");
        const std::int64_t since = timeParam(req, "since");
        const std::int64_t until = timeParam(req, "until");
        const bool tty = c->config.value("Tty", false);
        auto state = std::make_shared<Stream>();
        int exitsAtCall = 0;
        {
            const std::lock_guard lock(engine.mutex());
            exitsAtCall = c->exits;
            state->next = attach && !flag(req, "logs") ? c->logs.size() : 0;
            const std::string tail = req.get_param_value("tail");
            if (!attach && !tail.empty() && tail != "all") {
                const std::size_t n = std::stoul(tail);
                state->next = c->logs.size() > n ? c->logs.size() - n : 0;
            }
        }
        auto provider = [&engine, c, state, follow, timestamps, wantOut, wantErr, since, until, tty, attach,
                         exitsAtCall](std::size_t, http::DataSink &sink) {
            // Counted while it follows (the provider runs the whole stream in this one call).
            const bool counted = follow && !attach;
            engine.follows() += counted ? 1 : 0;
            const std::shared_ptr<void> uncount(nullptr,
                                                [&engine, counted](void *) { engine.follows() -= counted ? 1 : 0; });
            std::unique_lock lock(engine.mutex());
            auto finished = [&] {
                if (c->removed) {
                    return true;
                }
                return attach ? c->exits > exitsAtCall : c->status != "running";
            };
            for (;;) {
                std::string out;
                for (; state->next < c->logs.size(); ++state->next) {
                    const LogEntry &e = c->logs[state->next];
                    if ((e.stream == 1 && !wantOut) || (e.stream == 2 && !wantErr) || e.nanos < since ||
                        (until > 0 && e.nanos > until)) {
                        continue;
                    }
                    const std::string payload = timestamps ? rfc3339(e.nanos) + " " + e.text : e.text;
                    out += tty ? payload : frame(e.stream, payload);
                }
                if (!out.empty()) {
                    lock.unlock();
                    if (!sink.write(out.data(), out.size())) {
                        return false;
                    }
                    lock.lock();
                    continue;
                }
                if (!follow || finished()) {
                    lock.unlock();
                    sink.done();
                    return true;
                }
                if (!sink.is_writable()) {
                    return false;
                }
                engine.changed().wait_for(lock, std::chrono::milliseconds(500));
            }
        };
        const char *type = tty ? "application/vnd.docker.raw-stream" : "application/vnd.docker.multiplexed-stream";
        if (attach) {
            res.status = 101;
            res.set_header("Connection", "Upgrade");
            res.set_header("Upgrade", "tcp");
            res.set_content_provider(type, provider);
        } else {
            res.set_chunked_content_provider(type, provider);
        }
    };
    server.Get(route("/containers/([^/]+)/logs"), [&engine, streamLogs](const http::Request &req, http::Response &res) {
        const auto c = engine.find(req.matches[1]);
        if (!c) {
            sendError(res, 404, "No such container: " + std::string(req.matches[1]));
            return;
        }
        if (!flag(req, "stdout") && !flag(req, "stderr")) {
            sendError(res, 400, "Bad parameters: you must choose at least one stream");
            return;
        }
        streamLogs(c, req, false, res);
    });
    server.Post(route("/containers/([^/]+)/attach"),
                [&engine, streamLogs](const http::Request &req, http::Response &res) {
                    const auto c = engine.find(req.matches[1]);
                    if (!c) {
                        sendError(res, 404, "No such container: " + std::string(req.matches[1]));
                        return;
                    }
                    streamLogs(c, req, true, res);
                });
}

} // namespace flashdeck::sim
