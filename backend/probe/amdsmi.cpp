#include "backend/probe/amdsmi.h"

#include "backend/core/hosttext.h"
#include "backend/core/jsonread.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

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

// Ranges a real GPU stays in; a value outside is treated as missing, not cast (UB for a double
// beyond int's range — found by fuzz_amdsmi).
constexpr qint64 kMaxMiB = qint64(1) << 40; // 1 EiB of VRAM
constexpr double kMaxMB = double(kMaxMiB);

std::optional<qint64> mib(const std::optional<double> &megabytes)
{
    return megabytes && *megabytes >= 0 && *megabytes <= kMaxMB
        ? std::optional<qint64>(qint64(*megabytes * 1e6 / 1048576.0))
        : std::nullopt;
}

std::optional<qint64> mibOfBytes(const std::optional<double> &bytes)
{
    return bytes && *bytes >= 0 && *bytes <= kMaxMB * 1048576.0 ? std::optional<qint64>(qint64(*bytes / 1048576.0))
                                                                : std::nullopt;
}

std::optional<int> percent(const std::optional<double> &v)
{
    const auto p = jsonread::inRange(v, 0, 100);
    return p ? std::optional<int>(int(*p)) : std::nullopt;
}

std::optional<double> finite(const std::optional<double> &v)
{
    return v && std::isfinite(*v) ? v : std::nullopt;
}

} // namespace

Result<QList<GpuSample>> parseAmdSmiMetric(const QByteArray &text)
{
    const json j = jsonread::parse(text.constData(), text.constData() + text.size());
    const json *list = &j;
    if (j.is_object() && j.contains("gpu_data")) {
        list = &j.at("gpu_data");
    }
    if (!list->is_array()) {
        return Status::failure(QStringLiteral("amd-smi metric --json printed something that is not a GPU list: \"%1\"")
                                   .arg(hostText(text.left(200), 200)));
    }
    QList<GpuSample> out;
    for (const json &g : *list) {
        if (!g.is_object()) {
            continue;
        }
        GpuSample s;
        const auto index = jsonread::integer(g, "gpu", 0, 1 << 16);
        s.index = int(index.value_or(out.size()));
        const json mem = g.value("mem_usage", json::object());
        s.memoryTotalMiB = mib(metric(mem, "total_vram"));
        s.memoryUsedMiB = mib(metric(mem, "used_vram"));
        if (const auto u = percent(metric(g.value("usage", json::object()), "gfx_activity"))) {
            s.utilizationGpu = *u;
        }
        const json temp = g.value("temperature", json::object());
        s.temperatureC = finite(metric(temp, "hotspot"));
        if (!s.temperatureC) {
            s.temperatureC = finite(metric(temp, "edge"));
        }
        s.powerW = finite(metric(g.value("power", json::object()), "socket_power"));
        // An object with no GPU number and no reading is not a GPU (a hostile or broken tool's
        // `{"gpu": "zero"}` must not count as one: issue 9).
        const bool read = s.memoryTotalMiB || s.memoryUsedMiB || s.temperatureC || s.powerW || g.contains("usage");
        if (!index && !read) {
            continue;
        }
        out.append(s);
    }
    return out;
}

} // namespace flashdeck::probe

namespace flashdeck::probe {

Result<QList<GpuSample>> parseRocmSmi(const QByteArray &text)
{
    // rocm-smi prints this line instead of JSON when none of the options applies (§13).
    if (text.trimmed().startsWith("WARNING: No JSON data to report")) {
        return Status::failure(
            QStringLiteral("rocm-smi had no data for these options (WARNING: No JSON data to report)"));
    }
    const nlohmann::json j = jsonread::parse(text.constData(), text.constData() + text.size());
    if (!j.is_object()) {
        return Status::failure(QStringLiteral("rocm-smi --json printed something that is not JSON: \"%1\"")
                                   .arg(hostText(text.left(200), 200)));
    }
    // Every value is a string; "N/A" means missing (sglang-facts §13).
    auto number = [](const nlohmann::json &card, const char *key) -> std::optional<double> {
        if (!card.contains(key) || !card.at(key).is_string()) {
            return std::nullopt;
        }
        bool ok = false;
        const double v = QString::fromStdString(card.at(key).get<std::string>()).trimmed().toDouble(&ok);
        return ok ? std::optional(v) : std::nullopt;
    };
    QList<GpuSample> out;
    for (const auto &[key, card] : j.items()) {
        if (key.rfind("card", 0) != 0 || !card.is_object()) {
            continue; // "system" and the like
        }
        bool ok = false;
        GpuSample s;
        s.index = QString::fromStdString(key.substr(4)).toInt(&ok);
        if (!ok) {
            continue;
        }
        s.utilizationGpu = percent(number(card, "GPU use (%)"));
        // Bytes are the robust fields; the percentage key changed between releases (§13).
        const auto total = number(card, "VRAM Total Memory (B)");
        const auto used = number(card, "VRAM Total Used Memory (B)");
        s.memoryTotalMiB = mibOfBytes(total);
        s.memoryUsedMiB = mibOfBytes(used);
        s.temperatureC = finite(number(card, "Temperature (Sensor edge) (C)"));
        s.powerW = finite(number(card, "Average Graphics Package Power (W)"));
        out.append(s);
    }
    std::sort(out.begin(), out.end(), [](const GpuSample &a, const GpuSample &b) { return a.index < b.index; });
    if (out.isEmpty()) {
        return Status::failure(QStringLiteral("rocm-smi --json listed no card"));
    }
    return out;
}

} // namespace flashdeck::probe
