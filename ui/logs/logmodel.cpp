#include "ui/logs/logmodel.h"

#include "backend/logs/logrules.h"
#include "backend/security/redactor.h"

#include <QDateTime>

namespace flashdeck::ui {

namespace {

QDateTime timeOf(const logs::LogRecord &r)
{
    return r.timeNs > 0 ? QDateTime::fromMSecsSinceEpoch(r.timeNs / 1000000, Qt::UTC) : QDateTime();
}

} // namespace

LogModel::LogModel(const logs::LogRules &rules, QObject *parent)
    : QAbstractListModel(parent)
    , m_rules(rules)
    , m_redactor(std::make_unique<security::Redactor>())
{
    for (const logs::LogRule &r : m_rules.rules()) {
        m_ruleSeverity.append(severityFromName(r.severity));
    }
    m_pollRule = m_rules.indexOf(QStringLiteral("poll"));
}

LogModel::~LogModel() = default;

LogModel::Severity LogModel::severityFromName(const QString &name)
{
    if (name == QLatin1String("ok")) {
        return Severity::Ok;
    }
    if (name == QLatin1String("warn")) {
        return Severity::Warn;
    }
    if (name == QLatin1String("error")) {
        return Severity::Error;
    }
    return Severity::Info;
}

int LogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_buffer.size());
}

LogModel::Severity LogModel::severityOf(int row) const
{
    const int rule = m_buffer.at(row).rule;
    return rule >= 0 && rule < m_ruleSeverity.size() ? m_ruleSeverity.at(rule) : Severity::Plain;
}

QVariant LogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const logs::LogRecord &r = m_buffer.at(index.row());
    const logs::LogRule *rule = r.rule >= 0 && r.rule < m_rules.rules().size() ? &m_rules.rules().at(r.rule) : nullptr;
    switch (role) {
    case Qt::DisplayRole: {
        QString text = m_redactor->redact(QString::fromUtf8(r.text));
        if (r.cut) {
            text += tr(" … [line cut at 1 MiB]");
        }
        if (m_showTimestamps && r.timeNs > 0) {
            return QString(timeOf(r).toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz  ")) + text);
        }
        return text;
    }
    case TextRole:
        return m_redactor->redact(QString::fromUtf8(r.text));
    case Qt::ToolTipRole:
        return rule ? rule->meaning : QVariant();
    case SeverityRole:
        return int(severityOf(index.row()));
    case RuleIdRole:
        return rule ? rule->id : QString();
    case MeaningRole:
        return rule ? rule->meaning : QString();
    case FixRole:
        return rule ? rule->fix : QString();
    case TimeRole:
        return timeOf(r);
    case SeqRole:
        return r.seq;
    default:
        return {};
    }
}

void LogModel::appendRecords(const QList<logs::LogRecord> &records)
{
    if (records.isEmpty()) {
        return;
    }
    for (const logs::LogRecord &r : records) {
        if (r.rule >= 0 && r.rule < m_rules.rules().size()) {
            const QString &id = m_rules.rules().at(r.rule).id;
            m_highlights.note(id);
            if (id == QLatin1String("kv-pool")) {
                m_highlights.noteKvPool(r.text);
            }
        }
    }
    QList<logs::LogRecord> kept = records;
    if (!m_showPolls && m_pollRule >= 0) {
        const qsizetype before = kept.size();
        kept.removeIf([this](const logs::LogRecord &r) { return r.rule == m_pollRule; });
        m_foldedPolls += before - kept.size();
        if (kept.isEmpty()) {
            return;
        }
    }
    if (kept.size() > m_buffer.capacity()) {
        kept = kept.mid(kept.size() - m_buffer.capacity());
    }
    // Make room first, as rows leaving the top; then the new rows at the bottom. A view keeps
    // its place (and its selection) through both.
    const qsizetype overflow = m_buffer.size() + kept.size() - m_buffer.capacity();
    if (overflow > 0) {
        beginRemoveRows({}, 0, int(overflow) - 1);
        m_buffer.dropOldest(overflow);
        endRemoveRows();
    }
    const int first = int(m_buffer.size());
    beginInsertRows({}, first, first + int(kept.size()) - 1);
    (void)m_buffer.append(std::move(kept));
    endInsertRows();
    Q_EMIT highlightsChanged();
}

void LogModel::setRecordedQmul4(logs::LogHighlights::Qmul4 verdict)
{
    m_recordedQmul4 = verdict;
    m_highlights.setRecorded(verdict);
    Q_EMIT highlightsChanged();
}

void LogModel::clear()
{
    beginResetModel();
    m_buffer.clear();
    m_foldedPolls = 0;
    m_highlights.reset();
    m_highlights.setRecorded(m_recordedQmul4);
    endResetModel();
    Q_EMIT highlightsChanged();
}

void LogModel::setCapacity(qsizetype lines)
{
    if (lines == m_buffer.capacity()) {
        return;
    }
    beginResetModel();
    (void)m_buffer.setCapacity(lines);
    endResetModel();
}

void LogModel::setShowTimestamps(bool show)
{
    if (show == m_showTimestamps) {
        return;
    }
    m_showTimestamps = show;
    if (rowCount() > 0) {
        Q_EMIT dataChanged(index(0), index(rowCount() - 1), {Qt::DisplayRole});
    }
}

QString LogModel::exportLine(int row) const
{
    const logs::LogRecord &r = m_buffer.at(row);
    const QString text = m_redactor->redact(QString::fromUtf8(r.text));
    return r.timeNs > 0 ? timeOf(r).toString(Qt::ISODateWithMs) + QLatin1Char(' ') + text : text;
}

} // namespace flashdeck::ui
