#include "backend/probe/amdsmi.h"

#include <nlohmann/json.hpp>

namespace flashdeck::probe {

namespace {

using nlohmann::json;

// {"value": N, "unit": "…"} or a bare number → N; "N/A" or anything else → nothing.
std::optional<double> metric(const json &parent, const char *key)
{
    if (!parent.is_object() || !parent.contains(key)) {
        return std::nullopt;
    }
    const json &v = parent.at(key);
    if (v.is_number()) {
        return v.get<double>();
    }
    if (v.is_object() && v.contains("value") && v.at("value").is_number()) {
        return v.at("value").get<double>();
    }
    return std::nullopt;
}

std::optional<qint64> mib(const std::optional<double> &megabytes)
{
    return megabytes ? std::optional<qint64>(qint64(*megabytes * 1e6 / 1048576.0)) : std::nullopt;
}

} // namespace

Result<QList<GpuSample>> parseAmdSmiMetric(const QByteArray &text)
{
    const json j = json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
    const json *list = &j;
    if (j.is_object() && j.contains("gpu_data")) {
        list = &j.at("gpu_data");
    }
    if (!list->is_array()) {
        return Status::failure(QStringLiteral("amd-smi metric --json printed something that is not a GPU list: \"%1\"")
                                   .arg(QString::fromUtf8(text.left(200))));
    }
    QList<GpuSample> out;
    for (const json &g : *list) {
        if (!g.is_object()) {
            continue;
        }
        GpuSample s;
        s.index = g.value("gpu", int(out.size()));
        const json mem = g.value("mem_usage", json::object());
        s.memoryTotalMiB = mib(metric(mem, "total_vram"));
        s.memoryUsedMiB = mib(metric(mem, "used_vram"));
        if (const auto u = metric(g.value("usage", json::object()), "gfx_activity")) {
            s.utilizationGpu = int(*u);
        }
        const json temp = g.value("temperature", json::object());
        s.temperatureC = metric(temp, "hotspot");
        if (!s.temperatureC) {
            s.temperatureC = metric(temp, "edge");
        }
        s.powerW = metric(g.value("power", json::object()), "socket_power");
        out.append(s);
    }
    return out;
}

} // namespace flashdeck::probe
