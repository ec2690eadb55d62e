#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace flashdeck::chat {

/** An image part of a user turn, already checked (MediaPolicy) and held as bytes. */
struct ChatImage
{
    QString mimeType; // image/png, image/jpeg, image/webp
    QByteArray bytes;
    QString label; // file name or URL it came from, for the UI and exports
};

struct ChatTurn
{
    QString role; // system, user, assistant
    QString content;
    QString reasoning; // assistant turns: shown, never sent back (the template drops it anyway)
    QList<ChatImage> images;
};

/** Sampling parameters; the defaults are the model card's (F24). */
struct ChatParams
{
    double temperature = 1.0;
    double topP = 0.95;
    std::optional<int> maxTokens;
    QStringList stop;
    std::optional<qint64> seed;
    /** Off: chat_template_kwargs {"thinking_mode": "disabled"}, MiniMax-M3's switch (F22). */
    bool thinking = true;
    bool stream = true;
    /** Generate max_tokens whatever the model says (SGLang's `ignore_eos`): load tests need fixed lengths. */
    bool ignoreEos = false;
};

/**
 * The body of `POST /v1/chat/completions` (OpenAI-compatible, sglang-facts §4.2 and §6):
 * messages with image parts as base64 data URIs, the parameters, streaming with usage in the
 * last chunk (`stream_options.include_usage`, §4.3), and `separate_reasoning`.
 */
QByteArray buildChatBody(const QList<ChatTurn> &turns, const ChatParams &params, const QString &model);

/**
 * The same request as a curl command line an operator can paste on the GPU host: the key as
 * "$SGLANG_API_KEY", never its value; image data elided unless `withImages`.
 */
QString curlCommand(const QList<ChatTurn> &turns, const ChatParams &params, const QString &model, quint16 port,
                    bool withImages = false);

/** The body with every data URI's payload replaced by "…(N bytes)": for exports and logs. */
QByteArray elideDataUris(const QByteArray &json);

} // namespace flashdeck::chat
