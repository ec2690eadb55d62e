#include "backend/cli/loadtestcommand.h"

#include "backend/chat/chatclient.h"
#include "backend/chat/chattarget.h"
#include "backend/chat/loadtest.h"
#include "backend/cli/cliapikey.h"
#include "backend/cli/clisession.h"
#include "backend/cli/exitcodes.h"
#include "backend/cli/hostscommand.h"
#include "backend/core/apppaths.h"
#include "backend/core/atomicfile.h"
#include "backend/core/stopsignals.h"
#include "backend/fleet/hostsession.h"
#include "backend/fleet/inventory.h"
#include "backend/metrics/serversampler.h"
#include "backend/recipe/recipetexts.h"
#include "backend/security/redactor.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

namespace flashdeck::cli {

namespace {

const QString kLoadtestUsage =
    QStringLiteral("Usage: flashdeck loadtest HOST --concurrency N --prompt-tokens P --output-tokens O --duration S\n"
                   "                          [--json] [--csv FILE] [--no-thinking] [--port N]");

QString ms(const std::optional<double> &v)
{
    return v ? QStringLiteral("%1 ms").arg(*v, 0, 'f', 0) : QStringLiteral("—");
}

/** loadtest's options, read by one parser. */
struct LoadTestOptions
{
    QCommandLineOption concurrencyOpt, promptOpt, outputOpt, durationOpt, jsonOpt, csvOpt, noThinkingOpt, portOpt;
};

LoadTestOptions loadTestOptions()
{
    const QCommandLineOption concurrencyOpt(
        QStringLiteral("concurrency"), QCoreApplication::translate("Cli", "Requests in flight."), QStringLiteral("N"));
    const QCommandLineOption promptOpt(QStringLiteral("prompt-tokens"),
                                       QCoreApplication::translate("Cli", "Prompt length in tokens."),
                                       QStringLiteral("P"));
    const QCommandLineOption outputOpt(QStringLiteral("output-tokens"),
                                       QCoreApplication::translate("Cli", "Tokens generated per request."),
                                       QStringLiteral("O"));
    const QCommandLineOption durationOpt(QStringLiteral("duration"),
                                         QCoreApplication::translate("Cli", "Seconds to keep starting requests."),
                                         QStringLiteral("S"));
    const QCommandLineOption jsonOpt(QStringLiteral("json"),
                                     QCoreApplication::translate("Cli", "The report as one JSON object."));
    const QCommandLineOption csvOpt(QStringLiteral("csv"),
                                    QCoreApplication::translate("Cli", "Write one row per request to FILE."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption noThinkingOpt(QStringLiteral("no-thinking"),
                                           QCoreApplication::translate("Cli", "Requests without reasoning."));
    const QCommandLineOption portOpt(
        QStringLiteral("port"),
        QCoreApplication::translate("Cli", "The server's port on the host (default: the deployment's)."),
        QStringLiteral("N"));
    return {concurrencyOpt, promptOpt, outputOpt, durationOpt, jsonOpt, csvOpt, noThinkingOpt, portOpt};
}

/** What the command line asks for, checked. */
struct LoadTestRequest
{
    chat::LoadTestConfig config;
    QString hostName;
    quint16 port = 0; // 0: the deployment's
    bool json = false;
    QString csv;
};

/** The exit code where the command stops; none: go on. */
using Stop = std::optional<int>;

/** --concurrency, --prompt-tokens, --output-tokens and --duration: each given, each in range. */
Stop readNumbers(const QCommandLineParser &p, const LoadTestOptions &o, CliContext &c, chat::LoadTestConfig &config)
{
    struct Number
    {
        const QCommandLineOption &option;
        int *into;
        int min;
        int max;
    };
    for (const Number &n :
         {Number{o.concurrencyOpt, &config.concurrency, 1, 1024}, Number{o.promptOpt, &config.promptTokens, 1, 1000000},
          Number{o.outputOpt, &config.outputTokens, 1, 1000000}, Number{o.durationOpt, &config.durationS, 1, 86400}}) {
        bool ok = false;
        const int v = p.value(n.option).toInt(&ok);
        if (!p.isSet(n.option) || !ok || v < n.min || v > n.max) {
            c.err << "flashdeck loadtest: --" << n.option.names().first() << ' '
                  << QCoreApplication::translate("Cli", "takes a number from %1 to %2.\n").arg(n.min).arg(n.max)
                  << kLoadtestUsage << '\n';
            return ExitUsage;
        }
        *n.into = v;
    }
    return std::nullopt;
}

Stop readRequest(const QStringList &args, CliContext &c, LoadTestRequest &r)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const LoadTestOptions o = loadTestOptions();
    p.addOptions(
        {o.concurrencyOpt, o.promptOpt, o.outputOpt, o.durationOpt, o.jsonOpt, o.csvOpt, o.noThinkingOpt, o.portOpt});
    if (!p.parse(args)) {
        c.err << "flashdeck loadtest: " << p.errorText() << '\n' << kLoadtestUsage << '\n';
        return ExitUsage;
    }
    const QStringList positional = p.positionalArguments().mid(1);
    if (const Stop stop = readNumbers(p, o, c, r.config)) {
        return stop;
    }
    if (positional.size() != 1) {
        c.err << "flashdeck loadtest: give one HOST.\n" << kLoadtestUsage << '\n';
        return ExitUsage;
    }
    r.hostName = positional.first();
    r.config.thinking = !p.isSet(o.noThinkingOpt);
    if (p.isSet(o.portOpt)) {
        bool ok = false;
        const uint n = p.value(o.portOpt).toUInt(&ok);
        if (!ok || n == 0 || n > 65535) {
            c.err << "flashdeck loadtest: " << QCoreApplication::translate("Cli", "--port takes a port number.\n");
            return ExitUsage;
        }
        r.port = quint16(n);
    }
    r.json = p.isSet(o.jsonOpt);
    r.csv = p.value(o.csvOpt);
    return std::nullopt;
}

/** The server to load: the deployment's, or (--port) any on the host; its model goes into the config. */
Stop resolveTarget(CliContext &c, const fleet::HostEntry &host, LoadTestRequest &r, chat::ChatTarget &target)
{
    if (auto t = chat::chatTargetFor(c.paths, host.name)) {
        target = t.value();
    } else if (r.port == 0) {
        c.err << t.message() << '\n';
        return ExitUsage;
    } else {
        target.model = QStringLiteral("default");
    }
    if (r.port != 0) {
        target.port = r.port;
    }
    r.config.model = target.model;
    r.config.profileId = target.profileId; // the Low-Latency profile is warned of (batch-size-1 steps only)
    return std::nullopt;
}

/** One line on stderr every second while the test runs. */
void printLoadProgress(CliContext &c, const chat::LoadTestReport &r)
{
    const chat::LoadTestTick *t = r.ticks.isEmpty() ? nullptr : &r.ticks.last();
    c.err << QCoreApplication::translate(
                 "Cli",
                 "%1 s · %2 in flight · %3 done · %4 failed · TTFT p50 %5 · %6 tokens/s · KV %7 · "
                 "queue %8\n")
                 .arg(r.elapsedS, 0, 'f', 0)
                 .arg(r.inFlight)
                 .arg(r.completed)
                 .arg(r.failed)
                 .arg(ms(r.ttftP50Ms))
                 .arg(t ? t->tokensPerSecond : 0, 0, 'f', 0)
                 .arg(t && t->kvUsage ? QStringLiteral("%1 %").arg(*t->kvUsage * 100, 0, 'f', 1) : QStringLiteral("—"),
                      t && t->queued ? QString::number(*t->queued) : QStringLiteral("—"));
    c.err.flush();
}

/** The report in words. */
void printReport(CliContext &c, const chat::LoadTestReport &r)
{
    c.out << QCoreApplication::translate("Cli", "Load test: %1 in flight, prompts of %2 tokens, %3 tokens out, %4 s\n")
                 .arg(r.config.concurrency)
                 .arg(r.config.promptTokens)
                 .arg(r.config.outputTokens)
                 .arg(r.elapsedS, 0, 'f', 1)
          << QCoreApplication::translate("Cli", "  completed        %1 (%2 requests/s)\n")
                 .arg(r.completed)
                 .arg(r.requestsPerSecond, 0, 'f', 2)
          << QStringLiteral("  failed           %1\n").arg(r.failed)
          << QStringLiteral("  TTFT p50 / p95   %1 / %2\n").arg(ms(r.ttftP50Ms), ms(r.ttftP95Ms))
          << QStringLiteral("  ITL p50 / p95    %1 / %2\n").arg(ms(r.itlP50Ms), ms(r.itlP95Ms))
          << QStringLiteral("  tokens/s         %1 (client) · %2 (server)\n")
                 .arg(r.tokensPerSecond, 0, 'f', 1)
                 .arg(r.serverTokensPerSecond ? QString::number(*r.serverTokensPerSecond, 'f', 1)
                                              : QStringLiteral("—"));
    if (!r.aborted.isEmpty()) {
        c.out << "  " << r.aborted << '\n';
    }
    for (const QString &n : r.notes()) {
        c.out << "  note: " << n << '\n';
    }
    for (const QString &e : r.errors) {
        c.out << "  error: " << e << '\n';
    }
}

/** The finished test: its CSV, its report (JSON or words); the exit code. */
int reportFinished(CliContext &c, bool json, const QString &csv, const chat::LoadTestReport &r)
{
    if (!csv.isEmpty()) {
        if (const Status s = writeFileAtomically(csv, r.toCsv()); !s) {
            c.err << "flashdeck loadtest: "
                  << QCoreApplication::translate("Cli", "cannot write %1: %2.\n").arg(csv, s.message());
        }
    }
    if (json) {
        c.out << QString::fromUtf8(r.toJson()) << '\n';
    } else {
        printReport(c, r);
    }
    c.out.flush();
    if (json && !r.aborted.isEmpty()) {
        c.err << r.aborted << '\n';
    }
    return r.failed > 0 || !r.aborted.isEmpty() ? ExitCheckFailed : ExitOk;
}

/**
 * Starts the test on the ready session, with the server's own figures sampled beside it;
 * `done` gets the exit code when it has finished. Everything it starts belongs to the session.
 */
void startLoadTest(fleet::HostSession &session, CliContext &c, const LoadTestRequest &r, quint16 port,
                   const QString &apiKey, StopSignals &stopSignals, const std::function<void(int)> &done)
{
    chat::ChatClient *client = session.chatClient(port, &session);
    client->setApiKey(apiKey);
    auto *test = new chat::LoadTest(*client, r.config, client);
    // The server's side, beside the client's figures: its KV use and queue every second.
    metrics::ServerSampler *sampler = session.serverSampler(port, apiKey, 1000).release();
    sampler->setParent(test);
    QObject::connect(sampler, &metrics::ServerSampler::sampled, test,
                     [test](const metrics::ServerSnapshot &s, const metrics::ServerRates &) {
                         test->setServerLoad(s.tokenUsage, s.queued, s.running, s.genThroughput);
                     });
    sampler->start();
    QObject::connect(test, &chat::LoadTest::progress, test,
                     [&c](const chat::LoadTestReport &report) { printLoadProgress(c, report); });
    QObject::connect(test, &chat::LoadTest::finished, test,
                     [&c, json = r.json, csv = r.csv, done, sampler](const chat::LoadTestReport &report) {
                         sampler->stop(); // its tunnel closes while the connection is still there
                         done(reportFinished(c, json, csv, report));
                     });
    QObject::connect(&stopSignals, &StopSignals::stopRequested, test, [test](int) { test->stop(); });
    test->start();
}

} // namespace

int runLoadTestCommand(const QStringList &args, CliContext &c)
{
    LoadTestRequest r;
    if (const Stop stop = readRequest(args, c, r)) {
        return *stop;
    }
    int code = ExitOk;
    const std::optional<fleet::HostEntry> host = findHost(c, r.hostName, &code);
    if (!host) {
        return code;
    }
    chat::ChatTarget target;
    if (const Stop stop = resolveTarget(c, *host, r, target)) {
        return *stop;
    }
    // The key: the deployment's from the keyring, else $SGLANG_API_KEY, else (on the host) the
    // one its running server was started with.
    const StoredApiKey stored = storedApiKey(target.deploymentId);
    if (const QString warning = recipe::texts::loadTestProfileWarning(r.config.profileId); !warning.isEmpty()) {
        c.err << "flashdeck loadtest: " << warning << '\n'; // before the run, as the report repeats it
    }
    StopSignals stopSignals;
    return runOnHost(*host, c, [&](fleet::HostSession &session, std::function<void(int)> done) {
        withApiKey(
            session, c, QStringLiteral("loadtest"), target.deploymentId, stored, done,
            [&, done](const QString &apiKey) { startLoadTest(session, c, r, target.port, apiKey, stopSignals, done); });
    });
}

} // namespace flashdeck::cli
