#include "backend/deploy/startlog.h"

#include "backend/logs/logrules.h"

#include <algorithm>

namespace flashdeck::deploy {

StartLog::StartLog(const logs::LogRules &rules)
    : m_rules(&rules)
{ }

StartLog::StartLog(const QStringList &lines, const logs::LogRules &rules)
    : m_rules(&rules)
{
    m_lines.reserve(lines.size());
    m_classes.reserve(lines.size());
    for (const QString &l : lines) {
        append(l);
    }
}

int StartLog::append(const QString &line)
{
    const int rule = m_rules->classify(line.toUtf8());
    if (rule >= 0) {
        m_matches[rule].append(m_lines.size());
    }
    m_lines.append(line);
    m_classes.append(rule);
    return rule;
}

qsizetype StartLog::first(int rule) const
{
    const auto it = m_matches.constFind(rule);
    return it == m_matches.constEnd() || it->isEmpty() ? -1 : it->first();
}

QString StartLog::lastLines(int n) const
{
    return m_lines.mid(std::max<qsizetype>(0, m_lines.size() - n)).join(QLatin1Char('\n'));
}

} // namespace flashdeck::deploy
