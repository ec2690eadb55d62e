#pragma once

#include "backend/chat/sseparser.h"
#include "backend/chat/thinksplitter.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace flashdeck::chat {

/** Token counts from the server's `usage` (absent unless it sent them). */
struct ChatUsage
{
    qint64 promptTokens = 0;
    qint64 completionTokens = 0;
    std::optional<qint64> reasoningTokens;
};

/** What a piece of the reply added. */
struct ChatUpdate
{
    QString reasoning;
    QString content;
    /** Inline reasoning opened without a tag: the answer shown so far was reasoning (ThinkSplitter). */
    bool earlierContentWasReasoning = false;
    QString finishReason; // set once, on the last choice chunk
    std::optional<ChatUsage> usage;
    QString error; // the server's own message, when it sent an error object
    bool done = false; // [DONE], or the whole non-streamed body
    int textChunks = 0; // chunks that carried text (about one token each in SGLang's stream)
};

/**
 * Turns the bytes of a chat completion into updates, whether the server streamed it (SSE
 * `data:` chunks, `[DONE]`) or ignored `stream` and answered with one JSON body — decided by
 * the first non-blank byte. Reasoning arrives as `reasoning_content`, or inline in `content`
 * between think tags, which ThinkSplitter separates. Malformed chunks are counted and skipped,
 * never fatal: the reply so far is kept.
 */
class ChatStreamDecoder final
{
public:
    ChatUpdate feed(QByteArrayView bytes);
    /** The connection ended: anything held back (a partial tag; a whole non-streamed body). */
    ChatUpdate finish();

    bool sawDone() const { return m_done; }
    bool streamed() const { return m_mode == Mode::Sse; }
    int malformedChunks() const { return m_malformed; }
    /** True when reasoning came inline in `content` (no reasoning parser on the server). */
    bool inlineReasoning() const { return m_splitter.sawTags(); }

private:
    enum class Mode { Unknown, Sse, Json };
    static constexpr qsizetype kMaxJsonBody = 64 * 1024 * 1024;
    void chunk(const QByteArray &data, ChatUpdate &out);
    void content(const QString &text, ChatUpdate &out);

    Mode m_mode = Mode::Unknown;
    SseParser m_sse;
    ThinkSplitter m_splitter;
    QByteArray m_body; // non-streamed: the whole body
    bool m_done = false;
    int m_malformed = 0;
    bool m_tooBig = false;
};

} // namespace flashdeck::chat
