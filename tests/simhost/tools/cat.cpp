// The simulated host's `cat`: `cat /proc/meminfo` (host contract §2, HiCache planning, F36)
// answers for the scenario's host memory when it sets `host.mem_total_kib`, in the kernel's
// layout ("MemTotal:       2113407488 kB"). Any other use runs the real /bin/cat.

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>

int main(int argc, char **argv)
{
    std::int64_t total = 0;
    if (const char *dir = std::getenv("FLASHDECK_SIM_DIR");
        dir && argc == 2 && std::strcmp(argv[1], "/proc/meminfo") == 0) {
        std::ifstream in(std::string(dir) + "/scenario.json");
        const nlohmann::json scenario = nlohmann::json::parse(in, nullptr, false);
        if (scenario.is_object()) {
            total = scenario.value("host", nlohmann::json::object()).value("mem_total_kib", std::int64_t(0));
        }
    }
    if (total <= 0) {
        argv[0] = const_cast<char *>("/bin/cat");
        ::execv("/bin/cat", argv);
        std::perror("cat");
        return 126;
    }
    // An idle GPU server: most memory free, a little page cache.
    const std::int64_t free = total * 94 / 100;
    const std::int64_t cached = total * 3 / 100;
    const std::pair<const char *, std::int64_t> rows[] = {
        {"MemTotal", total},    {"MemFree", free},        {"MemAvailable", free + cached},
        {"Buffers", 2107392},   {"Cached", cached},       {"SwapCached", 0},
        {"Active", total / 50}, {"Inactive", total / 40}, {"Shmem", 36608},
        {"SwapTotal", 0},       {"SwapFree", 0},          {"Hugepagesize", 2048}};
    for (const auto &[key, kib] : rows) {
        std::printf("%-16s%8lld kB\n", (std::string(key) + ":").c_str(), static_cast<long long>(kib));
    }
    return 0;
}
