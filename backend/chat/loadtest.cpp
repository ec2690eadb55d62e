#include "backend/chat/loadtest.h"

#include "backend/chat/chatcall.h"
#include "backend/chat/chatclient.h"
#include "backend/chat/chatrequest.h"
#include "backend/recipe/recipetexts.h"

#include <QCoreApplication>
#include <QMap>
#include <QRandomGenerator>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace flashdeck::chat {

namespace {

template<typename T>
std::optional<double> percentile(QList<T> values, double p)
{
    if (values.isEmpty()) {
        return std::nullopt;
    }
    std::sort(values.begin(), values.end());
    const qsizetype i = std::min<qsizetype>(values.size() - 1, qsizetype(p * double(values.size() - 1) + 0.5));
    return double(values[i]);
}

nlohmann::json opt(const std::optional<double> &v)
{
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

} // namespace

LoadTest::LoadTest(ChatClient &client, LoadTestConfig config, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_config(std::move(config))
    , m_ticker(new QTimer(this))
{
    m_ticker->setInterval(1000);
    connect(m_ticker, &QTimer::timeout, this, &LoadTest::tick);
    m_nonce = QRandomGenerator::global()->generate64();
}

LoadTest::~LoadTest()
{
    for (ChatCall *c : std::as_const(m_inFlight)) {
        c->disconnect(this);
        c->stop();
    }
}

QString LoadTest::syntheticPrompt(int tokens, quint64 nonce)
{
    static const char *const words[] = {"the", "cat", "sat", "on",   "a",  "mat", "and", "we",    "saw", "it", "run",
                                        "to",  "the", "red", "door", "of", "an",  "old", "house", "by",  "sea"};
    QString out = QStringLiteral("[%1] ").arg(nonce, 16, 16, QLatin1Char('0'));
    const int n = std::max(1, tokens - 8); // the nonce and the chat template take a few
    for (int i = 0; i < n; ++i) {
        out += QLatin1String(words[i % int(std::size(words))]);
        out += QLatin1Char(' ');
    }
    return out + QStringLiteral("Repeat the story.");
}

void LoadTest::start()
{
    if (m_running) {
        return;
    }
    m_running = true;
    m_clock.start();
    m_ticker->start();
    for (int i = 0; i < m_config.concurrency; ++i) {
        launch();
    }
}

void LoadTest::launch()
{
    const int index = int(m_requests.size());
    LoadTestRequest r;
    r.startS = double(m_clock.elapsed()) / 1000.0;
    m_requests.append(r);
    ChatParams params;
    params.maxTokens = m_config.outputTokens;
    params.ignoreEos = true;
    params.thinking = m_config.thinking;
    const QList<ChatTurn> turns{
        {QStringLiteral("user"), syntheticPrompt(m_config.promptTokens, m_nonce + quint64(index)), {}, {}}};
    ChatCall *call = m_client.send(buildChatBody(turns, params, m_config.model), params.thinking);
    m_inFlight.append(call);
    connect(call, &ChatCall::finished, this, [this, index, call](const ChatResult &result) {
        m_inFlight.removeOne(call);
        call->deleteLater();
        onFinished(index, result);
    });
}

void LoadTest::onFinished(int request, const ChatResult &result)
{
    LoadTestRequest &r = m_requests[request];
    r.ttftMs = result.stats.ttftMs;
    r.totalMs = result.stats.totalMs;
    r.completionTokens = result.stats.completionTokens >= 0 ? result.stats.completionTokens : result.stats.chunks;
    r.outcome = result.outcome == ChatResult::Outcome::Completed ? QStringLiteral("completed")
        : result.outcome == ChatResult::Outcome::Stopped         ? QStringLiteral("stopped")
                                                                 : QStringLiteral("failed");
    r.error = result.error;
    // A wrong key fails every request the same way: after a handful in a row, stop and say so,
    // in the server's words, instead of hammering it for the rest of the run.
    m_unauthorizedInARow = result.httpStatus == 401 ? m_unauthorizedInARow + 1 : 0;
    if (m_unauthorizedInARow >= kUnauthorizedStop && m_aborted.isEmpty()) {
        m_aborted = QCoreApplication::translate(
                        "Chat",
                        "Stopped after %1 requests in a row were refused with HTTP 401 (%2): the API key is "
                        "wrong for this server. Check the deployment's key (the keyring, "
                        "$SGLANG_API_KEY, or the server's --api-key).")
                        .arg(kUnauthorizedStop)
                        .arg(result.error);
        stop();
        return;
    }
    if (result.outcome == ChatResult::Outcome::Completed) {
        for (const float gap : result.stats.gapsMs) {
            ++m_gapsSeen;
            if (m_gaps.size() < kMaxGapSamples) {
                m_gaps.append(gap);
                continue;
            }
            // xorshift64*: deterministic, no global RNG state.
            m_sampler ^= m_sampler >> 12;
            m_sampler ^= m_sampler << 25;
            m_sampler ^= m_sampler >> 27;
            const quint64 slot = (m_sampler * 0x2545f4914f6cdd1dULL) % m_gapsSeen;
            if (slot < quint64(kMaxGapSamples)) {
                m_gaps[qsizetype(slot)] = gap;
            }
        }
        m_tokens += r.completionTokens;
    }
    if (m_running && !m_stopping && m_clock.elapsed() < qint64(m_config.durationS) * 1000) {
        launch();
    } else {
        m_draining = true;
    }
    maybeFinish();
}

void LoadTest::tick()
{
    LoadTestTick t;
    t.atS = double(m_clock.elapsed()) / 1000.0;
    t.inFlight = int(m_inFlight.size());
    t.completed = int(std::count_if(m_requests.cbegin(), m_requests.cend(),
                                    [](const LoadTestRequest &r) { return r.outcome == QLatin1String("completed"); }));
    t.tokensPerSecond = double(m_tokens - m_tokensAtLastTick);
    m_tokensAtLastTick = m_tokens;
    t.kvUsage = m_kv;
    t.queued = m_queued;
    t.running = m_serverRunning;
    t.serverTokensPerSecond = m_serverTokens;
    m_ticks.append(t);
    if (m_clock.elapsed() >= qint64(m_config.durationS) * 1000) {
        m_draining = true;
    }
    Q_EMIT progress(report());
    maybeFinish();
}

void LoadTest::maybeFinish()
{
    if (m_running && (m_draining || m_stopping) && m_inFlight.isEmpty()) {
        m_running = false;
        m_ticker->stop();
        Q_EMIT finished(report());
    }
}

void LoadTest::stop()
{
    if (!m_running) {
        return;
    }
    m_stopping = true;
    const QList<ChatCall *> calls = m_inFlight;
    for (ChatCall *c : calls) {
        c->stop();
    }
    maybeFinish();
}

void LoadTest::setServerLoad(std::optional<double> kvUsage, std::optional<double> queued, std::optional<double> running,
                             std::optional<double> genThroughput)
{
    m_serverTokens = genThroughput;
    m_kv = kvUsage;
    m_queued = queued;
    m_serverRunning = running;
}

LoadTestReport LoadTest::report() const
{
    LoadTestReport rep;
    rep.config = m_config;
    rep.elapsedS = m_clock.isValid() ? double(m_clock.elapsed()) / 1000.0 : 0;
    QList<qint64> ttfts;
    QMap<QString, int> errors;
    for (const LoadTestRequest &r : m_requests) {
        if (r.outcome == QLatin1String("completed")) {
            ++rep.completed;
            if (r.completionTokens * 10 < qint64(m_config.outputTokens) * 9) {
                ++rep.shortReplies;
            }
            if (r.ttftMs >= 0) {
                ttfts.append(r.ttftMs);
            }
        } else if (r.outcome == QLatin1String("failed")) {
            ++rep.failed;
            ++errors[r.error];
        }
    }
    rep.inFlight = int(m_inFlight.size());
    rep.ttftP50Ms = percentile(ttfts, 0.5);
    rep.ttftP95Ms = percentile(ttfts, 0.95);
    rep.itlP50Ms = percentile(m_gaps, 0.5);
    rep.itlP95Ms = percentile(m_gaps, 0.95);
    rep.tokensPerSecond = rep.elapsedS > 0 ? double(m_tokens) / rep.elapsedS : 0;
    rep.requestsPerSecond = rep.elapsedS > 0 ? double(rep.completed) / rep.elapsedS : 0;
    double serverSum = 0;
    int serverN = 0;
    for (const LoadTestTick &t : m_ticks) {
        if (t.serverTokensPerSecond && t.inFlight > 0) {
            serverSum += *t.serverTokensPerSecond;
            ++serverN;
        }
    }
    if (serverN > 0) {
        rep.serverTokensPerSecond = serverSum / serverN;
    }
    rep.aborted = m_aborted;
    for (auto it = errors.cbegin(); it != errors.cend(); ++it) {
        rep.errors.append(QStringLiteral("%1 × %2").arg(it.value()).arg(it.key()));
    }
    rep.ticks = m_ticks;
    rep.requests = m_requests;
    return rep;
}

QByteArray LoadTestReport::toJson() const
{
    using nlohmann::json;
    json ticksJson = json::array();
    for (const LoadTestTick &t : ticks) {
        ticksJson.push_back({{"t_s", t.atS},
                             {"in_flight", t.inFlight},
                             {"completed", t.completed},
                             {"tokens_per_s", t.tokensPerSecond},
                             {"kv_usage", opt(t.kvUsage)},
                             {"queued", opt(t.queued)},
                             {"running", opt(t.running)},
                             {"server_tokens_per_s", opt(t.serverTokensPerSecond)}});
    }
    json errorsJson = json::array();
    for (const QString &e : errors) {
        errorsJson.push_back(e.toStdString());
    }
    json notesJson = json::array();
    for (const QString &n : notes()) {
        notesJson.push_back(n.toStdString());
    }
    const json out{{"concurrency", config.concurrency},
                   {"prompt_tokens", config.promptTokens},
                   {"output_tokens", config.outputTokens},
                   {"duration_s", config.durationS},
                   {"elapsed_s", elapsedS},
                   {"completed", completed},
                   {"failed", failed},
                   {"ttft_p50_ms", opt(ttftP50Ms)},
                   {"ttft_p95_ms", opt(ttftP95Ms)},
                   {"itl_p50_ms", opt(itlP50Ms)},
                   {"itl_p95_ms", opt(itlP95Ms)},
                   {"tokens_per_s", tokensPerSecond},
                   {"requests_per_s", requestsPerSecond},
                   {"server_gen_tokens_per_s", opt(serverTokensPerSecond)},
                   {"short_replies", shortReplies},
                   {"aborted", aborted.isEmpty() ? json() : json(aborted.toStdString())},
                   {"errors", errorsJson},
                   {"profile", config.profileId.isEmpty() ? json() : json(config.profileId.toStdString())},
                   {"notes", notesJson},
                   {"timeline", ticksJson}};
    return QByteArray::fromStdString(out.dump());
}

QStringList LoadTestReport::notes() const
{
    QStringList out;
    if (const QString warning = recipe::texts::loadTestProfileWarning(config.profileId); !warning.isEmpty()) {
        out.append(warning);
    }
    if (shortReplies > 0) {
        out.append(
            QCoreApplication::translate("Chat",
                                        "%1 of %2 replies were shorter than the %3 tokens asked: the server may ignore "
                                        "ignore_eos, so these figures are not at the asked output length.")
                .arg(shortReplies)
                .arg(completed)
                .arg(config.outputTokens));
    }
    out.append(QCoreApplication::translate(
        "Chat",
        "tokens/s counts, on this side, the completion tokens of the finished requests over the "
        "wall time; the server's figure is SGLang's own generation throughput (every request "
        "it decodes, averaged while the test ran)."));
    out.append(recipe::texts::publishedFiguresNote());
    return out;
}

QByteArray LoadTestReport::toCsv() const
{
    QByteArray csv = "request,start_s,ttft_ms,total_ms,completion_tokens,outcome,error\n";
    for (qsizetype i = 0; i < requests.size(); ++i) {
        const LoadTestRequest &r = requests[i];
        QString error = r.error;
        error.replace(QLatin1Char('"'), QLatin1String("\"\""));
        csv += QStringLiteral("%1,%2,%3,%4,%5,%6,\"%7\"\n")
                   .arg(i + 1)
                   .arg(r.startS, 0, 'f', 3)
                   .arg(r.ttftMs < 0 ? QString() : QString::number(r.ttftMs))
                   .arg(r.totalMs)
                   .arg(r.completionTokens)
                   .arg(r.outcome.isEmpty() ? QStringLiteral("in flight") : r.outcome, error)
                   .toUtf8();
    }
    return csv;
}

} // namespace flashdeck::chat
