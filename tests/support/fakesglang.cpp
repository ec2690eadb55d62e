#include "fakesglang.h"

#include "tests/simhost/sglang/streamchunk.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace flashdeck::testing {

namespace {

using nlohmann::json;
using Delta = std::pair<const char *, std::string>; // field, text: one token each

/** `n` words of a reply, from the simulated server's vocabulary, the same for the same `seed`. */
std::string words(int n, int seed)
{
    static const char *const kVocab[] = {"the",     "model", "server", "runs",   "on",      "four",
                                         "GPUs",    "with",  "a",      "pinned", "image",   "and",
                                         "answers", "over",  "the",    "tunnel", "quickly", "today"};
    constexpr int kCount = int(std::size(kVocab));
    std::string out;
    for (int i = 0; i < n; ++i) {
        // Appended piece by piece: `" " + std::string(…)` trips GCC 12's -O3 -Wstringop-overflow
        // (a false positive in char_traits' copy), which -Werror turns into a failed release build.
        if (i > 0) {
            out += ' ';
        }
        out += kVocab[(i * 7 + seed * 5 + i / kCount) % kCount];
    }
    return out;
}

void split(std::vector<Delta> &into, const char *field, const std::string &text)
{
    for (std::size_t p = 0; p < text.size(); p += 12) {
        into.emplace_back(field, text.substr(p, 12));
    }
}

QByteArray sseEvent(const std::string &id, const json &delta, const json &finishReason)
{
    return QByteArray::fromStdString(sim::streamChunk(id, "MiniMaxAI/MiniMax-M3.1-Flash", delta, finishReason));
}

/** The prompt's characters, as the server counts them for usage (about 4 a token). */
std::size_t promptChars(const json &body)
{
    std::size_t n = 0;
    for (const json &m : body.value("messages", json::array())) {
        if (m.contains("content") && m["content"].is_string()) {
            n += m["content"].get_ref<const std::string &>().size();
        }
    }
    return n;
}

bool flag(const json &body, const char *key)
{
    const auto it = body.find(key);
    return it != body.end() && it->is_boolean() && it->get<bool>();
}

struct Reply
{
    std::vector<Delta> deltas;
    std::string finish = "stop";
    std::int64_t reasoningTokens = 0;
    json usage;
};

/** What the server generates for `body`, the `n`th request, as SGLang's scheduler would. */
Reply replyTo(const json &body, int n)
{
    Reply r;
    const bool thinking = !(body.contains("chat_template_kwargs") && body["chat_template_kwargs"].is_object() &&
                            body["chat_template_kwargs"].value("thinking_mode", std::string()) == "disabled");
    // 40 words of thought and 60 of answer (about 400 characters): long enough to stream for a
    // second at the default pace, and to stop well before the end.
    if (thinking) {
        split(r.deltas, "reasoning_content", std::string(FakeSglang::kReasoningStart) + " " + words(40, n) + ".");
    }
    r.reasoningTokens = std::int64_t(r.deltas.size());
    split(r.deltas, "content", words(60, n * 7) + ".");
    const auto maxTokens = body.find("max_tokens");
    if (maxTokens != body.end() && maxTokens->is_number_integer()) {
        const auto wanted = std::size_t(std::clamp<std::int64_t>(maxTokens->get<std::int64_t>(), 1, 1 << 20));
        while (flag(body, "ignore_eos") && r.deltas.size() < wanted) {
            r.deltas.emplace_back("content", " and so on"); // decoded past the end-of-sequence token
        }
        if (wanted < r.deltas.size()) {
            r.deltas.resize(wanted);
            r.finish = "length";
        }
    }
    r.reasoningTokens = std::min<std::int64_t>(r.reasoningTokens, std::int64_t(r.deltas.size()));
    const auto prompt = std::int64_t(promptChars(body) / 4);
    const auto completion = std::int64_t(r.deltas.size());
    r.usage = {{"prompt_tokens", prompt},
               {"completion_tokens", completion},
               {"total_tokens", prompt + completion},
               {"reasoning_tokens", r.reasoningTokens}};
    return r;
}

/** The reply as one chat.completion (a request without "stream"). */
QByteArray whole(const Reply &r, const std::string &id)
{
    std::string content;
    std::string thought;
    for (const auto &[field, text] : r.deltas) {
        (std::string(field) == "content" ? content : thought) += text;
    }
    const json message{{"role", "assistant"},
                       {"content", content.empty() ? json(nullptr) : json(content)},
                       {"reasoning_content", thought.empty() ? json(nullptr) : json(thought)}};
    return QByteArray::fromStdString(json{
        {"id", id},
        {"object", "chat.completion"},
        {"choices", json::array({{{"index", 0}, {"message", message}, {"finish_reason", r.finish}}})},
        {"usage", r.usage}}.dump());
}

/** The simulator's histogram (SimHistogram::text): cumulative buckets, then _sum and _count. */
QByteArray histogram(const QByteArray &name, const QByteArray &labels, const QList<double> &seconds)
{
    // SGLang's default TTFT buckets, as the simulator has them (SimHistogram::kBounds); copied, so
    // the fakes link no simulator.
    static constexpr double kBounds[] = {0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 2.0, 4.0, 6.0, 8.0, 10.0, 20.0, 40.0, 60.0};
    QByteArray out = "# TYPE " + name + " histogram\n";
    double sum = 0;
    for (const double s : seconds) {
        sum += s;
    }
    const auto upTo = [&seconds](double bound) {
        return std::count_if(seconds.cbegin(), seconds.cend(), [bound](double s) { return s <= bound; });
    };
    for (const double bound : kBounds) {
        out += name + "_bucket{" + labels + ",le=\"" + QByteArray::number(bound, 'f', 1) + "\"} " +
            QByteArray::number(qint64(upTo(bound))) + ".0\n";
    }
    out += name + "_bucket{" + labels + ",le=\"+Inf\"} " + QByteArray::number(seconds.size()) + ".0\n";
    out += name + "_sum{" + labels + "} " + QByteArray::number(sum, 'f', 6) + "\n";
    out += name + "_count{" + labels + "} " + QByteArray::number(seconds.size()) + ".0\n";
    return out;
}

} // namespace

