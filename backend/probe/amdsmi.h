#pragma once

#include "backend/core/result.h"
#include "backend/probe/nvidiasmi.h"

#include <QHash>
#include <QList>

namespace flashdeck::probe {

/**
 * `amd-smi metric --json` in both shapes (a list, or {"gpu_data": [...]} in newer releases),
 * with "N/A" allowed anywhere (shared reference sglang-facts §13). Samples use the NVIDIA
 * shape so charts treat both vendors alike; memory converts MB → MiB.
 */
[[nodiscard]] Result<QList<GpuSample>> parseAmdSmiMetric(const QByteArray &json);

/**
 * `rocm-smi --showuse --showmeminfo vram --json` (the fallback where amd-smi is missing):
 * {"card0": {...}, ...}, every value a string, "N/A" for missing; VRAM from the byte fields.
 */
[[nodiscard]] Result<QList<GpuSample>> parseRocmSmi(const QByteArray &json);

/**
 * `amd-smi static --json` (or `static --asic --json`): each GPU's `asic.market_name` ("AMD
 * Instinct MI355X") by its "gpu" index, in both shapes. `amd-smi metric` names no GPU; this is
 * where the name is. A GPU whose name is "N/A" has an empty one.
 */
[[nodiscard]] Result<QHash<int, QString>> parseAmdSmiStatic(const QByteArray &json);

/**
 * `amd-smi process --json`: each GPU's processes by its "gpu" index, in both shapes ("process_list":
 * [{"process_info": {...}}], or the string "No running processes detected"). A process's memory
 * on that GPU is its `memory_usage.vram_mem`, else its `mem_usage` (bytes, {"value", "unit"}).
 */
[[nodiscard]] Result<QHash<int, QList<GpuProcess>>> parseAmdSmiProcess(const QByteArray &json);

/** `rocm-smi --showproductname --json` (where amd-smi is missing): each card's "Card Series". */
[[nodiscard]] Result<QHash<int, QString>> parseRocmSmiNames(const QByteArray &json);

/** A KFD process as `rocm-smi --showpids --json` lists it: on how many GPUs, not which. */
struct RocmSmiProcess
{
    GpuProcess process; // usedMemoryMiB: its VRAM on all of them together
    int gpuCount = 0;
};
/** The `"system": {"PID<pid>": "name, gpus, vram bytes, sdma, cu"}` entries of rocm-smi --json. */
QList<RocmSmiProcess> parseRocmSmiPids(const QByteArray &json);

} // namespace flashdeck::probe
