#include "ui/logs/logpanel.h"

#include "backend/core/atomicfile.h"
#include "backend/core/format.h"
#include "backend/logs/logrules.h"
#include "backend/logs/sharedlog.h"
#include "ui/logs/logdelegate.h"
#include "ui/logs/logfiltermodel.h"
#include "ui/logs/logmodel.h"

#include <QApplication>
#include <QButtonGroup>
#include <QCheckBox>
#include <QClipboard>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <tuple>

namespace flashdeck::ui {

namespace {

QToolButton *toolButton(const QString &text, const QString &name, QWidget *parent, bool checkable = false)
{
    auto *b = new QToolButton(parent);
    b->setText(text);
    b->setObjectName(name);
    b->setCheckable(checkable);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return b;
}

} // namespace

LogPanel::LogPanel(const logs::LogRules &rules, QWidget *parent)
    : QWidget(parent)
    , m_model(new LogModel(rules, this))
    , m_filter(new LogFilterModel(this))
    , m_view(new QListView(this))
    //: Keep scrolling to the newest log line (like tail -f), not following a person.
    , m_follow(toolButton(tr("Follow"), QStringLiteral("logFollow"), this, true))
    , m_pause(toolButton(tr("Pause"), QStringLiteral("logPause"), this, true))
    , m_chips(new QButtonGroup(this))
    , m_search(new QLineEdit(this))
    , m_onlyMatching(new QCheckBox(tr("Only matching"), this))
    , m_timestamps(new QCheckBox(tr("Timestamps"), this))
    , m_badges(this)
    , m_details(new QTextBrowser(this))
    , m_status(new QLabel(this))
    , m_counts(new QLabel(this))
{
    setObjectName(QStringLiteral("logPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    buildToolbar(layout);
    // Badges and legend.
    layout->addLayout(m_badges.buildRow());
    buildView(layout);
    buildFooter(layout);
    wire();

    updateBadges();
    updateDetails();
    updateCounts();
}

void LogPanel::buildToolbar(QVBoxLayout *layout)
{
    // Toolbar: follow/pause, chips, search, highlights, timestamps, copy, save.
    // A tool bar: what does not fit a narrow window goes into its » menu.
    auto *bar = new QToolBar(this);
    bar->setObjectName(QStringLiteral("logToolBar"));
    bar->setIconSize(QSize(16, 16));
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Keep the newest line in view"));
    m_pause->setToolTip(tr("Freeze the view; new lines wait and appear on resume"));
    bar->addWidget(m_follow);
    bar->addWidget(m_pause);
    bar->addSeparator();
    addChips(bar);
    bar->addSeparator();
    addSearch(bar);
    bar->addSeparator();
    addHighlights(bar);
    bar->addSeparator();
    addOutput(bar);
    layout->addWidget(bar);
}

void LogPanel::addChips(QToolBar *bar)
{
    const QList<std::pair<QString, unsigned>> chips{
        {tr("All"), LogFilterModel::Everything},
        {tr("Errors"), LogFilterModel::Errors},
        {tr("Warnings"), LogFilterModel::Warnings},
        {tr("Milestones"), LogFilterModel::Milestones},
    };
    m_chips->setExclusive(false);
    for (int i = 0; i < chips.size(); ++i) {
        auto *chip = toolButton(chips[i].first, QStringLiteral("logChip%1").arg(i), this, true);
        chip->setProperty("mask", chips[i].second);
        chip->setChecked(i == 0);
        m_chips->addButton(chip, i);
        bar->addWidget(chip);
    }
    connect(m_chips, &QButtonGroup::idClicked, this, [this](int id) {
        // "All" and the specific chips exclude each other; no chip at all means all.
        if (id == 0) {
            for (QAbstractButton *b : m_chips->buttons()) {
                b->setChecked(m_chips->id(b) == 0);
            }
        } else {
            m_chips->button(0)->setChecked(false);
        }
        applyChips();
    });
}

void LogPanel::addSearch(QToolBar *bar)
{
    m_search->setObjectName(QStringLiteral("logSearch"));
    m_search->setAccessibleName(tr("Search the log"));
    m_search->setPlaceholderText(tr("Search the log"));
    m_search->setClearButtonEnabled(true);
    m_search->setMaximumWidth(260);
    m_search->setMinimumWidth(110);
    bar->addWidget(m_search);
    auto *findPrev = toolButton(QStringLiteral("▲"), QStringLiteral("logFindPrevious"), this);
    auto *findNextButton = toolButton(QStringLiteral("▼"), QStringLiteral("logFindNext"), this);
    findPrev->setToolTip(tr("Previous match (Shift+F3)"));
    findNextButton->setToolTip(tr("Next match (F3)"));
    bar->addWidget(findPrev);
    bar->addWidget(findNextButton);
    m_onlyMatching->setObjectName(QStringLiteral("logOnlyMatching"));
    bar->addWidget(m_onlyMatching);
    connect(findPrev, &QToolButton::clicked, this, [this] { findNext(false); });
    connect(findNextButton, &QToolButton::clicked, this, [this] { findNext(true); });
}

void LogPanel::addHighlights(QToolBar *bar)
{
    auto *prevHighlight = toolButton(QStringLiteral("◀"), QStringLiteral("logPrevHighlight"), this);
    auto *nextHighlightButton = toolButton(QStringLiteral("▶"), QStringLiteral("logNextHighlight"), this);
    //: Jump between the classified log lines (milestones, warnings, errors).
    auto *highlightsLabel = new QLabel(tr("Highlights"), this);
    bar->addWidget(highlightsLabel);
    prevHighlight->setToolTip(tr("Previous milestone, warning or error"));
    nextHighlightButton->setToolTip(tr("Next milestone, warning or error"));
    bar->addWidget(prevHighlight);
    bar->addWidget(nextHighlightButton);
    connect(prevHighlight, &QToolButton::clicked, this, [this] { nextHighlight(false); });
    connect(nextHighlightButton, &QToolButton::clicked, this, [this] { nextHighlight(true); });
}

void LogPanel::addOutput(QToolBar *bar)
{
    m_timestamps->setObjectName(QStringLiteral("logTimestamps"));
    bar->addWidget(m_timestamps);
    //: Show the log's health and metrics polls (folded by default).
    m_polls = toolButton(tr("Polls"), QStringLiteral("logShowPolls"), this, true);
    m_polls->setToolTip(tr("Show the health and metrics polls: SGLang logs each one, and Flashdeck's monitor "
                           "asks every few seconds, so they are folded"));
    connect(m_polls, &QToolButton::toggled, this, [this](bool on) {
        m_model->setShowPolls(on);
        if (m_stream) {
            follow(m_stream, m_history); // again with the kept lines, now with (or without) the polls
        }
    });
    bar->addWidget(m_polls);
    auto *copy = toolButton(tr("Copy"), QStringLiteral("logCopy"), this);
    auto *save = toolButton(tr("Save…"), QStringLiteral("logSave"), this);
    copy->setToolTip(tr("Copy the selected lines (secrets redacted)"));
    save->setToolTip(tr("Save every line held to a file (secrets redacted)"));
    bar->addWidget(copy);
    bar->addWidget(save);
    connect(copy, &QToolButton::clicked, this, [this] { QApplication::clipboard()->setText(selectedText()); });
    connect(save, &QToolButton::clicked, this, &LogPanel::saveAs);
}

void LogPanel::buildView(QVBoxLayout *layout)
{
    // The log and the selected line's details.
    auto *split = new QSplitter(Qt::Horizontal, this);
    m_view->setObjectName(QStringLiteral("logView"));
    m_view->setAccessibleName(tr("Log lines"));
    m_view->setModel(m_model); // the filter joins only while a chip or 'only matching' asks for it
    m_view->setItemDelegate(new LogDelegate(m_view));
    m_view->setUniformItemSizes(true); // 200 000 rows: the view never measures them one by one
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_view->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    split->addWidget(m_view);
    m_details->setObjectName(QStringLiteral("logDetails"));
    m_details->setAccessibleName(tr("The selected line's meaning"));
    // A line of SGLang's log has tokens wider than the panel ("inference.dequant.nvfp4_to_fp8"): a
    // QLabel wraps at spaces only and clipped them; this breaks inside a token where it must, and
    // reads like the label it replaced (no frame, the window's colour, selectable, no links).
    m_details->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_details->setFrameShape(QFrame::NoFrame);
    m_details->setOpenLinks(false);
    m_details->viewport()->setAutoFillBackground(false);
    m_details->setMinimumWidth(160);
    split->addWidget(m_details);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
}

void LogPanel::buildFooter(QVBoxLayout *layout)
{
    auto *footer = new QHBoxLayout;
    m_status->setObjectName(QStringLiteral("logStatus"));
    m_status->setSizePolicy(QSizePolicy::Ignored,
                            QSizePolicy::Preferred); // a long container name never widens the window
    m_counts->setObjectName(QStringLiteral("logCounts"));
    m_counts->setEnabled(false);
    footer->addWidget(m_status, 1);
    footer->addWidget(m_counts);
    layout->addLayout(footer);
}

void LogPanel::wire()
{
    connect(m_follow, &QToolButton::toggled, this, [this](bool on) {
        if (on) {
            m_view->scrollToBottom();
        }
    });
    connect(m_pause, &QToolButton::toggled, this, &LogPanel::setPaused);
    connect(m_search, &QLineEdit::textChanged, this,
            [this] { setFilter(m_filter->shown(), m_onlyMatching->isChecked() ? m_search->text() : QString()); });
    connect(m_search, &QLineEdit::returnPressed, this, [this] { findNext(true); });
    connect(m_onlyMatching, &QCheckBox::toggled, this,
            [this](bool on) { setFilter(m_filter->shown(), on ? m_search->text() : QString()); });
    connect(m_timestamps, &QCheckBox::toggled, m_model, &LogModel::setShowTimestamps);
    connect(m_model, &LogModel::highlightsChanged, this, &LogPanel::updateBadges);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &LogPanel::updateDetails);
    // Scrolling up by hand stops following; back at the bottom, it follows again.
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        if (!m_autoScrolling) {
            m_follow->setChecked(value >= m_view->verticalScrollBar()->maximum());
        }
    });
    auto *copyShortcut = new QShortcut(QKeySequence::Copy, m_view);
    copyShortcut->setContext(Qt::WidgetShortcut);
    connect(copyShortcut, &QShortcut::activated, this, [this] { QApplication::clipboard()->setText(selectedText()); });
    auto *f3 = new QShortcut(QKeySequence::FindNext, this);
    f3->setContext(Qt::WidgetWithChildrenShortcut);
    connect(f3, &QShortcut::activated, this, [this] { findNext(true); });
    auto *shiftF3 = new QShortcut(QKeySequence::FindPrevious, this);
    shiftF3->setContext(Qt::WidgetWithChildrenShortcut);
    connect(shiftF3, &QShortcut::activated, this, [this] { findNext(false); });
    auto *find = new QShortcut(QKeySequence::Find, this);
    find->setContext(Qt::WidgetWithChildrenShortcut);
    connect(find, &QShortcut::activated, this, [this] {
        m_search->setFocus();
        m_search->selectAll();
    });
}

