#pragma once

#include "backend/core/result.h"
#include "backend/core/versions.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace flashdeck::probe {

/** A process holding GPU memory (`<processes><process_info>`: what another job left there). */
struct GpuProcess
{
    qint64 pid = 0; // in the host's PID namespace
    QString name; // "python3"
    QString type; // "C" compute, "G" graphics, "C+G"
    qint64 usedMemoryMiB = 0;
};

/** One GPU as `nvidia-smi -q -x` describes it. */
struct NvidiaGpu
{
    int index = 0;
    QString name; // "NVIDIA H200", "NVIDIA B300 SXM6 AC": match models by substring
    QString architecture; // <product_architecture>: "Hopper", "Blackwell" (empty on old drivers)
    QString uuid;
    QString pciBusId;
    qint64 memoryTotalMiB = 0;
    qint64 memoryUsedMiB = 0;
    QList<GpuProcess> processes;
};

/** The driver facts pre-flight needs (host contract §2; F07: the driver's CUDA ≥ 13.4). */
struct NvidiaDriver
{
    QString driverVersion;
    QString cudaVersion; // the highest CUDA the driver supports
    QList<NvidiaGpu> gpus;
};

/** Parses `nvidia-smi -q -x`. */
[[nodiscard]] Result<NvidiaDriver> parseNvidiaSmiXml(const QByteArray &xml);

/** The live-sample query of host contract §2, in this order (noheader, nounits). */
inline constexpr const char *kGpuSampleFields =
    "index,name,uuid,memory.total,memory.used,utilization.gpu,temperature.gpu,power.draw,power.limit";

/**
 * The live stream's query: nvidia-smi's `timestamp` (when it read that GPU, "YYYY/MM/DD
 * HH:MM:SS.msec" by the host's clock in the host's zone, so the stream runs under TZ=UTC), then
 * the sample's fields.
 */
inline constexpr const char *kGpuStreamFields = "timestamp,index,name,uuid,memory.total,memory.used,utilization.gpu,"
                                                "temperature.gpu,power.draw,power.limit";

/** One line of the sample stream; a field the GPU cannot report (`[N/A]`) is empty. */
struct GpuSample
{
    /** When the host read it (ms since the epoch, the host's clock), from a line of kGpuStreamFields. */
    std::optional<qint64> hostTimeMs;
    int index = 0;
    QString name;
    QString uuid;
    std::optional<qint64> memoryTotalMiB;
    std::optional<qint64> memoryUsedMiB;
    std::optional<int> utilizationGpu;
    std::optional<double> temperatureC;
    std::optional<double> powerW;
    std::optional<double> powerLimitW;
};

/** Splits a `--format=csv` row (", "-separated; names never hold a comma in practice). */
QStringList splitCsvRow(const QByteArray &line);
/**
 * Parses one `kGpuSampleFields` line, or one of `kGpuStreamFields` (its timestamp read as UTC);
 * an error names the line.
 */
[[nodiscard]] Result<GpuSample> parseGpuSample(const QByteArray &line);

using flashdeck::compareVersions; // core/versions.h: Docker's API versions compare the same way

} // namespace flashdeck::probe
