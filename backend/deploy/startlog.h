#pragma once

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace flashdeck {

namespace logs {
class LogRules;
} // namespace logs

} // namespace flashdeck

namespace flashdeck::deploy {

/**
 * A server's log as the ready wait and the checks read it: each line classified once by the log
 * rules as it arrives, with where each rule matched, so a check asks "where did qmul4-ok first
 * match" in constant time instead of classifying the whole log again. A first start prints for
 * an hour (a 252 GB download, kernels compiling); the wait once re-classified every line on each
 * read, quadratic in the log (issue 42: checks read the stream incrementally).
 */
class StartLog
{
public:
    /** `rules` outlives this log. */
    explicit StartLog(const logs::LogRules &rules);
    /** `lines` classified at once (a saved log, a test's lines). */
    StartLog(const QStringList &lines, const logs::LogRules &rules);

    /** Appends `line` (redacted already) and returns the rule it matched, -1 for none. */
    int append(const QString &line);

    [[nodiscard]] const logs::LogRules &rules() const { return *m_rules; }
    [[nodiscard]] const QStringList &lines() const { return m_lines; }
    [[nodiscard]] qsizetype size() const { return m_lines.size(); }
    /** The rule line `i` matched, -1 for none. */
    [[nodiscard]] int ruleAt(qsizetype i) const { return m_classes.at(i); }
    /** Where rule `rule` matched, in order; empty when it never did. */
    [[nodiscard]] QList<qsizetype> matches(int rule) const { return m_matches.value(rule); }
    /** Where rule `rule` first matched; -1 when it never did. */
    [[nodiscard]] qsizetype first(int rule) const;
    /** The last `n` lines, one per line. */
    [[nodiscard]] QString lastLines(int n) const;

private:
    const logs::LogRules *m_rules;
    QStringList m_lines;
    QList<int> m_classes;
    QHash<int, QList<qsizetype>> m_matches;
};

} // namespace flashdeck::deploy
