#pragma once

#include "fakehttpserver.h"

#include <QList>
#include <QObject>

#include <optional>

namespace flashdeck::testing {

/**
 * An SGLang server as the Playground meets it, on a FakeHttpServer, for the far end of a
 * FakeTransport tunnel: POST /v1/chat/completions streams as SGLang's OpenAI-compatible API
 * does with a reasoning parser (tests/simhost/sglang/sglangsim.cpp): SSE `data:` chunks of
 * chat.completion.chunk, the role first, reasoning_content deltas, content deltas (12
 * characters, one token each), a chunk with finish_reason, usage when stream_options asks,
 * then `data: [DONE]`, one delta every tokenMs(). Thinking off (chat_template_kwargs) leaves the
 * reasoning out; max_tokens cuts the reply ("length"), ignore_eos pads it to max_tokens. Also
 * /health (200) and /metrics (a few of sglang:'s gauges) for the samplers, or, once a test
 * gives it a load (setLoad), the simulated server's whole /metrics for that load. No API key is
 * checked: the Playground's manual port has none.
 */
class FakeSglang final : public QObject
{
    Q_OBJECT

public:
    /** How every reply with thinking on begins. */
    static constexpr const char *kReasoningStart = "The user asks a question.";

    /**
     * What the server is doing, as /metrics reports it once set: the simulated server's text
     * (tests/simhost/sglang/sglangsim.cpp, metricsText()): its gauges with tp_rank and dp_rank
     * labels, the request counters, and the TTFT and end-to-end histograms with its buckets.
     */
    struct Load
    {
        int running = 0;
        int queued = 0;
        qint64 usedTokens = 0;
        qint64 maxTotalTokens = 0;
        double genThroughput = 0;
        double specAcceptLength = 0;
        qint64 requestsTotal = 0;
        qint64 abortedTotal = 0;
        /** Each finished request's time to first token and end-to-end latency, in seconds. */
        QList<double> ttftSeconds;
        QList<double> e2eSeconds;
    };
    /** The model SGLang serves, as its metrics' model_name label says. */
    static constexpr const char *kModel = "MiniMaxAI/MiniMax-M3.1-Flash";

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
    /** /metrics reports `load` from now on (each scrape reads the latest). */
    void setLoad(const Load &load);
    /** The text /metrics answers for `load`. */
    static QByteArray metricsText(const Load &load);
    /** How many chat completions were asked for. */
    int chatRequests() const { return m_http.count("POST", "/v1/chat/completions"); }

private:
    FakeHttpServer::Response chat(const FakeHttpServer::Request &request);

    FakeHttpServer m_http;
    int m_tokenMs = 20;
    int m_holdAfter = -1;
    std::optional<Load> m_load;
    int m_replies = 0;
};

} // namespace flashdeck::testing
