#include "tests/simhost/engine/engine.h"

#include "tests/simhost/diskuse.h"
#include "tests/simhost/engine/nginxcontainer.h"

#include <algorithm>
#include <arpa/inet.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <poll.h>
#include <random>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using nlohmann::json;

namespace flashdeck::sim {

namespace {

std::string randomHex(std::size_t n)
{
    static std::mt19937_64 rng{std::random_device{}()};
    static const char *digits = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < n; ++i) {
        out += digits[rng() % 16];
    }
    return out;
}

std::vector<std::string> strings(const json &j)
{
    std::vector<std::string> out;
    if (j.is_array()) {
        for (const auto &v : j) {
            out.push_back(v.get<std::string>());
        }
    } else if (j.is_string()) { // Entrypoint may be a plain string
        out.push_back(j.get<std::string>());
    }
    return out;
}

bool executableInPath(const std::string &name, const std::string &path, std::string *found)
{
    if (name.find('/') != std::string::npos) {
        *found = name;
        return ::access(name.c_str(), X_OK) == 0;
    }
    std::size_t begin = 0;
    while (begin <= path.size()) {
        const std::size_t end = std::min(path.find(':', begin), path.size());
        const std::string candidate = path.substr(begin, end - begin) + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0) {
            *found = candidate;
            return true;
        }
        begin = end + 1;
    }
    return false;
}

/** What docker-proxy would do: can this host address and port be bound right now? */
bool portFree(const std::string &ip, int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return false;
    }
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    ::inet_pton(AF_INET, ip.c_str(), &addr.sin_addr);
    const bool ok = ::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0;
    ::close(fd);
    return ok;
}

const char *const kAdjectives[] = {"focused", "eager", "brave", "calm", "quirky", "vibrant", "sharp", "gifted"};
const char *const kNames[] = {"hopper", "lovelace", "turing", "noether", "knuth", "ritchie", "shannon", "curie"};

} // namespace

Engine::Engine(EngineOptions options)
    : m_options(std::move(options))
{ }

Engine::~Engine()
{
    {
        const std::lock_guard lock(m_mutex);
        for (const auto &c : m_containers) {
            if (c->status == "running" && c->pid > 0) {
                ::kill(-c->pid, SIGKILL);
            }
        }
    }
    for (auto &t : m_supervisors) {
        t.join();
    }
}

std::int64_t Engine::nowNanos()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

json Engine::scenario() const
{
    std::ifstream in(m_options.simDir + "/scenario.json");
    if (!in) {
        return json::object();
    }
    try {
        return json::parse(in);
    } catch (const json::exception &) {
        return json::object();
    }
}

const RegistryImage *Engine::localImage(const std::string &text) const
{
    const std::lock_guard lock(m_mutex);
    const ImageRef ref = ImageRef::parse(text);
    for (const auto &image : m_options.registry.images) {
        const auto tags = m_localTags.find(image.id);
        const auto digests = m_localDigests.find(image.id);
        if (tags == m_localTags.end() && digests == m_localDigests.end()) {
            continue;
        }
        const std::string bareId = image.id.substr(7);
        if (text == image.id || (text.size() >= 4 && bareId.rfind(text, 0) == 0) ||
            (text.rfind("sha256:", 0) == 0 && image.id.rfind(text, 0) == 0 && text.size() > 11)) {
            return &image;
        }
        if (!ref.digest.empty()) {
            if (digests != m_localDigests.end() && digests->second.count(ref.repo + "@" + ref.digest)) {
                return &image;
            }
        } else if (tags != m_localTags.end() && tags->second.count(ref.familiar())) {
            return &image;
        }
    }
    return nullptr;
}

void Engine::addPulledImage(const RegistryImage &image, const ImageRef &ref)
{
    {
        const std::lock_guard lock(m_mutex);
        if (ref.digest.empty()) { // pulled by tag: the tag moves here
            for (auto &[id, tags] : m_localTags) {
                tags.erase(ref.familiar());
            }
            m_localTags[image.id].insert(ref.familiar());
        }
        m_localDigests[image.id].insert(image.repo + "@" + image.digest);
    }
    m_changed.notify_all();
}

bool Engine::hasImage(const RegistryImage &image) const
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_localDigests.find(image.id);
    return it != m_localDigests.end() && !it->second.empty();
}

