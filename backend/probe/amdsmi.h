#pragma once

#include "backend/core/result.h"
#include "backend/probe/nvidiasmi.h"

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

} // namespace flashdeck::probe
