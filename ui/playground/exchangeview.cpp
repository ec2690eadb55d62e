#include "ui/playground/exchangeview.h"

#include "backend/chat/chatsession.h"
#include "backend/core/format.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace flashdeck::ui {

ExchangeView::ExchangeView(int index, QWidget *parent)
    : QWidget(parent)
    , m_index(index)
    , m_user(new QLabel(this))
    , m_edit(new QToolButton(this))
    , m_reasoningToggle(new QToolButton(this))
    , m_reasoning(new QPlainTextEdit(this))
    , m_answer(new QLabel(this))
    , m_stats(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 6, 4, 10);
    layout->setSpacing(4);

    auto *userRow = new QHBoxLayout;
    m_user->setObjectName(QStringLiteral("userTurn"));
    m_user->setWordWrap(true);
    m_user->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_user->setTextFormat(Qt::PlainText);
    // A bubble in the palette's alternate base: reads in light and dark themes alike.
    m_user->setAutoFillBackground(true);
    m_user->setBackgroundRole(QPalette::AlternateBase);
    m_user->setMargin(8);
    m_edit->setObjectName(QStringLiteral("editTurn"));
    m_edit->setText(tr("Edit"));
    m_edit->setToolTip(tr("Change this message and send it again (the replies after it are dropped)"));
    m_edit->setAutoRaise(true);
    connect(m_edit, &QToolButton::clicked, this, [this] { Q_EMIT editRequested(m_index); });
    userRow->addWidget(m_user, 1);
    userRow->addWidget(m_edit, 0, Qt::AlignTop);
    layout->addLayout(userRow);

    m_reasoningToggle->setObjectName(QStringLiteral("reasoningToggle"));
    m_reasoningToggle->setAutoRaise(true);
    m_reasoningToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_reasoningToggle->setArrowType(Qt::DownArrow);
    connect(m_reasoningToggle, &QToolButton::clicked, this, [this] {
        m_userToggled = true;
        setReasoningOpen(!m_reasoning->isVisible());
    });
    layout->addWidget(m_reasoningToggle, 0, Qt::AlignLeft);
    m_reasoning->setObjectName(QStringLiteral("reasoningPane"));
    m_reasoning->setReadOnly(true);
    m_reasoning->setFrameShape(QFrame::NoFrame);
    QPalette dim = m_reasoning->palette();
    dim.setColor(QPalette::Text, dim.color(QPalette::PlaceholderText));
    dim.setColor(QPalette::Base, dim.color(QPalette::Window));
    m_reasoning->setPalette(dim);
    QFont italic = m_reasoning->font();
    italic.setItalic(true);
    m_reasoning->setFont(italic);
    layout->addWidget(m_reasoning);

    m_answer->setObjectName(QStringLiteral("answerPane"));
    m_answer->setWordWrap(true);
    m_answer->setTextFormat(Qt::PlainText);
    m_answer->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_answer);
    m_stats->setObjectName(QStringLiteral("replyStats"));
    m_stats->setWordWrap(true);
    QFont small = m_stats->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_stats->setFont(small);
    layout->addWidget(m_stats);
}

void ExchangeView::setReasoningOpen(bool open)
{
    m_reasoning->setVisible(open);
    m_reasoningToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
}

QString ExchangeView::reasoningTitle(const chat::ChatExchange &e)
{
    // The server's count once it gave one (usage.reasoning_tokens): "175 words" beside 76 reasoning
    // tokens in the stats line read as two different traces. Words only while it streams (no count
    // yet) or when the server reports none, and said to be words.
    if (!e.running && e.result && e.result->stats.reasoningTokens >= 0) {
        return tr("Reasoning (%1 tokens)").arg(fmt::grouped(e.result->stats.reasoningTokens));
    }
    const qsizetype words = e.reasoning.split(QLatin1Char(' '), Qt::SkipEmptyParts).size();
    if (e.running && e.answer.isEmpty()) {
        return tr("Reasoning… (%1 words so far)").arg(fmt::grouped(words));
    }
    return tr("Reasoning (%1 words)").arg(fmt::grouped(words));
}