EngineResult Engine::removeImage(const std::string &text, bool force, json *answer)
{
    const RegistryImage *image = localImage(text);
    if (!image) {
        return {404, "No such image: " + text};
    }
    const std::lock_guard lock(m_mutex);
    std::set<std::string> &tags = m_localTags[image->id];
    std::set<std::string> &digests = m_localDigests[image->id];
    const bool byId = text.rfind("sha256:", 0) == 0 || image->id.substr(7).rfind(text, 0) == 0;
    const ImageRef ref = ImageRef::parse(text);
    const std::string name = ref.digest.empty() ? ref.familiar() : ref.repo + "@" + ref.digest;
    *answer = json::array();
    // dockerd (daemon/images/image_delete.go): a name of several is untagged; removing a
    // repository's last tag also drops its digest references, and an image with no name left
    // is deleted.
    std::set<std::string> untag{name};
    if (ref.digest.empty() && std::none_of(tags.begin(), tags.end(), [&](const std::string &t) {
            return t != name && ImageRef::parse(t).repo == ref.repo;
        })) {
        for (const auto &d : digests) {
            if (ImageRef::parse(d).repo == ref.repo) {
                untag.insert(d);
            }
        }
    }
    std::size_t left = 0;
    for (const std::set<std::string> *names : {&tags, &digests}) {
        left +=
            std::size_t(std::count_if(names->begin(), names->end(), [&](const auto &n) { return !untag.count(n); }));
    }
    if (!byId && left > 0) {
        for (const auto &n : untag) {
            if (tags.erase(n) + digests.erase(n) > 0) {
                answer->push_back({{"Untagged", n}});
            }
        }
        if (tags.empty()) {
            m_localTags.erase(image->id);
        }
        return {};
    }
    for (const auto &c : m_containers) {
        if (c->imageId != image->id || c->removed) {
            continue;
        }
        const bool running = c->status == "running";
        if (running || !force) {
            return {409,
                    "conflict: unable to delete " + (byId ? image->id.substr(7, 12) : name) + " (" +
                        (running ? "cannot" : "must") + " be forced) - image is being used by " +
                        (running ? "running" : "stopped") + " container " + c->id.substr(0, 12)};
        }
    }
    for (const auto &t : tags) {
        answer->push_back({{"Untagged", t}});
    }
    for (const auto &d : digests) {
        answer->push_back({{"Untagged", d}});
    }
    answer->push_back({{"Deleted", image->id}});
    // Its layers go too, unless another image still holds them (dockerd's layer store counts).
    for (const auto &layer : image->layers) {
        bool shared = false;
        for (const auto &other : m_options.registry.images) {
            const auto held = m_localDigests.find(other.id);
            if (other.id == image->id || held == m_localDigests.end() || held->second.empty()) {
                continue;
            }
            for (const auto &l : other.layers) {
                shared = shared || l.first == layer.first;
            }
        }
        if (!shared && m_layers.erase(layer.first)) {
            answer->push_back({{"Deleted", layer.first}});
        }
    }
    m_localTags.erase(image->id);
    m_localDigests.erase(image->id);
    recordDiskUseLocked();
    return {};
}

bool Engine::hasLayer(const std::string &digest) const
{
    const std::lock_guard lock(m_mutex);
    return m_layers.count(digest) > 0;
}

void Engine::addLayer(const std::string &digest)
{
    const std::lock_guard lock(m_mutex);
    m_layers.insert(digest);
    recordDiskUseLocked();
}

void Engine::recordDiskUseLocked() const
{
    if (m_options.simDir.empty()) {
        return;
    }
    DiskUse use;
    use.cacheDirs = m_cacheDirs;
    for (const std::string &layer : m_layers) {
        // A layer's share of its image's unpacked size (the registry knows compressed sizes).
        for (const auto &image : m_options.registry.images) {
            const auto it =
                std::find_if(image.layers.begin(), image.layers.end(), [&](const auto &l) { return l.first == layer; });
            if (it != image.layers.end() && image.downloadBytes() > 0) {
                use.storeBytes += std::int64_t(double(image.size) * double(it->second) / double(image.downloadBytes()));
                break;
            }
        }
    }
    if (!use.write(m_options.simDir)) {
        std::fprintf(stderr, "simhostd: cannot write %s/disk-use.json\n", m_options.simDir.c_str());
    }
}

