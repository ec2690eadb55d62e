#include "tests/simhost/sglang/hubdownload.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace flashdeck::sim {

namespace {

namespace fs = std::filesystem;

/** A blob name as huggingface_hub names LFS blobs (their sha256), made up but stable. */
std::string blobName(const std::string &revision, int shard)
{
    char buf[65];
    std::uint64_t h = 1469598103934665603ull;
    for (const char c : revision + "#" + std::to_string(shard)) {
        h = (h ^ std::uint8_t(c)) * 1099511628211ull;
    }
    for (int i = 0; i < 64; i += 16) {
        h = h * 6364136223846793005ull + 1442695040888963407ull;
        std::snprintf(buf + i, 17, "%016llx", static_cast<unsigned long long>(h));
    }
    return std::string(buf, 64);
}

std::string shardName(int i, int n)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "model-%05d-of-%05d.safetensors", i, n);
    return buf;
}

std::string fetching(int done, int total, double elapsed)
{
    char buf[160];
    const int pct = total ? done * 100 / total : 0;
    const std::string bar(static_cast<std::size_t>(pct / 10), '#');
    std::snprintf(buf, sizeof buf, "Fetching %d files: %3d%%|%-10s| %d/%d [%02d:%02d<?, ?it/s]", total, pct,
                  bar.c_str(), done, total, int(elapsed) / 60, int(elapsed) % 60);
    return buf;
}

} // namespace

std::string hubCacheDir()
{
    return hostDirBoundTo("/root/.cache/huggingface");
}

std::string hostDirBoundTo(const std::string &inContainer)
{
    if (const char *binds = std::getenv("FLASHDECK_SIM_BINDS")) {
        std::istringstream in(binds);
        for (std::string bind; std::getline(in, bind);) {
            const auto c1 = bind.find(':');
            const auto c2 = bind.find(':', c1 + 1);
            if (c1 != std::string::npos &&
                bind.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1) == inContainer) {
                return bind.substr(0, c1);
            }
        }
        return {};
    }
    std::error_code ec;
    return fs::exists("/.dockerenv", ec) ? inContainer : std::string();
}

void downloadFromHub(const SglangArgs &a, const SglangSimOptions &o,
                     const std::function<void(const std::string &)> &log)
{
    const char *offline = std::getenv("HF_HUB_OFFLINE");
    const std::string cache = hubCacheDir();
    if ((offline && std::string(offline) == "1") || a.modelPath.empty() || a.modelPath[0] == '/' || cache.empty()) {
        return;
    }
    const auto slash = a.modelPath.find('/');
    const std::string repoDir = cache + "/hub/models--" + a.modelPath.substr(0, slash) + "--" +
        (slash == std::string::npos ? a.modelPath : a.modelPath.substr(slash + 1));
    const std::string revision = a.revision.empty() ? std::string("main") : a.revision;
    const fs::path snapshot = fs::path(repoDir) / "snapshots" / revision;
    std::error_code ec;
    if (fs::exists(snapshot / "model.safetensors.index.json", ec)) {
        return; // a later start: the revision is in the cache
    }
    fs::create_directories(fs::path(repoDir) / "blobs", ec);
    fs::create_directories(snapshot, ec);
    fs::create_directories(fs::path(repoDir) / "refs", ec);
    std::ofstream(fs::path(repoDir) / "refs" / "main") << revision;

    const int shards = std::max(1, o.shards);
    const std::int64_t perShard = o.weightsBytes / shards;
    const int slices = 8; // each shard grows in eighths, as chunks arrive
    const double sliceSeconds = o.downloadSeconds / double(shards * slices);
    const auto started = std::chrono::steady_clock::now();
    const auto elapsed = [&started] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    log(fetching(0, shards + 1, 0));
    std::int64_t written = 0;
    for (int i = 1; i <= shards; ++i) {
        const fs::path blob = fs::path(repoDir) / "blobs" / blobName(revision, i);
        const fs::path partial = fs::path(blob.string() + ".incomplete");
        if (fs::exists(blob, ec)) { // finished by an earlier, interrupted start: kept
            written += perShard;
            continue;
        }
        std::int64_t have = fs::exists(partial, ec) ? std::int64_t(fs::file_size(partial, ec)) : 0; // resumed
        for (int s = 1; s <= slices; ++s) {
            const std::int64_t target = perShard * s / slices;
            if (target <= have) {
                continue;
            }
            if (o.downloadStallAt >= 0 && double(written + target) >= o.downloadStallAt * double(o.weightsBytes)) {
                for (;;) { // the connection hangs: nothing grows, nothing is logged
                    std::this_thread::sleep_for(std::chrono::hours(1));
                }
            }
            std::this_thread::sleep_for(
                std::chrono::microseconds(static_cast<long long>(sliceSeconds * o.timeFactor * 1e6)));
            fs::resize_file(partial, std::uintmax_t(target), ec); // sparse: the size, not the disk
            if (ec) {
                std::ofstream(partial, std::ios::app).close();
                fs::resize_file(partial, std::uintmax_t(target), ec);
            }
            have = target;
        }
        fs::rename(partial, blob, ec);
        fs::create_symlink(fs::path("../../blobs") / blob.filename(), snapshot / shardName(i, shards), ec);
        written += perShard;
        if (i % std::max(1, shards / 6) == 0 || i == shards) {
            log(fetching(i, shards + 1, elapsed()));
        }
    }
    // The index last: its presence says the revision is complete (what a later start checks).
    std::ofstream(snapshot / "model.safetensors.index.json")
        << R"({"metadata":{"total_size":)" << o.weightsBytes << R"(},"weight_map":{}})";
    log(fetching(shards + 1, shards + 1, elapsed()));
}

} // namespace flashdeck::sim
