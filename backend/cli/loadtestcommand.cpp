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
#include "backend/fleet/inventory.h"
#include "backend/metrics/serversampler.h"
#include "backend/recipe/recipetexts.h"
#include "backend/security/redactor.h"
#include "backend/ssh/hostconnection.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

namespace flashdeck::cli {

namespace {

const QString kUsage =
    QStringLiteral("Usage: flashdeck loadtest HOST --concurrency N --prompt-tokens P --output-tokens O --duration S\n"
                   "                          [--json] [--csv FILE] [--no-thinking] [--port N]");

QString ms(const std::optional<double> &v)
{
    return v ? QStringLiteral("%1 ms").arg(*v, 0, 'f', 0) : QStringLiteral("—");
}

} // namespace

int runLoadTestCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
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
    p.addOptions({concurrencyOpt, promptOpt, outputOpt, durationOpt, jsonOpt, csvOpt, noThinkingOpt, portOpt});
    if (!p.parse(args)) {
        c.err << "flashdeck loadtest: " << p.errorText() << '\n' << kUsage << '\n';
        return ExitUsage;
    }
    const QStringList positional = p.positionalArguments().mid(1);
    chat::LoadTestConfig config;
    struct Number
    {
        const QCommandLineOption &option;
        int *into;
        int min;
        int max;
    };
    for (const Number &n :
         {Number{concurrencyOpt, &config.concurrency, 1, 1024}, Number{promptOpt, &config.promptTokens, 1, 1000000},
          Number{outputOpt, &config.outputTokens, 1, 1000000}, Number{durationOpt, &config.durationS, 1, 86400}}) {
        bool ok = false;
        const int v = p.value(n.option).toInt(&ok);
        if (!p.isSet(n.option) || !ok || v < n.min || v > n.max) {
            c.err << "flashdeck loadtest: --" << n.option.names().first() << ' '
                  << QCoreApplication::translate("Cli", "takes a number from %1 to %2.\n").arg(n.min).arg(n.max)
                  << kUsage << '\n';
            return ExitUsage;
        }
        *n.into = v;
    }
    if (positional.size() != 1) {
        c.err << "flashdeck loadtest: give one HOST.\n" << kUsage << '\n';
        return ExitUsage;
    }
    config.thinking = !p.isSet(noThinkingOpt);
    quint16 port = 0;
    if (p.isSet(portOpt)) {
        bool ok = false;
        const uint n = p.value(portOpt).toUInt(&ok);
        if (!ok || n == 0 || n > 65535) {
            c.err << "flashdeck loadtest: " << QCoreApplication::translate("Cli", "--port takes a port number.\n");
            return ExitUsage;
        }
        port = quint16(n);
    }
    Inventory inventory(c.paths.inventoryFile());
    if (Status s = inventory.load(); !s) {
        c.err << s.message() << '\n';
        return ExitCheckFailed;
    }
    const std::optional<HostEntry> host = inventory.find(positional.first());
    if (!host) {
        c.err << QCoreApplication::translate("Cli",
                                             "No host named \"%1\" in the inventory (see 'flashdeck hosts list').\n")
                     .arg(positional.first());
        return ExitUsage;
    }
    chat::ChatTarget target;
    if (auto t = chat::chatTargetFor(c.paths, host->name)) {
        target = t.value();
    } else if (port == 0) {
        c.err << t.message() << '\n';
        return ExitUsage;
    } else {
        target.model = QStringLiteral("default");
    }
    if (port != 0) {
        target.port = port;
    }
    config.model = target.model;
    config.profileId = target.profileId; // the Low-Latency profile is warned of (batch-size-1 steps only)
    // The key: the deployment's from the keyring, else $SGLANG_API_KEY, else (on the host) the
    // one its running server was started with.
    const StoredApiKey stored = storedApiKey(target.deploymentId);

    const bool json = p.isSet(jsonOpt);
    const QString csv = p.value(csvOpt);
    if (const QString warning = recipetexts::loadTestProfileWarning(config.profileId); !warning.isEmpty()) {
        c.err << "flashdeck loadtest: " << warning << '\n'; // before the run, as the report repeats it
    }
    StopSignals stopSignals;
    return runOnHost(*host, c, [&](ssh::HostConnection &connection, std::function<void(int)> done) {
        withApiKey(
            connection, c, QStringLiteral("loadtest"), target.deploymentId, stored, done,
            [&, done](const QString &apiKey) {
                auto *client = new chat::ChatClient(connection, target.port, &connection);
                client->setApiKey(apiKey);
                auto *test = new chat::LoadTest(*client, config, client);
                // The server's side, beside the client's figures: its KV use and queue every second.
                auto *sampler = new metrics::ServerSampler(connection, target.port, apiKey, 1000, test);
                QObject::connect(sampler, &metrics::ServerSampler::sampled, test,
                                 [test](const metrics::ServerSnapshot &s, const metrics::ServerRates &) {
                                     test->setServerLoad(s.tokenUsage, s.queued, s.running, s.genThroughput);
                                 });
                sampler->start();
                QObject::connect(test, &chat::LoadTest::progress, test, [&c](const chat::LoadTestReport &r) {
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
                                 .arg(t && t->kvUsage ? QStringLiteral("%1 %").arg(*t->kvUsage * 100, 0, 'f', 1)
                                                      : QStringLiteral("—"),
                                      t && t->queued ? QString::number(*t->queued) : QStringLiteral("—"));
                    c.err.flush();
                });
                QObject::connect(
                    test, &chat::LoadTest::finished, test,
                    [&c, json, csv, done, sampler](const chat::LoadTestReport &r) {
                        sampler->stop(); // its tunnel closes while the connection is still there
                        if (!csv.isEmpty()) {
                            if (const Status s = writeFileAtomically(csv, r.toCsv()); !s) {
                                c.err << "flashdeck loadtest: "
                                      << QCoreApplication::translate("Cli", "cannot write %1: %2.\n")
                                             .arg(csv, s.message());
                            }
                        }
                        if (json) {
                            c.out << QString::fromUtf8(r.toJson()) << '\n';
                        } else {
                            c.out
                                << QCoreApplication::translate(
                                       "Cli", "Load test: %1 in flight, prompts of %2 tokens, %3 tokens out, %4 s\n")
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
                        c.out.flush();
                        if (json && !r.aborted.isEmpty()) {
                            c.err << r.aborted << '\n';
                        }
                        done(r.failed > 0 || !r.aborted.isEmpty() ? ExitCheckFailed : ExitOk);
                    });
                QObject::connect(&stopSignals, &StopSignals::stopRequested, test, [test](int) { test->stop(); });
                test->start();
            });
    });
}

} // namespace flashdeck::cli
