#pragma once

#include "backend/chat/chatcall.h"
#include "backend/chat/chatrequest.h"

#include <QList>
#include <QObject>
#include <QPointer>

namespace flashdeck::chat {

class ChatClient;

/** One exchange shown in the playground: the user's turn and the reply to it. */
struct ChatExchange
{
    ChatTurn user;
    QString reasoning;
    QString answer;
    bool running = false;
    std::optional<ChatResult> result; // once finished
    /** The server's KV use and queue when the reply finished (from the metrics store), if known. */
    std::optional<double> kvUsage;
    std::optional<qint64> queued;
};

/**
 * The playground's conversation (issue 8): a system prompt, the exchanges, and the reply in
 * flight. Sending builds the request from every finished exchange (answers only: reasoning is
 * never sent back) plus the new turn; Stop keeps the partial reply; an exchange can be edited
 * and sent again (everything after it is dropped) or regenerated. Exports as JSON or Markdown,
 * image data elided unless asked. Nothing of it is logged (F32).
 */
class ChatSession final : public QObject
{
    Q_OBJECT

public:
    explicit ChatSession(QObject *parent = nullptr);
    ~ChatSession() override;

    /** Where requests go; null: nowhere (send() then fails at once with `unavailableReason`). */
    void setClient(ChatClient *client, const QString &model, const QString &unavailableReason = {});
    QString model() const { return m_model; }

    QString systemPrompt;
    ChatParams params;

    const QList<ChatExchange> &exchanges() const { return m_exchanges; }
    bool busy() const
    {
        const ChatCall *call = m_call.data(); // one read of the QPointer (GCC -O3 -Wnull-dereference)
        return call != nullptr && !call->isFinished();
    }

    /** Starts a new exchange; false (nothing changed) while a reply is running or with no text. */
    bool send(const QString &text, const QList<ChatImage> &images = {});
    /** Sends exchange `index` again with new text; those after it are dropped. */
    bool editAndResend(int index, const QString &text);
    /** Asks again for the last reply. */
    bool regenerate();
    void stop();
    void clear();

    /** Records the server's KV use and queue when exchange `index` finished (the page reads the store). */
    void annotate(int index, std::optional<double> kvUsage, std::optional<qint64> queued);

    /** The request the next send of exchange `index` makes, for "Copy as curl". */
    QList<ChatTurn> turnsFor(int index) const;

    QByteArray exportJson(bool withImages = false) const;
    QString exportMarkdown(bool withImages = false) const;

Q_SIGNALS:
    /** Exchanges were added, removed or replaced. */
    void reset();
    /** Exchange `index` grew (reasoning or answer) or finished. */
    void exchangeChanged(int index);
    void replyFinished(int index, const flashdeck::chat::ChatResult &result);

private:
    void start(int index);

    QPointer<ChatClient> m_client;
    QString m_model;
    QString m_unavailable;
    QList<ChatExchange> m_exchanges;
    QPointer<ChatCall> m_call;
    int m_callIndex = -1;
};

} // namespace flashdeck::chat
