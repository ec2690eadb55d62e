#pragma once

#include "backend/core/result.h"
#include "backend/logs/literalscanner.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <vector>

namespace flashdeck::logs {

/** One rule of resources/logrules/log-rules.json (host contract §6). */
struct LogRule
{
    QString id;
    QString severity; // ok, info, warn, error
    QList<QByteArray> match; // substrings, any of them
    QString meaning;
    QString fix;
};

/**
 * The log classifier: the first rule one of whose substrings occurs in the line. Works on the
 * line's bytes, so invalid UTF-8 and 1 MB lines cost nothing extra. Every substring of every
 * rule is looked for in one pass that skips ahead (Wu–Manber: the shortest substring is 12
 * bytes, so most of a line is never looked at, as with grep's fixed-string matcher); rules with
 * substrings shorter than 4 bytes fall back to an Aho–Corasick automaton over every byte. Where the
 * CPU has AVX2, a vector filter (LiteralScanner) replaces both when every substring has three
 * bytes or more: the same answers, about two thirds of the time (docs/PERFORMANCE.md, "Logs").
 */
class LogRules final
{
public:
    /** Parses and validates the rules file; errors name the file, the rule and the key. */
    [[nodiscard]] static Result<LogRules> fromJson(const QByteArray &json, const QString &source);
    /** The rules shipped with Flashdeck (compiled in). */
    [[nodiscard]] static Result<LogRules> builtIn();

    /** The index of the matching rule, or -1. */
    int classify(QByteArrayView line) const;
    const QList<LogRule> &rules() const { return m_rules; }
    /** Whether classify() runs the vector filter on this CPU. */
    bool usesVectorScan() const { return m_scanner.isReady(); }
    /** The same rules on the portable matchers only (tests and benchmarks compare the two). */
    LogRules withoutVectorScan() const;
    const LogRule *rule(const QString &id) const;
    /** The index classify() returns for the rule `id`; -1 when there is none. */
    int indexOf(const QString &id) const;

private:
    void buildMatcher();
    void buildSkipper();
    void buildScanner(bool enabled);
    int classifySkipping(QByteArrayView line) const;
    int classifyEveryByte(QByteArrayView line) const;

    struct Pattern
    {
        QByteArray bytes;
        qint16 rule = -1;
        qint32 nextSameBlock = -1; // the next pattern whose first m bytes end in the same block
    };
    int m_minLength = 0; // 0: the skipping matcher is off
    std::vector<quint8> m_shift; // 65 536 hashed three-byte blocks: how far the window may move
    std::vector<qint32> m_blockHead; // 65 536: the first pattern ending its first m bytes there
    std::vector<Pattern> m_patterns;
    LiteralScanner m_scanner;

    QList<LogRule> m_rules;
    std::vector<quint8> m_byteClass; // 256 entries: bytes no pattern uses share class 0
    int m_classes = 1;
    std::vector<qint32> m_next; // states × classes: the next state
    std::vector<qint16> m_out; // per state: the lowest rule index matched on reaching it, or -1
};

} // namespace flashdeck::logs
