#pragma once

#include "fakehttpserver.h"

#include <QObject>

namespace flashdeck::testing {

/**
 * An SGLang server as the Playground meets it, on a FakeHttpServer, for the far end of a
 * FakeTransport tunnel: POST /v1/chat/completions streams as SGLang's OpenAI-compatible API
 * does with a reasoning parser (tests/simhost/sglang/sglangsim.cpp): SSE `data:` chunks of
 * chat.completion.chunk, the role first, reasoning_content deltas, content deltas (12
 * characters, one token each), a chunk with finish_reason, usage when stream_options asks,
 * then `data: [DONE]`, one delta every tokenMs(). Thinking off (chat_template_kwargs) leaves the
 * reasoning out; max_tokens cuts the reply ("length"), ignore_eos pads it to max_tokens. Also
 * /health (200) and /metrics (a few of sglang:'s gauges) for the samplers. No API key is
 * checked: the Playground's manual port has none.
 */
class FakeSglang final : public QObject
{
    Q_OBJECT

public:
    /** How every reply with thinking on begins. */
    static constexpr const char *kReasoningStart = "The user asks a question.";

    explicit FakeSglang(QObject *parent = nullptr);

    /** The local port its tunnels lead to (FakeTransport::route). */
    quint16 port() const { return m_http.port(); }
    FakeHttpServer &http() { return m_http; }
    /** The pace of the stream: one delta every `ms` (20 by default). */
    void setTokenMs(int ms) { m_tokenMs = ms; }
    int tokenMs() const { return m_tokenMs; }
    /**
     * The next streamed reply stops after `answerTokens` content deltas and stays open, silent,
     * until the client goes (Stop): a reply caught mid-answer, whatever the machine's speed.
     */
    void holdNextAfter(int answerTokens) { m_holdAfter = answerTokens; }
    /** How many chat completions were asked for. */
    int chatRequests() const { return m_http.count("POST", "/v1/chat/completions"); }

private:
    FakeHttpServer::Response chat(const FakeHttpServer::Request &request);

    FakeHttpServer m_http;
    int m_tokenMs = 20;
    int m_holdAfter = -1;
    int m_replies = 0;
};

} // namespace flashdeck::testing
