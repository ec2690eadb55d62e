#pragma once

#include "backend/metrics/hoststatus.h"

#include <QString>

namespace flashdeck::prom {

/**
 * The fleet alerts Flashdeck raises itself (GPU memory, queue depth, TTFT p95, error rate, server
 * down, disk), as Prometheus alerting rules with the same thresholds: a rules file for
 * `rule_files:` that `promtool check rules` accepts. `hostLabel` is the label the fleet's hosts
 * are told apart by (the aggregations keep it); the server's scrape job is one whose name holds
 * "sglang".
 */
QString alertingRules(const metrics::AlertThresholds &thresholds, const QString &hostLabel);

} // namespace flashdeck::prom
