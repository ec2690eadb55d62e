#pragma once

#include "tests/simhost/sglang/sglangsim.h"

#include <functional>
#include <string>

namespace flashdeck::sim {

/**
 * The Hugging Face cache the server writes on this machine: the host folder bound to the
 * container's /root/.cache/huggingface (FLASHDECK_SIM_BINDS, a simulated container), that path
 * itself in a real container (/.dockerenv), else empty — a simulator started by hand never
 * writes into the machine's own cache.
 */
std::string hubCacheDir();

/** The host folder bound to `inContainer` (FLASHDECK_SIM_BINDS), that path in a real container, else empty. */
std::string hostDirBoundTo(const std::string &inContainer);

/**
 * A first start's download of the pinned revision into the cache, laid out as huggingface_hub
 * lays it out (`hub/models--ORG--NAME/blobs/<hash>.incomplete` growing, renamed when complete,
 * `snapshots/<rev>/<file>` links, `refs/main`), so a client measuring the folder sees what it
 * would see on a real host. The files are sparse: 252 GB of apparent size, no disk.
 *
 * Nothing happens when the revision is already complete there (a later start), or with
 * HF_HUB_OFFLINE=1 or a local --model-path. With the scenario's `download_stall_at` (a fraction),
 * it stops growing there and never returns, as a download whose connection hangs.
 * `log` prints a line as the server's log does (tqdm's "Fetching N files" on stderr).
 */
void downloadFromHub(const SglangArgs &a, const SglangSimOptions &o,
                     const std::function<void(const std::string &)> &log);

} // namespace flashdeck::sim
