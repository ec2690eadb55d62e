#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flashdeck::sim {

struct HubModel;

/** One file of a simulated model revision, with the ids the Hub reports for it. */
struct ModelFile
{
    std::string path;
    std::string content;
    bool lfs = false; // safetensors go through LFS on the Hub: their `lfs.oid` is the sha256
    std::string blobId() const; // git blob sha1 (the tree's `oid`; the etag of a non-LFS file)
    std::string sha256() const;
};

/**
 * The files of `model`'s revision, generated deterministically so that the fake Hub's tree and
 * a folder written by writeModelFolder always agree. Shards are small but valid safetensors
 * files (8-byte little-endian header length, JSON header with data_offsets, data), so a
 * truncated copy is detectable the way it is on the real 252 GB checkpoint.
 */
std::vector<ModelFile> modelFiles(const HubModel &model);

/**
 * Writes the revision to `dir` as `hf download --revision <sha> --local-dir dir` leaves it
 * (layout "hf": the files plus .cache/huggingface/download/<path>.metadata holding commit,
 * etag and timestamp, huggingface_hub ≥ 0.23) or as `modelscope download --local_dir`
 * (layout "modelscope": the files plus ModelScope's configuration.json, no Hub metadata).
 * Returns an error or empty.
 */
std::string writeModelFolder(const HubModel &model, const std::string &dir, const std::string &layout);

} // namespace flashdeck::sim
