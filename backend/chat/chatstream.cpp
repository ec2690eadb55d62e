#include "backend/chat/chatstream.h"

#include "backend/core/jsonread.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

namespace flashdeck::chat {

namespace {

QString str(const nlohmann::json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

std::optional<ChatUsage> usageOf(const nlohmann::json &j)
{
    const auto it = j.find("usage");
    if (it == j.end() || !it->is_object()) {
        return std::nullopt;
    }
    // Counts from 0 to 10^12: anything else (a string, a float out of range) is not a count.
    constexpr qint64 kMax = 1'000'000'000'000;
    ChatUsage u;
    u.promptTokens = jsonread::integer(*it, "prompt_tokens", 0, kMax).value_or(0);
    u.completionTokens = jsonread::integer(*it, "completion_tokens", 0, kMax).value_or(0);
    // SGLang puts reasoning_tokens at the top of usage; OpenAI under completion_tokens_details.
    if (const auto top = jsonread::integer(*it, "reasoning_tokens", 0, kMax)) {
        u.reasoningTokens = top;
    } else if (const auto details = it->find("completion_tokens_details"); details != it->end()) {
        u.reasoningTokens = jsonread::integer(*details, "reasoning_tokens", 0, kMax);
    }
    return u;
}

QString errorOf(const nlohmann::json &j)
{
    const auto it = j.find("error");
    if (it == j.end()) {
        return jsonread::string(j, "object") == "error" ? str(j, "message") : QString();
    }
    if (it->is_string()) {
        return QString::fromStdString(it->get<std::string>());
    }
    if (it->is_object()) {
        const QString m = str(*it, "message");
        return m.isEmpty() ? QString::fromStdString(it->dump()) : m;
    }
    return QString();
}

void merge(ChatUpdate &into, const ThinkSplitter::Output &o)
{
    if (o.earlierContentWasReasoning) {
        into.earlierContentWasReasoning = true;
        into.reasoning = into.content + into.reasoning; // what this update held as answer, too
        into.content.clear();
    }
    into.reasoning += o.reasoning;
    into.content += o.content;
}

} // namespace

void ChatStreamDecoder::content(const QString &text, ChatUpdate &out)
{
    merge(out, m_splitter.feed(text));
}

void ChatStreamDecoder::chunk(const QByteArray &data, ChatUpdate &out)
{
    if (data.trimmed() == "[DONE]") {
        m_done = true;
        out.done = true;
        return;
    }
    const nlohmann::json j = jsonread::parse(data.constData(), data.constData() + data.size());
    if (!j.is_object()) {
        ++m_malformed;
        return;
    }
    if (const QString e = errorOf(j); !e.isEmpty()) {
        out.error = e;
        return;
    }
    if (auto u = usageOf(j)) {
        out.usage = u;
    }
    const auto choices = j.find("choices");
    if (choices == j.end() || !choices->is_array()) {
        return;
    }
    for (const nlohmann::json &c : *choices) {
        if (!c.is_object() || jsonread::integer(c, "index", 0, 1 << 20).value_or(0) != 0) {
            continue; // n > 1 is not asked for; only the first choice is shown
        }
        const nlohmann::json &d = c.contains("delta") ? c["delta"] : c.value("message", nlohmann::json::object());
        if (d.is_object()) {
            const QString reasoning = str(d, "reasoning_content");
            const QString text = str(d, "content");
            out.reasoning += reasoning;
            content(text, out);
            out.textChunks += reasoning.isEmpty() && text.isEmpty() ? 0 : 1;
        }
        if (c.contains("finish_reason") && c["finish_reason"].is_string()) {
            out.finishReason = QString::fromStdString(c["finish_reason"].get<std::string>());
        }
    }
}

ChatUpdate ChatStreamDecoder::feed(QByteArrayView bytes)
{
    ChatUpdate out;
    if (m_mode == Mode::Unknown) {
        qsizetype i = 0;
        while (i < bytes.size() && (bytes[i] == ' ' || bytes[i] == '\n' || bytes[i] == '\r' || bytes[i] == '\t')) {
            ++i;
        }
        if (i == bytes.size()) {
            if (m_body.size() < 4096) {
                m_body.append(bytes); // only blanks so far: decide later (endless blanks are dropped)
            }
            return out;
        }
        // A JSON answer is an object; '[' is JSON too (never SSE, whose lines start with a field name).
        m_mode = bytes[i] == '{' || bytes[i] == '[' ? Mode::Json : Mode::Sse;
        if (m_mode == Mode::Sse && !m_body.isEmpty()) {
            const QByteArray held = std::move(m_body);
            m_body.clear();
            for (const SseEvent &e : m_sse.feed(held)) {
                chunk(e.data, out);
            }
        }
    }
    if (m_mode == Mode::Json) {
        // A whole JSON answer is held until it ends: cap it, or a server sending an endless or
        // enormous body (a JSON bomb) would grow this process without bound (issue 9).
        if (m_body.size() + bytes.size() > kMaxJsonBody) {
            if (!m_tooBig) {
                m_tooBig = true;
                out.error = QCoreApplication::translate("Chat", "the answer is larger than %1 MiB; it was not read")
                                .arg(kMaxJsonBody >> 20);
            }
            return out;
        }
        m_body.append(bytes);
        return out;
    }
    for (const SseEvent &e : m_sse.feed(bytes)) {
        if (e.event == "error") {
            out.error = QString::fromUtf8(e.data);
            continue;
        }
        chunk(e.data, out);
    }
    return out;
}

ChatUpdate ChatStreamDecoder::finish()
{
    ChatUpdate out;
    if (m_mode == Mode::Json && !m_tooBig) {
        const int malformedBefore = m_malformed;
        chunk(m_body, out);
        m_body.clear();
        // Done only when the body was an answer: a body that does not parse (a nesting bomb,
        // truncated JSON) is no answer, not an empty one (issue 9).
        if (out.error.isEmpty() && m_malformed == malformedBefore) {
            m_done = true;
            out.done = true;
        }
    }
    merge(out, m_splitter.finish());
    return out;
}

} // namespace flashdeck::chat