void LogPanel::appendRecords(const QList<logs::LogRecord> &records)
{
    if (m_pause->isChecked()) {
        m_held += records;
        if (m_held.size() > m_model->capacity()) { // the ring would drop them anyway
            m_held = m_held.mid(m_held.size() - m_model->capacity());
        }
        updateCounts();
        return;
    }
    m_model->appendRecords(records);
    if (m_follow->isChecked()) {
        m_autoScrolling = true;
        m_view->scrollToBottom();
        m_autoScrolling = false;
    }
    updateCounts();
}

void LogPanel::clear()
{
    m_held.clear();
    m_model->clear();
    updateCounts();
    updateDetails();
}

void LogPanel::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setToolTip(text);
}

LogPanel::~LogPanel()
{
    // Leave the stream before the widget goes: the last reader leaving stops it, and it says so.
    follow(nullptr, 0);
}

void LogPanel::follow(logs::SharedLog *log, qsizetype history)
{
    if (m_stream) {
        disconnect(m_stream, nullptr, this, nullptr);
    }
    delete m_subscription; // unsubscribes from the previous stream
    m_subscription = nullptr;
    m_stream = log;
    m_history = history;
    clear();
    if (!log) {
        return;
    }
    m_subscription = new QObject(this);
    connect(log, &logs::SharedLog::stateChanged, this, &LogPanel::updateStreamStatus);
    // A new container's start-up is judged on its own lines: the badges and the view start over.
    connect(log, &logs::SharedLog::restarted, this, [this] { clear(); });
    log->subscribe(m_subscription, history, [this](const QList<logs::LogRecord> &records) { appendRecords(records); });
    updateStreamStatus();
}

