#include "backend/chat/chatrequest.h"

#include "backend/core/shellquote.h"

#include <QRegularExpression>

#include <nlohmann/json.hpp>

namespace flashdeck::chat {

namespace {

std::string s(const QString &q)
{
    return q.toStdString();
}

} // namespace

QByteArray buildChatBody(const QList<ChatTurn> &turns, const ChatParams &params, const QString &model)
{
    using nlohmann::json;
    json messages = json::array();
    for (const ChatTurn &t : turns) {
        if (t.images.isEmpty()) {
            messages.push_back({{"role", s(t.role)}, {"content", s(t.content)}});
            continue;
        }
        json parts = json::array();
        if (!t.content.isEmpty()) {
            parts.push_back({{"type", "text"}, {"text", s(t.content)}});
        }
        for (const ChatImage &img : t.images) {
            parts.push_back({{"type", "image_url"},
                             {"image_url",
                              {{"url", "data:" + s(img.mimeType) + ";base64," + img.bytes.toBase64().toStdString()}}}});
        }
        messages.push_back({{"role", s(t.role)}, {"content", parts}});
    }
    json body{{"model", s(model)},    {"messages", messages},    {"temperature", params.temperature},
              {"top_p", params.topP}, {"stream", params.stream}, {"separate_reasoning", true}};
    if (params.stream) {
        body["stream_options"] = {{"include_usage", true}};
    }
    if (params.maxTokens) {
        body["max_tokens"] = *params.maxTokens;
    }
    if (!params.stop.isEmpty()) {
        json stop = json::array();
        for (const QString &x : params.stop) {
            stop.push_back(s(x));
        }
        body["stop"] = stop;
    }
    if (params.seed) {
        body["seed"] = *params.seed;
    }
    if (params.ignoreEos) {
        body["ignore_eos"] = true;
    }
    if (!params.thinking) {
        body["chat_template_kwargs"] = {{"thinking_mode", "disabled"}};
    }
    return QByteArray::fromStdString(body.dump());
}

QByteArray elideDataUris(const QByteArray &json)
{
    static const QRegularExpression uri(QStringLiteral("(data:[a-z0-9.+/-]+;base64,)([A-Za-z0-9+/=]+)"));
    QString text = QString::fromUtf8(json);
    QString out;
    qsizetype last = 0;
    for (auto it = uri.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        out += QStringView(text).mid(last, m.capturedStart(2) - last);
        out += QStringLiteral("…(%1 bytes)").arg(m.capturedLength(2) * 3 / 4);
        last = m.capturedEnd(2);
    }
    out += QStringView(text).mid(last);
    return out.toUtf8();
}

QString curlCommand(const QList<ChatTurn> &turns, const ChatParams &params, const QString &model, quint16 port,
                    bool withImages)
{
    QByteArray body = buildChatBody(turns, params, model);
    if (!withImages) {
        body = elideDataUris(body);
    }
    return QStringLiteral("curl -sS -N http://127.0.0.1:%1/v1/chat/completions \\\n"
                          "  -H 'Content-Type: application/json' \\\n"
                          "  -H \"Authorization: Bearer $SGLANG_API_KEY\" \\\n"
                          "  -d %2")
        .arg(port)
        .arg(QString::fromUtf8(shellQuote(body)));
}

} // namespace flashdeck::chat
