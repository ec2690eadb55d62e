#include "backend/cli/chatcommand.h"

#include "backend/chat/chatcall.h"
#include "backend/chat/chatclient.h"
#include "backend/chat/chatrequest.h"
#include "backend/chat/chattarget.h"
#include "backend/chat/imageprobe.h"
#include "backend/chat/mediapolicy.h"
#include "backend/cli/cliapikey.h"
#include "backend/cli/clisession.h"
#include "backend/cli/exitcodes.h"
#include "backend/cli/hostscommand.h"
#include "backend/core/apppaths.h"
#include "backend/core/stopsignals.h"
#include "backend/fleet/hostsession.h"
#include "backend/fleet/inventory.h"
#include "backend/security/redactor.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>

namespace flashdeck::cli {

namespace {

const QString kChatUsage =
    QStringLiteral("Usage: flashdeck chat HOST --prompt TEXT [--system TEXT] [--no-thinking] [--image FILE]\n"
                   "                      [--temperature X] [--top-p X] [--max-tokens N] [--seed N] [--stop S]\n"
                   "                      [--port N] [--timeout SECONDS] [--json]");

nlohmann::json orNull(qint64 v)
{
    return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v);
}

/** chat's options, read by one parser. */
struct ChatFlags
{
    QCommandLineOption promptOpt, systemOpt, noThinkingOpt, imageOpt, temperatureOpt, topPOpt, maxTokensOpt, seedOpt,
        stopOpt, portOpt, jsonOpt, timeoutOpt;
};

ChatFlags chatFlags()
{
    const QCommandLineOption promptOpt(QStringLiteral("prompt"),
                                       QCoreApplication::translate("Cli", "The user message."), QStringLiteral("TEXT"));
    const QCommandLineOption systemOpt(QStringLiteral("system"), QCoreApplication::translate("Cli", "A system prompt."),
                                       QStringLiteral("TEXT"));
    const QCommandLineOption noThinkingOpt(
        QStringLiteral("no-thinking"),
        QCoreApplication::translate("Cli", "Ask for no reasoning (chat_template_kwargs thinking_mode=disabled)."));
    const QCommandLineOption imageOpt(
        QStringLiteral("image"), QCoreApplication::translate("Cli", "Attach a PNG, JPEG or WebP file (repeatable)."),
        QStringLiteral("FILE"));
    const QCommandLineOption temperatureOpt(QStringLiteral("temperature"),
                                            QCoreApplication::translate("Cli", "Sampling temperature (default 1.0)."),
                                            QStringLiteral("X"), QStringLiteral("1.0"));
    const QCommandLineOption topPOpt(QStringLiteral("top-p"),
                                     QCoreApplication::translate("Cli", "Nucleus sampling (default 0.95)."),
                                     QStringLiteral("X"), QStringLiteral("0.95"));
    const QCommandLineOption maxTokensOpt(QStringLiteral("max-tokens"),
                                          QCoreApplication::translate("Cli", "Longest answer in tokens."),
                                          QStringLiteral("N"));
    const QCommandLineOption seedOpt(QStringLiteral("seed"), QCoreApplication::translate("Cli", "Sampling seed."),
                                     QStringLiteral("N"));
    const QCommandLineOption stopOpt(QStringLiteral("stop"),
                                     QCoreApplication::translate("Cli", "A stop sequence (repeatable)."),
                                     QStringLiteral("S"));
    const QCommandLineOption portOpt(
        QStringLiteral("port"),
        QCoreApplication::translate("Cli", "The server's port on the host (default: the deployment's)."),
        QStringLiteral("N"));
    const QCommandLineOption jsonOpt(QStringLiteral("json"),
                                     QCoreApplication::translate("Cli", "One JSON object per line."));
    const QCommandLineOption timeoutOpt(
        QStringLiteral("timeout"),
        QCoreApplication::translate("Cli",
                                    "Give up when the answer is not complete after SECONDS (the "
                                    "partial answer is kept; exit 1). Default: no limit."),
        QStringLiteral("SECONDS"));
    return {promptOpt,    systemOpt, noThinkingOpt, imageOpt, temperatureOpt, topPOpt,
            maxTokensOpt, seedOpt,   stopOpt,       portOpt,  jsonOpt,        timeoutOpt};
}

/** What the command line asks: the host, the turns, the sampling, the deadline and the port. */
struct ChatRequest
{
    QString host;
    QList<chat::ChatTurn> turns;
    chat::ChatParams params;
    int timeoutMs = 0; // 0: no limit
    quint16 port = 0; // 0: the deployment's
    bool json = false;
};

/** The exit code where the command stops; none: go on. */
using Stop = std::optional<int>;

/** The sampling, the deadline and the port, checked; `params.thinking` from --no-thinking. */
Stop readParams(const QCommandLineParser &p, const ChatFlags &f, CliContext &c, ChatRequest &r)
{
    chat::ChatParams &params = r.params;
    bool ok = true;
    params.temperature = p.value(f.temperatureOpt).toDouble(&ok);
    if (!ok || params.temperature < 0 || params.temperature > 2) {
        c.err << "flashdeck chat: "
              << QCoreApplication::translate("Cli", "--temperature takes a number from 0 to 2.\n");
        return ExitUsage;
    }
    params.topP = p.value(f.topPOpt).toDouble(&ok);
    if (!ok || params.topP <= 0 || params.topP > 1) {
        c.err << "flashdeck chat: "
              << QCoreApplication::translate("Cli", "--top-p takes a number above 0, at most 1.\n");
        return ExitUsage;
    }
    if (p.isSet(f.maxTokensOpt)) {
        const int n = p.value(f.maxTokensOpt).toInt(&ok);
        if (!ok || n < 1) {
            c.err << "flashdeck chat: "
                  << QCoreApplication::translate("Cli", "--max-tokens takes a positive number.\n");
            return ExitUsage;
        }
        params.maxTokens = n;
    }
    if (p.isSet(f.timeoutOpt)) {
        const double seconds = p.value(f.timeoutOpt).toDouble(&ok);
        if (!ok || seconds <= 0 || seconds > 86400) {
            c.err << "flashdeck chat: "
                  << QCoreApplication::translate("Cli",
                                                 "--timeout takes a number of seconds above 0 (at most a day).\n");
            return ExitUsage;
        }
        r.timeoutMs = int(seconds * 1000);
    }
    if (p.isSet(f.seedOpt)) {
        params.seed = p.value(f.seedOpt).toLongLong(&ok);
        if (!ok) {
            c.err << "flashdeck chat: " << QCoreApplication::translate("Cli", "--seed takes a whole number.\n");
            return ExitUsage;
        }
    }
    params.stop = p.values(f.stopOpt);
    params.thinking = !p.isSet(f.noThinkingOpt);
    if (p.isSet(f.portOpt)) {
        const uint n = p.value(f.portOpt).toUInt(&ok);
        if (!ok || n == 0 || n > 65535) {
            c.err << "flashdeck chat: " << QCoreApplication::translate("Cli", "--port takes a port number.\n");
            return ExitUsage;
        }
        r.port = quint16(n);
    }
    return std::nullopt;
}

/** The system prompt and the user's message with its images (each checked as the server would). */
Stop readTurns(const QCommandLineParser &p, const ChatFlags &f, CliContext &c, ChatRequest &r)
{
    chat::ChatTurn user{QStringLiteral("user"), p.value(f.promptOpt), {}, {}};
    const chat::MediaPolicy media{chat::MediaLimits()};
    for (const QString &path : p.values(f.imageOpt)) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            c.err << "flashdeck chat: "
                  << QCoreApplication::translate("Cli", "cannot read %1: %2.\n").arg(path, file.errorString());
            return ExitUsage;
        }
        const QByteArray bytes = file.read(media.limits().maxBytes + 1);
        const auto checked = media.checkImage(bytes);
        if (!checked) {
            c.err << "flashdeck chat: " << QFileInfo(path).fileName() << ": " << checked.message() << '\n';
            return ExitUsage;
        }
        user.images.append({checked.value().mimeType, bytes, QFileInfo(path).fileName()});
    }
    if (p.isSet(f.systemOpt)) {
        r.turns.append({QStringLiteral("system"), p.value(f.systemOpt), {}, {}});
    }
    r.turns.append(user);
    return std::nullopt;
}

