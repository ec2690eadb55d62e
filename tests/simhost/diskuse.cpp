#include "tests/simhost/diskuse.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace flashdeck::sim {

namespace fs = std::filesystem;

namespace {

constexpr const char *kFile = "/disk-use.json";

} // namespace

DiskUse DiskUse::read(const std::string &simDir)
{
    DiskUse use;
    std::ifstream in(simDir + kFile);
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_object()) {
        return use;
    }
    use.storeBytes = j.value("store_bytes", std::int64_t(0));
    for (const auto &dir : j.value("cache_dirs", nlohmann::json::array())) {
        if (dir.is_string()) {
            use.cacheDirs.insert(dir.get<std::string>());
        }
    }
    return use;
}

bool DiskUse::write(const std::string &simDir) const
{
    const std::string path = simDir + kFile;
    const std::string temporary = path + ".tmp";
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << nlohmann::json{{"store_bytes", storeBytes}, {"cache_dirs", cacheDirs}}.dump();
        if (!out.flush()) {
            return false;
        }
    }
    return std::rename(temporary.c_str(), path.c_str()) == 0;
}

std::int64_t DiskUse::usedBytes() const
{
    std::int64_t used = storeBytes;
    for (const std::string &dir : cacheDirs) {
        std::error_code ec;
        for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code sizeError;
            if (it->is_regular_file(sizeError) && !it->is_symlink(sizeError)) {
                const auto size = it->file_size(sizeError);
                used += sizeError ? 0 : std::int64_t(size);
            }
        }
    }
    return used;
}

} // namespace flashdeck::sim
