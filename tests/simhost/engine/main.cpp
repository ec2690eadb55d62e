// `simhostd`: the simulated host's Docker daemon (Engine API on a loopback port, reached by the
// `docker` shim's `system dial-stdio`) and its fake Hugging Face Hub (HF_ENDPOINT). Prints
// {"docker_port": N, "hub_port": M} on its first line once both listen, writes the same
// ports to $SIM_DIR/docker.port and hub.port, and runs until SIGTERM or SIGINT, when it
// kills every container it started.

#include "tests/simhost/engine/engine.h"
#include "tests/simhost/engine/engineapi.h"
#include "tests/simhost/engine/httpserver.h"
#include "tests/simhost/engine/modelfiles.h"
#include "tests/simhost/engine/registry.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <netinet/in.h>
#include <signal.h>
#include <string>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

int usage()
{
    std::fprintf(stderr,
                 "usage: simhostd --sim-dir DIR --bin DIR --registry FILE [--time-factor X] [--docker-port N]\n"
                 "                [--die-with-parent]\n"
                 "       simhostd --registry FILE --write-model REPO DIR hf|modelscope\n");
    return 2;
}

void tune(httplib::Server &server)
{
    server.new_task_queue = [] { return new httplib::ThreadPool(96); };
    server.set_keep_alive_max_count(10000);
    server.set_keep_alive_timeout(300);
    server.set_read_timeout(300);
    server.set_error_handler([](const httplib::Request &, httplib::Response &res) {
        if (res.status == 404 && res.body.empty()) {
            res.set_content("{\"error\":\"Not Found\"}", "application/json");
        }
    });
}

} // namespace

int main(int argc, char **argv)
{
    flashdeck::sim::EngineOptions options;
    std::string registryPath;
    int dockerPortWanted = 0;
    if (const char *f = std::getenv("FLASHDECK_SIM_TIME_FACTOR")) {
        options.timeFactor = std::atof(f);
    }
    for (int i = 1; i < argc; i += 2) {
        const std::string key = argv[i];
        if (key == "--write-model") { // the simulated `hf download` / `modelscope download`
            if (i + 3 >= argc || registryPath.empty()) {
                return usage();
            }
            std::string error;
            if (!options.registry.load(registryPath, &error)) {
                std::fprintf(stderr, "simhostd: %s\n", error.c_str());
                return 1;
            }
            const flashdeck::sim::HubModel *model = options.registry.model(argv[i + 1]);
            error = model ? flashdeck::sim::writeModelFolder(*model, argv[i + 2], argv[i + 3])
                          : std::string("no model ") + argv[i + 1] + " in the registry";
            if (!error.empty()) {
                std::fprintf(stderr, "simhostd: %s\n", error.c_str());
                return 1;
            }
            return 0;
        }
        if (key == "--die-with-parent") { // tests: never outlive the test process
            ::prctl(PR_SET_PDEATHSIG, SIGTERM);
            --i;
            continue;
        }
        if (i + 1 >= argc) {
            return usage();
        }
        if (key == "--sim-dir") {
            options.simDir = argv[i + 1];
        } else if (key == "--bin") {
            options.simBin = argv[i + 1];
        } else if (key == "--registry") {
            registryPath = argv[i + 1];
        } else if (key == "--docker-port") { // inside a host's own network namespace: dockerd's 2375
            dockerPortWanted = std::atoi(argv[i + 1]);
        } else if (key == "--time-factor") {
            options.timeFactor = std::atof(argv[i + 1]);
        } else {
            return usage();
        }
    }
    if (options.simDir.empty() || options.simBin.empty() || registryPath.empty()) {
        return usage();
    }
    std::string error;
    if (!options.registry.load(registryPath, &error)) {
        std::fprintf(stderr, "simhostd: %s\n", error.c_str());
        return 1;
    }

    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGTERM);
    sigaddset(&stopSignals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr); // every thread inherits the mask
    ::signal(SIGPIPE, SIG_IGN);

    flashdeck::sim::Engine engine(std::move(options));
    flashdeck::sim::http::Server docker;
    docker.set_default_headers({{"Api-Version", flashdeck::sim::kApiVersion},
                                {"Docker-Experimental", "false"},
                                {"Ostype", "linux"},
                                {"Server", std::string("Docker/") + flashdeck::sim::kEngineVersion + " (linux)"}});
    httplib::Server hub;
    tune(hub);
    flashdeck::sim::registerSystemRoutes(docker, engine);
    flashdeck::sim::registerImageRoutes(docker, engine);
    flashdeck::sim::registerContainerRoutes(docker, engine);
    flashdeck::sim::registerHubRoutes(hub, engine);
    const int dockerPort = docker.bind_to_any_port("127.0.0.1", dockerPortWanted);
    const int hubPort = hub.bind_to_any_port("127.0.0.1");
    if (dockerPort <= 0 || hubPort <= 0) {
        std::fprintf(stderr, "simhostd: cannot listen on 127.0.0.1: %s\n", std::strerror(errno));
        return 1;
    }
    // Scenario port-taken: "another process" holds these ports, visible to the real `ss`.
    std::vector<int> squatters;
    for (const auto &port : engine.scenario().value("port_taken", nlohmann::json::array())) {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(port.get<std::uint16_t>());
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const int yes = 1;
        if (fd >= 0) {
            ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        }
        if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0 && ::listen(fd, 8) == 0) {
            squatters.push_back(fd);
        } else if (fd >= 0) {
            ::close(fd); // already taken by someone else: taken all the same
        }
    }
    std::thread dockerThread([&] { docker.listen_after_bind(); });
    std::thread hubThread([&] { hub.listen_after_bind(); });
    const std::string dir = engine.options().simDir;
    // Written whole, then renamed: the demo waits for hub.port to exist, and a file created but
    // not yet written read as an empty port ("http://127.0.0.1:") under load.
    for (const auto &[name, port] : {std::pair{"docker.port", dockerPort}, std::pair{"hub.port", hubPort}}) {
        const std::string path = dir + "/" + name;
        std::ofstream(path + ".tmp") << port << "\n";
        std::rename((path + ".tmp").c_str(), path.c_str());
    }
    std::printf("%s\n", nlohmann::json{{"docker_port", dockerPort}, {"hub_port", hubPort}}.dump().c_str());
    std::fflush(stdout);

    int sig = 0;
    sigwait(&stopSignals, &sig);
    std::remove((dir + "/docker.port").c_str());
    docker.stop();
    hub.stop();
    dockerThread.join();
    hubThread.join();
    return 0; // ~Engine kills the containers' process groups
}