/** One streamed update: JSON lines, or the answer on stdout and the reasoning on stderr. */
void printUpdate(CliContext &c, bool json, bool &reasoningOpen, const chat::ChatUpdate &u)
{
    if (json) {
        // Inline reasoning opened without a tag: what was printed as answer was reasoning.
        if (u.earlierContentWasReasoning) {
            c.out << QString::fromStdString(nlohmann::json{{"type", "reclassified"}, {"as", "reasoning"}}.dump())
                  << '\n';
        }
        if (!u.reasoning.isEmpty()) {
            c.out << QString::fromStdString(
                         nlohmann::json{{"type", "reasoning"}, {"text", u.reasoning.toStdString()}}.dump())
                  << '\n';
        }
        if (!u.content.isEmpty()) {
            c.out << QString::fromStdString(
                         nlohmann::json{{"type", "content"}, {"text", u.content.toStdString()}}.dump())
                  << '\n';
        }
        c.out.flush();
        return;
    }
    if (!u.reasoning.isEmpty()) {
        c.err << u.reasoning;
        c.err.flush();
        reasoningOpen = true;
    }
    if (!u.content.isEmpty()) {
        if (reasoningOpen) {
            c.err << '\n';
            c.err.flush();
            reasoningOpen = false;
        }
        c.out << u.content;
        c.out.flush();
    }
}

