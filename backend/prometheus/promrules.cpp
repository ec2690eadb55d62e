#include "backend/prometheus/promrules.h"

#include <QStringList>

namespace flashdeck::prom {

namespace {

QString number(double v)
{
    return QString::number(v, 'g', 12);
}

/** One rule; `expr` is written as a YAML block scalar, so PromQL needs no quoting. */
QString rule(const QString &name, const QString &expr, const QString &forDuration, const QString &severity,
             const QString &summary)
{
    QString out = QStringLiteral("      - alert: %1\n        expr: |-\n          %2\n").arg(name, expr);
    if (!forDuration.isEmpty()) {
        out += QStringLiteral("        for: %1\n").arg(forDuration);
    }
    // Summaries in single quotes: a quote inside is doubled, and Go templates' {{ }} pass through.
    QString quoted = summary;
    quoted.replace(QLatin1Char('\''), QStringLiteral("''"));
    out += QStringLiteral("        labels:\n          severity: %1\n          source: flashdeck\n"
                          "        annotations:\n          summary: '%2'\n")
               .arg(severity, quoted);
    return out;
}

} // namespace

QString alertingRules(const metrics::AlertThresholds &t, const QString &hostLabel)
{
    const QString by = QStringLiteral("sum by (%1)").arg(hostLabel);
    const QString host = QStringLiteral("{{ $labels.%1 }}").arg(hostLabel);
    QString out =
        QStringLiteral("# Flashdeck's fleet alerts as Prometheus alerting rules, with the thresholds of flashdeck.ini\n"
                       "# ([alerts]). Written by `flashdeck prometheus rules`; check with `promtool check rules`.\n"
                       "# GPUs: NVIDIA's dcgm-exporter (DCGM_FI_DEV_*) or AMD's Device Metrics Exporter (gpu_*);\n"
                       "# servers: SGLang's /metrics (--enable-metrics) in a scrape job whose name holds \"sglang\";\n"
                       "# disk: node_exporter.\n"
                       "groups:\n"
                       "  - name: flashdeck\n"
                       "    rules:\n");
    out += rule(QStringLiteral("FlashdeckGpuMemoryHigh"),
                QStringLiteral("100 * DCGM_FI_DEV_FB_USED / (DCGM_FI_DEV_FB_USED + DCGM_FI_DEV_FB_FREE) >= %1\n"
                               "          or 100 * gpu_used_vram / gpu_total_vram >= %1")
                    .arg(number(t.gpuMemoryPct)),
                QStringLiteral("2m"), QStringLiteral("warning"),
                QStringLiteral("GPU memory at {{ $value | printf \"%.1f\" }} % on %1 (threshold %2 %)")
                    .arg(host, number(t.gpuMemoryPct)));
    out += rule(QStringLiteral("FlashdeckQueueHigh"),
                QStringLiteral("%1 (sglang:num_queue_reqs) >= %2").arg(by, number(t.queueDepth)), QStringLiteral("1m"),
                QStringLiteral("warning"),
                QStringLiteral("{{ $value }} requests queued on %1 (threshold %2)").arg(host, number(t.queueDepth)));
    out += rule(QStringLiteral("FlashdeckTtftP95High"),
                QStringLiteral("histogram_quantile(0.95, sum by (%1, le) "
                               "(rate(sglang:time_to_first_token_seconds_bucket[5m]))) >= %2")
                    .arg(hostLabel, number(t.ttftP95Seconds)),
                QStringLiteral("5m"), QStringLiteral("warning"),
                QStringLiteral("Time to first token p95 {{ $value | printf \"%.2f\" }} s on %1 (threshold %2 s)")
                    .arg(host, number(t.ttftP95Seconds)));
    out += rule(QStringLiteral("FlashdeckErrorRateHigh"),
                QStringLiteral("100 * %1 (rate(sglang:num_aborted_requests_total[5m]))\n"
                               "          / %1 (rate(sglang:num_requests_total[5m])) >= %2")
                    .arg(by, number(t.errorRatePct)),
                QStringLiteral("5m"), QStringLiteral("critical"),
                QStringLiteral("{{ $value | printf \"%.1f\" }} % of requests aborted on %1 (threshold %2 %)")
                    .arg(host, number(t.errorRatePct)));
    out += rule(QStringLiteral("FlashdeckServerDown"), QStringLiteral("up{job=~\".*sglang.*\"} == 0"),
                QStringLiteral("1m"), QStringLiteral("critical"),
                QStringLiteral("The SGLang server on %1 does not answer its scrape").arg(host));
    out += rule(QStringLiteral("FlashdeckDiskLow"),
                QStringLiteral("node_filesystem_avail_bytes{mountpoint=\"/\"} / 1e9 < %1").arg(number(t.diskFreeGb)),
                QStringLiteral("10m"), QStringLiteral("warning"),
                QStringLiteral("{{ $value | printf \"%.1f\" }} GB free for the caches on %1 (threshold %2 GB)")
                    .arg(host, number(t.diskFreeGb)));
    return out;
}

} // namespace flashdeck::prom
