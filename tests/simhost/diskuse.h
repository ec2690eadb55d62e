#pragma once

#include <cstdint>
#include <set>
#include <string>

namespace flashdeck::sim {

/**
 * What the simulated host has written to its disk since the scenario's `disk.avail_bytes` was
 * measured: Docker's image store (the unpacked share of every layer held, as `docker system df`
 * counts it) and the Hugging Face cache folders a container was given (their files' apparent
 * sizes: the simulated shards are sparse, a real download is not). The daemon writes it to
 * `$FLASHDECK_SIM_DIR/disk-use.json` on every change; the simulated `df` subtracts it, so free
 * space falls after a pull and 252 GB of weights and comes back after a prune, as on a real host.
 */
struct DiskUse
{
    std::int64_t storeBytes = 0;
    std::set<std::string> cacheDirs;

    /** The record in `simDir`; an empty one when there is none or it cannot be read. */
    static DiskUse read(const std::string &simDir);
    /** Writes the record atomically (a temporary file renamed over it); false when it could not. */
    [[nodiscard]] bool write(const std::string &simDir) const;
    /** The store plus the bytes the cache folders' files hold now. */
    std::int64_t usedBytes() const;
};

} // namespace flashdeck::sim