QByteArray FakeSglang::metricsText(const Load &load)
{
    const QByteArray model = kModel;
    const QByteArray labels = "{model_name=\"" + model + "\",tp_rank=\"0\",dp_rank=\"0\"}";
    QByteArray out;
    const auto gauge = [&](const char *name, const QByteArray &value) {
        out += QByteArray("# TYPE sglang:") + name + " gauge\nsglang:" + name + labels + " " + value + "\n";
    };
    const double usage = load.maxTotalTokens > 0 ? double(load.usedTokens) / double(load.maxTotalTokens) : 0.0;
    gauge("token_usage", QByteArray::number(usage, 'f', 4));
    gauge("num_used_tokens", QByteArray::number(load.usedTokens));
    gauge("max_total_num_tokens", QByteArray::number(load.maxTotalTokens));
    gauge("num_running_reqs", QByteArray::number(load.running));
    gauge("num_queue_reqs", QByteArray::number(load.queued));
    gauge("gen_throughput", QByteArray::number(load.genThroughput, 'f', 2));
    gauge("cache_hit_rate", "0.0");
    gauge("spec_accept_length", QByteArray::number(load.specAcceptLength, 'f', 2));
    out += "# TYPE sglang:num_requests_total counter\nsglang:num_requests_total" + labels + " " +
        QByteArray::number(load.requestsTotal) + "\n";
    out += "# TYPE sglang:num_aborted_requests_total counter\nsglang:num_aborted_requests_total" + labels + " " +
        QByteArray::number(load.abortedTotal) + "\n";
    // Tokenizer metrics carry model_name only (sglang-facts §5).
    const QByteArray tokenizerLabels = "model_name=\"" + model + "\"";
    out += histogram("sglang:time_to_first_token_seconds", tokenizerLabels, load.ttftSeconds);
    out += histogram("sglang:e2e_request_latency_seconds", tokenizerLabels, load.e2eSeconds);
    return out;
}

void FakeSglang::setLoad(const Load &load)
{
    m_load = load;
}

FakeSglang::FakeSglang(QObject *parent)
    : QObject(parent)
{
    FakeHttpServer::Response health;
    health.contentType = "text/plain";
    m_http.on("GET", "/health", health);
    FakeHttpServer::Response metrics;
    metrics.contentType = "text/plain; version=0.0.4";
    metrics.body = "sglang:num_running_reqs{model_name=\"MiniMaxAI/MiniMax-M3.1-Flash\"} 0\n"
                   "sglang:num_queue_reqs{model_name=\"MiniMaxAI/MiniMax-M3.1-Flash\"} 0\n"
                   "sglang:token_usage{model_name=\"MiniMaxAI/MiniMax-M3.1-Flash\"} 0.01\n"
                   "sglang:gen_throughput{model_name=\"MiniMaxAI/MiniMax-M3.1-Flash\"} 0\n";
    m_http.on("GET", "/metrics", [this, metrics](const FakeHttpServer::Request &) {
        FakeHttpServer::Response now = metrics;
        if (m_load) {
            now.body = metricsText(*m_load);
        }
        return now;
    });
    m_http.on("POST", "/v1/chat/completions", [this](const FakeHttpServer::Request &r) { return chat(r); });
}

FakeHttpServer::Response FakeSglang::chat(const FakeHttpServer::Request &request)
{
    FakeHttpServer::Response res;
    const json body =
        json::parse(request.body.constData(), request.body.constData() + request.body.size(), nullptr, false);
    if (!body.is_object()) {
        res.status = 400;
        res.body = R"({"object":"error","message":"invalid JSON","type":"BadRequestError","param":null,"code":400})";
        return res;
    }
    const int n = ++m_replies;
    const std::string id = "chatcmpl-" + std::to_string(n);
    const Reply reply = replyTo(body, n);
    if (!flag(body, "stream")) {
        res.body = whole(reply, id);
        return res;
    }
    // The role first, with the head; then one delta every tokenMs(), the finish, usage, [DONE].
    res.contentType = "text/event-stream; charset=utf-8";
    res.paceMs = m_tokenMs;
    res.body = sseEvent(id, {{"role", "assistant"}, {"content", ""}, {"reasoning_content", nullptr}}, nullptr);
    int answered = 0;
    for (const auto &[field, text] : reply.deltas) {
        res.paced.append(sseEvent(id, {{field, text}}, nullptr));
        answered += std::string(field) == "content" ? 1 : 0;
        if (m_holdAfter >= 0 && answered >= m_holdAfter) {
            res.holdOpen = true; // caught mid-answer: silent until the client goes
            m_holdAfter = -1;
            return res;
        }
    }
    res.paced.append(sseEvent(id, json::object(), reply.finish));
    const auto options = body.find("stream_options");
    if (options != body.end() && flag(*options, "include_usage")) {
        const json usage{
            {"id", id}, {"object", "chat.completion.chunk"}, {"choices", json::array()}, {"usage", reply.usage}};
        res.paced.append("data: " + QByteArray::fromStdString(usage.dump()) + "\n\n");
    }
    res.paced.append("data: [DONE]\n\n");
    return res;
}

} // namespace flashdeck::testing
