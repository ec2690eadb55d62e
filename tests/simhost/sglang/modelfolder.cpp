// The SGLang simulator's view of a mounted model folder (see inspectModelFolder in sglangsim.h).

#include "tests/simhost/sglang/sglangsim.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace flashdeck::sim {

namespace {

namespace fs = std::filesystem;

/** True when `path` is a complete safetensors file (header length, header, data offsets). */
bool completeSafetensors(const fs::path &path)
{
    std::ifstream in(path, std::ios::binary);
    unsigned char len[8];
    if (!in.read(reinterpret_cast<char *>(len), 8)) {
        return false;
    }
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) {
        n = (n << 8) | len[i];
    }
    if (n == 0 || n > 100u * 1024 * 1024) {
        return false;
    }
    std::string header(n, '\0');
    if (!in.read(header.data(), static_cast<std::streamsize>(n))) {
        return false;
    }
    const nlohmann::json h = nlohmann::json::parse(header, nullptr, false);
    if (!h.is_object()) {
        return false;
    }
    std::uint64_t end = 0;
    for (const auto &[name, t] : h.items()) {
        if (name != "__metadata__" && t.is_object() && t.contains("data_offsets")) {
            end = std::max(end, t["data_offsets"].at(1).get<std::uint64_t>());
        }
    }
    std::error_code ec;
    return fs::file_size(path, ec) == 8 + n + end && !ec;
}

} // namespace

void inspectModelFolder(const SglangArgs &a, SglangSimOptions &o)
{
    const char *offline = std::getenv("HF_HUB_OFFLINE");
    if (!offline || std::string(offline) != "1" || a.modelPath.empty() || a.modelPath[0] != '/') {
        return;
    }
    std::string hostDir;
    std::istringstream binds(std::getenv("FLASHDECK_SIM_BINDS") ? std::getenv("FLASHDECK_SIM_BINDS") : "");
    for (std::string bind; std::getline(binds, bind);) {
        const auto c1 = bind.find(':');
        const auto c2 = bind.find(':', c1 + 1);
        if (c1 == std::string::npos) {
            continue;
        }
        const std::string target = bind.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1);
        if (a.modelPath == target || a.modelPath.rfind(target + "/", 0) == 0) {
            hostDir = bind.substr(0, c1) + a.modelPath.substr(target.size());
        }
    }
    const std::string incorrect = "OSError: Incorrect path_or_model_id: '" + a.modelPath +
        "'. Please provide either the path to a local folder or the repo_id of a model on the Hub.";
    std::error_code ec;
    if (hostDir.empty() || !fs::is_regular_file(fs::path(hostDir) / "config.json", ec)) {
        o.modelError = incorrect;
        return;
    }
    std::ifstream index(fs::path(hostDir) / "model.safetensors.index.json");
    const nlohmann::json j = index ? nlohmann::json::parse(index, nullptr, false) : nlohmann::json();
    std::vector<std::string> shards;
    if (j.is_object() && j.value("weight_map", nlohmann::json()).is_object()) {
        for (const auto &[tensor, file] : j["weight_map"].items()) {
            if (file.is_string() && std::find(shards.begin(), shards.end(), file.get<std::string>()) == shards.end()) {
                shards.push_back(file.get<std::string>());
            }
        }
    }
    std::sort(shards.begin(), shards.end());
    if (shards.empty()) {
        o.modelError = "OSError: Error no file named model.safetensors.index.json or model.safetensors found in "
                       "directory " +
            a.modelPath + ".";
        return;
    }
    o.shards = static_cast<int>(shards.size());
    for (std::size_t i = 0; i < shards.size(); ++i) {
        if (!completeSafetensors(fs::path(hostDir) / shards[i])) {
            o.badShard = static_cast<int>(i) + 1;
            break;
        }
    }
    // F18, F27: the draft is found in the folder's dspark/ subfolder, or not at all.
    o.dspark = o.dspark && fs::is_regular_file(fs::path(hostDir) / "dspark" / "config.json", ec);
}

} // namespace flashdeck::sim