void LogPanel::updateStreamStatus()
{
    if (!m_stream) {
        return;
    }
    QString text = m_stream->stateText();
    if (m_stream->reconnects() > 0) {
        text += tr(" · resumed %n time(s) without losing or repeating a line", nullptr, m_stream->reconnects());
    }
    setStatus(text);
}

void LogPanel::setFollow(bool follow)
{
    m_follow->setChecked(follow);
}

bool LogPanel::follow() const
{
    return m_follow->isChecked();
}

void LogPanel::setPaused(bool paused)
{
    if (m_pause->isChecked() != paused) {
        m_pause->setChecked(paused); // comes back here through toggled
        return;
    }
    m_pause->setText(paused ? tr("Resume") : tr("Pause"));
    if (!paused && !m_held.isEmpty()) {
        const QList<logs::LogRecord> held = std::move(m_held);
        m_held.clear();
        appendRecords(held);
    }
    updateCounts();
}

bool LogPanel::paused() const
{
    return m_pause->isChecked();
}

int LogPanel::currentRow() const
{
    return m_view->currentIndex().isValid() ? m_view->currentIndex().row() : -1;
}

void LogPanel::selectRow(int proxyRow)
{
    const QModelIndex i = m_view->model()->index(proxyRow, 0);
    m_view->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect);
    m_autoScrolling = true;
    m_view->scrollTo(i, QAbstractItemView::PositionAtCenter);
    m_autoScrolling = false;
    m_follow->setChecked(false); // the operator is reading: stay here
}

