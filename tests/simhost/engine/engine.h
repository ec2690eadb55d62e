#pragma once

#include "tests/simhost/engine/registry.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <sys/types.h>
#include <thread>
#include <vector>

namespace flashdeck::sim {

/** One line a container wrote, as the json-file log driver keeps it. */
struct LogEntry
{
    int stream = 1; // 1 stdout, 2 stderr (the multiplexed frame's stream byte)
    std::int64_t nanos = 0; // wall clock, ns since the epoch
    std::string text; // with its trailing newline
};

struct Container
{
    std::string id;
    std::string name; // without the leading slash
    std::string imageRef; // as the client gave it
    std::string imageId;
    nlohmann::json config; // the create body minus HostConfig
    nlohmann::json hostConfig;
    std::string status = "created"; // created, running, exited, removing
    int exitCode = 0;
    std::string error;
    pid_t pid = 0;
    std::int64_t createdNanos = 0;
    std::int64_t startedNanos = 0;
    std::int64_t finishedNanos = 0;
    int exits = 0; // how many times it has exited (wait condition=next-exit)
    bool removed = false;
    bool stopping = false;
    std::vector<LogEntry> logs;

    bool autoRemove() const { return hostConfig.value("AutoRemove", false); }
};

/** A daemon's answer to a call that can fail: HTTP status and the daemon's message. */
struct EngineResult
{
    int status = 200;
    std::string message;
    bool ok() const { return status < 300 || status == 304; }
};

struct EngineOptions
{
    std::string simDir; // FLASHDECK_SIM_DIR: scenario.json, gpu-load files
    std::string simBin; // the simulated host's tools (sglang-sim, nvidia-smi, …)
    double timeFactor = 1.0;
    Registry registry;
};

/**
 * The simulated Docker daemon's state: images pulled from the simulated registry, and
 * containers whose processes really run on this machine (sglang-sim for
 * `python3 -m sglang.launch_server`, the command itself otherwise) with their output kept
 * as container logs. Every change notifies `changed()`, which log followers and waiters
 * wait on. All members lock `mutex()` themselves.
 */
class Engine final
{
public:
    explicit Engine(EngineOptions options);
    ~Engine();
    Engine(const Engine &) = delete;
    Engine &operator=(const Engine &) = delete;

    const EngineOptions &options() const { return m_options; }
    std::mutex &mutex() { return m_mutex; }
    /** Log streams following a container now (`logs?follow=1`; tests count them). */
    std::atomic<int> &follows() { return m_follows; }
    std::condition_variable &changed() { return m_changed; }
    /** The scenario (re-read on each call: tests switch scenarios under a running daemon). */
    nlohmann::json scenario() const;

    // Images
    /** A pulled image by `repo:tag`, `repo@digest`, `sha256:id` or id prefix; null when absent. */
    const RegistryImage *localImage(const std::string &ref) const;
    /** Records a finished pull: the image, its tag (if pulled by tag) and its repo digest. */
    void addPulledImage(const RegistryImage &image, const ImageRef &ref);
    std::vector<std::string> repoTags(const RegistryImage &image) const;
    std::vector<std::string> repoDigests(const RegistryImage &image) const;
    bool hasImage(const RegistryImage &image) const;
    /**
     * DELETE /images/{name} as dockerd answers it: a reference that is one of several is untagged;
     * the last one deletes the image unless a container uses it (409, "must be forced" when the
     * container is stopped, "cannot be forced" when it runs). `answer` gets the Untagged/Deleted list.
     */
    EngineResult removeImage(const std::string &ref, bool force, nlohmann::json *answer);
    /** Layers downloaded so far (an interrupted pull keeps them, as dockerd's layer store does). */
    bool hasLayer(const std::string &digest) const;
    void addLayer(const std::string &digest);

    // Containers
    EngineResult create(const std::string &name, const nlohmann::json &body, std::string *id);
    std::shared_ptr<Container> find(const std::string &idOrName) const;
    std::vector<std::shared_ptr<Container>> containers() const;
    EngineResult start(const std::string &ref);
    EngineResult stop(const std::string &ref, int timeoutSeconds, int signal);
    EngineResult kill(const std::string &ref, int signal);
    EngineResult remove(const std::string &ref, bool force);
    static std::int64_t nowNanos();

private:
    std::shared_ptr<Container> findLocked(const std::string &idOrName) const;
    EngineResult spawn(Container &c); // with m_mutex held
    void supervise(std::shared_ptr<Container> c, int outFd, int errFd);
    void removeLocked(const std::shared_ptr<Container> &c);
    /** Where an nginx container's configuration copy, pid file and temporary folders live (nginxcontainer.h). */
    std::string nginxDir(const std::string &id) const;
    /** Writes what the image store and the bound caches hold for the simulated `df` (diskuse.h). */
    void recordDiskUseLocked() const;
    std::string newId();

    EngineOptions m_options;
    std::atomic<int> m_follows{0};
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::map<std::string, std::set<std::string>> m_localTags; // image id → repo:tag
    std::map<std::string, std::set<std::string>> m_localDigests; // image id → repo@digest
    std::set<std::string> m_layers;
    std::set<std::string> m_cacheDirs; // host folders bound as a container's Hugging Face cache
    std::vector<std::shared_ptr<Container>> m_containers;
    std::vector<std::thread> m_supervisors;
    std::uint64_t m_idCounter = 0;
};

} // namespace flashdeck::sim