void ExchangeView::show(const chat::ChatExchange &e)
{
    QString user = e.user.content;
    for (const chat::ChatImage &img : e.user.images) {
        user += QStringLiteral("\n[image: %1, %2 kB]").arg(img.label).arg((img.bytes.size() + 1023) / 1024);
    }
    m_user->setText(user);
    m_edit->setEnabled(!e.running);

    showReasoning(e);
    m_answer->setText(e.answer.isEmpty() && e.running ? tr("…") : e.answer);
    showStats(e);
    m_wasRunning = e.running;
}

void ExchangeView::showReasoning(const chat::ChatExchange &e)
{
    const bool hasReasoning = !e.reasoning.isEmpty();
    m_reasoningToggle->setVisible(hasReasoning);
    m_reasoningToggle->setText(reasoningTitle(e));
    if (m_reasoning->toPlainText() != e.reasoning) {
        // Appending keeps the scroll position and is cheap while a long trace streams in.
        const QString shown = m_reasoning->toPlainText();
        if (e.reasoning.startsWith(shown) && !shown.isEmpty()) {
            m_reasoning->moveCursor(QTextCursor::End);
            m_reasoning->insertPlainText(e.reasoning.mid(shown.size()));
        } else {
            m_reasoning->setPlainText(e.reasoning);
        }
        // As tall as its text, up to ten lines; longer traces scroll inside the pane.
        const int lines = std::max(1, int(m_reasoning->document()->size().height()));
        m_reasoning->setFixedHeight(std::min(10, lines) * m_reasoning->fontMetrics().lineSpacing() + 12);
        m_reasoning->verticalScrollBar()->setValue(m_reasoning->verticalScrollBar()->maximum());
    }
    if (!m_userToggled) {
        // Open while it streams, folded away once the answer is done.
        setReasoningOpen(hasReasoning && (e.running || !e.result));
    } else {
        m_reasoning->setVisible(m_reasoning->isVisible() && hasReasoning);
    }
}

void ExchangeView::showStats(const chat::ChatExchange &e)
{
    QStringList parts;
    QString colour;
    if (e.running) {
        parts << tr("streaming…");
    } else if (e.result) {
        const chat::ChatStats &s = e.result->stats;
        if (s.ttftMs >= 0) {
            parts << tr("first token %1 ms").arg(s.ttftMs);
        }
        if (s.tokensPerSecond > 0) {
            parts << tr("%1 tokens/s%2")
                         .arg(s.tokensPerSecond, 0, 'f', 1)
                         .arg(s.tokensCounted ? tr(" (counted)") : QString());
        }
        if (s.completionTokens >= 0) {
            parts << (s.reasoningTokens >= 0 ? tr("%1 tokens: %2 reasoning, %3 answer")
                                                   .arg(s.completionTokens)
                                                   .arg(s.reasoningTokens)
                                                   .arg(s.completionTokens - s.reasoningTokens)
                                             : tr("%1 tokens").arg(s.completionTokens));
        }
        if (!s.finishReason.isEmpty()) {
            parts << tr("finish: %1").arg(s.finishReason);
        }
        if (e.kvUsage) {
            parts << tr("KV %1 %").arg(*e.kvUsage * 100, 0, 'f', 1);
        }
        if (e.queued) {
            parts << tr("%1 queued").arg(*e.queued);
        }
        if (e.result->outcome == chat::ChatResult::Outcome::Stopped) {
            parts << tr("stopped — the partial answer is kept");
        }
        if (e.result->thinkingIgnored) {
            parts << tr("thinking was off, yet the server returned reasoning");
            colour = QStringLiteral("#b26b00");
        }
        if (e.result->outcome == chat::ChatResult::Outcome::Failed) {
            parts.prepend(e.result->error);
            colour = QStringLiteral("#c62828");
        }
    }
    m_stats->setText(parts.join(QStringLiteral(" · ")));
    QPalette pal = palette();
    pal.setColor(QPalette::WindowText, colour.isEmpty() ? pal.color(QPalette::PlaceholderText) : QColor(colour));
    m_stats->setPalette(pal);
}

} // namespace flashdeck::ui