/**
 * The end of the answer: the error (a refused key from $SGLANG_API_KEY is that variable's fault,
 * not the deployment's key) and the figures; the exit code.
 */
int printResult(CliContext &c, bool json, bool keyFromEnvironment, const chat::ChatResult &r)
{
    const chat::ChatStats &s = r.stats;
    const QString error = keyFromEnvironment && (r.httpStatus == 401 || r.httpStatus == 403)
        ? QCoreApplication::translate(
              "Cli",
              "The server refused the API key (HTTP %1). The key in $SGLANG_API_KEY is not the one "
              "the server was started with (--api-key): set it to that key, or unset it to use the "
              "key Flashdeck holds for the deployment.")
              .arg(r.httpStatus)
        : r.error;
    if (json) {
        if (r.outcome == chat::ChatResult::Outcome::Failed) {
            c.out << QString::fromStdString(nlohmann::json{{"type", "error"}, {"message", error.toStdString()}}.dump())
                  << '\n';
        }
        nlohmann::json stats{
            {"type", "stats"},
            {"ttft_ms", orNull(s.ttftMs)},
            {"tokens_per_s", s.tokensPerSecond > 0 ? nlohmann::json(s.tokensPerSecond) : nlohmann::json(nullptr)},
            {"prompt_tokens", orNull(s.promptTokens)},
            {"completion_tokens", orNull(s.completionTokens)},
            {"reasoning_tokens", orNull(s.reasoningTokens)},
            {"finish_reason",
             s.finishReason.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(s.finishReason.toStdString())},
            {"tokens_counted", s.tokensCounted},
            {"stopped", r.outcome == chat::ChatResult::Outcome::Stopped},
            {"thinking_ignored", r.thinkingIgnored}};
        if (r.outcome != chat::ChatResult::Outcome::Failed || s.ttftMs >= 0) {
            c.out << QString::fromStdString(stats.dump()) << '\n';
        }
        c.out.flush();
    } else {
        c.out << '\n';
        c.out.flush();
        if (r.outcome == chat::ChatResult::Outcome::Failed) {
            c.err << "flashdeck chat: " << error << '\n';
        }
        if (r.thinkingIgnored) {
            c.err << "flashdeck chat: "
                  << QCoreApplication::translate("Cli",
                                                 "thinking was switched off, yet the server returned reasoning.\n");
        }
        if (s.ttftMs >= 0) {
            c.err << QCoreApplication::translate(
                         "Cli",
                         "— first token %1 ms · %2 tokens/s%3 · %4 prompt + %5 completion tokens%6 · "
                         "%7%8\n")
                         .arg(s.ttftMs)
                         .arg(s.tokensPerSecond, 0, 'f', 1)
                         .arg(s.tokensCounted ? QStringLiteral(" (counted)") : QString())
                         .arg(s.promptTokens < 0 ? QStringLiteral("?") : QString::number(s.promptTokens))
                         .arg(s.completionTokens < 0 ? QStringLiteral("?") : QString::number(s.completionTokens))
                         .arg(s.reasoningTokens < 0 ? QString()
                                                    : QStringLiteral(" (%1 reasoning)").arg(s.reasoningTokens))
                         .arg(s.finishReason.isEmpty() ? QStringLiteral("unfinished") : s.finishReason)
                         .arg(r.outcome == chat::ChatResult::Outcome::Stopped ? QStringLiteral(" · stopped")
                                                                              : QString());
        }
        c.err.flush();
    }
    return r.outcome == chat::ChatResult::Outcome::Failed ? ExitCheckFailed : ExitOk;
}

} // namespace

int runChatCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const ChatFlags f = chatFlags();
    p.addOptions({f.promptOpt, f.systemOpt, f.noThinkingOpt, f.imageOpt, f.temperatureOpt, f.topPOpt, f.maxTokensOpt,
                  f.seedOpt, f.stopOpt, f.portOpt, f.jsonOpt, f.timeoutOpt});
    if (!p.parse(args)) {
        c.err << "flashdeck chat: " << p.errorText() << '\n' << kChatUsage << '\n';
        return ExitUsage;
    }
    const QStringList positional = p.positionalArguments().mid(1);
    if (positional.size() != 1 || !p.isSet(f.promptOpt)) {
        c.err << "flashdeck chat: give one HOST and --prompt.\n" << kChatUsage << '\n';
        return ExitUsage;
    }
    ChatRequest r;
    r.json = p.isSet(f.jsonOpt);
    if (const Stop stop = readParams(p, f, c, r)) {
        return *stop;
    }
    if (const Stop stop = readTurns(p, f, c, r)) {
        return *stop;
    }
    fleet::Inventory inventory(c.paths.inventoryFile());
    if (Status s = inventory.load(); !s) {
        c.err << s.message() << '\n';
        return ExitCheckFailed;
    }
    const std::optional<fleet::HostEntry> host = inventory.find(positional.first());
    if (!host) {
        c.err << QCoreApplication::translate("Cli",
                                             "No host named \"%1\" in the inventory (see 'flashdeck hosts list').\n")
                     .arg(positional.first());
        return ExitUsage;
    }
    chat::ChatTarget target;
    if (auto t = chat::chatTargetFor(c.paths, host->name)) {
        target = t.value();
    } else if (r.port == 0) {
        c.err << t.message() << '\n';
        return ExitUsage;
    } else {
        target.host = host->name;
        target.model = QStringLiteral("default");
    }
    if (r.port != 0) {
        target.port = r.port;
    }

    // The key: the deployment's from the keyring, else $SGLANG_API_KEY, else (on the host) the
    // one its running server was started with.
    const StoredApiKey stored = storedApiKey(target.deploymentId);
    const QByteArray body = chat::buildChatBody(r.turns, r.params, target.model);
    StopSignals stopSignals;
    return runOnHost(*host, c, [&](fleet::HostSession &session, std::function<void(int)> done) {
        withApiKey(session, c, QStringLiteral("chat"), target.deploymentId, stored, done,
                   [&, done](const QString &apiKey) {
                       chat::ChatClient *client = session.chatClient(target.port, &session);
                       client->setApiKey(apiKey);
                       chat::ChatCall *call = client->send(body, r.params.thinking);
                       call->setDeadline(r.timeoutMs);
                       // Outlives this set-up function: the call's updates arrive after it returned.
                       auto reasoningOpen = std::make_shared<bool>(false);
                       const bool json = r.json;
                       QObject::connect(call, &chat::ChatCall::updated, call,
                                        [&c, json, reasoningOpen](const chat::ChatUpdate &u) {
                                            printUpdate(c, json, *reasoningOpen, u);
                                        });
                       const bool keyFromEnvironment = stored.fromEnvironment && apiKey == stored.key;
                       QObject::connect(call, &chat::ChatCall::finished, call,
                                        [&c, json, done, keyFromEnvironment](const chat::ChatResult &result) {
                                            done(printResult(c, json, keyFromEnvironment, result));
                                        });
                       QObject::connect(&stopSignals, &StopSignals::stopRequested, call, [call](int) { call->stop(); });
                   });
    });
}

} // namespace flashdeck::cli
