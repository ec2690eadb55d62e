#include "backend/chat/chatcall.h"

#include "backend/core/hosttext.h"
#include "backend/core/jsonread.h"
#include "backend/core/linkreply.h"

#include <QCoreApplication>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <QUrl>

#include <nlohmann/json.hpp>

namespace flashdeck::chat {

namespace {

constexpr qsizetype kMaxErrorBody = 64 * 1024;
// A long prompt's prefill can keep the stream silent for minutes; only a dead one is cut.
constexpr int kIdleTimeoutMs = 600000;

/** A 2xx answer with another content type than SGLang's: another program on that port. */
QString notAnAnswerMessage(const QString &type)
{
    return QCoreApplication::translate("Chat",
                                       "The server answered with \"%1\", not an SGLang answer (text/event-stream or "
                                       "application/json): another program is listening on that port. Check the "
                                       "deployment's port.")
        .arg(type);
}

QString deadlineMessage(int deadlineMs, bool anything)
{
    return QCoreApplication::translate("Chat", "No complete answer within %1 s (the time limit)%2.")
        .arg(deadlineMs / 1000.0)
        .arg(anything ? QCoreApplication::translate("Chat", "; the partial answer is kept") : QString());
}

QString streamErrorMessage(const QString &error)
{
    return QCoreApplication::translate("Chat",
                                       "The server stopped the answer with an error: \"%1\". What came before is kept.")
        .arg(error);
}

/** The reply failed on the network: mid-answer when anything came, or before any answer. */
QString networkErrorMessage(const QNetworkReply &reply, bool anything)
{
    const QString what =
        reply.error() == QNetworkReply::OperationCanceledError || reply.error() == QNetworkReply::TimeoutError
        ? QCoreApplication::translate("Chat", "no byte came for %1 minutes").arg(kIdleTimeoutMs / 60000)
        : reply.errorString();
    return anything
        ? QCoreApplication::translate("Chat",
                                      "The connection to the server broke mid-answer (%1); the partial answer is "
                                      "kept. Is the server still running? See the Fleet and Logs pages.")
              .arg(what)
        : QCoreApplication::translate("Chat",
                                      "No answer from the server (%1). Is it running on the host? See the Fleet "
                                      "and Logs pages.")
              .arg(what);
}

QString streamCutMessage()
{
    return QCoreApplication::translate(
        "Chat",
        "The stream ended before the server's [DONE] (the server restarted or closed the "
        "connection); the partial answer is kept.");
}

/**
 * Nothing decodable came (an empty body, a body Qt could not read such as a malformed chunked
 * encoding): that is not an empty answer, it is no answer (issue 9).
 */
QString noAnswerMessage(int status)
{
    return QCoreApplication::translate(
               "Chat",
               "No answer from the server (HTTP %1 with an empty or unreadable body). Is an SGLang "
               "server on that port? See the Fleet and Logs pages.")
        .arg(status);
}

} // namespace

QString describeChatHttpError(int status, const QByteArray &body)
{
    QString server;
    const auto j = jsonread::parse(body.constData(), body.constData() + body.size());
    if (j.is_object()) {
        if (j.contains("message") && j["message"].is_string()) {
            server = QString::fromStdString(j["message"].get<std::string>());
        } else if (j.contains("error")) {
            server = j["error"].is_string() ? QString::fromStdString(j["error"].get<std::string>())
                                            : QString::fromStdString(j["error"].dump());
        }
    } else {
        server = hostText(body.left(kMaxErrorBody), 300); // a proxy's HTML page, made safe to show
    }
    const QString said =
        server.isEmpty() ? QString() : QCoreApplication::translate("Chat", " The server said: \"%1\".").arg(server);
    switch (status) {
    case 401:
    case 403:
        return QCoreApplication::translate(
                   "Chat",
                   "The server refused the API key (HTTP %1). The key Flashdeck holds for this deployment "
                   "is not the one the server was started with (--api-key): store the right one in the "
                   "keyring, or redeploy.%2")
            .arg(status)
            .arg(said);
    case 400:
    case 422:
        return QCoreApplication::translate(
                   "Chat", "The server rejected the request (HTTP %1).%2 Check the parameters and the image.")
            .arg(status)
            .arg(said);
    case 404:
        return QCoreApplication::translate(
                   "Chat", "The server has no /v1/chat/completions (HTTP 404): the port is not an SGLang server's.%1")
            .arg(said);
    case 503:
        return QCoreApplication::translate(
                   "Chat",
                   "The server is not ready (HTTP 503): it is still loading, or is shutting down. Watch "
                   "the Logs page for \"The server is fired up and ready to roll!\".%1")
            .arg(said);
    default:
        return QCoreApplication::translate("Chat",
                                           "The server answered HTTP %1.%2 See the Logs page for what it logged.")
            .arg(status)
            .arg(said);
    }
}

ChatCall::ChatCall(QByteArray body, bool thinkingRequested, QObject *parent)
    : QObject(parent)
    , m_body(std::move(body))
    , m_thinkingRequested(thinkingRequested)
{ }

ChatCall::~ChatCall()
{
    // One read of the QPointer: each of its reads may be null, as GCC's -O3 flow analysis says.
    if (QNetworkReply *reply = m_reply.data()) {
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
}

void ChatCall::start(const LinkOpener &link, const QString &apiKey)
{
    if (m_finished) {
        return;
    }
    LinkReply::Headers headers{{"Content-Type", "application/json"}, {"Accept", "text/event-stream, application/json"}};
    if (!apiKey.isEmpty()) {
        headers.append({"Authorization", "Bearer " + apiKey.toUtf8()});
    }
    m_clock.start();
    auto *sent = new LinkReply(link, "POST", "/v1/chat/completions", headers, m_body, this);
    sent->setTransferTimeout(kIdleTimeoutMs);
    m_reply = sent;
    m_body.clear();
    if (m_deadlineMs > 0) {
        QTimer::singleShot(m_deadlineMs, this, [this] {
            if (QNetworkReply *reply = m_reply.data(); reply && !m_finished) {
                m_deadlineHit = true;
                reply->abort();
            }
        });
    }
    connect(m_reply, &QNetworkReply::readyRead, this, &ChatCall::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &ChatCall::onFinished);
}

void ChatCall::fail(const QString &message)
{
    finish(ChatResult::Outcome::Failed, message);
}

void ChatCall::stop()
{
    if (m_finished) {
        return;
    }
    m_stopping = true;
    if (QNetworkReply *reply = m_reply.data()) {
        reply->abort(); // finished() follows with OperationCanceledError
    } else {
        finish(ChatResult::Outcome::Stopped);
    }
}

void ChatCall::apply(const ChatUpdate &u)
{
    m_result.stats.chunks += u.textChunks;
    if (!u.reasoning.isEmpty() || !u.content.isEmpty() || u.earlierContentWasReasoning) {
        const qint64 now = m_clock.elapsed();
        if (m_result.stats.ttftMs < 0) {
            m_result.stats.ttftMs = now;
        } else if (m_lastChunkMs >= 0 && u.textChunks > 0) {
            // Several chunks in one read share the gap since the last read.
            const float gap = float(now - m_lastChunkMs) / float(u.textChunks);
            for (int i = 0; i < u.textChunks; ++i) {
                m_result.stats.gapsMs.append(gap);
            }
        }
        m_lastChunkMs = now;
        m_sawReasoning = m_sawReasoning || !u.reasoning.isEmpty();
        Q_EMIT updated(u);
    }
    if (!u.finishReason.isEmpty()) {
        m_result.stats.finishReason = u.finishReason;
    }
    if (u.usage) {
        m_result.stats.promptTokens = u.usage->promptTokens;
        m_result.stats.completionTokens = u.usage->completionTokens;
        m_result.stats.reasoningTokens = u.usage->reasoningTokens.value_or(-1);
    }
    if (!u.error.isEmpty()) {
        m_streamError = u.error;
    }
}

void ChatCall::onReadyRead()
{
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray bytes = m_reply->readAll();
    if (status != 0 && (status < 200 || status >= 300)) {
        m_errorBody.append(bytes.left(kMaxErrorBody - m_errorBody.size()));
        return;
    }
    if (!m_notAnAnswer.isEmpty()) {
        return;
    }
    // SGLang answers text/event-stream (stream) or application/json. Anything else on a 2xx is
    // another program on that port (a proxy's login page, a different server): say so rather
    // than parse HTML as an answer (issue 9: wrong content types).
    const QString type = m_reply->header(QNetworkRequest::ContentTypeHeader).toString().trimmed().toLower();
    if (!type.isEmpty() && !type.startsWith(QLatin1String("text/event-stream")) &&
        !type.startsWith(QLatin1String("application/json"))) {
        m_notAnAnswer = hostText(type.toUtf8(), 80);
        m_reply->abort();
        return;
    }
    apply(m_decoder.feed(bytes));
}

void ChatCall::onFinished()
{
    QNetworkReply *reply = m_reply;
    if (!reply) {
        return;
    }
    m_reply.clear();
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    m_result.httpStatus = status;
    if (status != 0 && (status < 200 || status >= 300)) {
        if (reply->isOpen()) {
            m_errorBody.append(reply->readAll().left(kMaxErrorBody - m_errorBody.size()));
        }
        finish(ChatResult::Outcome::Failed, describeChatHttpError(status, m_errorBody));
        return;
    }
    if (!m_notAnAnswer.isEmpty()) {
        finish(ChatResult::Outcome::Failed, notAnAnswerMessage(m_notAnAnswer));
        return;
    }
    if (reply->isOpen()) { // an aborted reply is closed: nothing more to read
        apply(m_decoder.feed(reply->readAll()));
    }
    apply(m_decoder.finish());
    const bool anything = m_result.stats.ttftMs >= 0;
    if (m_deadlineHit) {
        finish(ChatResult::Outcome::Failed, deadlineMessage(m_deadlineMs, anything));
    } else if (m_stopping || reply->error() == QNetworkReply::OperationCanceledError) {
        finish(ChatResult::Outcome::Stopped);
    } else if (!m_streamError.isEmpty()) {
        finish(ChatResult::Outcome::Failed, streamErrorMessage(m_streamError));
    } else if (reply->error() != QNetworkReply::NoError) {
        finish(ChatResult::Outcome::Failed, networkErrorMessage(*reply, anything));
    } else if (m_decoder.streamed() && !m_decoder.sawDone()) {
        finish(ChatResult::Outcome::Failed, streamCutMessage());
    } else if (!m_decoder.sawDone()) {
        finish(ChatResult::Outcome::Failed, noAnswerMessage(status));
    } else {
        finish(ChatResult::Outcome::Completed);
    }
}

void ChatCall::finish(ChatResult::Outcome outcome, const QString &error)
{
    if (m_finished) {
        return;
    }
    m_finished = true;
    m_result.outcome = outcome;
    m_result.error = error;
    ChatStats &s = m_result.stats;
    s.totalMs = m_clock.isValid() ? m_clock.elapsed() : 0;
    qint64 tokens = s.completionTokens;
    if (tokens < 0) {
        tokens = s.chunks; // SGLang streams about one token per chunk
        s.tokensCounted = true;
    }
    const double decodeS = double(s.totalMs - std::max<qint64>(0, s.ttftMs)) / 1000.0;
    s.tokensPerSecond = s.ttftMs >= 0 && decodeS > 0 && tokens > 1 ? double(tokens - 1) / decodeS : 0;
    m_result.thinkingIgnored = !m_thinkingRequested && m_sawReasoning;
    m_result.inlineReasoning = m_decoder.inlineReasoning();
    Q_EMIT finished(m_result);
}

} // namespace flashdeck::chat
