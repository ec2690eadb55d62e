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
        if (card.contains("Card Series") && card.at("Card Series").is_string()) { // --showproductname
            const QString name = QString::fromStdString(card.at("Card Series").get<std::string>()).trimmed();
            s.name = name == QLatin1String("N/A") ? QString() : hostText(name.toUtf8(), 80);
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

namespace flashdeck::probe {

namespace {

/** The per-GPU list of either amd-smi shape, or nothing. */
const nlohmann::json *gpuList(const nlohmann::json &j)
{
    const nlohmann::json *list = &j;
    if (j.is_object() && j.contains("gpu_data")) {
        list = &j.at("gpu_data");
    }
    return list->is_array() ? list : nullptr;
}

/** {"value": N, "unit": "B"|"KB"|"MB"|"GB"} or a bare number (bytes) → MiB; anything else: nothing. */
std::optional<qint64> mibOfMeasure(const nlohmann::json &v)
{
    std::optional<double> value;
    std::string unit = "B";
    if (v.is_number()) {
        value = v.get<double>();
    } else if (v.is_object()) {
        value = jsonread::number(v, "value");
        unit = jsonread::string(v, "unit");
    }
    // amd-smi's KB, MB and GB divide by 1024 (amdsmi_helpers.convert_bytes_to_readable).
    const double scale = unit == "B" ? 1.0
        : unit == "KB"               ? 1024.0
        : unit == "MB"               ? 1048576.0
        : unit == "GB"               ? 1073741824.0
                                     : 0.0;
    if (!value || scale == 0.0) {
        return std::nullopt;
    }
    return mibOfBytes(*value * scale);
}

} // namespace

Result<QHash<int, QString>> parseAmdSmiStatic(const QByteArray &text)
{
    const nlohmann::json j = jsonread::parse(text.constData(), text.constData() + text.size());
    const nlohmann::json *list = gpuList(j);
    if (list == nullptr) {
        return Status::failure(QStringLiteral("amd-smi static --json printed something that is not a GPU list: \"%1\"")
                                   .arg(hostText(text.left(200), 200)));
    }
    QHash<int, QString> names;
    for (const nlohmann::json &g : *list) {
        const auto index = jsonread::integer(g, "gpu", 0, 1 << 16);
        const QString name = index && g.contains("asic")
            ? QString::fromStdString(jsonread::string(g.at("asic"), "market_name")).trimmed()
            : QString();
        if (index) { // "N/A" (some virtual functions): known to be there, not by name
            names.insert(int(*index), name == QLatin1String("N/A") ? QString() : hostText(name.toUtf8(), 80));
        }
    }
    return names;
}

Result<QHash<int, QList<GpuProcess>>> parseAmdSmiProcess(const QByteArray &text)
{
    const nlohmann::json j = jsonread::parse(text.constData(), text.constData() + text.size());
    const nlohmann::json *list = gpuList(j);
    if (list == nullptr) {
        return Status::failure(QStringLiteral("amd-smi process --json printed something that is not a GPU list: \"%1\"")
                                   .arg(hostText(text.left(200), 200)));
    }
    QHash<int, QList<GpuProcess>> out;
    for (const nlohmann::json &g : *list) {
        const auto index = jsonread::integer(g, "gpu", 0, 1 << 16);
        if (!index || !g.contains("process_list") || !g.at("process_list").is_array()) {
            continue;
        }
        QList<GpuProcess> &processes = out[int(*index)];
        for (const nlohmann::json &entry : g.at("process_list")) {
            if (!entry.is_object() || !entry.contains("process_info") || !entry.at("process_info").is_object()) {
                continue; // "No running processes detected"
            }
            const nlohmann::json &info = entry.at("process_info");
            GpuProcess p;
            p.pid = jsonread::integer(info, "pid", 1, 1LL << 31).value_or(0);
            p.name = hostText(QByteArray::fromStdString(jsonread::string(info, "name")), 80);
            p.type = QStringLiteral("C"); // amd-smi lists KFD (compute) processes
            std::optional<qint64> vram;
            if (info.contains("memory_usage") && info.at("memory_usage").is_object() &&
                info.at("memory_usage").contains("vram_mem")) {
                vram = mibOfMeasure(info.at("memory_usage").at("vram_mem"));
            }
            if (!vram && info.contains("mem_usage")) {
                vram = mibOfMeasure(info.at("mem_usage"));
            }
            p.usedMemoryMiB = vram.value_or(0);
            if (p.pid > 0) {
                processes.append(p);
            }
        }
    }
    return out;
}

Result<QHash<int, QString>> parseRocmSmiNames(const QByteArray &text)
{
    // {"card0": {"Card Series": "Radeon RX 7900 XT", "Card Model": "0x744c", …}} (a real card:
    // marimo-team/marimo issue #9237); rocm-smi names the product in "Card Series".
    const nlohmann::json j = jsonread::parse(text.constData(), text.constData() + text.size());
    if (!j.is_object()) {
        return Status::failure(QStringLiteral("rocm-smi --json printed something that is not JSON: \"%1\"")
                                   .arg(hostText(text.left(200), 200)));
    }
    QHash<int, QString> names;
    for (const auto &[key, card] : j.items()) {
        bool ok = false;
        const int index = key.rfind("card", 0) == 0 ? QString::fromStdString(key.substr(4)).toInt(&ok) : -1;
        if (ok && card.is_object()) {
            const QString name = QString::fromStdString(jsonread::string(card, "Card Series")).trimmed();
            names.insert(index, name == QLatin1String("N/A") ? QString() : hostText(name.toUtf8(), 80));
        }
    }
    if (names.isEmpty()) {
        return Status::failure(QStringLiteral("rocm-smi --json listed no card"));
    }
    return names;
}

QList<RocmSmiProcess> parseRocmSmiPids(const QByteArray &text)
{
    const nlohmann::json j = jsonread::parse(text.constData(), text.constData() + text.size());
    QList<RocmSmiProcess> out;
    if (!j.is_object() || !j.contains("system") || !j.at("system").is_object()) {
        return out;
    }
    for (const auto &[key, value] : j.at("system").items()) {
        if (key.rfind("PID", 0) != 0 || !value.is_string()) {
            continue;
        }
        bool ok = false;
        RocmSmiProcess r;
        r.process.pid = QString::fromStdString(key.substr(3)).toLongLong(&ok);
        // "llama-server, 1, 2353860608, 11011, 0": name, GPU count, VRAM bytes, SDMA, CU occupancy.
        const QStringList f = QString::fromStdString(value.get<std::string>()).split(QStringLiteral(", "));
        if (!ok || r.process.pid <= 0 || f.size() < 3) {
            continue;
        }
        r.process.name = hostText(f.at(0).toUtf8(), 80);
        r.process.type = QStringLiteral("C");
        r.gpuCount = std::max(0, f.at(1).toInt());
        r.process.usedMemoryMiB = mibOfBytes(f.at(2).toDouble()).value_or(0);
        out.append(r);
    }
    return out;
}

} // namespace flashdeck::probe
