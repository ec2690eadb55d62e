// The simulated host's `df`: when the scenario sets `disk` (a simulated cache disk, e.g.
// low-disk), `df -B1 --output=avail,target PATH` (host contract §2) answers for it in GNU df's
// layout (numbers right-aligned under a right-aligned header). Everything else, and every
// scenario without `disk`, runs the real /bin/df: real tools wherever they can answer.
// Free space moves: what the simulated daemon has written since (its image store, the weights a
// container downloaded into a bound cache; diskuse.h) is subtracted, as a real disk fills.

#include "tests/simhost/diskuse.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

int main(int argc, char **argv)
{
    const char *dir = std::getenv("FLASHDECK_SIM_DIR");
    nlohmann::json disk;
    if (dir) {
        std::ifstream in(std::string(dir) + "/scenario.json");
        const nlohmann::json scenario = nlohmann::json::parse(in, nullptr, false);
        if (scenario.is_object()) {
            disk = scenario.value("disk", nlohmann::json());
        }
    }
    std::vector<std::string> args(argv + 1, argv + argc);
    const bool contractForm = args.size() == 3 && args[0] == "-B1" && args[1] == "--output=avail,target";
    if (!disk.is_object() || !contractForm) {
        argv[0] = const_cast<char *>("/bin/df");
        ::execv("/bin/df", argv);
        std::perror("df");
        return 126;
    }
    const std::int64_t written = flashdeck::sim::DiskUse::read(dir).usedBytes();
    const std::string avail =
        std::to_string(std::max<std::int64_t>(0, disk.value("avail_bytes", std::int64_t(0)) - written));
    const std::string mount = disk.value("mount", std::string("/"));
    const int width = static_cast<int>(std::max<std::size_t>(5, avail.size()));
    std::printf("%*s %s\n%*s %s\n", width, "Avail", "Mounted on", width, avail.c_str(), mount.c_str());
    return 0;
}
