#include "backend/chat/chatsession.h"

#include "backend/chat/chatclient.h"

#include <QDateTime>

#include <nlohmann/json.hpp>

namespace flashdeck::chat {

ChatSession::ChatSession(QObject *parent)
    : QObject(parent)
{ }

ChatSession::~ChatSession()
{
    if (m_call) {
        m_call->disconnect(this);
        m_call->stop();
    }
}

void ChatSession::setClient(ChatClient *client, const QString &model, const QString &unavailableReason)
{
    stop();
    m_client = client;
    m_model = model;
    m_unavailable = unavailableReason;
}

QList<ChatTurn> ChatSession::turnsFor(int index) const
{
    QList<ChatTurn> turns;
    if (!systemPrompt.trimmed().isEmpty()) {
        turns.append({QStringLiteral("system"), systemPrompt, {}, {}});
    }
    for (int i = 0; i < index && i < m_exchanges.size(); ++i) {
        const ChatExchange &e = m_exchanges[i];
        turns.append(e.user);
        if (!e.answer.isEmpty()) {
            turns.append({QStringLiteral("assistant"), e.answer, {}, {}});
        }
    }
    if (index >= 0 && index < m_exchanges.size()) {
        turns.append(m_exchanges[index].user);
    }
    return turns;
}

bool ChatSession::send(const QString &text, const QList<ChatImage> &images)
{
    if (busy() || (text.trimmed().isEmpty() && images.isEmpty())) {
        return false;
    }
    ChatExchange e;
    e.user = {QStringLiteral("user"), text, {}, images};
    m_exchanges.append(e);
    Q_EMIT reset();
    start(int(m_exchanges.size()) - 1);
    return true;
}

bool ChatSession::editAndResend(int index, const QString &text)
{
    if (busy() || index < 0 || index >= m_exchanges.size() || text.trimmed().isEmpty()) {
        return false;
    }
    m_exchanges.resize(index + 1);
    ChatExchange &e = m_exchanges[index];
    e.user.content = text;
    e.reasoning.clear();
    e.answer.clear();
    e.result.reset();
    Q_EMIT reset();
    start(index);
    return true;
}

bool ChatSession::regenerate()
{
    if (busy() || m_exchanges.isEmpty()) {
        return false;
    }
    return editAndResend(int(m_exchanges.size()) - 1, m_exchanges.last().user.content);
}

void ChatSession::stop()
{
    if (ChatCall *call = m_call.data(); call != nullptr && !call->isFinished()) {
        call->stop();
    }
}

void ChatSession::clear()
{
    if (m_call) {
        m_call->disconnect(this);
        m_call->stop();
        m_call.clear();
    }
    m_exchanges.clear();
    Q_EMIT reset();
}

void ChatSession::start(int index)
{
    ChatExchange &e = m_exchanges[index];
    e.running = true;
    e.reasoning.clear();
    e.answer.clear();
    e.result.reset();
    if (!m_client) {
        ChatResult r;
        r.outcome = ChatResult::Outcome::Failed;
        r.error = m_unavailable.isEmpty() ? tr("Choose a host with a deployment first.") : m_unavailable;
        e.running = false;
        e.result = r;
        Q_EMIT exchangeChanged(index);
        Q_EMIT replyFinished(index, r);
        return;
    }
    m_callIndex = index;
    m_call = m_client->send(buildChatBody(turnsFor(index), params, m_model), params.thinking);
    connect(m_call, &ChatCall::updated, this, [this](const ChatUpdate &u) {
        if (m_callIndex < 0 || m_callIndex >= m_exchanges.size()) {
            return;
        }
        ChatExchange &x = m_exchanges[m_callIndex];
        if (u.earlierContentWasReasoning) {
            x.reasoning += x.answer;
            x.answer.clear();
        }
        x.reasoning += u.reasoning;
        x.answer += u.content;
        Q_EMIT exchangeChanged(m_callIndex);
    });
    connect(m_call, &ChatCall::finished, this, [this](const ChatResult &r) {
        const int i = m_callIndex;
        m_callIndex = -1;
        if (i < 0 || i >= m_exchanges.size()) {
            return;
        }
        m_exchanges[i].running = false;
        m_exchanges[i].result = r;
        Q_EMIT exchangeChanged(i);
        Q_EMIT replyFinished(i, r);
    });
}

void ChatSession::annotate(int index, std::optional<double> kvUsage, std::optional<qint64> queued)
{
    if (index >= 0 && index < m_exchanges.size()) {
        m_exchanges[index].kvUsage = kvUsage;
        m_exchanges[index].queued = queued;
        Q_EMIT exchangeChanged(index);
    }
}

QByteArray ChatSession::exportJson(bool withImages) const
{
    using nlohmann::json;
    json out{{"model", m_model.toStdString()},
             {"exported", QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString()},
             {"system", systemPrompt.toStdString()},
             {"params",
              {{"temperature", params.temperature},
               {"top_p", params.topP},
               {"max_tokens", params.maxTokens ? json(*params.maxTokens) : json(nullptr)},
               {"thinking", params.thinking}}}};
    json exchanges = json::array();
    for (const ChatExchange &e : m_exchanges) {
        json images = json::array();
        for (const ChatImage &img : e.user.images) {
            images.push_back({{"name", img.label.toStdString()},
                              {"type", img.mimeType.toStdString()},
                              {"bytes", img.bytes.size()},
                              {"data",
                               withImages ? json("data:" + img.mimeType.toStdString() + ";base64," +
                                                 img.bytes.toBase64().toStdString())
                                          : json(nullptr)}});
        }
        json x{{"user", e.user.content.toStdString()},
               {"images", images},
               {"reasoning", e.reasoning.toStdString()},
               {"answer", e.answer.toStdString()}};
        if (e.result) {
            const ChatStats &s = e.result->stats;
            x["stats"] = {{"ttft_ms", s.ttftMs < 0 ? json(nullptr) : json(s.ttftMs)},
                          {"tokens_per_s", s.tokensPerSecond},
                          {"completion_tokens", s.completionTokens < 0 ? json(nullptr) : json(s.completionTokens)},
                          {"reasoning_tokens", s.reasoningTokens < 0 ? json(nullptr) : json(s.reasoningTokens)},
                          {"finish_reason", s.finishReason.toStdString()},
                          {"outcome",
                           e.result->outcome == ChatResult::Outcome::Completed     ? "completed"
                               : e.result->outcome == ChatResult::Outcome::Stopped ? "stopped"
                                                                                   : "failed"},
                          {"error", e.result->error.toStdString()}};
        }
        exchanges.push_back(x);
    }
    out["exchanges"] = exchanges;
    return QByteArray::fromStdString(out.dump(2));
}

QString ChatSession::exportMarkdown(bool withImages) const
{
    QString md = QStringLiteral("# Conversation with %1\n\n").arg(m_model);
    if (!systemPrompt.trimmed().isEmpty()) {
        md += QStringLiteral("**System:** %1\n\n").arg(systemPrompt.trimmed());
    }
    for (const ChatExchange &e : m_exchanges) {
        md += QStringLiteral("## User\n\n%1\n\n").arg(e.user.content);
        for (const ChatImage &img : e.user.images) {
            md += withImages ? QStringLiteral("![%1](data:%2;base64,%3)\n\n")
                                   .arg(img.label, img.mimeType, QString::fromLatin1(img.bytes.toBase64()))
                             : QStringLiteral("*[image %1, %2 bytes]*\n\n").arg(img.label).arg(img.bytes.size());
        }
        if (!e.reasoning.isEmpty()) {
            md += QStringLiteral("<details><summary>Reasoning</summary>\n\n%1\n\n</details>\n\n").arg(e.reasoning);
        }
        md += QStringLiteral("## Assistant\n\n%1\n\n").arg(e.answer);
        if (e.result && e.result->stats.ttftMs >= 0) {
            md += QStringLiteral("*first token %1 ms · %2 tokens/s · %3*\n\n")
                      .arg(e.result->stats.ttftMs)
                      .arg(e.result->stats.tokensPerSecond, 0, 'f', 1)
                      .arg(e.result->stats.finishReason.isEmpty() ? QStringLiteral("unfinished")
                                                                  : e.result->stats.finishReason);
        }
    }
    return md;
}

} // namespace flashdeck::chat
