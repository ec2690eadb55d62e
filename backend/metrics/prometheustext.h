#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QStringList>

#include <optional>
#include <utility>

namespace flashdeck::metrics {

/** One sample line of the Prometheus text exposition format (version 0.0.4). */
struct PromSample
{
    QByteArray name; // with its _bucket / _sum / _count suffix, as written
    QList<std::pair<QByteArray, QByteArray>> labels; // unescaped values, in the order written
    double value = 0; // NaN, +Inf and -Inf as the format spells them
    std::optional<qint64> timestampMs;

    /** The value of label `key`, or an empty array. */
    QByteArray label(QByteArrayView key) const;
};

/**
 * A parsed `/metrics` answer. Malformed lines are skipped, each with a warning naming its line
 * and what was wrong; every good line is kept (a bad exporter line loses nothing else).
 */
struct PromScrape
{
    QList<PromSample> samples;
    QHash<QByteArray, QByteArray> types; // family name → counter, gauge, histogram, summary, untyped
    QStringList warnings;

    /** Samples named exactly `name`. */
    QList<const PromSample *> named(QByteArrayView name) const;
};

/**
 * Parses the text format (https://prometheus.io/docs/instrumenting/exposition_formats/):
 * `# HELP` / `# TYPE` lines and other comments, label values with `\\`, `\"` and `\n`
 * escapes, a trailing comma in the label set, `NaN` / `+Inf` / `-Inf`, optional timestamps,
 * CRLF line ends. Never throws; linear in the input.
 */
PromScrape parsePrometheusText(QByteArrayView text);

} // namespace flashdeck::metrics
