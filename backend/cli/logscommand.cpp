#include "backend/cli/logscommand.h"

#include "backend/cli/clisession.h"
#include "backend/cli/exitcodes.h"
#include "backend/core/apppaths.h"
#include "backend/core/stopsignals.h"
#include "backend/fleet/hostsession.h"
#include "backend/fleet/inventory.h"
#include "backend/logs/linesplitter.h"
#include "backend/logs/logfollower.h"
#include "backend/logs/loghighlights.h"
#include "backend/logs/logrules.h"
#include "backend/metrics/serversnapshot.h"
#include "backend/security/redactor.h"
#include "backend/ssh/transport.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QRegularExpression>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace flashdeck::cli {

namespace {

const QString kLogsUsage = QStringLiteral(
    "Usage: flashdeck logs HOST [--follow] [--tail N] [--container NAME] [--highlights-only] "
    "[--timestamps] [--polls] [--json]\n       flashdeck logs --file PATH [--highlights-only] [--polls] [--json]");

const char *mark(const QString &severity)
{
    return severity == QLatin1String("ok")   ? "✓"
        : severity == QLatin1String("warn")  ? "⚠"
        : severity == QLatin1String("error") ? "✗"
        : severity == QLatin1String("info")  ? "·"
                                             : " ";
}

/** Prints classified lines the same way for a saved file and a live container. */
class LinePrinter
{
public:
    LinePrinter(CliContext &c, const logs::LogRules &rules, bool json, bool highlightsOnly, bool timestamps, bool polls)
        : m_c(c)
        , m_rules(rules)
        , m_json(json)
        , m_highlightsOnly(highlightsOnly)
        , m_timestamps(timestamps)
        , m_polls(polls)
        , m_pollRule(rules.indexOf(QStringLiteral("poll")))
        , m_noted(std::size_t(rules.rules().size()), false)
    {
        const auto label = [](const QString &severity, const QString &id) {
            const QString shown =
                QString::fromUtf8(mark(severity)) + QLatin1Char(' ') + id.leftJustified(15) + QLatin1Char(' ');
            return shown.toStdString();
        };
        for (const logs::LogRule &r : rules.rules()) {
            m_labels.push_back(label(r.severity, r.id));
        }
        m_noLabel = label(QString(), QString());
        m_text.reserve(kBlock + (64 << 10));
    }

