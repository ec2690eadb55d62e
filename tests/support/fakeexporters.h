#pragma once

#include "fakehttpserver.h"

#include <QByteArray>
#include <QString>

// The text of real exporters, for Prometheus to scrape in tests and benchmarks: their metric
// names, units and label sets as they write them.
namespace flashdeck::testing::exporters {

/**
 * dcgm-exporter's text for `gpus` GPUs (real names, units and labels: MiB, %, °C, W), each GPU
 * `used` MiB of 275 040; `extraLabels` (`instance="…"`) go on every series.
 */
QByteArray dcgmText(const QString &hostname, int gpus, int used, const QByteArray &extraLabels = {});
/** AMD's Device Metrics Exporter for an MI355X host (VRAM in MiB, as amd-smi counts it). */
QByteArray amdText(int gpus);
/**
 * SGLang's /metrics with DP attention over two groups: the scheduler gauges per dp_rank, the
 * tokenizer's counters and TTFT histogram growing with each scrape (`n`), as a loaded server's do.
 */
QByteArray sglangText(int n, const QByteArray &extraLabels = {});
/** An exporter's answer: `body` as the text exposition format (version 0.0.4). */
FakeHttpServer::Response exposition(const QByteArray &body);

} // namespace flashdeck::testing::exporters