std::vector<std::string> Engine::repoTags(const RegistryImage &image) const
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_localTags.find(image.id);
    return it == m_localTags.end() ? std::vector<std::string>{}
                                   : std::vector<std::string>(it->second.begin(), it->second.end());
}

std::vector<std::string> Engine::repoDigests(const RegistryImage &image) const
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_localDigests.find(image.id);
    return it == m_localDigests.end() ? std::vector<std::string>{}
                                      : std::vector<std::string>(it->second.begin(), it->second.end());
}

std::string Engine::newId()
{
    return randomHex(64);
}

EngineResult Engine::create(const std::string &requestedName, const json &body, std::string *id)
{
    const std::string imageText = body.value("Image", std::string());
    const RegistryImage *image = localImage(imageText);
    if (!image) {
        return {404, "No such image: " + ImageRef::parse(imageText).familiar()};
    }
    if (strings(body.value("Entrypoint", json())).empty() && strings(body.value("Cmd", json())).empty()) {
        return {400, "No command specified"};
    }
    const std::lock_guard lock(m_mutex);
    std::string name = requestedName;
    if (!name.empty() && name[0] == '/') {
        name.erase(0, 1);
    }
    if (name.empty()) {
        static std::mt19937 rng{std::random_device{}()};
        name = std::string(kAdjectives[rng() % 8]) + "_" + kNames[rng() % 8];
    }
    for (const auto &c : m_containers) {
        if (c->name == name) {
            return {409,
                    "Conflict. The container name \"/" + name + "\" is already in use by container \"" + c->id +
                        "\". You have to remove (or rename) that container to be able to reuse that name."};
        }
    }
    auto c = std::make_shared<Container>();
    c->id = newId();
    c->name = name;
    c->imageRef = imageText;
    c->imageId = image->id;
    c->config = body;
    c->config.erase("HostConfig");
    c->config.erase("NetworkingConfig");
    c->hostConfig = body.value("HostConfig", json::object());
    c->createdNanos = nowNanos();
    m_containers.push_back(c);
    for (const auto &bind : strings(c->hostConfig.value("Binds", json()))) {
        const auto c1 = bind.find(':');
        const auto c2 = bind.find(':', c1 + 1);
        if (c1 != std::string::npos && bind.substr(c1 + 1, c2 - c1 - 1) == "/root/.cache/huggingface") {
            m_cacheDirs.insert(bind.substr(0, c1));
            recordDiskUseLocked();
        }
    }
    *id = c->id;
    m_changed.notify_all();
    return {201, {}};
}

std::shared_ptr<Container> Engine::findLocked(const std::string &ref) const
{
    const std::string name = !ref.empty() && ref[0] == '/' ? ref.substr(1) : ref;
    for (const auto &c : m_containers) { // exact id, then exact name, then a unique id prefix
        if (c->id == ref || c->name == name) {
            return c;
        }
    }
    std::shared_ptr<Container> match;
    for (const auto &c : m_containers) {
        if (!ref.empty() && c->id.rfind(ref, 0) == 0) {
            if (match) {
                return nullptr; // ambiguous
            }
            match = c;
        }
    }
    return match;
}

std::shared_ptr<Container> Engine::find(const std::string &ref) const
{
    const std::lock_guard lock(m_mutex);
    return findLocked(ref);
}

std::vector<std::shared_ptr<Container>> Engine::containers() const
{
    const std::lock_guard lock(m_mutex);
    return m_containers;
}

EngineResult Engine::start(const std::string &ref)
{
    const std::lock_guard lock(m_mutex);
    const auto c = findLocked(ref);
    if (!c) {
        return {404, "No such container: " + ref};
    }
    if (c->status == "running") {
        return {304, {}};
    }
    const EngineResult r = spawn(*c);
    if (!r.ok()) {
        c->error = r.message;
        c->exitCode = r.status == 400 ? 127 : 128;
        if (c->autoRemove()) { // dockerd removes an AutoRemove container whose start failed
            removeLocked(c);
        }
    }
    m_changed.notify_all();
    return r;
}