bool LogPanel::nextHighlight(bool forward)
{
    const QAbstractItemModel *shown = m_view->model();
    const int rows = shown->rowCount();
    const int from = currentRow();
    for (int r = from < 0 ? (forward ? 0 : rows - 1) : from + (forward ? 1 : -1); r >= 0 && r < rows;
         r += forward ? 1 : -1) {
        const auto s = LogModel::Severity(shown->index(r, 0).data(LogModel::SeverityRole).toInt());
        if (s == LogModel::Severity::Ok || s == LogModel::Severity::Warn || s == LogModel::Severity::Error) {
            selectRow(r);
            return true;
        }
    }
    return false;
}

bool LogPanel::findNext(bool forward)
{
    const QString needle = m_search->text();
    const QAbstractItemModel *shown = m_view->model();
    const int rows = shown->rowCount();
    if (needle.isEmpty() || rows == 0) {
        return false;
    }
    const int from = currentRow();
    // Wraps around once, as a search box does.
    for (int step = 1; step <= rows; ++step) {
        const int r = ((from < 0 ? (forward ? -1 : rows) : from) + (forward ? step : -step) + rows * 2) % rows;
        if (shown->index(r, 0).data(LogModel::TextRole).toString().contains(needle, Qt::CaseInsensitive)) {
            selectRow(r);
            return true;
        }
    }
    return false;
}

void LogPanel::setSearch(const QString &text, bool onlyMatching)
{
    m_onlyMatching->setChecked(onlyMatching);
    m_search->setText(text);
}

QString LogPanel::selectedText() const
{
    QList<int> rows;
    for (const QModelIndex &i : m_view->selectionModel()->selectedIndexes()) {
        rows.append(m_view->model() == m_filter ? m_filter->mapToSource(i).row() : i.row());
    }
    std::sort(rows.begin(), rows.end());
    QStringList lines;
    for (int r : rows) {
        lines.append(m_model->exportLine(r));
    }
    return lines.join(QLatin1Char('\n'));
}

bool LogPanel::saveTo(const QString &path, QString *error) const
{
    QByteArray bytes;
    for (int r = 0; r < m_model->rowCount(); ++r) {
        bytes += m_model->exportLine(r).toUtf8();
        bytes += '\n';
    }
    // A full disk fails here and leaves the old file (if any) intact.
    if (const Status s = writeFileAtomically(path, bytes); !s) {
        *error = tr("Cannot write %1: %2.").arg(path, s.message());
        return false;
    }
    return true;
}

void LogPanel::saveAs()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save log"), QStringLiteral("sglang.log"),
                                                      tr("Log files (*.log *.txt);;All files (*)"));
    if (path.isEmpty()) {
        return;
    }
    QString error;
    setStatus(saveTo(path, &error)
                  ? tr("Saved %1 lines to %2 (secrets redacted).").arg(fmt::grouped(m_model->rowCount()), path)
                  : error);
}

void LogPanel::applyChips()
{
    unsigned mask = 0;
    for (QAbstractButton *b : m_chips->buttons()) {
        if (b->isChecked()) {
            mask |= b->property("mask").toUInt();
        }
    }
    if (mask == 0) {
        m_chips->button(0)->setChecked(true);
        mask = LogFilterModel::Everything;
    }
    setFilter(mask, m_filter->text());
}

