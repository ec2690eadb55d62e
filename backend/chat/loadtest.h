#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>

class QTimer;

namespace flashdeck::chat {

class ChatCall;
class ChatClient;
struct ChatResult;

struct LoadTestConfig
{
    int concurrency = 4;
    int promptTokens = 512;
    int outputTokens = 256;
    int durationS = 60;
    QString model;
    bool thinking = true;
    /** The deployment's profile id (empty: a server Flashdeck did not deploy): the Low-Latency one is warned of. */
    QString profileId;
};

/** One second of the run. */
struct LoadTestTick
{
    double atS = 0;
    int inFlight = 0;
    int completed = 0;
    double tokensPerSecond = 0; // completion tokens finished in this second's window
    std::optional<double> kvUsage;
    std::optional<double> queued;
    std::optional<double> running;
    /** The server's own generation throughput (SGLang's gen_throughput), all requests. */
    std::optional<double> serverTokensPerSecond;
};

/** One request of the run. */
struct LoadTestRequest
{
    double startS = 0;
    qint64 ttftMs = -1;
    qint64 totalMs = 0;
    qint64 completionTokens = 0;
    QString outcome; // completed, failed, stopped
    QString error;
};

/** What a load test measured; percentiles of what finished, never of what did not. */
struct LoadTestReport
{
    LoadTestConfig config;
    double elapsedS = 0;
    int completed = 0;
    int failed = 0;
    int inFlight = 0;
    std::optional<double> ttftP50Ms;
    std::optional<double> ttftP95Ms;
    std::optional<double> itlP50Ms;
    std::optional<double> itlP95Ms;
    /** The client's count: completion tokens of the finished requests over the wall time. */
    double tokensPerSecond = 0;
    /** The server's count: the mean of its generation throughput while the test ran (null: never seen). */
    std::optional<double> serverTokensPerSecond;
    double requestsPerSecond = 0;
    /**
     * Finished requests whose reply was shorter than 90 % of the tokens asked: a server that
     * ignores ignore_eos stops early, and tokens/s is then not at the asked length.
     */
    int shortReplies = 0;
    /** Why the run stopped before its time (the server refused the API key again and again); empty otherwise. */
    QString aborted;
    /**
     * Words for the operator on what the figures mean: the Low-Latency profile's batch-size-1 kernel, short
     * replies, the two counts, and that published figures are upstream references.
     */
    QStringList notes() const;
    QStringList errors; // distinct messages, with their count
    QList<LoadTestTick> ticks;
    QList<LoadTestRequest> requests;

    QByteArray toJson() const;
    QByteArray toCsv() const;
};

/**
 * The capacity check F25 tells operators to run with their own lengths: `concurrency` streamed
 * requests kept in flight for `durationS`, each with a synthetic prompt of about `promptTokens`
 * tokens (opening with a per-request nonce, so the radix cache cannot share prefixes and make
 * TTFT look better than it is) and `outputTokens` generated (`max_tokens` with `ignore_eos`).
 * When the time is up no new request starts and those in flight finish. Reports every second;
 * the server's KV use and queue are fed in by whoever samples the server (setServerLoad).
 */
class LoadTest final : public QObject
{
    Q_OBJECT

public:
    LoadTest(ChatClient &client, LoadTestConfig config, QObject *parent = nullptr);
    ~LoadTest() override;

    void start();
    /** Ends now: requests in flight are stopped (and counted as stopped, not as failures). */
    void stop();
    bool running() const { return m_running; }
    LoadTestReport report() const;

    void setServerLoad(std::optional<double> kvUsage, std::optional<double> queued, std::optional<double> running,
                       std::optional<double> genThroughput = std::nullopt);
    /** Consecutive HTTP 401 answers after which the run stops: the key is wrong, more requests will not help. */
    static constexpr int kUnauthorizedStop = 5;

    /** A prompt of about `tokens` tokens: common one-token English words after a nonce. */
    static QString syntheticPrompt(int tokens, quint64 nonce);

Q_SIGNALS:
    void progress(const flashdeck::chat::LoadTestReport &report);
    void finished(const flashdeck::chat::LoadTestReport &report);

private:
    void launch();
    void onFinished(int request, const ChatResult &result);
    void tick();
    void maybeFinish();

    ChatClient &m_client;
    LoadTestConfig m_config;
    QTimer *m_ticker;
    QElapsedTimer m_clock;
    bool m_running = false;
    bool m_draining = false;
    bool m_stopping = false;
    quint64 m_nonce = 0;
    QList<ChatCall *> m_inFlight;
    QList<LoadTestRequest> m_requests;
    /**
     * Inter-token gaps for the ITL percentiles: a uniform sample of at most kMaxGapSamples
     * (Vitter's algorithm R), so an hour at fleet speed does not grow memory without bound
     * (issue 9: the 10-minute soak grew 11 MB, mostly here).
     */
    QList<float> m_gaps;
    quint64 m_gapsSeen = 0;
    quint64 m_sampler = 0x9e3779b97f4a7c15ULL;
    static constexpr qsizetype kMaxGapSamples = 100000;
    QList<LoadTestTick> m_ticks;
    qint64 m_tokensAtLastTick = 0;
    qint64 m_tokens = 0;
    std::optional<double> m_kv;
    std::optional<double> m_queued;
    std::optional<double> m_serverRunning;
    std::optional<double> m_serverTokens;
    int m_unauthorizedInARow = 0;
    QString m_aborted;
};

} // namespace flashdeck::chat