EngineResult Engine::spawn(Container &c)
{
    std::vector<std::string> argv = strings(c.config.value("Entrypoint", json()));
    for (const auto &a : strings(c.config.value("Cmd", json()))) {
        argv.push_back(a);
    }
    const json scenario = this->scenario();
    const std::string path = m_options.simBin + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    std::vector<std::string> env = strings(c.config.value("Env", json()));
    std::string imageRepo;
    for (const auto &image : m_options.registry.images) {
        imageRepo = image.id == c.imageId ? image.repo : imageRepo;
    }
    env.push_back("PATH=" + path);
    env.push_back("HOSTNAME=" + c.id.substr(0, 12));
    env.push_back("FLASHDECK_SIM_DIR=" + m_options.simDir);
    env.push_back("FLASHDECK_SIM_TIME_FACTOR=" + std::to_string(m_options.timeFactor));
    env.push_back("FLASHDECK_SIM_CONTAINER=" + c.id);
    for (const auto &image : m_options.registry.images) {
        if (image.id == c.imageId) { // the server's CUDA Toolkit is the image's, not the driver's
            env.push_back("FLASHDECK_SIM_IMAGE_CUDA=" + image.cudaToolkit);
            if (!image.launchFault.empty()) { // a broken build fails wherever it runs
                env.push_back("FLASHDECK_SIM_IMAGE_FAULT=" + image.launchFault);
            }
        }
    }
    // Containers are host processes here: the bind mounts travel as a table, so the SGLang
    // simulator can read a mounted model folder where the container would see it.
    std::string binds;
    for (const auto &b : strings(c.hostConfig.value("Binds", json()))) {
        binds += b + "\n";
    }
    env.push_back("FLASHDECK_SIM_BINDS=" + binds);

    // GPUs: `--gpus` arrives as a DeviceRequest that the NVIDIA runtime answers (host contract §4).
    const json requests = c.hostConfig.value("DeviceRequests", json::array());
    if (requests.is_array() && !requests.empty()) {
        const json &request = requests.at(0);
        const bool nvidia = scenario.value("vendor", std::string("nvidia")) == "nvidia";
        if (!nvidia) {
            return {500,
                    "could not select device driver \"" + request.value("Driver", std::string()) +
                        "\" with capabilities: [[gpu]]"};
        }
        const int gpuCount = static_cast<int>(scenario.value("gpus", json::array()).size());
        std::vector<std::string> ids = strings(request.value("DeviceIDs", json()));
        if (ids.empty()) {
            const int count = request.value("Count", 0);
            for (int i = 0; i < (count < 0 ? gpuCount : std::min(count, gpuCount)); ++i) {
                ids.push_back(std::to_string(i));
            }
        }
        std::string list;
        for (const auto &id : ids) {
            char *end = nullptr;
            const long index = std::strtol(id.c_str(), &end, 10);
            if (*end != '\0' || index < 0 || index >= gpuCount) {
                return {500,
                        "failed to create task for container: failed to create shim task: OCI runtime create "
                        "failed: runc create failed: unable to start container process: error during container "
                        "init: error running prestart hook #0: exit status 1, stdout: , stderr: Auto-detected "
                        "mode as 'legacy'\nnvidia-container-cli: device error: " +
                            id + ": unknown device: unknown"};
            }
            list += (list.empty() ? "" : ",") + id;
        }
        env.push_back("NVIDIA_VISIBLE_DEVICES=" + list);
        env.push_back("FLASHDECK_SIM_GPUS=" + list);
    }

    // ROCm containers name their GPUs themselves (--device /dev/kfd, /dev/dri and HIP_VISIBLE_DEVICES).
    for (const auto &e : strings(c.config.value("Env", json()))) {
        if (e.rfind("HIP_VISIBLE_DEVICES=", 0) == 0) {
            env.push_back("FLASHDECK_SIM_GPUS=" + e.substr(20));
        }
    }

    // Published ports: docker-proxy binds them at start. The simulator only ever listens on
    // loopback, even for a 0.0.0.0 binding, so a test never exposes a fake server.
    std::string listen;
    const bool hostNetwork = c.hostConfig.value("NetworkMode", std::string()) == "host";
    const json bindings = c.hostConfig.value("PortBindings", json::object());
    int sglangPort = 30000;
    for (std::size_t i = 0; i + 1 < argv.size(); ++i) {
        if (argv[i] == "--port") {
            sglangPort = std::atoi(argv[i + 1].c_str());
        }
    }
    if (bindings.is_object()) {
        for (const auto &[key, list] : bindings.items()) {
            if (!list.is_array()) {
                continue;
            }
            for (const auto &b : list) {
                std::string ip = b.value("HostIp", std::string());
                const int port = std::atoi(b.value("HostPort", std::string("0")).c_str());
                const std::string shownIp = ip.empty() ? "0.0.0.0" : ip;
                if (ip.empty() || ip == "0.0.0.0") {
                    ip = "127.0.0.1";
                }
                if (port > 0 && !portFree(ip, port)) {
                    return {500,
                            "driver failed programming external connectivity on endpoint " + c.name + " (" +
                                c.id.substr(0, 64) + "): failed to bind port " + shownIp + ":" + std::to_string(port) +
                                "/tcp: Error starting userland proxy: listen tcp4 " + shownIp + ":" +
                                std::to_string(port) + ": bind: address already in use"};
                }
                if (std::atoi(key.c_str()) == sglangPort) {
                    listen = ip + ":" + std::to_string(port);
                }
            }
        }
    }
    if (hostNetwork) {
        listen = "127.0.0.1:" + std::to_string(sglangPort);
    }
    env.push_back("FLASHDECK_SIM_LISTEN=" + (listen.empty() ? std::string("127.0.0.1:0") : listen));

    std::vector<std::string> exec;
    if (argv.size() >= 2 && argv[0] == "sglang" && argv[1] == "serve") {
        // The newer entry point (`sglang serve`), the same server.
        exec.push_back(m_options.simBin + "/sglang-sim");
        exec.insert(exec.end(), argv.begin() + 2, argv.end());
    } else if (argv.size() >= 3 && (argv[0] == "python3" || argv[0] == "python") && argv[1] == "-m") {
        if (argv[2] == "sglang.launch_server") {
            exec.push_back(m_options.simBin + "/sglang-sim");
            exec.insert(exec.end(), argv.begin() + 3, argv.end());
        } else if (argv[2] == "sglang_router.launch_router") {
            exec = {m_options.simBin + "/sglang-sim", "--router"};
            exec.insert(exec.end(), argv.begin() + 3, argv.end());
        } else {
            exec = {"/bin/sh", "-c", "echo \"/usr/bin/python3: No module named " + argv[2] + "\" >&2; exit 1"};
        }
    } else if (imageRepo == "nginx" && !argv.empty() && argv[0] == "nginx") {
        // The official nginx image: the machine's Debian nginx with the container's configuration.
        std::string nginx;
        if (!executableInPath("nginx", "/usr/sbin:/usr/bin", &nginx)) {
            return {500,
                    "the simulated host runs the nginx image with the machine's nginx, and it has none: "
                    "apt-get install nginx-light libnginx-mod-http-js (scripts/bootstrap)"};
        }
        exec = nginxLaunch(argv, strings(c.hostConfig.value("Binds", json())), nginx, nginxDir(c.id)).exec;
    } else {
        std::string found;
        if (!executableInPath(argv.at(0), path, &found)) {
            return {400,
                    "failed to create task for container: failed to create shim task: OCI runtime create failed: "
                    "runc create failed: unable to start container process: error during container init: exec: \"" +
                        argv[0] + "\": executable file not found in $PATH: unknown"};
        }
        exec = argv;
        exec[0] = found;
    }

    int out[2];
    int err[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
        return {500, std::string("pipe: ") + std::strerror(errno)};
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    std::vector<char *> cargv;
    for (auto &a : exec) {
        cargv.push_back(a.data());
    }
    cargv.push_back(nullptr);
    std::vector<char *> cenv;
    for (char **e = environ; *e; ++e) { // the daemon's environment, then the container's
        const std::string entry = *e;
        if (entry.rfind("PATH=", 0) != 0 && entry.rfind("FLASHDECK_SIM_", 0) != 0) {
            cenv.push_back(*e);
        }
    }
    for (auto &e : env) {
        cenv.push_back(e.data());
    }
    cenv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, cargv[0], &actions, &attr, cargv.data(), cenv.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
        ::close(out[0]);
        ::close(err[0]);
        return {500, std::string("spawn: ") + std::strerror(rc)};
    }
    c.pid = pid;
    c.status = "running";
    c.error.clear();
    c.exitCode = 0;
    c.stopping = false;
    c.startedNanos = nowNanos();
    c.finishedNanos = 0;
    std::shared_ptr<Container> self = findLocked(c.id);
    m_supervisors.emplace_back([this, self, o = out[0], e = err[0]] { supervise(self, o, e); });
    return {204, {}};
}

