#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace flashdeck::sim {

/**
 * An image reference as the Engine API receives it: `docker.io/lmsysorg/sglang`,
 * `lmsysorg/sglang:tag`, `lmsysorg/sglang:tag@sha256:…`, `sha256:<id>` or an id prefix.
 * Normalised the way the distribution/reference library does (docker.io/ and library/ dropped).
 */
struct ImageRef
{
    std::string repo;
    std::string tag;
    std::string digest;

    static ImageRef parse(const std::string &text);
    /** `repo:tag`, `repo@digest` (a digest wins, as the daemon pulls by digest then). */
    std::string familiar() const;
};

/** One image the simulated registry serves (tests/simhost/registry.json). */
struct RegistryImage
{
    std::string repo;
    std::string tag;
    std::string digest; // manifest (index) digest: what a pin records
    std::string id; // config digest: the local image id
    std::string created;
    std::int64_t size = 0; // unpacked
    std::string cudaToolkit = "13.4"; // the CUDA Toolkit inside: below 13.4 the qmul4 kernel falls back
    /** An earlier build of its tag: the tag names another digest now; reachable by digest alone. */
    bool superseded = false;
    /** How a server started from this image fails (sglang-sim's faults: "import_error"); empty: it works. */
    std::string launchFault;
    std::vector<std::pair<std::string, std::int64_t>> layers; // digest, compressed bytes

    std::int64_t downloadBytes() const;
    std::string shortLayerId(std::size_t i) const { return layers[i].first.substr(7, 12); }
};

/** Hugging Face models the fake hub answers for: repo → commit of `main`. */
struct HubModel
{
    std::string repo;
    std::string sha;
    std::string lastModified;
    std::vector<std::string> files;
    /** Earlier commits (sha, last modified): reachable by their sha, as on the Hub. */
    std::vector<std::pair<std::string, std::string>> revisions;

    /** The commit `rev` names ("main" or a known sha); empty when the Hub would answer 404. */
    std::string resolve(const std::string &rev) const;
};

struct Registry
{
    std::vector<RegistryImage> images;
    std::vector<HubModel> models;

    /** Reads registry.json; false with `error`. */
    bool load(const std::string &path, std::string *error);
    /** By repo and tag, or by repo and digest. */
    const RegistryImage *find(const ImageRef &ref) const;
    const HubModel *model(const std::string &repo) const;
};

} // namespace flashdeck::sim
