#pragma once

#include "backend/logs/logbuffer.h"
#include "backend/logs/loghighlights.h"

#include <QAbstractListModel>

#include <memory>

namespace flashdeck {
namespace logs {
class LogRules;
} // namespace logs
namespace security {
class Redactor;
} // namespace security
} // namespace flashdeck

namespace flashdeck::ui {

/**
 * The lines of one log for a view: a fixed-size ring (LogBuffer, 200 000 lines by default), so
 * the oldest rows leave from the top as new ones arrive at the bottom. Text is redacted and
 * decoded (invalid UTF-8 replaced) only when a row is shown.
 */
class LogModel final : public QAbstractListModel
{
    Q_OBJECT

public:
    /** How a line reads at a glance; the order is the filter chips' order. */
    enum class Severity { Plain, Info, Ok, Warn, Error };
    Q_ENUM(Severity)
    enum Role {
        SeverityRole = Qt::UserRole + 1, // Severity as int
        RuleIdRole, // "qmul4-ok", … or empty
        MeaningRole, // the rule's meaning
        FixRole, // the rule's fix
        TimeRole, // QDateTime (UTC) of the line, invalid when unknown
        SeqRole, // qint64
        TextRole, // the redacted text without the time
    };

    LogModel(const logs::LogRules &rules, QObject *parent = nullptr);
    ~LogModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    void appendRecords(const QList<logs::LogRecord> &records);
    void clear();
    /**
     * Health and metrics polls (the "poll" rule: Flashdeck's own monitor asking /health and
     * /metrics, which SGLang logs like any request) are folded: counted, not kept, unless shown.
     */
    void setShowPolls(bool show) { m_showPolls = show; }
    bool showPolls() const { return m_showPolls; }
    /** Polls folded since the last clear(). */
    qint64 foldedPolls() const { return m_foldedPolls; }
    /** What the deployment recorded for qmul4: the badge says it when the log no longer shows the start-up. */
    void setRecordedQmul4(logs::LogHighlights::Qmul4 verdict);
    qsizetype capacity() const { return m_buffer.capacity(); }
    void setCapacity(qsizetype lines);
    /** Lines received in all, those that left the ring included. */
    qint64 total() const { return m_buffer.total(); }
    const logs::LogHighlights &highlights() const { return m_highlights; }
    const logs::LogRules &rules() const { return m_rules; }
    Severity severityOf(int row) const;

    /** Whether DisplayRole starts with the line's time ("18:10:38.123 "). */
    void setShowTimestamps(bool show);
    bool showTimestamps() const { return m_showTimestamps; }
    /** One row as saved and copied: "2026-11-30T18:10:38.123Z text", redacted. */
    QString exportLine(int row) const;

    static Severity severityFromName(const QString &name);

Q_SIGNALS:
    void highlightsChanged();

private:
    const logs::LogRules &m_rules;
    logs::LogBuffer m_buffer;
    logs::LogHighlights m_highlights;
    logs::LogHighlights::Qmul4 m_recordedQmul4 = logs::LogHighlights::Qmul4::Unknown;
    std::unique_ptr<security::Redactor> m_redactor;
    QList<Severity> m_ruleSeverity; // per rule index
    bool m_showTimestamps = false;
    int m_pollRule = -1;
    bool m_showPolls = false;
    qint64 m_foldedPolls = 0;
};

} // namespace flashdeck::ui
