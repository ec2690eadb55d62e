#include "backend/metrics/prometheustext.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <unordered_map>

namespace flashdeck::metrics {

namespace {

bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

bool isNameChar(char c)
{
    return isNameStart(c) || (c >= '0' && c <= '9');
}

void skipBlanks(const char *&p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t')) {
        ++p;
    }
}

/** Go's ParseFloat, as Prometheus uses it: also "NaN", "+Inf", "-Inf", "Inf" in any case. */
std::optional<double> parseValue(QByteArrayView token)
{
    if (token.isEmpty()) {
        return std::nullopt;
    }
    const char c0 = token.size() > 1 && (token[0] == '+' || token[0] == '-') ? token[1] : token[0];
    if (c0 == 'n' || c0 == 'N' || c0 == 'i' || c0 == 'I') { // the words: rare, so allocate only here
        const QByteArray lower = token.toByteArray().toLower();
        if (lower == "nan") {
            return std::numeric_limits<double>::quiet_NaN();
        }
        if (lower == "+inf" || lower == "inf") {
            return std::numeric_limits<double>::infinity();
        }
        if (lower == "-inf") {
            return -std::numeric_limits<double>::infinity();
        }
        return std::nullopt;
    }
    const char *b = token.data();
    const char *e = b + token.size();
    if (*b == '+') {
        ++b;
    }
    double v = 0;
    const auto [ptr, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || ptr != e || std::isnan(v) || std::isinf(v)) { // words only as spelled above
        return std::nullopt;
    }
    return v;
}

} // namespace

QByteArray PromSample::label(QByteArrayView key) const
{
    for (const auto &[k, v] : labels) {
        if (k == key) {
            return v;
        }
    }
    return {};
}

QList<const PromSample *> PromScrape::named(QByteArrayView name) const
{
    QList<const PromSample *> out;
    for (const PromSample &s : samples) {
        if (s.name == name) {
            out.append(&s);
        }
    }
    return out;
}

PromScrape parsePrometheusText(QByteArrayView text)
{
    PromScrape scrape;
    // Names, label keys and most label values repeat on every line (model_name, tp_rank, "0"):
    // share one copy of each instead of allocating it again for every sample.
    std::unordered_map<std::string_view, QByteArray> interned;
    auto intern = [&interned](const char *b, qsizetype n) {
        const std::string_view key(b, size_t(n));
        const auto it = interned.find(key);
        if (it != interned.end()) {
            return it->second;
        }
        QByteArray copy(b, n);
        const std::string_view stable(copy.constData(), size_t(copy.size())); // shared data: never moves
        interned.emplace(stable, copy);
        return copy;
    };
    scrape.samples.reserve(std::count(text.begin(), text.end(), '\n') + 1);
    const char *p = text.data();
    const char *const end = p + text.size();
    int lineNo = 0;
    while (p < end) {
        ++lineNo;
        const char *lineEnd = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
        if (!lineEnd) {
            lineEnd = end;
        }
        const char *next = lineEnd < end ? lineEnd + 1 : end;
        if (lineEnd > p && lineEnd[-1] == '\r') {
            --lineEnd;
        }
        const char *q = p;
        p = next;
        skipBlanks(q, lineEnd);
        if (q == lineEnd) {
            continue;
        }
        auto warn = [&](const char *why) {
            scrape.warnings.append(QStringLiteral("line %1: %2: %3")
                                       .arg(lineNo)
                                       .arg(QString::fromLatin1(why))
                                       .arg(QString::fromUtf8(q, int(std::min<qsizetype>(lineEnd - q, 120)))));
        };
        if (*q == '#') {
            // "# TYPE name type" is the one comment that matters; HELP and the rest are prose.
            QByteArrayView rest(q + 1, lineEnd - q - 1);
            rest = rest.trimmed();
            if (rest.startsWith("TYPE ") || rest.startsWith("TYPE\t")) {
                const QList<QByteArray> parts = rest.toByteArray().simplified().split(' ');
                if (parts.size() == 3) {
                    scrape.types.insert(parts[1], parts[2]);
                } else {
                    warn("a TYPE line needs a name and a type");
                }
            }
            continue;
        }
        PromSample s;
        const char *n = q;
        if (!isNameStart(*q)) {
            warn("a sample starts with a metric name");
            continue;
        }
        while (q < lineEnd && isNameChar(*q)) {
            ++q;
        }
        s.name = intern(n, q - n);
        s.labels.reserve(8);
        skipBlanks(q, lineEnd);
        bool ok = true;
        if (q < lineEnd && *q == '{') {
            ++q;
            while (true) {
                skipBlanks(q, lineEnd);
                if (q < lineEnd && *q == '}') {
                    ++q;
                    break;
                }
                const char *k = q;
                if (q >= lineEnd || !isNameStart(*q) || *q == ':') {
                    ok = false;
                    break;
                }
                while (q < lineEnd && isNameChar(*q) && *q != ':') {
                    ++q;
                }
                QByteArray key = intern(k, q - k);
                skipBlanks(q, lineEnd);
                if (q >= lineEnd || *q != '=') {
                    ok = false;
                    break;
                }
                ++q;
                skipBlanks(q, lineEnd);
                if (q >= lineEnd || *q != '"') {
                    ok = false;
                    break;
                }
                ++q;
                QByteArray value;
                bool closed = false;
                // The common case has no escape: take the value in one piece.
                const char *start = q;
                while (q < lineEnd && *q != '"' && *q != '\\') {
                    ++q;
                }
                value = intern(start, q - start);
                while (q < lineEnd) {
                    if (*q == '\\' && q + 1 < lineEnd) {
                        const char e = q[1];
                        value.append(e == 'n' ? '\n' : e); // \\ and \" stand for themselves
                        q += 2;
                    } else if (*q == '"') {
                        ++q;
                        closed = true;
                        break;
                    } else {
                        value.append(*q++);
                    }
                }
                if (!closed) {
                    ok = false;
                    break;
                }
                s.labels.append({std::move(key), std::move(value)});
                skipBlanks(q, lineEnd);
                if (q < lineEnd && *q == ',') {
                    ++q;
                } else if (q >= lineEnd || *q != '}') {
                    ok = false;
                    break;
                }
            }
            if (!ok) {
                warn("a malformed label set");
                continue;
            }
        }
        skipBlanks(q, lineEnd);
        const char *v = q;
        while (q < lineEnd && *q != ' ' && *q != '\t') {
            ++q;
        }
        const std::optional<double> value = parseValue(QByteArrayView(v, q - v));
        if (!value) {
            warn("no number where the value should be");
            continue;
        }
        s.value = *value;
        skipBlanks(q, lineEnd);
        if (q < lineEnd) {
            const char *t = q;
            while (q < lineEnd && *q != ' ' && *q != '\t') {
                ++q;
            }
            const char *tokenEnd = q;
            qint64 ts = 0;
            const auto [ptr, ec] = std::from_chars(t, tokenEnd, ts);
            skipBlanks(q, lineEnd);
            if (ec != std::errc() || ptr != tokenEnd || q != lineEnd) {
                warn("something after the value that is not a timestamp");
                continue;
            }
            s.timestampMs = ts;
        }
        scrape.samples.append(std::move(s));
    }
    return scrape;
}

} // namespace flashdeck::metrics
