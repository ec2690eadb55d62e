#include "tests/simhost/simscenario.h"

#include <QDir>
#include <QFile>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace flashdeck::sim {

namespace {

QString str(const nlohmann::json &j, const char *key)
{
    return QString::fromStdString(j.value(key, std::string()));
}

QString simDir()
{
    return qEnvironmentVariable("FLASHDECK_SIM_DIR");
}

} // namespace

std::optional<SimScenario> SimScenario::load(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error) {
            *error = QStringLiteral("cannot read scenario %1").arg(path);
        }
        return std::nullopt;
    }
    const QByteArray data = file.readAll();
    try {
        const nlohmann::json j = nlohmann::json::parse(data.constData(), data.constData() + data.size());
        SimScenario s;
        s.name = str(j, "name");
        s.description = str(j, "description");
        s.vendor = str(j, "vendor");
        s.driverVersion = str(j, "driver_version");
        s.nvmlVersion = str(j, "nvml_version");
        s.cudaVersion = str(j, "cuda_version");
        s.rocmVersion = str(j, "rocm_version");
        s.amdSmiShape = str(j, "amd_smi_shape");
        s.smiListsNoProcesses = j.value("smi_lists_no_processes", false);
        for (const auto &t : j.value("missing_tools", nlohmann::json::array())) {
            s.missingTools.append(QString::fromStdString(t.get<std::string>()));
        }
        for (const nlohmann::json &g : j.at("gpus")) {
            SimGpu gpu;
            gpu.name = str(g, "name");
            gpu.architecture = str(g, "architecture");
            gpu.uuid = str(g, "uuid");
            gpu.pciBusId = str(g, "pci_bus_id");
            gpu.memoryTotalMiB = g.value("memory_total_mib", qint64(0));
            gpu.memoryReservedMiB = g.value("memory_reserved_mib", qint64(0));
            gpu.powerLimitW = g.value("power_limit_w", 0.0);
            gpu.idlePowerW = g.value("idle_power_w", 0.0);
            gpu.idleTempC = g.value("idle_temp_c", 0);
            gpu.idleSmClockMHz = g.value("idle_sm_clock_mhz", 0);
            gpu.hostIndex = int(s.gpus.size());
            s.gpus.append(gpu);
        }
        for (const nlohmann::json &p : j.value("gpu_processes", nlohmann::json::array())) {
            s.foreignProcesses.append(
                {p.value("gpu", 0),
                 SimGpuProcess{p.value("pid", qint64(0)), str(p, "name"), p.value("used_memory_mib", qint64(0))}});
        }
        return s;
    } catch (const nlohmann::json::exception &e) {
        if (error) {
            *error = QStringLiteral("scenario %1 is not valid: %2").arg(path, QString::fromUtf8(e.what()));
        }
        return std::nullopt;
    }
}

std::optional<SimScenario> SimScenario::fromEnvironment(QString *error)
{
    const QString dir = simDir();
    if (dir.isEmpty()) {
        if (error) {
            *error = QStringLiteral("FLASHDECK_SIM_DIR is not set: this tool only runs on a simulated host");
        }
        return std::nullopt;
    }
    std::optional<SimScenario> s = load(QDir(dir).filePath(QStringLiteral("scenario.json")), error);
    const QString visible = qEnvironmentVariable("NVIDIA_VISIBLE_DEVICES");
    if (s && s->vendor == QLatin1String("nvidia") && !visible.isEmpty() && visible != QLatin1String("all")) {
        QList<SimGpu> seen;
        for (const QString &id : visible.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            for (const SimGpu &gpu : s->gpus) {
                if (id.trimmed() == QString::number(gpu.hostIndex) || id.trimmed() == gpu.uuid) {
                    seen.append(gpu);
                }
            }
        }
        s->gpus = seen; // "none" and "void" leave no GPU, as with the real runtime
    }
    return s;
}

QList<SimGpuLoad> SimScenario::currentLoad() const
{
    int hostCount = 0;
    for (const SimGpu &gpu : gpus) {
        hostCount = std::max(hostCount, gpu.hostIndex + 1);
    }
    QList<SimGpuLoad> host(hostCount);
    const QDir dir(simDir());
    const QStringList files =
        dir.entryList({QStringLiteral("gpu-load.json"), QStringLiteral("gpu-load-*.json")}, QDir::Files, QDir::Name);
    for (const QString &fileName : files) {
        QFile file(dir.filePath(fileName));
        if (!file.open(QIODevice::ReadOnly)) {
            continue; // removed between the listing and now: its server stopped
        }
        const QByteArray data = file.readAll();
        try {
            const nlohmann::json j = nlohmann::json::parse(data.constData(), data.constData() + data.size());
            const nlohmann::json &arr = j.at("gpus");
            for (qsizetype i = 0; i < host.size() && i < qsizetype(arr.size()); ++i) {
                const nlohmann::json &g = arr.at(size_t(i));
                SimGpuLoad &l = host[i];
                l.memoryUsedMiB += g.value("memory_used_mib", qint64(0));
                l.utilizationGpu = std::max(l.utilizationGpu, g.value("utilization_gpu", 0));
                l.utilizationMemory = std::max(l.utilizationMemory, g.value("utilization_memory", 0));
                l.powerW = std::max(l.powerW, g.value("power_w", -1.0));
                l.tempC = std::max(l.tempC, g.value("temp_c", -1));
                if (g.value("memory_used_mib", qint64(0)) > 0 && l.pid == 0) {
                    l.pid = g.value("pid", qint64(0));
                }
                if (g.value("memory_used_mib", qint64(0)) > 0 && g.value("pid", qint64(0)) > 0) {
                    l.processes.append({g.value("pid", qint64(0)),
                                        QString::fromStdString(g.value("process_name", std::string("python3"))),
                                        g.value("memory_used_mib", qint64(0))});
                }
            }
        } catch (const nlohmann::json::exception &) {
            // A half-written file reads as idle this once; writers replace files atomically.
        }
    }
    for (const auto &[index, process] : foreignProcesses) {
        if (index >= 0 && index < host.size()) {
            host[index].memoryUsedMiB += process.usedMiB;
            host[index].processes.append(process);
        }
    }
    QList<SimGpuLoad> loads;
    for (const SimGpu &gpu : gpus) {
        SimGpuLoad l = host.value(gpu.hostIndex);
        // Two loads on one GPU (a test's and a server's) still fit in it, as on real hardware.
        l.memoryUsedMiB = std::min(l.memoryUsedMiB, gpu.memoryTotalMiB - gpu.memoryReservedMiB);
        loads.append(l);
    }
    return loads;
}

} // namespace flashdeck::sim
