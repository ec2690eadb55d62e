#include "backend/cli/logscommand.h"

#include "backend/cli/exitcodes.h"
#include "backend/logs/linesplitter.h"
#include "backend/logs/logrules.h"
#include "backend/metrics/serversnapshot.h"
#include "backend/security/redactor.h"

#include <QCommandLineParser>
#include <QFile>
#include <QRegularExpression>
#include <QTextStream>

#include <nlohmann/json.hpp>

namespace flashdeck::cli {

namespace {

const QString kUsage = QStringLiteral("Usage: flashdeck logs --file PATH [--highlights-only] [--json]");

const char *mark(const QString &severity)
{
    return severity == QLatin1String("ok")   ? "✓"
        : severity == QLatin1String("warn")  ? "⚠"
        : severity == QLatin1String("error") ? "✗"
        : severity == QLatin1String("info")  ? "·"
                                             : " ";
}

} // namespace

int runLogsCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption fileOpt(QStringLiteral("file"), QStringLiteral("A saved SGLang log to classify."),
                                     QStringLiteral("PATH"));
    const QCommandLineOption highlightsOpt(QStringLiteral("highlights-only"),
                                           QStringLiteral("Only the lines a rule matches."));
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QStringLiteral("One JSON object per line."));
    p.addOptions({fileOpt, highlightsOpt, jsonOpt});
    if (!p.parse(args)) {
        c.err << "flashdeck logs: " << p.errorText() << '\n' << kUsage << '\n';
        return ExitUsage;
    }
    if (!p.isSet(fileOpt)) {
        c.err << "flashdeck logs: following a host's live log comes with the Logs page; for now give --file PATH.\n"
              << kUsage << '\n';
        return ExitUsage;
    }
    const auto rules = logs::LogRules::builtIn();
    if (!rules) {
        c.err << rules.message() << '\n';
        return ExitCheckFailed;
    }
    QFile file(p.value(fileOpt));
    if (!file.open(QIODevice::ReadOnly)) {
        c.err << "Cannot read " << file.fileName() << ": " << file.errorString() << ".\n";
        return ExitCheckFailed;
    }
    const bool json = p.isSet(jsonOpt);
    const bool highlightsOnly = p.isSet(highlightsOpt);
    Redactor localRedactor;
    const Redactor &redactor = c.redactor ? *c.redactor : localRedactor;
    static const QRegularExpression kvTokens(QStringLiteral("(?:#tokens: |max_total_num_tokens=)(\\d+)"));
    logs::LineSplitter splitter;
    qint64 number = 0;
    auto emitLines = [&](const QList<logs::SplitLine> &lines) {
        for (const logs::SplitLine &l : lines) {
            ++number;
            if (l.progress) {
                continue; // a progress bar's intermediate frame: its final frame is the line kept
            }
            const int i = rules.value().classify(l.text);
            if (highlightsOnly && i < 0) {
                continue;
            }
            const logs::LogRule *rule = i >= 0 ? &rules.value().rules().at(i) : nullptr;
            // Logs sent by others may hold keys or prompts: the same redactor as our own logs.
            const QString text = redactor.redact(QString::fromUtf8(l.text)) +
                (l.cut ? QStringLiteral(" … [line cut at 1 MiB]") : QString());
            if (!json) {
                c.out << mark(rule ? rule->severity : QString()) << ' '
                      << (rule ? rule->id : QString()).leftJustified(15) << ' ' << text << '\n';
                continue;
            }
            nlohmann::json o = {{"line", number},
                                {"text", text.toStdString()},
                                {"rule", rule ? nlohmann::json(rule->id.toStdString()) : nlohmann::json(nullptr)},
                                {"severity", rule ? rule->severity.toStdString() : std::string("info")}};
            if (rule && rule->id == QLatin1String("decode")) {
                if (const auto s = metrics::snapshotFromDecodeLine(l.text, 0)) {
                    auto put = [&o](const char *k, const std::optional<double> &v) {
                        o[k] = v ? nlohmann::json(*v) : nlohmann::json(nullptr);
                    };
                    put("token_usage", s->tokenUsage);
                    put("running", s->running);
                    put("queued", s->queued);
                    put("gen_throughput", s->genThroughput);
                    put("accept_len", s->specAcceptLength);
                }
            } else if (rule && rule->id == QLatin1String("kv-pool")) {
                if (const auto m = kvTokens.match(QString::fromUtf8(l.text)); m.hasMatch()) {
                    o["kv_tokens"] = m.captured(1).toLongLong();
                }
            }
            c.out << QString::fromStdString(o.dump()) << '\n';
        }
    };
    while (!file.atEnd()) {
        emitLines(splitter.feed(file.read(1 << 20)));
    }
    emitLines(splitter.finish());
    c.out.flush();
    return ExitOk;
}

} // namespace flashdeck::cli
