// The SGLang Router simulator (`python3 -m sglang_router.launch_router …` in a simulated
// container): the endpoints host contract §5 names — /health, /readiness, /workers — and the
// OpenAI routes forwarded to a worker chosen by the policy (cache_aware: the same conversation
// prefix goes to the same worker, F37). Metrics on --prometheus-port with the sgl_router_ prefix.

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <vector>

namespace flashdeck::sim {

namespace {

struct RouterArgs
{
    std::vector<std::string> workers;
    std::string policy = "cache_aware";
    std::string host = "127.0.0.1";
    int port = 30000;
    int prometheusPort = 0;
};

void log(const std::string &message)
{
    const std::time_t now = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", std::gmtime(&now));
    std::printf("%sZ  INFO sgl_model_gateway: %s\n", buf, message.c_str());
    std::fflush(stdout);
}

bool workerHealthy(const std::string &url)
{
    httplib::Client c(url);
    c.set_connection_timeout(1);
    c.set_read_timeout(2);
    const auto r = c.Get("/health");
    return r && r->status == 200;
}

} // namespace

int runRouterSim(int argc, char **argv)
{
    RouterArgs a;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--worker-urls") {
            while (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
                a.workers.emplace_back(argv[++i]);
            }
        } else if (flag == "--policy" && i + 1 < argc) {
            a.policy = argv[++i];
        } else if (flag == "--host" && i + 1 < argc) {
            a.host = argv[++i];
        } else if (flag == "--port" && i + 1 < argc) {
            a.port = std::atoi(argv[++i]);
        } else if (flag == "--prometheus-port" && i + 1 < argc) {
            a.prometheusPort = std::atoi(argv[++i]);
        } else if (flag == "--prometheus-host" && i + 1 < argc) {
            ++i;
        } else {
            std::fprintf(stderr, "error: unexpected argument '%s' found\n", flag.c_str());
            return 2;
        }
    }
    if (a.workers.empty()) {
        std::fprintf(stderr, "error: at least one --worker-urls is required\n");
        return 2;
    }
    std::string bindHost = a.host;
    int bindPort = a.port;
    if (const char *listen = std::getenv("FLASHDECK_SIM_LISTEN")) {
        const std::string l = listen;
        bindHost = l.substr(0, l.rfind(':'));
        bindPort = std::atoi(l.c_str() + l.rfind(':') + 1);
    }
    std::atomic<long> requests{0};
    httplib::Server server;
    // Uvicorn serves /health and /metrics while every slot decodes; httplib's default pool (8
    // threads here) would block them behind long requests, which a real server never does.
    server.new_task_queue = [] { return new httplib::ThreadPool(128); };
    // SO_REUSEADDR as uvicorn sets it (httplib's default is SO_REUSEPORT alone): the sockets this
    // server closes then wait in TIME_WAIT in a way the next server on the port may rebind over.
    server.set_socket_options([](socket_t sock) {
        const int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    auto allHealthy = [&a] {
        for (const auto &w : a.workers) {
            if (!workerHealthy(w)) {
                return false;
            }
        }
        return true;
    };
    server.Get("/health",
               [&](const httplib::Request &, httplib::Response &res) { res.status = allHealthy() ? 200 : 503; });
    server.Get("/readiness",
               [&](const httplib::Request &, httplib::Response &res) { res.status = allHealthy() ? 200 : 503; });
    server.Get("/workers", [&](const httplib::Request &, httplib::Response &res) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto &w : a.workers) {
            list.push_back({{"url", w}, {"healthy", workerHealthy(w)}, {"model_id", "MiniMaxAI/MiniMax-M3.1-Flash"}});
        }
        res.set_content(nlohmann::json{{"workers", list}, {"total", a.workers.size()}}.dump(), "application/json");
    });
    auto forward = [&](const httplib::Request &req, httplib::Response &res) {
        // cache_aware: the conversation's first message picks the worker, so later turns of a
        // session reach the replica holding its prefix; round_robin otherwise.
        std::size_t pick = static_cast<std::size_t>(requests++) % a.workers.size();
        if (a.policy == "cache_aware") {
            const auto body = nlohmann::json::parse(req.body, nullptr, false);
            const std::string first = body.is_object() && body.contains("messages") && !body["messages"].empty()
                ? body["messages"][0].dump()
                : req.body;
            pick = std::hash<std::string>{}(first) % a.workers.size();
        }
        httplib::Client c(a.workers[pick]);
        c.set_read_timeout(120);
        httplib::Headers headers;
        for (const char *h : {"Authorization", "x-api-key"}) {
            if (req.has_header(h)) {
                headers.emplace(h, req.get_header_value(h));
            }
        }
        const auto r = req.method == "GET" ? c.Get(req.path, headers)
                                           : c.Post(req.path, headers, req.body, req.get_header_value("Content-Type"));
        if (!r) {
            res.status = 503;
            res.set_content(R"({"error":"no healthy worker"})", "application/json");
            return;
        }
        res.status = r->status;
        res.set_content(r->body, r->get_header_value("Content-Type"));
    };
    server.Get("/v1/models", forward);
    server.Post("/v1/chat/completions", forward);
    server.Post("/v1/completions", forward);
    httplib::Server metrics;
    metrics.Get("/metrics", [&](const httplib::Request &, httplib::Response &res) {
        std::string out = "# TYPE sgl_router_requests_total counter\nsgl_router_requests_total " +
            std::to_string(requests.load()) + "\n# TYPE sgl_router_active_workers gauge\nsgl_router_active_workers " +
            std::to_string(a.workers.size()) + "\n";
        res.set_content(out, "text/plain; version=0.0.4");
    });
    if (!server.bind_to_port(bindHost, bindPort)) {
        std::fprintf(stderr, "Error: failed to bind %s:%d: address already in use\n", a.host.c_str(), a.port);
        return 1;
    }
    std::thread metricsThread;
    if (a.prometheusPort > 0 && metrics.bind_to_port(bindHost, a.prometheusPort)) {
        metricsThread = std::thread([&] { metrics.listen_after_bind(); });
    }
    log("Starting router on " + a.host + ":" + std::to_string(a.port) + " | policy: " + a.policy +
        " | workers: " + std::to_string(a.workers.size()));
    server.listen_after_bind();
    metrics.stop();
    if (metricsThread.joinable()) {
        metricsThread.join();
    }
    return 0;
}

} // namespace flashdeck::sim