void Engine::supervise(std::shared_ptr<Container> c, int outFd, int errFd)
{
    std::string pending[2];
    pollfd fds[2] = {{outFd, POLLIN, 0}, {errFd, POLLIN, 0}};
    int open = 2;
    char buf[16384];
    while (open > 0) {
        if (::poll(fds, 2, -1) < 0 && errno != EINTR) {
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                continue;
            }
            const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
            if (n <= 0) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
                if (!pending[i].empty()) {
                    pending[i] += '\n';
                }
            } else {
                pending[i].append(buf, static_cast<std::size_t>(n));
            }
            std::size_t nl;
            std::vector<LogEntry> lines;
            while ((nl = pending[i].find('\n')) != std::string::npos) {
                lines.push_back({i + 1, nowNanos(), pending[i].substr(0, nl + 1)});
                pending[i].erase(0, nl + 1);
            }
            if (!lines.empty()) {
                const std::lock_guard lock(m_mutex);
                c->logs.insert(c->logs.end(), lines.begin(), lines.end());
                m_changed.notify_all();
            }
        }
    }
    int status = 0;
    ::waitpid(c->pid, &status, 0);
    // A killed SGLang simulator cannot remove its GPU load; the "driver" frees it here.
    std::remove((m_options.simDir + "/gpu-load-" + c->id + ".json").c_str());
    const std::lock_guard lock(m_mutex);
    c->status = "exited";
    c->exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    c->pid = 0;
    c->finishedNanos = nowNanos();
    ++c->exits;
    if (c->autoRemove()) {
        removeLocked(c);
    }
    m_changed.notify_all();
}

