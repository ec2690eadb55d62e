#pragma once

#include "backend/core/result.h"

#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <utility>

namespace flashdeck::prom {

/** One series of an instant query's vector (or one point of a range query's matrix). */
struct PromSeries
{
    /** `__name__` included when the query kept it; a handful, so a list (one allocation, no hash). */
    QList<std::pair<QString, QString>> labels;
    QList<std::pair<double, double>> points; // (unix seconds, value): one for a vector

    /** The label's value, or an empty string. */
    QString label(QStringView key) const;
    bool hasLabel(QStringView key) const;
    double value() const { return points.isEmpty() ? 0 : points.constLast().second; }
};

/** What Prometheus answered to one query: its series and the warnings it gave with them. */
struct PromResult
{
    QList<PromSeries> series;
    QStringList warnings;
};

/**
 * Reads an answer of Prometheus' HTTP API (`/api/v1/query`, `/api/v1/query_range`:
 * https://prometheus.io/docs/prometheus/latest/querying/api/): `{"status":"success","data":
 * {"resultType":"vector"|"matrix"|"scalar",…}}`, values as strings ("NaN", "+Inf" included).
 * An error answer (`{"status":"error","errorType":…,"error":…}`, HTTP 400, 422, 503) fails with
 * Prometheus' own words; a body that is not the API's (a proxy's HTML page) says what came back.
 * `httpStatus` is 0 when unknown. Read as a stream (no document tree), with label names and
 * values shared between series: 500 hosts' GPUs are 20 000 series of a few repeated strings.
 */
[[nodiscard]] Result<PromResult> parsePromResponse(QByteArrayView body, int httpStatus);

} // namespace flashdeck::prom
