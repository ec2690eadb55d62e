#pragma once

#include "backend/core/result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

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
 * line's bytes, so invalid UTF-8 and 1 MB lines cost nothing extra.
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
    const LogRule *rule(const QString &id) const;

private:
    QList<LogRule> m_rules;
};

} // namespace flashdeck::logs
