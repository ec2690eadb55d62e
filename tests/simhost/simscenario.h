#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace flashdeck::sim {

/** One simulated GPU: fixed facts from the scenario. */
struct SimGpu
{
    QString name;
    QString architecture;
    QString uuid;
    QString pciBusId;
    qint64 memoryTotalMiB = 0;
    qint64 memoryReservedMiB = 0;
    double powerLimitW = 0;
    double idlePowerW = 0;
    int idleTempC = 0;
    int idleSmClockMHz = 0;
    /** Index on the host; differs from the position inside a container that sees a subset. */
    int hostIndex = 0;
};

/** A process holding memory on a GPU (nvidia-smi's `<process_info>`). */
struct SimGpuProcess
{
    qint64 pid = 0;
    QString name;
    qint64 usedMiB = 0;
};

/** What the simulated load does to a GPU right now (written by the SGLang simulator). */
struct SimGpuLoad
{
    qint64 memoryUsedMiB = 0;
    int utilizationGpu = 0;
    int utilizationMemory = 0;
    double powerW = -1; // < 0: idle power
    int tempC = -1; // < 0: idle temperature
    qint64 pid = 0; // the process holding the memory (the SGLang simulator), 0: none
    /** Every process holding memory on it: SGLang simulators, and another tenant's jobs. */
    QList<SimGpuProcess> processes;
};

/**
 * A scenario: the simulated host's hardware and its faults, from a JSON file in
 * tests/simhost/scenarios/. The tools find it through FLASHDECK_SIM_DIR (scenario.json, and
 * the live gpu-load.json beside it), which the sshd fixture sets with `SetEnv`.
 */
struct SimScenario
{
    QString name;
    QString description;
    QString vendor;
    QString driverVersion;
    QString nvmlVersion;
    QString cudaVersion;
    QString rocmVersion;
    /** amd-smi's JSON: "wrapped" ({"gpu_data": [...]}, newer releases) or "list" (older). */
    QString amdSmiShape;
    /**
     * `smi_lists_no_processes`: nvidia-smi shows the memory in use but no process holding it, as
     * it does inside a container, in some VMs and without the permission to see other users'
     * processes (memory used, "No running processes found").
     */
    bool smiListsNoProcesses = false;
    /** Tools this host does not have: they answer as a shell does for a missing command (127). */
    QStringList missingTools;
    QList<SimGpu> gpus;
    /**
     * `gpu_processes`: jobs of someone else already on the GPUs ({"gpu": host index, "pid",
     * "name", "used_memory_mib"}): a leftover, another tenant; their memory counts as used.
     */
    QList<std::pair<int, SimGpuProcess>> foreignProcesses;

    static std::optional<SimScenario> load(const QString &path, QString *error);
    /**
     * Scenario of this process: $FLASHDECK_SIM_DIR/scenario.json. Inside a simulated
     * container, NVIDIA_VISIBLE_DEVICES (set by the NVIDIA runtime from `--gpus`) narrows the
     * GPUs to those listed, renumbered from 0, as the real runtime does.
     */
    static std::optional<SimScenario> fromEnvironment(QString *error);
    /**
     * Current per-GPU load, idle when nothing loads: the sum of gpu-load.json (written by
     * tests) and gpu-load-*.json (one per running SGLang simulator), all indexed by host GPU.
     */
    QList<SimGpuLoad> currentLoad() const;
};

} // namespace flashdeck::sim