void LogPanel::setFilter(unsigned shown, const QString &text)
{
    m_filter->setShown(shown);
    m_filter->setText(text);
    // Following 50 000 lines a second, a proxy model costs the GUI thread on every batch: the
    // view shows the model itself unless a filter is on (benchmarked in bench_logs).
    const bool filtering = shown != LogFilterModel::Everything || !text.isEmpty();
    QAbstractItemModel *want = filtering ? static_cast<QAbstractItemModel *>(m_filter) : m_model;
    if (m_view->model() == want) {
        return;
    }
    m_filter->setSourceModel(filtering ? m_model : nullptr);
    QItemSelectionModel *old = m_view->selectionModel();
    m_view->setModel(want);
    delete old; // setModel() leaves the old selection model to us
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &LogPanel::updateDetails);
    updateDetails();
    if (m_follow->isChecked()) {
        m_view->scrollToBottom();
    }
}

void LogPanel::setStartExpected(bool expected)
{
    if (expected == m_startExpected) {
        return; // asked at every status of the host: restyle only on a change
    }
    m_startExpected = expected;
    updateBadges();
}

void LogPanel::updateBadges()
{
    // No line at all and no start under way: nothing is starting (no deployment runs, or the host
    // is away; the status line says which), so the badges do not say "starting" or "waiting".
    m_badgesSayNoLog = hasNoLog();
    m_badges.show(m_model->highlights(), m_badgesSayNoLog);
}

void LogPanel::updateDetails()
{
    const QModelIndex i = m_view->currentIndex();
    if (!i.isValid()) {
        QString legend;
        const QList<std::pair<LogModel::Severity, QString>> rows{
            {LogModel::Severity::Ok, tr("milestone: ready, qmul4 fast path, DSpark draft loaded")},
            {LogModel::Severity::Warn, tr("warning: qmul4 slow fallback, a stalled health check")},
            {LogModel::Severity::Error, tr("error: out of memory, missing shard, crash, port taken, JIT disabled")},
            {LogModel::Severity::Info, tr("info: weights loading, KV pool, decode batches")},
        };
        for (const auto &[severity, text] : rows) {
            legend += QStringLiteral("<p><span style='color:%1'>■</span> %2</p>")
                          .arg(LogDelegate::stripeColor(int(severity)).name(), text.toHtmlEscaped());
        }
        m_details->setText(tr("<p>Select a line to read it in full; highlighted lines say what they mean and "
                              "what to do.</p>") +
                           legend);
        return;
    }
    QString html;
    const QString rule = i.data(LogModel::RuleIdRole).toString();
    if (!rule.isEmpty()) {
        const QColor c = LogDelegate::stripeColor(i.data(LogModel::SeverityRole).toInt());
        html += QStringLiteral("<p><b style='color:%1'>%2</b></p>").arg(c.name(), rule.toHtmlEscaped());
        html += QStringLiteral("<p>%1</p>").arg(i.data(LogModel::MeaningRole).toString().toHtmlEscaped());
        const QString fix = i.data(LogModel::FixRole).toString();
        if (!fix.isEmpty()) {
            html += tr("<p><b>What to do:</b> %1</p>").arg(fix.toHtmlEscaped());
        }
    }
    const QDateTime t = i.data(LogModel::TimeRole).toDateTime();
    if (t.isValid()) {
        html += QStringLiteral("<p><small>%1</small></p>").arg(t.toLocalTime().toString(Qt::ISODateWithMs));
    }
    html += QStringLiteral("<p style='font-family:monospace'>%1</p>")
                .arg(i.data(LogModel::TextRole).toString().toHtmlEscaped());
    m_details->setText(html);
}

bool LogPanel::hasNoLog() const
{
    // Folded polls are a server's own lines too: an idle server's log may hold nothing else.
    return m_model->total() == 0 && m_model->foldedPolls() == 0 && m_held.isEmpty() && !m_startExpected;
}

void LogPanel::updateCounts()
{
    if (hasNoLog() != m_badgesSayNoLog) {
        updateBadges(); // the first line (or poll) arrived, or the log was cleared
    }
    QString text = tr("%1 lines").arg(fmt::grouped(m_model->rowCount()));
    if (m_model->total() > m_model->rowCount()) {
        text += tr(" (last %1 of %2 kept)").arg(fmt::grouped(m_model->rowCount()), fmt::grouped(m_model->total()));
    }
    if (!m_held.isEmpty()) {
        text += tr(" · paused, %1 new").arg(fmt::grouped(m_held.size()));
    }
    if (m_model->foldedPolls() > 0) {
        text += tr(" · %1 polls folded").arg(fmt::grouped(m_model->foldedPolls()));
    }
    m_counts->setText(text);
}

} // namespace flashdeck::ui
