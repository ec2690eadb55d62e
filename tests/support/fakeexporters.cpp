#include "fakeexporters.h"

#include <functional>

namespace flashdeck::testing::exporters {

/** dcgm-exporter's text for `gpus` GPUs (real names, units and labels: MiB, %, °C, W). */
QByteArray dcgmText(const QString &hostname, int gpus, int used, const QByteArray &extraLabels)
{
    QByteArray out;
    const auto family = [&](const char *name, const char *type, const std::function<QByteArray(int)> &value) {
        out += QByteArray("# HELP ") + name + " dcgm\n# TYPE " + name + ' ' + type + '\n';
        for (int i = 0; i < gpus; ++i) {
            out += QByteArray(name) + "{gpu=\"" + QByteArray::number(i) + "\",UUID=\"GPU-" + QByteArray::number(i) +
                "\",pci_bus_id=\"00000000:1" + QByteArray::number(i) + ":00.0\",device=\"nvidia" +
                QByteArray::number(i) + "\",modelName=\"NVIDIA B300\",Hostname=\"" + hostname.toUtf8() +
                "\",DCGM_FI_DRIVER_VERSION=\"580.65.06\"" +
                (extraLabels.isEmpty() ? QByteArray() : QByteArray(',' + extraLabels)) + "} " + value(i) + '\n';
        }
    };
    family("DCGM_FI_DEV_GPU_UTIL", "gauge", [](int i) { return QByteArray::number(80 + i); });
    family("DCGM_FI_DEV_FB_USED", "gauge", [used](int) { return QByteArray::number(used); });
    family("DCGM_FI_DEV_FB_FREE", "gauge", [used](int) { return QByteArray::number(275040 - used); });
    family("DCGM_FI_DEV_GPU_TEMP", "gauge", [](int i) { return QByteArray::number(60 + i); });
    family("DCGM_FI_DEV_POWER_USAGE", "gauge", [](int) { return QByteArrayLiteral("812.5"); });
    return out;
}

/** AMD's Device Metrics Exporter for an MI355X host (VRAM in MiB, as amd-smi counts it). */
QByteArray amdText(int gpus)
{
    QByteArray out;
    for (const char *name :
         {"gpu_gfx_activity", "gpu_used_vram", "gpu_total_vram", "gpu_junction_temperature", "gpu_package_power"}) {
        out += QByteArray("# TYPE ") + name + " gauge\n";
        for (int i = 0; i < gpus; ++i) {
            const QByteArray v = QByteArray(name) == "gpu_gfx_activity" ? "71"
                : QByteArray(name) == "gpu_used_vram"                   ? "201000"
                : QByteArray(name) == "gpu_total_vram"                  ? "294896"
                : QByteArray(name) == "gpu_junction_temperature"        ? "55"
                                                                        : "1010";
            out += QByteArray(name) + "{gpu_id=\"" + QByteArray::number(i) +
                "\",card_model=\"AMD Instinct MI355X\",hostname=\"gpu2\",serial_number=\"S" + QByteArray::number(i) +
                "\"} " + v + '\n';
        }
    }
    return out;
}

/**
 * SGLang's /metrics with DP attention over two groups: the scheduler gauges per dp_rank, the
 * tokenizer's counters and TTFT histogram growing with each scrape (`n`), as a loaded server's do.
 */
QByteArray sglangText(int n, const QByteArray &extraLabels)
{
    QByteArray out;
    const QByteArray extra = extraLabels.isEmpty() ? QByteArray() : QByteArray(extraLabels + ',');
    const QByteArray labels =
        extra + "engine_type=\"unified\",model_name=\"MiniMaxAI/MiniMax-M3.1-Flash\",pp_rank=\"0\",tp_rank=\"0\"";
    for (int dp = 0; dp < 2; ++dp) {
        const QByteArray l = labels + ",dp_rank=\"" + QByteArray::number(dp) + '"';
        out += "sglang:token_usage{" + l + "} 0.5\n";
        out += "sglang:num_used_tokens{" + l + "} 500000.0\n";
        out += "sglang:max_total_num_tokens{" + l + "} 1000000.0\n";
        out += "sglang:num_running_reqs{" + l + "} 24.0\n";
        out += "sglang:num_queue_reqs{" + l + "} 20.0\n";
        out += "sglang:gen_throughput{" + l + "} 1500.0\n";
        out += "sglang:spec_accept_length{" + l + "} 2.5\n";
    }
    const QByteArray t = extra + "model_name=\"MiniMaxAI/MiniMax-M3.1-Flash\",engine_type=\"unified\"";
    out += "# TYPE sglang:num_requests_total counter\nsglang:num_requests_total{" + t + "} " +
        QByteArray::number(100 * n) + "\n";
    out += "# TYPE sglang:num_aborted_requests_total counter\nsglang:num_aborted_requests_total{" + t + "} " +
        QByteArray::number(10 * n) + "\n";
    // Every request's first token between 0.5 s and 1 s.
    out += "# TYPE sglang:time_to_first_token_seconds histogram\n";
    for (const char *le : {"0.1", "0.5", "1.0", "2.5", "+Inf"}) {
        const int count = QByteArray(le) == "0.1" || QByteArray(le) == "0.5" ? 0 : 100 * n;
        out += "sglang:time_to_first_token_seconds_bucket{" + t + ",le=\"" + le + "\"} " + QByteArray::number(count) +
            '\n';
    }
    out += "sglang:time_to_first_token_seconds_sum{" + t + "} " + QByteArray::number(75 * n) + '\n';
    out += "sglang:time_to_first_token_seconds_count{" + t + "} " + QByteArray::number(100 * n) + '\n';
    return out;
}

FakeHttpServer::Response exposition(const QByteArray &body)
{
    FakeHttpServer::Response r;
    r.body = body;
    r.contentType = "text/plain; version=0.0.4";
    return r;
}

} // namespace flashdeck::testing::exporters