EngineResult Engine::stop(const std::string &ref, int timeoutSeconds, int signal)
{
    std::unique_lock lock(m_mutex);
    const auto c = findLocked(ref);
    if (!c) {
        return {404, "No such container: " + ref};
    }
    if (c->status != "running") {
        return {304, {}};
    }
    c->stopping = true;
    ::kill(-c->pid, signal);
    const int exits = c->exits;
    if (!m_changed.wait_for(lock, std::chrono::seconds(timeoutSeconds), [&] { return c->exits != exits; })) {
        if (c->pid > 0) {
            ::kill(-c->pid, SIGKILL);
        }
        m_changed.wait(lock, [&] { return c->exits != exits; });
    }
    return {204, {}};
}

EngineResult Engine::kill(const std::string &ref, int signal)
{
    const std::lock_guard lock(m_mutex);
    const auto c = findLocked(ref);
    if (!c) {
        return {404, "No such container: " + ref};
    }
    if (c->status != "running") {
        return {409, "Cannot kill container: " + ref + ": Container " + c->id + " is not running"};
    }
    ::kill(-c->pid, signal);
    return {204, {}};
}

EngineResult Engine::remove(const std::string &ref, bool force)
{
    std::unique_lock lock(m_mutex);
    const auto c = findLocked(ref);
    if (!c) {
        return {404, "No such container: " + ref};
    }
    if (c->status == "running") {
        if (!force) {
            return {409,
                    "cannot remove container \"/" + c->name +
                        "\": container is running: stop the container before removing or force remove"};
        }
        const int exits = c->exits;
        ::kill(-c->pid, SIGKILL);
        m_changed.wait(lock, [&] { return c->exits != exits; });
    }
    if (!c->removed) {
        removeLocked(c);
    }
    m_changed.notify_all();
    return {204, {}};
}

std::string Engine::nginxDir(const std::string &id) const
{
    return m_options.simDir + "/nginx-" + id.substr(0, 12);
}

void Engine::removeLocked(const std::shared_ptr<Container> &c)
{
    std::error_code ec;
    std::filesystem::remove_all(nginxDir(c->id), ec); // an nginx container's copy of its configuration
    c->status = "removing";
    c->removed = true;
    m_containers.erase(std::remove(m_containers.begin(), m_containers.end(), c), m_containers.end());
}

} // namespace flashdeck::sim
