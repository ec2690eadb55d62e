#include "backend/prometheus/promresponse.h"

#include "backend/core/jsonread.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace flashdeck::prom {

namespace {

using nlohmann::json;

/** A sample value as the API writes it: a string, with NaN and ±Inf spelled out. */
std::optional<double> sampleValue(const std::string &s)
{
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

QString shortBody(QByteArrayView body)
{
    QString text = QString::fromUtf8(body.first(std::min<qsizetype>(body.size(), 200))).simplified();
    return text.isEmpty() ? QCoreApplication::translate("Prometheus", "an empty body")
                          : QStringLiteral("“%1”").arg(text);
}

/**
 * The API's answer read as nlohmann's SAX events, straight into series. Where each event lands
 * is known from the enclosing containers: the root's status, error and warnings; data's
 * resultType and result; each result item's metric labels and its value or values.
 */
class AnswerReader final
{
public:
    using number_integer_t = json::number_integer_t;
    using number_unsigned_t = json::number_unsigned_t;
    using number_float_t = json::number_float_t;
    using string_t = json::string_t;
    using binary_t = json::binary_t;

    std::string status;
    std::string errorType;
    std::string error;
    std::string resultType;
    PromResult result;
    bool scalarSeen = false;

    bool null() { return scalar(); }
    bool boolean(bool) { return scalar(); }
    bool number_integer(number_integer_t v) { return number(double(v)); }
    bool number_unsigned(number_unsigned_t v) { return number(double(v)); }
    bool number_float(number_float_t v, const string_t &) { return number(v); }
    bool binary(binary_t &) { return scalar(); }

    bool string(string_t &v)
    {
        const Where w = top();
        if (w == Where::Root) {
            if (m_key == "status") {
                status = v;
            } else if (m_key == "errorType") {
                errorType = v;
            } else if (m_key == "error") {
                error = v;
            }
        } else if (w == Where::Data && m_key == "resultType") {
            resultType = v;
        } else if (w == Where::Metric) {
            m_series.labels.append({intern(m_key), intern(v)});
        } else if (w == Where::Warnings) {
            result.warnings.append(QString::fromStdString(v));
        } else if ((w == Where::Point || w == Where::Result) && m_frames.back().index == 1) {
            if (const auto value = sampleValue(v); value && m_haveTime) {
                m_series.points.append({m_time, *value});
                scalarSeen = scalarSeen || w == Where::Result;
            }
        }
        return scalar();
    }

    bool start_object(std::size_t)
    {
        const Where parent = top();
        Where w = Where::Other;
        if (m_frames.empty()) {
            w = Where::Root;
        } else if (parent == Where::Root && m_key == "data") {
            w = Where::Data;
        } else if (parent == Where::Result) {
            w = Where::Item;
            m_series = PromSeries{};
            m_series.labels.reserve(6);
        } else if (parent == Where::Item && m_key == "metric") {
            w = Where::Metric;
        }
        return push(w);
    }

    bool end_object()
    {
        if (top() == Where::Item && !m_series.points.isEmpty()) {
            result.series.append(std::move(m_series));
            m_series = PromSeries{};
        }
        return pop();
    }

    bool start_array(std::size_t)
    {
        const Where parent = top();
        Where w = Where::Other;
        if (parent == Where::Data && m_key == "result") {
            w = Where::Result;
            m_series = PromSeries{}; // a scalar's point lands here
        } else if (parent == Where::Item && m_key == "value") {
            w = Where::Point;
        } else if (parent == Where::Item && m_key == "values") {
            w = Where::Points;
        } else if (parent == Where::Points) {
            w = Where::Point;
        } else if (parent == Where::Root && m_key == "warnings") {
            w = Where::Warnings;
        }
        m_haveTime = false;
        return push(w);
    }

    bool end_array()
    {
        if (top() == Where::Result && scalarSeen) {
            result.series.append(std::move(m_series));
            m_series = PromSeries{};
        }
        return pop();
    }

    bool key(string_t &k)
    {
        m_key = k;
        return true;
    }

    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) { return false; }

private:
    enum class Where { None, Root, Data, Result, Item, Metric, Point, Points, Warnings, Other };
    struct Frame
    {
        Where where;
        int index = 0; // the next element's position in an array
    };

    Where top() const { return m_frames.empty() ? Where::None : m_frames.back().where; }

    bool push(Where w)
    {
        if (!m_frames.empty()) {
            ++m_frames.back().index;
        }
        m_frames.push_back({w, 0});
        return m_frames.size() <= std::size_t(jsonread::kMaxDepth); // deeper than any real answer: refused
    }

    bool pop()
    {
        m_frames.pop_back();
        return true;
    }

    bool number(double v)
    {
        const Where w = top();
        if ((w == Where::Point || w == Where::Result) && m_frames.back().index == 0) {
            m_time = v;
            m_haveTime = true;
        }
        return scalar();
    }

    bool scalar()
    {
        if (!m_frames.empty()) {
            ++m_frames.back().index;
        }
        return true;
    }

    /** One QString per distinct text: label names and most values repeat across series. */
    QString intern(const std::string &text)
    {
        const QByteArray view = QByteArray::fromRawData(text.data(), qsizetype(text.size()));
        if (const auto it = m_strings.constFind(view); it != m_strings.cend()) {
            return it.value();
        }
        QString s = QString::fromStdString(text);
        if (m_strings.size() < 16384) {
            m_strings.insert(QByteArray(text.data(), qsizetype(text.size())), s);
        }
        return s;
    }

    std::vector<Frame> m_frames;
    std::string m_key;
    PromSeries m_series;
    double m_time = 0;
    bool m_haveTime = false;
    QHash<QByteArray, QString> m_strings;
};

} // namespace

QString PromSeries::label(QStringView key) const
{
    for (const auto &[k, v] : labels) {
        if (k == key) {
            return v;
        }
    }
    return {};
}

bool PromSeries::hasLabel(QStringView key) const
{
    return std::any_of(labels.cbegin(), labels.cend(), [key](const auto &l) { return l.first == key; });
}

Result<PromResult> parsePromResponse(QByteArrayView body, int httpStatus)
{
    AnswerReader reader;
    const bool parsed =
        json::sax_parse(body.begin(), body.end(), &reader, nlohmann::detail::input_format_t::json, true);
    if (parsed && reader.status == "error") {
        const QString error = QString::fromStdString(reader.error);
        return Status::failure(
            QCoreApplication::translate("Prometheus", "Prometheus refused the query (%1%2): %3")
                .arg(QString::fromStdString(reader.errorType),
                     httpStatus ? QStringLiteral(", HTTP %1").arg(httpStatus) : QString(),
                     error.isEmpty() ? QCoreApplication::translate("Prometheus", "no reason given") : error));
    }
    if (!parsed || reader.status != "success" || reader.resultType.empty()) {
        return Status::failure(
            QCoreApplication::translate(
                "Prometheus", "The address did not answer as Prometheus' API does (HTTP %1, %2): check the URL.")
                .arg(httpStatus)
                .arg(shortBody(body)));
    }
    const std::string &type = reader.resultType;
    if (type != "vector" && type != "matrix" && type != "scalar") {
        return Status::failure(
            QCoreApplication::translate("Prometheus", "Prometheus answered a %1 where a vector was expected.")
                .arg(QString::fromStdString(type)));
    }
    return std::move(reader.result);
}

} // namespace flashdeck::prom
