#include "tests/simhost/engine/nginxcontainer.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

namespace flashdeck::sim {

namespace {

/** "host:container[:ro]" → (container, host), longest container path first. */
std::vector<std::pair<std::string, std::string>> mounts(const std::vector<std::string> &binds)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string &b : binds) {
        const std::size_t first = b.find(':');
        if (first == std::string::npos) {
            continue;
        }
        const std::size_t second = b.find(':', first + 1);
        const std::string host = b.substr(0, first);
        const std::string inside =
            b.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
        out.emplace_back(inside, host);
    }
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.first.size() > b.first.size(); });
    return out;
}

/** Where `path` of the container is on the machine; empty when no bind holds it. */
std::string resolve(const std::string &path, const std::vector<std::pair<std::string, std::string>> &binds)
{
    for (const auto &[inside, host] : binds) {
        if (path == inside || (path.rfind(inside + "/", 0) == 0)) {
            return host + path.substr(inside.size());
        }
    }
    return {};
}

void replaceAll(std::string &text, const std::string &from, const std::string &to)
{
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
}

NginxLaunch failWith(const std::string &words)
{
    return {{"/bin/sh", "-c", "echo \"$0\" >&2; exit 1", words}, true};
}

} // namespace

NginxLaunch nginxLaunch(const std::vector<std::string> &argv, const std::vector<std::string> &binds,
                        const std::string &nginxBinary, const std::string &privateDir)
{
    std::string conf = "/etc/nginx/nginx.conf"; // the image's default
    std::vector<std::string> rest;
    for (std::size_t i = 1; i < argv.size(); ++i) {
        if ((argv[i] == "-c" || argv[i] == "-p") && i + 1 < argv.size()) {
            if (argv[i] == "-c") {
                conf = argv[i + 1];
            }
            ++i;
            continue;
        }
        rest.push_back(argv[i]);
    }
    const auto bound = mounts(binds);
    const std::string onMachine = resolve(conf, bound);
    std::ifstream in(onMachine);
    if (onMachine.empty() || !in) {
        return failWith("nginx: [emerg] open() \"" + conf + "\" failed (2: No such file or directory)");
    }
    std::stringstream text;
    text << in.rdbuf();
    std::string config = text.str();
    for (const auto &[inside, host] : bound) {
        replaceAll(config, inside, host);
    }
    replaceAll(config, "/var/cache/nginx", privateDir);
    std::error_code ec;
    std::filesystem::create_directories(privateDir, ec);
    // Run as root (CI), the workers are "nobody": they write the temporary folders in here.
    std::filesystem::permissions(privateDir, std::filesystem::perms(0755), ec);
    const std::string copy = privateDir + "/nginx.conf";
    std::ofstream(copy) << config;
    NginxLaunch launch;
    launch.exec = {nginxBinary, "-p", privateDir + "/", "-c", copy};
    launch.exec.insert(launch.exec.end(), rest.begin(), rest.end());
    return launch;
}

} // namespace flashdeck::sim
