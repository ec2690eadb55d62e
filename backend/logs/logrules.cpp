#include "backend/logs/logrules.h"

#include <QCoreApplication>
#include <QFile>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <limits>

namespace flashdeck::logs {

Result<LogRules> LogRules::fromJson(const QByteArray &text, const QString &source)
{
    const nlohmann::json j = nlohmann::json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
    if (!j.is_object() || !j.contains("rules") || !j["rules"].is_array()) {
        return Status::failure(
            QCoreApplication::translate("Logs", "%1: expected an object with a \"rules\" array").arg(source));
    }
    LogRules out;
    int n = 0;
    for (const nlohmann::json &r : j["rules"]) {
        ++n;
        auto bad = [&](const QString &why) {
            return Status::failure(QStringLiteral("%1: rule %2: %3").arg(source).arg(n).arg(why));
        };
        if (!r.is_object() || !r.value("id", nlohmann::json()).is_string()) {
            return bad(QCoreApplication::translate("Logs", "\"id\" must be a string"));
        }
        // Typed reads: value("x", std::string()) throws out of the parser when x is not a string
        // (found by fuzz_logrules: "severity": [ ]).
        const auto field = [&r](const char *key) {
            return r.contains(key) && r[key].is_string() ? QString::fromStdString(r[key].get<std::string>())
                                                         : QString();
        };
        for (const char *key : {"severity", "meaning", "fix"}) {
            if (r.contains(key) && !r[key].is_string()) {
                return bad(QCoreApplication::translate("Logs", "\"%1\" must be a string").arg(QLatin1String(key)));
            }
        }
        LogRule rule;
        rule.id = QString::fromStdString(r["id"].get<std::string>());
        rule.severity = field("severity");
        if (rule.severity != QLatin1String("ok") && rule.severity != QLatin1String("info") &&
            rule.severity != QLatin1String("warn") && rule.severity != QLatin1String("error") &&
            rule.severity != QLatin1String("plain")) {
            return bad(QCoreApplication::translate("Logs", "\"severity\" of %1 must be ok, info, warn, error or plain")
                           .arg(rule.id));
        }
        const nlohmann::json match = r.value("match", nlohmann::json());
        if (!match.is_array() || match.empty()) {
            return bad(QCoreApplication::translate("Logs", "\"match\" of %1 must be a non-empty array of strings")
                           .arg(rule.id));
        }
        for (const nlohmann::json &m : match) {
            if (!m.is_string() || m.get<std::string>().empty()) {
                return bad(QCoreApplication::translate("Logs",
                                                       "\"match\" of %1 holds something that is not a non-empty string")
                               .arg(rule.id));
            }
            rule.match.append(QByteArray::fromStdString(m.get<std::string>()));
        }
        rule.meaning = field("meaning");
        rule.fix = field("fix");
        if (out.rule(rule.id)) {
            return bad(QCoreApplication::translate("Logs", "the id %1 is used twice").arg(rule.id));
        }
        out.m_rules.append(rule);
    }
    out.buildMatcher();
    out.buildSkipper();
    out.buildScanner(true);
    return out;
}

Result<LogRules> LogRules::builtIn()
{
    QFile f(QStringLiteral(":/logrules/log-rules.json"));
    if (!f.open(QIODevice::ReadOnly)) {
        return Status::failure(
            QCoreApplication::translate("Logs", "The built-in log rules are missing from this build."));
    }
    Result<LogRules> rules = fromJson(f.readAll(), QStringLiteral("log-rules.json"));
    if (!rules) {
        return rules;
    }
    // What a rule means and what to do, in the language Flashdeck speaks (scripts/data-texts.cmake
    // lists them for lupdate). The match strings are SGLang's words and stay as they are.
    LogRules translated = rules.value();
    for (LogRule &r : translated.m_rules) {
        for (QString *text : {&r.meaning, &r.fix}) {
            if (!text->isEmpty()) {
                *text = QCoreApplication::translate("LogRuleText", text->toUtf8().constData());
            }
        }
    }
    return translated;
}

const LogRule *LogRules::rule(const QString &id) const
{
    const int i = indexOf(id);
    return i < 0 ? nullptr : &m_rules.at(i);
}

int LogRules::indexOf(const QString &id) const
{
    for (qsizetype i = 0; i < m_rules.size(); ++i) {
        if (m_rules.at(i).id == id) {
            return int(i);
        }
    }
    return -1;
}

void LogRules::buildMatcher()
{
    m_byteClass.assign(256, 0);
    m_classes = 1;
    for (const LogRule &r : m_rules) {
        for (const QByteArray &m : r.match) {
            for (const char c : m) {
                quint8 &cls = m_byteClass[quint8(c)];
                if (cls == 0) {
                    cls = quint8(m_classes++);
                }
            }
        }
    }
    // The trie of every substring, then failure links breadth first, completed into a DFA.
    std::vector<std::vector<qint32>> child(1, std::vector<qint32>(size_t(m_classes), -1));
    m_out.assign(1, -1);
    for (int i = 0; i < m_rules.size(); ++i) {
        for (const QByteArray &m : m_rules[i].match) {
            qint32 s = 0;
            for (const char c : m) {
                const int cls = m_byteClass[quint8(c)];
                if (child[size_t(s)][size_t(cls)] < 0) {
                    child[size_t(s)][size_t(cls)] = qint32(child.size());
                    child.emplace_back(size_t(m_classes), -1);
                    m_out.push_back(-1);
                }
                s = child[size_t(s)][size_t(cls)];
            }
            if (m_out[size_t(s)] < 0 || m_out[size_t(s)] > i) {
                m_out[size_t(s)] = qint16(i);
            }
        }
    }
    const size_t states = child.size();
    m_next.assign(states * size_t(m_classes), 0);
    std::vector<qint32> fail(states, 0);
    std::vector<qint32> queue;
    queue.reserve(states);
    for (int c = 0; c < m_classes; ++c) {
        const qint32 t = child[0][size_t(c)];
        m_next[size_t(c)] = t < 0 ? 0 : t;
        if (t > 0) {
            queue.push_back(t);
        }
    }
    for (size_t q = 0; q < queue.size(); ++q) {
        const qint32 s = queue[q];
        const qint16 inherited = m_out[size_t(fail[size_t(s)])];
        if (inherited >= 0 && (m_out[size_t(s)] < 0 || inherited < m_out[size_t(s)])) {
            m_out[size_t(s)] = inherited; // a pattern ending here as a suffix counts too
        }
        for (int c = 0; c < m_classes; ++c) {
            const qint32 t = child[size_t(s)][size_t(c)];
            const qint32 viaFail = m_next[size_t(fail[size_t(s)]) * size_t(m_classes) + size_t(c)];
            if (t < 0) {
                m_next[size_t(s) * size_t(m_classes) + size_t(c)] = viaFail;
            } else {
                m_next[size_t(s) * size_t(m_classes) + size_t(c)] = t;
                fail[size_t(t)] = viaFail;
                queue.push_back(t);
            }
        }
    }
}

namespace {

// Three bytes folded into 16 bits (Wu and Manber's block size for larger pattern sets): fewer
// of a log line's blocks also occur in a pattern, so the window moves further on average.
inline int blockHash(const unsigned char *b)
{
    return ((b[0] << 10) ^ (b[1] << 5) ^ b[2]) & 0xffff;
}

} // namespace

void LogRules::buildSkipper()
{
    // Wu–Manber with three-byte blocks (S. Wu, U. Manber, "A fast algorithm for multi-pattern
    // searching", 1994): a window of the shortest pattern's length m slides over the line; the
    // window's last three bytes say how far it can move without passing a possible match.
    int m = std::numeric_limits<int>::max();
    for (const LogRule &r : m_rules) {
        for (const QByteArray &p : r.match) {
            m = std::min(m, int(p.size()));
        }
    }
    m_patterns.clear();
    if (m_rules.isEmpty() || m < 4 || m > 255) {
        m_minLength = 0; // too short to skip usefully: the automaton reads every byte
        return;
    }
    m_minLength = m;
    m_shift.assign(65536, quint8(m - 2));
    m_blockHead.assign(65536, -1);
    for (int i = 0; i < m_rules.size(); ++i) {
        for (const QByteArray &p : m_rules[i].match) {
            const auto *b = reinterpret_cast<const unsigned char *>(p.constData());
            for (int q = 3; q <= m; ++q) {
                const int block = blockHash(b + q - 3);
                m_shift[size_t(block)] = quint8(std::min<int>(m_shift[size_t(block)], m - q));
            }
            const int last = blockHash(b + m - 3);
            m_patterns.push_back({p, qint16(i), m_blockHead[size_t(last)]});
            m_blockHead[size_t(last)] = qint32(m_patterns.size() - 1);
        }
    }
}

void LogRules::buildScanner(bool enabled)
{
    std::vector<LiteralScanner::Literal> literals;
    for (int i = 0; i < m_rules.size(); ++i) {
        for (const QByteArray &m : m_rules[i].match) {
            literals.push_back({m, qint16(i)});
        }
    }
    m_scanner.build(literals, enabled);
}

LogRules LogRules::withoutVectorScan() const
{
    LogRules portable = *this;
    portable.buildScanner(false);
    return portable;
}

int LogRules::classify(QByteArrayView line) const
{
    if (m_scanner.isReady()) {
        return m_scanner.lowestTag(line);
    }
    return m_minLength > 0 ? classifySkipping(line) : classifyEveryByte(line);
}

int LogRules::classifySkipping(QByteArrayView line) const
{
    const auto *p = reinterpret_cast<const unsigned char *>(line.data());
    const qsizetype n = line.size();
    const qsizetype m = m_minLength;
    const quint8 *shift = m_shift.data();
    int best = -1;
    for (qsizetype pos = m - 1; pos < n;) {
        const int block = blockHash(p + pos - 2);
        if (const int s = shift[block]; s > 0) {
            pos += s;
            continue;
        }
        const qsizetype start = pos - m + 1;
        for (qint32 i = m_blockHead[size_t(block)]; i >= 0; i = m_patterns[size_t(i)].nextSameBlock) {
            const Pattern &pat = m_patterns[size_t(i)];
            if ((best < 0 || pat.rule < best) && start + pat.bytes.size() <= n &&
                std::memcmp(p + start, pat.bytes.constData(), size_t(pat.bytes.size())) == 0) {
                best = pat.rule;
                if (best == 0) {
                    return 0; // the first rule wins: nothing can beat it
                }
            }
        }
        ++pos;
    }
    return best;
}

int LogRules::classifyEveryByte(QByteArrayView line) const
{
    if (m_next.empty()) {
        return -1;
    }
    const auto *p = reinterpret_cast<const unsigned char *>(line.data());
    const auto *const end = p + line.size();
    const qint32 *next = m_next.data();
    const quint8 *cls = m_byteClass.data();
    const qint16 *out = m_out.data();
    const size_t classes = size_t(m_classes);
    qint32 s = 0;
    int best = -1;
    for (; p < end; ++p) {
        s = next[size_t(s) * classes + cls[*p]];
        const int o = out[s];
        if (o >= 0 && (best < 0 || o < best)) {
            best = o;
            if (best == 0) {
                break; // the first rule wins: nothing can beat it
            }
        }
    }
    return best;
}

} // namespace flashdeck::logs
