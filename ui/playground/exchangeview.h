#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QToolButton;

namespace flashdeck::chat {
struct ChatExchange;
}

namespace flashdeck::ui {

/**
 * One exchange of the playground: the user's turn (with Edit), a collapsible Reasoning pane
 * that streams live, the answer, and the reply's figures or its error.
 */
class ExchangeView final : public QWidget
{
    Q_OBJECT

public:
    ExchangeView(int index, QWidget *parent = nullptr);

    void show(const chat::ChatExchange &exchange);
    int index() const { return m_index; }
    /** The Reasoning pane's title: the server's token count once the reply is done, words before. */
    [[nodiscard]] static QString reasoningTitle(const chat::ChatExchange &exchange);

Q_SIGNALS:
    void editRequested(int index);

private:
    void setReasoningOpen(bool open);
    /** The reasoning trace and its toggle: open while it streams unless the operator chose. */
    void showReasoning(const chat::ChatExchange &e);
    /** The stats line below the answer: speed, tokens, finish, and what went wrong, in colour. */
    void showStats(const chat::ChatExchange &e);

    int m_index;
    QLabel *m_user;
    QToolButton *m_edit;
    QToolButton *m_reasoningToggle;
    QPlainTextEdit *m_reasoning;
    QLabel *m_answer;
    QLabel *m_stats;
    bool m_userToggled = false;
    bool m_wasRunning = false;
};

} // namespace flashdeck::ui