    void print(qint64 number, QByteArrayView bytes, int ruleIndex, bool cut, qint64 timeNs, int stream)
    {
        const logs::LogRule *rule = ruleIndex >= 0 ? &m_rules.rules().at(ruleIndex) : nullptr;
        if (rule && !m_noted.at(std::size_t(ruleIndex))) {
            m_noted[std::size_t(ruleIndex)] = true; // what a rule tells the badges, it tells once
            m_highlights.note(rule->id);
        }
        // Health and metrics polls (Flashdeck's monitor's among them) are most of an idle
        // server's log: counted, and shown with --polls.
        if (ruleIndex >= 0 && ruleIndex == m_pollRule && !m_polls) {
            ++m_foldedPolls;
            return;
        }
        if (m_highlightsOnly && !rule) {
            return;
        }
        const QString time = timeNs > 0
            ? QDateTime::fromMSecsSinceEpoch(timeNs / 1000000, Qt::UTC).toString(Qt::ISODateWithMs)
            : QString();
        if (!m_json) {
            // Bytes in, bytes out: no round trip through QString, written in large blocks
            // (most of a server's log is decode lines, and most of what this prints).
            if (m_timestamps && !time.isEmpty()) {
                m_text.append(time.toStdString()).push_back(' ');
            }
            m_text.append(ruleIndex >= 0 ? m_labels.at(std::size_t(ruleIndex)) : m_noLabel);
            // Logs may hold keys or prompts (F32): the same redactor as Flashdeck's own logs.
            m_redactor().redactInto(std::string_view(bytes.data(), std::size_t(bytes.size())), m_text);
            if (cut) {
                m_text.append(" … [line cut at 1 MiB]");
            }
            m_text.push_back('\n');
            if (m_text.size() >= kBlock) {
                flush();
            }
            return;
        }
        const QString text = m_redactor().redact(QString::fromUtf8(bytes)) +
            (cut ? QStringLiteral(" … [line cut at 1 MiB]") : QString());
        nlohmann::json o = {{"line", number},
                            {"text", text.toStdString()},
                            {"rule", rule ? nlohmann::json(rule->id.toStdString()) : nlohmann::json(nullptr)},
                            {"severity", rule ? rule->severity.toStdString() : std::string("info")}};
        if (timeNs > 0) {
            o["time"] = time.toStdString();
            o["stream"] = stream == 2 ? "stderr" : "stdout";
        }
        if (rule && rule->id == QLatin1String("decode")) {
            if (const auto s = metrics::snapshotFromDecodeLine(bytes, 0)) {
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
            static const QRegularExpression kvTokens(QStringLiteral("(?:#tokens: |max_total_num_tokens=)(\\d+)"));
            if (const auto m = kvTokens.match(QString::fromUtf8(bytes)); m.hasMatch()) {
                o["kv_tokens"] = m.captured(1).toLongLong();
            }
        }
        m_c.out << QString::fromStdString(o.dump()) << '\n';
    }

    /** Writes what the text view holds: to the terminal's or file's device as it is. */
    void flush()
    {
        if (m_text.empty()) {
            return;
        }
        m_c.out.flush();
        if (QIODevice *device = m_c.out.device()) {
            device->write(m_text.data(), qint64(m_text.size()));
            // stdout's QFile buffers too: hand the block to the kernel now (a follower's reader
            // waits for each line).
            if (auto *file = qobject_cast<QFileDevice *>(device)) {
                (void)file->flush();
            }
        } else { // a QString stream (--help's capture): through it
            m_c.out << QString::fromUtf8(m_text.data(), qsizetype(m_text.size()));
        }
        m_text.clear();
    }

    void setRecordedQmul4(logs::LogHighlights::Qmul4 verdict)
    {
        m_recorded = verdict;
        m_highlights.setRecorded(verdict);
    }

    /** Another container's log starts: the summary judges its start-up alone. */
    void restart()
    {
        flush();
        m_highlights.reset();
        m_highlights.setRecorded(m_recorded);
    }

    /** The badges' verdicts, once the log is over (not in --json: one object per line there). */
    void summary()
    {
        flush();
        if (m_json) {
            return;
        }
        m_highlights.setEnded(true); // the whole log was read: no start-up line now means none
        m_c.err << m_highlights.qmul4Text();
        if (!m_highlights.dsparkText().isEmpty()) {
            m_c.err << " · " << m_highlights.dsparkText();
        }
        if (m_foldedPolls > 0) {
            m_c.err << " · "
                    << QCoreApplication::translate("Cli", "%1 health and metrics polls folded (--polls shows them)")
                           .arg(m_foldedPolls);
        }
        m_c.err << '\n';
    }

private:
    const security::Redactor &m_redactor() const { return m_c.redactor ? *m_c.redactor : m_ownRedactor; }

    CliContext &m_c;
    const logs::LogRules &m_rules;
    bool m_json;
    bool m_highlightsOnly;
    bool m_timestamps;
    bool m_polls;
    int m_pollRule;
    qint64 m_foldedPolls = 0;
    security::Redactor m_ownRedactor;
    logs::LogHighlights m_highlights;
    logs::LogHighlights::Qmul4 m_recorded = logs::LogHighlights::Qmul4::Unknown;
    static constexpr std::size_t kBlock = 1 << 20;
    std::string m_text; // the text view's pending output
    std::vector<std::string> m_labels; // per rule: "✓ ready           ", as the text view prints it
    std::string m_noLabel;
    std::vector<bool> m_noted;
};

int classifyFile(const QString &path, const logs::LogRules &rules, LinePrinter &printer, CliContext &c)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        c.err << QCoreApplication::translate("Cli", "Cannot read %1: %2.\n").arg(file.fileName(), file.errorString());
        return ExitCheckFailed;
    }
    logs::LineSplitter splitter;
    qint64 number = 0;
    const auto emitLine = [&](QByteArrayView text, bool progress, bool cut) {
        ++number;
        if (progress) {
            return; // a progress bar's intermediate frame: its final frame is the line kept
        }
        printer.print(number, text, rules.classify(text), cut, 0, 1);
    };
    QByteArray block(1 << 20, Qt::Uninitialized);
    for (qint64 n; (n = file.read(block.data(), block.size())) > 0;) {
        splitter.feedEach(QByteArrayView(block.constData(), n), emitLine);
    }
    splitter.finishEach(emitLine);
    printer.summary();
    c.out.flush();
    return ExitOk;
}

int followHost(const fleet::HostEntry &host, logs::LogFollower::Options options, const logs::LogRules &rules,
               LinePrinter &printer, CliContext &c)
{
    StopSignals stopSignals;
    return runOnHost(host, c, [&](fleet::HostSession &session, std::function<void(int)> done) {
        ssh::Transport &connection = session.connection();
        auto *follower = new logs::LogFollower(connection, rules, options, &connection);
        QObject::connect(follower, &logs::LogFollower::recordsArrived, follower,
                         [&printer, &c](const QList<logs::LogRecord> &records) {
                             for (const logs::LogRecord &r : records) {
                                 printer.print(r.seq, r.text, r.rule, r.cut, r.timeNs, r.stream);
                             }
                             printer.flush(); // following: each batch as it comes
                             c.out.flush();
                         });
        QObject::connect(
            follower, &logs::LogFollower::containerReplaced, follower, [&printer, &c](const QString &name) {
                printer.restart();
                c.out.flush();
                c.err << "flashdeck logs: "
                      << (name.isEmpty()
                              ? QCoreApplication::translate("Logs",
                                                            "the container followed is gone; waiting for a new one")
                              : QCoreApplication::translate(
                                    "Logs", "a new container, %1, replaced the one followed; its log starts here")
                                    .arg(name))
                      << '\n';
                c.err.flush();
            });
        // Following: say on stderr what the stream is doing (waiting, reconnecting), once each.
        QObject::connect(follower, &logs::LogFollower::stateChanged, follower, [follower, &c, options] {
            const auto s = follower->state();
            if (options.follow &&
                (s == logs::LogFollower::State::Waiting || s == logs::LogFollower::State::Failed ||
                 (s == logs::LogFollower::State::Connecting && follower->delivered() > 0))) {
                c.err << "flashdeck logs: " << follower->stateText() << '\n';
                c.err.flush();
            }
        });
        QObject::connect(follower, &logs::LogFollower::finished, follower, [follower, &printer, &c, done] {
            if (follower->state() == logs::LogFollower::State::Failed) {
                c.err << follower->stateText() << '\n';
                done(ExitCheckFailed);
                return;
            }
            printer.summary();
            done(ExitOk);
        });
        QObject::connect(&stopSignals, &StopSignals::stopRequested, follower, [follower, &printer, done](int) {
            follower->stop(); // hands out what it holds first
            printer.summary();
            done(ExitOk);
        });
        follower->start();
    });
}

} // namespace

int runLogsCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption fileOpt(QStringLiteral("file"),
                                     QCoreApplication::translate("Cli", "A saved SGLang log to classify."),
                                     QStringLiteral("PATH"));
    const QCommandLineOption followOpt(
        {QStringLiteral("f"), QStringLiteral("follow")},
        QCoreApplication::translate("Cli", "Keep printing new lines; survives reconnects and restarts."));
    const QCommandLineOption tailOpt(QStringLiteral("tail"),
                                     QCoreApplication::translate("Cli", "Start with the last N lines (default: all)."),
                                     QStringLiteral("N"));
    const QCommandLineOption containerOpt(
        QStringLiteral("container"),
        QCoreApplication::translate("Cli", "Follow this container instead of the host's deployment."),
        QStringLiteral("NAME"));
    const QCommandLineOption highlightsOpt(QStringLiteral("highlights-only"),
                                           QCoreApplication::translate("Cli", "Only the lines a rule matches."));
    const QCommandLineOption timestampsOpt(
        QStringLiteral("timestamps"), QCoreApplication::translate("Cli", "Show Docker's time of each line (UTC)."));
    const QCommandLineOption jsonOpt(QStringLiteral("json"),
                                     QCoreApplication::translate("Cli", "One JSON object per line."));
    const QCommandLineOption pollsOpt(
        QStringLiteral("polls"),
        QCoreApplication::translate("Cli", "Show the health and metrics polls (folded: SGLang logs each one)."));
    p.addOptions({fileOpt, followOpt, tailOpt, containerOpt, highlightsOpt, timestampsOpt, pollsOpt, jsonOpt});
    if (!p.parse(args)) {
        c.err << "flashdeck logs: " << p.errorText() << '\n' << kLogsUsage << '\n';
        return ExitUsage;
    }
    const QStringList positional = p.positionalArguments().mid(1);
    const bool fromFile = p.isSet(fileOpt);
    if ((fromFile && !positional.isEmpty()) || (!fromFile && positional.size() != 1) ||
        (fromFile && (p.isSet(followOpt) || p.isSet(tailOpt) || p.isSet(containerOpt)))) {
        c.err << "flashdeck logs: give either one HOST or --file PATH.\n" << kLogsUsage << '\n';
        return ExitUsage;
    }
    bool tailOk = true;
    const qint64 tail = p.isSet(tailOpt) ? p.value(tailOpt).toLongLong(&tailOk) : -1;
    if (!tailOk || (p.isSet(tailOpt) && tail < 0)) {
        c.err << "flashdeck logs: "
              << QCoreApplication::translate("Cli", "--tail needs a number of lines (0 or more).\n");
        return ExitUsage;
    }
    const auto rules = logs::LogRules::builtIn();
    if (!rules) {
        c.err << rules.message() << '\n';
        return ExitCheckFailed;
    }
    LinePrinter printer(c, rules.value(), p.isSet(jsonOpt), p.isSet(highlightsOpt), p.isSet(timestampsOpt),
                        p.isSet(pollsOpt));
    if (fromFile) {
        return classifyFile(p.value(fileOpt), rules.value(), printer, c);
    }
    fleet::Inventory inventory(c.paths.inventoryFile());
    if (Status s = inventory.load(); !s) {
        c.err << s.message() << '\n';
        return ExitCheckFailed;
    }
    const std::optional<fleet::HostEntry> host = inventory.find(positional.first());
    if (!host) {
        c.err << QCoreApplication::translate("Cli", "No host named \"%1\" in the inventory.\n").arg(positional.first());
        return ExitUsage;
    }
    logs::LogFollower::Options options;
    options.hostName = host->name;
    options.container = p.value(containerOpt);
    options.tail = tail;
    options.follow = p.isSet(followOpt);
    if (options.container.isEmpty()) {
        // A tail of a long-running server no longer holds its start-up: say what the deployment saw.
        printer.setRecordedQmul4(logs::LogHighlights::recorded(c.paths, host->name));
    }
    return followHost(*host, options, rules.value(), printer, c);
}

} // namespace flashdeck::cli
