#pragma once

#include "backend/core/result.h"

#include <QHash>
#include <QString>

#include <memory>

namespace flashdeck::metrics {

class TimeSeries;

using SeriesMap = QHash<QString, std::shared_ptr<TimeSeries>>;

/**
 * On-disk retention of one host's chart history (issue 7): every series, both tiers exactly,
 * in one file written atomically, so the 1 h and 24 h windows survive a restart of Flashdeck.
 * The file holds numbers only (metric names and values), never a prompt, key or log line.
 *
 * Layout: "FDTS", version, byte order, saved-at (ms), payload length and a 64-bit FNV-1a check of the payload,
 * then the payload (QDataStream, Qt 6.0): count, then per series its name and
 * TimeSeries::writeTo() (the rings as raw records in this machine's byte order).
 */
class MetricsArchive final
{
public:
    explicit MetricsArchive(QString file);

    const QString &file() const { return m_file; }

    [[nodiscard]] Status save(const SeriesMap &series, qint64 nowMs) const;

    /**
     * The series saved last, each ending in a gap at `nowMs` (Flashdeck was not watching in
     * between, and a chart must not draw a line across that time). No file: an empty map.
     * A damaged file is renamed to "<file>.damaged" — kept for a look, never overwritten by
     * the next save — and the failure says so. History older than `maxAgeMs` is not loaded.
     */
    [[nodiscard]] Result<SeriesMap> load(qint64 nowMs, qint64 maxAgeMs = 24 * 3600 * 1000) const;

private:
    QString m_file;
};

} // namespace flashdeck::metrics
