#pragma once

#include "backend/logs/logrecord.h"
#include "ui/logs/logbadges.h"

#include <QList>
#include <QPointer>
#include <QWidget>

class QButtonGroup;
class QCheckBox;
class QLabel;
class QTextBrowser;
class QLineEdit;
class QListView;
class QToolBar;
class QToolButton;
class QVBoxLayout;

namespace flashdeck::logs {
class LogRules;
class SharedLog;
} // namespace flashdeck::logs

namespace flashdeck::ui {

class LogFilterModel;
class LogModel;

/**
 * A live, classified log (screens.md §Logs): the qmul4 / DSpark / ready badges pinned on top,
 * follow and pause, severity chips, search with next/previous (optionally hiding the rest),
 * jump between highlights, timestamps, copy and save (both redacted), and a side panel with
 * the selected line in full and, for a highlighted one, its rule's meaning and fix. The Logs
 * page and the Deploy wizard both embed one.
 */
class LogPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit LogPanel(const logs::LogRules &rules, QWidget *parent = nullptr);
    ~LogPanel() override;

    LogModel *model() const { return m_model; }
    /** The filter; the view shows it only while a chip or "only matching" is on. */
    LogFilterModel *filter() const { return m_filter; }
    QListView *view() const { return m_view; }

    /** New lines: shown at once, or held while paused (and shown on resume). */
    void appendRecords(const QList<logs::LogRecord> &records);
    void clear();
    /** The status line under the log: what the stream is doing. */
    void setStatus(const QString &text);
    /**
     * Shows a host's shared log stream (null: none): its last `history` lines now, then every
     * new one, with the stream's state as the status. Clears what was shown.
     */
    void follow(logs::SharedLog *log, qsizetype history);

    /**
     * A start is under way (a deployment runs): before its first line the badges wait for it.
     * Otherwise a log with no line says so: no deployment runs, or the host cannot be reached.
     */
    void setStartExpected(bool expected);

    void setFollow(bool follow);
    bool follow() const;
    void setPaused(bool paused);
    bool paused() const;
    /** Selects the next (or previous) line with a milestone, warning or error; false at the end. */
    bool nextHighlight(bool forward = true);
    /** Selects the next (or previous) line containing the search text; false when none. */
    bool findNext(bool forward = true);
    void setSearch(const QString &text, bool onlyMatching = false);
    /** The selected lines as copied: time and text, redacted. */
    QString selectedText() const;
    /** Writes every line held (redacted, with times) to `path`; false and `error` on failure. */
    bool saveTo(const QString &path, QString *error) const;

private:
    // The constructor's parts, called in this order: the order widgets are made in is their tab order.
    void buildToolbar(QVBoxLayout *layout);
    void addChips(QToolBar *bar);
    void addSearch(QToolBar *bar);
    void addHighlights(QToolBar *bar);
    void addOutput(QToolBar *bar);
    void buildView(QVBoxLayout *layout);
    void buildFooter(QVBoxLayout *layout);
    /** The signals of the widgets built, and the keys. */
    void wire();

    void updateBadges();
    [[nodiscard]] bool hasNoLog() const;
    void updateDetails();
    void updateCounts();
    void applyChips();
    void setFilter(unsigned shown, const QString &text);
    void saveAs();
    int currentRow() const;
    void selectRow(int proxyRow);

    void updateStreamStatus();

    QPointer<logs::SharedLog> m_stream;
    qsizetype m_history = 0; // what follow() asked of the stream's kept lines
    bool m_startExpected = false;
    bool m_badgesSayNoLog = false; // what updateBadges last showed
    QToolButton *m_polls = nullptr;
    QObject *m_subscription = nullptr; // this panel as the stream's reader; deleting it unsubscribes
    LogModel *m_model;
    LogFilterModel *m_filter;
    QListView *m_view;
    QToolButton *m_follow;
    QToolButton *m_pause;
    QButtonGroup *m_chips;
    QLineEdit *m_search;
    QCheckBox *m_onlyMatching;
    QCheckBox *m_timestamps;
    LogBadges m_badges;
    QTextBrowser *m_details; // a label cannot break a long token: it cut the line it was to show in full
    QLabel *m_status;
    QLabel *m_counts;
    QList<logs::LogRecord> m_held; // arrived while paused
    bool m_autoScrolling = false;
};

} // namespace flashdeck::ui
