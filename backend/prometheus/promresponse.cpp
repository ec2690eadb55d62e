#include "backend/prometheus/promresponse.h"

#include "backend/core/jsonread.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace flashdeck::prom {

namespace {

using nlohmann::json;

/** A sample value as the API writes it: a string, with NaN and ±Inf spelled out. */
std::optional<double> sampleValue(const json &v)
{
    if (!v.is_string()) {
        return std::nullopt;
    }
    const std::string &s = v.get_ref<const std::string &>();
    if (s == "NaN") {
        return std::numeric_limits<double>::quiet_NaN();
    }
    if (s == "+Inf" || s == "Inf") {
        return std::numeric_limits<double>::infinity();
    }
    if (s == "-Inf") {
        return -std::numeric_limits<double>::infinity();
    }
    bool ok = false;
    const double d = QByteArrayView(s.data(), qsizetype(s.size())).toDouble(&ok);
    return ok ? std::optional<double>(d) : std::nullopt;
}

/** `[<unix seconds>, "<value>"]`. */
std::optional<std::pair<double, double>> point(const json &p)
{
    if (!p.is_array() || p.size() != 2 || !p[0].is_number()) {
        return std::nullopt;
    }
    const std::optional<double> v = sampleValue(p[1]);
    if (!v) {
        return std::nullopt;
    }
    return std::make_pair(p[0].get<double>(), *v);
}

QString shortBody(QByteArrayView body)
{
    QString text = QString::fromUtf8(body.first(std::min<qsizetype>(body.size(), 200))).simplified();
    return text.isEmpty() ? QStringLiteral("an empty body") : QStringLiteral("“%1”").arg(text);
}

} // namespace

Result<PromResult> parsePromResponse(QByteArrayView body, int httpStatus)
{
    const json doc = jsonread::parse(body.data(), body.data() + body.size());
    const QString status = QString::fromStdString(jsonread::string(doc, "status"));
    if (status == QLatin1String("error")) {
        const QString type = QString::fromStdString(jsonread::string(doc, "errorType"));
        const QString error = QString::fromStdString(jsonread::string(doc, "error"));
        return Status::failure(QStringLiteral("Prometheus refused the query (%1%2): %3")
                                   .arg(type, httpStatus ? QStringLiteral(", HTTP %1").arg(httpStatus) : QString(),
                                        error.isEmpty() ? QStringLiteral("no reason given") : error));
    }
    if (status != QLatin1String("success") || !doc.contains("data") || !doc["data"].is_object()) {
        return Status::failure(
            QStringLiteral("The address did not answer as Prometheus' API does (HTTP %1, %2): check the URL.")
                .arg(httpStatus)
                .arg(shortBody(body)));
    }
    PromResult out;
    if (doc.contains("warnings") && doc["warnings"].is_array()) {
        for (const json &w : doc["warnings"]) {
            if (w.is_string()) {
                out.warnings.append(QString::fromStdString(w.get<std::string>()));
            }
        }
    }
    const json &data = doc["data"];
    const std::string type = jsonread::string(data, "resultType");
    const json &result = data.contains("result") ? data["result"] : json();
    if (type == "scalar") {
        PromSeries s;
        if (const auto p = point(result)) {
            s.points.append(*p);
            out.series.append(std::move(s));
        }
        return out;
    }
    if ((type != "vector" && type != "matrix") || !result.is_array()) {
        return Status::failure(
            QStringLiteral("Prometheus answered a %1 where a vector was expected.")
                .arg(type.empty() ? QStringLiteral("result of no type") : QString::fromStdString(type)));
    }
    out.series.reserve(qsizetype(result.size()));
    for (const json &r : result) {
        if (!r.is_object()) {
            continue;
        }
        PromSeries s;
        if (r.contains("metric") && r["metric"].is_object()) {
            for (auto it = r["metric"].begin(); it != r["metric"].end(); ++it) {
                if (it.value().is_string()) {
                    s.labels.insert(QString::fromStdString(it.key()),
                                    QString::fromStdString(it.value().get_ref<const std::string &>()));
                }
            }
        }
        if (type == "vector" && r.contains("value")) {
            if (const auto p = point(r["value"])) {
                s.points.append(*p);
            }
        } else if (type == "matrix" && r.contains("values") && r["values"].is_array()) {
            s.points.reserve(qsizetype(r["values"].size()));
            for (const json &v : r["values"]) {
                if (const auto p = point(v)) {
                    s.points.append(*p);
                }
            }
        }
        if (!s.points.isEmpty()) {
            out.series.append(std::move(s));
        }
    }
    return out;
}

} // namespace flashdeck::prom
