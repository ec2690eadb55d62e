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

/**
 * Names, label keys and most label values repeat on every line (model_name, tp_rank, "0"):
 * share one copy of each instead of allocating it again for every sample.
 */
class Interner
{
public:
    QByteArray operator()(const char *b, qsizetype n)
    {
        const std::string_view key(b, size_t(n));
        const auto it = m_interned.find(key);
        if (it != m_interned.end()) {
            return it->second;
        }
        QByteArray copy(b, n);
        const std::string_view stable(copy.constData(), size_t(copy.size())); // shared data: never moves
        m_interned.emplace(stable, copy);
        return copy;
    }

private:
    std::unordered_map<std::string_view, QByteArray> m_interned;
};

/** The warning for line `lineNo`: why, and the line from `at` (where reading stopped) on. */
void warn(PromScrape &scrape, int lineNo, const char *at, const char *lineEnd, const char *why)
{
    scrape.warnings.append(QStringLiteral("line %1: %2: %3")
                               .arg(lineNo)
                               .arg(QString::fromLatin1(why))
                               .arg(QString::fromUtf8(at, int(std::min<qsizetype>(lineEnd - at, 120)))));
}

/** A comment line from its '#'; what is wrong with it, or nullptr. */
const char *readComment(const char *q, const char *lineEnd, PromScrape &scrape)
{
    // "# TYPE name type" is the one comment that matters; HELP and the rest are prose.
    QByteArrayView rest(q + 1, lineEnd - q - 1);
    rest = rest.trimmed();
    if (rest.startsWith("TYPE ") || rest.startsWith("TYPE\t")) {
        const QList<QByteArray> parts = rest.toByteArray().simplified().split(' ');
        if (parts.size() == 3) {
            scrape.types.insert(parts[1], parts[2]);
        } else {
            return "a TYPE line needs a name and a type";
        }
    }
    return nullptr;
}

/** A label value after its opening quote, up to and with its closing one; false when that is missing. */
bool readLabelValue(const char *&q, const char *lineEnd, Interner &intern, QByteArray &value)
{
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
            return true;
        } else {
            value.append(*q++);
        }
    }
    return false;
}

/** One `key="value"` of a label set, appended to the sample's labels; false when it is malformed. */
bool readLabel(const char *&q, const char *lineEnd, Interner &intern, PromSample &s)
{
    const char *k = q;
    if (q >= lineEnd || !isNameStart(*q) || *q == ':') {
        return false;
    }
    while (q < lineEnd && isNameChar(*q) && *q != ':') {
        ++q;
    }
    QByteArray key = intern(k, q - k);
    skipBlanks(q, lineEnd);
    if (q >= lineEnd || *q != '=') {
        return false;
    }
    ++q;
    skipBlanks(q, lineEnd);
    if (q >= lineEnd || *q != '"') {
        return false;
    }
    ++q;
    QByteArray value;
    if (!readLabelValue(q, lineEnd, intern, value)) {
        return false;
    }
    s.labels.append({std::move(key), std::move(value)});
    return true;
}

/** A label set after its '{', up to and with its '}' (a trailing comma is fine); false when it is malformed. */
bool readLabels(const char *&q, const char *lineEnd, Interner &intern, PromSample &s)
{
    while (true) {
        skipBlanks(q, lineEnd);
        if (q < lineEnd && *q == '}') {
            ++q;
            return true;
        }
        if (!readLabel(q, lineEnd, intern, s)) {
            return false;
        }
        skipBlanks(q, lineEnd);
        if (q < lineEnd && *q == ',') {
            ++q;
        } else if (q >= lineEnd || *q != '}') {
            return false;
        }
    }
}

/** The value and the optional timestamp after the name and labels; what is wrong with them, or nullptr. */
const char *readValue(const char *&q, const char *lineEnd, PromSample &s)
{
    skipBlanks(q, lineEnd);
    const char *v = q;
    while (q < lineEnd && *q != ' ' && *q != '\t') {
        ++q;
    }
    const std::optional<double> value = parseValue(QByteArrayView(v, q - v));
    if (!value) {
        return "no number where the value should be";
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
            return "something after the value that is not a timestamp";
        }
        s.timestampMs = ts;
    }
    return nullptr;
}

/** A sample line from its first non-blank; what is wrong with it (`q` where reading stopped), or nullptr. */
const char *readSample(const char *&q, const char *lineEnd, Interner &intern, PromSample &s)
{
    const char *n = q;
    if (!isNameStart(*q)) {
        return "a sample starts with a metric name";
    }
    while (q < lineEnd && isNameChar(*q)) {
        ++q;
    }
    s.name = intern(n, q - n);
    s.labels.reserve(8);
    skipBlanks(q, lineEnd);
    if (q < lineEnd && *q == '{') {
        ++q;
        if (!readLabels(q, lineEnd, intern, s)) {
            return "a malformed label set";
        }
    }
    return readValue(q, lineEnd, s);
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
    Interner intern;
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
        // A warning quotes the line from where reading stopped (readSample moves `q` along).
        if (*q == '#') {
            if (const char *why = readComment(q, lineEnd, scrape)) {
                warn(scrape, lineNo, q, lineEnd, why);
            }
            continue;
        }
        PromSample s;
        if (const char *why = readSample(q, lineEnd, intern, s)) {
            warn(scrape, lineNo, q, lineEnd, why);
            continue;
        }
        scrape.samples.append(std::move(s));
    }
    return scrape;
}

} // namespace flashdeck::metrics
