#pragma once

#include "backend/chat/chatstream.h"
#include "backend/core/linkopener.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

class QNetworkReply;

namespace flashdeck::chat {

/** Figures of one reply (issue 8's per-reply line). -1: not known. */
struct ChatStats
{
    qint64 ttftMs = -1; // to the first reasoning or answer text
    qint64 totalMs = 0;
    double tokensPerSecond = 0; // completion tokens over the time after the first token
    bool tokensCounted = false; // no usage from the server: counted from the stream's chunks
    qint64 promptTokens = -1;
    qint64 completionTokens = -1;
    qint64 reasoningTokens = -1;
    int chunks = 0;
    QString finishReason;
    /** Gaps between text chunks after the first, in ms (inter-token latency, for load tests). */
    QList<float> gapsMs;
};

struct ChatResult
{
    enum class Outcome { Completed, Stopped, Failed };
    Outcome outcome = Outcome::Completed;
    ChatStats stats;
    QString error; // for Failed: what happened and what to do
    int httpStatus = 0;
    /** Thinking was switched off, yet the server returned reasoning (F22 says it should not). */
    bool thinkingIgnored = false;
    /** The reply carried its reasoning inline in content (the server has no reasoning parser). */
    bool inlineReasoning = false;
};

/**
 * One chat completion in flight over the tunnel. Emits updates as text arrives and finished()
 * once, whatever happens; stop() ends it keeping what came (Outcome::Stopped). Nothing of the
 * prompt or the reply is logged (F32).
 */
class ChatCall final : public QObject
{
    Q_OBJECT

public:
    ChatCall(QByteArray body, bool thinkingRequested, QObject *parent = nullptr);
    ~ChatCall() override;

    /** Sends it through `link` (the tunnel's) with the key, if any, as a Bearer token. */
    void start(const LinkOpener &link, const QString &apiKey);
    /** Fails it before it started (the tunnel could not open). */
    void fail(const QString &message);
    void stop();
    /**
     * Fails the call if it is not complete `ms` after it started (the partial answer is kept):
     * a bound for scripts and for a server that trickles bytes (a slowloris stays under the idle
     * timeout forever). 0: none. Set before start().
     */
    void setDeadline(int ms) { m_deadlineMs = ms; }
    bool isFinished() const { return m_finished; }

Q_SIGNALS:
    void updated(const flashdeck::chat::ChatUpdate &update);
    void finished(const flashdeck::chat::ChatResult &result);

private:
    void onReadyRead();
    void onFinished();
    void apply(const ChatUpdate &u);
    void finish(ChatResult::Outcome outcome, const QString &error = {});

    QByteArray m_body;
    bool m_thinkingRequested;
    QPointer<QNetworkReply> m_reply;
    ChatStreamDecoder m_decoder;
    QElapsedTimer m_clock;
    ChatResult m_result;
    QByteArray m_errorBody; // a non-2xx body, for the message (bounded)
    QString m_streamError;
    bool m_sawReasoning = false;
    qint64 m_lastChunkMs = -1;
    bool m_stopping = false;
    bool m_finished = false;
    int m_deadlineMs = 0;
    bool m_deadlineHit = false;
    /** Set when a 2xx answer is not an SGLang one (its content type): the call fails with it. */
    QString m_notAnAnswer;
};

/** The operator's words for an HTTP failure of /v1/chat/completions. */
QString describeChatHttpError(int status, const QByteArray &body);

} // namespace flashdeck::chat
