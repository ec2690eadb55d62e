// Composition root: builds the services, then runs either the GUI or a CLI command.

#include "backend/applog/logging.h"
#include "backend/cli/chatcommand.h"
#include "backend/cli/cliapikey.h"
#include "backend/cli/democommand.h"
#include "backend/cli/deploycommand.h"
#include "backend/cli/exitcodes.h"
#include "backend/cli/exposecommand.h"
#include "backend/cli/hostscommand.h"
#include "backend/cli/licensecommand.h"
#include "backend/cli/loadtestcommand.h"
#include "backend/cli/logscommand.h"
#include "backend/cli/outputtap.h"
#include "backend/cli/pinscommand.h"
#include "backend/cli/prometheuscommand.h"
#include "backend/cli/prunecommand.h"
#include "backend/cli/recipescommand.h"
#include "backend/cli/runbookcommand.h"
#include "backend/cli/statuscommand.h"
#include "backend/cli/terminalprompt.h"
#include "backend/cli/tunnelcommand.h"
#include "backend/cli/undeploycommand.h"
#include "backend/cli/unexposecommand.h"
#include "backend/cli/upgradecommand.h"
#include "backend/core/apppaths.h"
#include "backend/core/buildinfo.h"
#include "backend/core/language.h"
#include "backend/core/settings.h"
#include "backend/core/singleinstance.h"
#include "backend/core/stopsignals.h"
#include "backend/demo/demohost.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/inventory.h"
#include "backend/metrics/hoststatus.h"
#include "backend/prometheus/promconfig.h"
#include "backend/security/redactor.h"
#include "backend/security/secretstore.h"
#include "backend/ssh/runtimeinfo.h"
#include "ui/firstpaintprobe.h"
#include "ui/focusringstyle.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QStyle>
#include <QTextStream>

#include <spdlog/logger.h>

#include <cstdio>
#include <memory>
#include <utility>

namespace {

using flashdeck::cli::ExitCheckFailed;
using flashdeck::cli::ExitOk;
using flashdeck::cli::ExitUsage;

// The window opens only when every argument is one of its own options; a command, --help,
// --version or anything unknown goes to the command line, so the CLI never needs a display and
// a mistyped option gets "Unknown option", not a failed attempt to open a window.
bool wantsGui(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "--config-dir" || arg == "--lang") {
            ++i; // its value is not a command
            continue;
        }
        if (arg.startsWith("--config-dir=") || arg.startsWith("--lang=") || arg == "--demo" || arg == "--log-stderr") {
            continue;
        }
        return false;
    }
    return true;
}

/** Why the window cannot open here, or empty (a display, or a platform chosen on purpose). */
QString missingDisplay()
{
    if (!qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") || !qEnvironmentVariableIsEmpty("DISPLAY") ||
        !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
        return {};
    }
    return QCoreApplication::translate("main",
                                       "flashdeck: no display to open the window on (DISPLAY and WAYLAND_DISPLAY "
                                       "are not set).\nRun it in a desktop session, under Xvfb (xvfb-run "
                                       "flashdeck), or use a command: flashdeck --help.");
}

void printErr(const QString &text)
{
    QTextStream(stderr) << text << Qt::endl;
}

// An error before the command runs (an unknown --lang, a configuration folder that cannot be
// made): in words on stderr, and under --json also the one object a script reads on stdout, as
// every command's error is.
int earlyError(const QStringList &args, int rc, const QString &text)
{
    printErr(text);
    if (args.contains(QLatin1String("--json"))) {
        const QByteArray object = flashdeck::cli::jsonErrorFor(rc, text);
        std::fwrite(object.constData(), 1, size_t(object.size()), stdout);
        std::fflush(stdout);
    }
    return rc;
}

// Global options may also follow the command ("flashdeck hosts list --config-dir X"); the
// command's own parser accepts them, and this finds their value.
QString optionValueAnywhere(const QStringList &args, const QString &name)
{
    const QString flag = QStringLiteral("--") + name;
    for (qsizetype i = 1; i < args.size(); ++i) {
        if (args.at(i) == flag && i + 1 < args.size()) {
            return args.at(i + 1);
        }
        if (args.at(i).startsWith(flag + QLatin1Char('='))) {
            return args.at(i).mid(flag.size() + 1);
        }
    }
    return {};
}

/** The window's and every command's global options. */
struct MainOptions
{
    QCommandLineOption versionOption, configDirOption, logStderrOption, langOption, demoOption;
};

MainOptions mainOptions()
{
    const QCommandLineOption versionOption(
        {QStringLiteral("v"), QStringLiteral("version")},
        QCoreApplication::translate("main", "Print the versions of Flashdeck, Qt and libssh."));
    const QCommandLineOption configDirOption(
        QStringLiteral("config-dir"),
        QCoreApplication::translate("main", "Keep settings, inventory, data and logs under DIR."),
        QStringLiteral("DIR"));
    const QCommandLineOption logStderrOption(
        QStringLiteral("log-stderr"), QCoreApplication::translate("main", "Also write the log to standard error."));
    const QCommandLineOption langOption(
        QStringLiteral("lang"),
        QCoreApplication::translate("main",
                                    "Speak LANG: zh_CN (简体中文), en, or system (the default: the system "
                                    "locale, unless Settings → Language chose)."),
        QStringLiteral("LANG"));
    const QCommandLineOption demoOption(
        QStringLiteral("demo"),
        QCoreApplication::translate(
            "main", "Open the window with simulated GPU hosts on loopback (started now, stopped on exit)."));
    return {versionOption, configDirOption, logStderrOption, langOption, demoOption};
}

/** The parser of `flashdeck [options] [command]`: everything after the command is the command's. */
void describe(QCommandLineParser &parser, const MainOptions &o)
{
    parser.setApplicationDescription(QCoreApplication::translate(
        "main",
        "Flashdeck: deploy, watch and talk to MiniMax-M3.1-Flash on your own GPU servers, over SSH.\n"
        "Without a command it opens the window."));
    parser.addHelpOption();
    parser.addOptions({o.versionOption, o.configDirOption, o.langOption, o.logStderrOption, o.demoOption});
    parser.addPositionalArgument(
        QStringLiteral("command"),
        QCoreApplication::translate(
            "main",
            "hosts add|list|remove|check, deploy HOST, undeploy HOST, runbook "
            "HOST, pins [lock] HOST, upgrade HOST…, prune HOST, recipes list|show, "
            "status [HOST…], prometheus rules|targets, logs HOST|--file PATH, "
            "license [HOST], chat HOST --prompt TEXT, tunnel HOST [--local-port N], "
            "loadtest HOST, expose HOST --allow CIDR, unexpose HOST, demo start|status|stop. Without a "
            "command the window opens."),
        QStringLiteral("[command]"));
    // Everything after the command belongs to the command's own parser.
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
}

/** `flashdeck COMMAND …`: the command's exit code; under --json every error is a JSON object. */
int runCommand(const QStringList &args, const QStringList &commands, const flashdeck::AppPaths &paths,
               flashdeck::security::Redactor &redactor, flashdeck::applog::Logging &logging)
{
    // Under --json every error is one JSON object on stdout, whichever command said it in
    // words only (an unknown host, a usage error): the taps see whether it printed any.
    const bool json = commands.contains(QLatin1String("--json"));
    flashdeck::cli::OutputTap outTap(stdout, false);
    flashdeck::cli::OutputTap errTap(stderr, json);
    QTextStream out(&outTap);
    QTextStream err(&errTap);
    errTap.watch(&outTap);
    static const QStringList kStreaming{QStringLiteral("logs"), QStringLiteral("deploy"), QStringLiteral("upgrade"),
                                        QStringLiteral("chat"), QStringLiteral("status")};
    const bool streamsLines = kStreaming.contains(commands.first());
    const auto finish = [&](int rc) {
        out.flush();
        err.flush();
        if (json && rc != ExitOk && outTap.written() == 0) {
            outTap.write(flashdeck::cli::jsonErrorFor(rc, errTap.kept()));
        } else if (json && streamsLines) {
            // One object per line to the end: a stream cut off after its output says why last.
            // (A one-object command, `loadtest`'s report, carries its own verdict.)
            outTap.write(flashdeck::cli::jsonClosingError(rc, outTap.lastLine(), errTap.keptSinceOther()));
        }
        return rc;
    };
    flashdeck::cli::CliContext context{paths, out, err, &flashdeck::cli::promptTerminal, &redactor};
    QStringList commandArgs{args.first()};
    commandArgs += commands;
    using Command = int (*)(const QStringList &, flashdeck::cli::CliContext &);
    static const std::pair<const char *, Command> table[] = {
        {"hosts", &flashdeck::cli::runHostsCommand},           {"deploy", &flashdeck::cli::runDeployCommand},
        {"undeploy", &flashdeck::cli::runUndeployCommand},     {"runbook", &flashdeck::cli::runRunbookCommand},
        {"recipes", &flashdeck::cli::runRecipesCommand},       {"demo", &flashdeck::cli::runDemoCommand},
        {"status", &flashdeck::cli::runStatusCommand},         {"logs", &flashdeck::cli::runLogsCommand},
        {"license", &flashdeck::cli::runLicenseCommand},       {"chat", &flashdeck::cli::runChatCommand},
        {"upgrade", &flashdeck::cli::runUpgradeCommand},       {"prune", &flashdeck::cli::runPruneCommand},
        {"loadtest", &flashdeck::cli::runLoadTestCommand},     {"pins", &flashdeck::cli::runPinsCommand},
        {"prometheus", &flashdeck::cli::runPrometheusCommand}, {"tunnel", &flashdeck::cli::runTunnelCommand},
        {"expose", &flashdeck::cli::runExposeCommand},         {"unexpose", &flashdeck::cli::runUnexposeCommand},
    };
    // `flashdeck COMMAND --help` prints the command's own usage — the very text it prints on
    // a usage error, so help, errors and the man page (built from this) cannot drift apart.
    const bool help = commands.contains(QLatin1String("--help")) || commands.contains(QLatin1String("-h"));
    for (const auto &[name, run] : table) {
        if (commands.first() == QLatin1String(name) && help) {
            QString usage;
            QTextStream captured(&usage);
            flashdeck::cli::CliContext asked{paths, captured, captured, nullptr, &redactor};
            (void)run({args.first(), commands.first(), QStringLiteral("--flashdeck-usage")}, asked);
            captured.flush();
            out << usage.mid(usage.indexOf(QLatin1Char('\n')) + 1); // without the "unknown option" line
            return ExitOk;
        }
        if (commands.first() == QLatin1String(name)) {
            const int rc = run(commandArgs, context);
            logging.flush();
            return finish(rc);
        }
    }
    err << QCoreApplication::translate("main", "Unknown command \"%1\". Run 'flashdeck --help' for usage.")
               .arg(commands.first())
        << '\n';
    return finish(ExitUsage);
}

/** The window, with the fleet watched (over SSH, or the operator's Prometheus) and the demo if asked. */
int runWindow(bool demoAsked, const flashdeck::AppPaths &paths, flashdeck::Settings &settings,
              const flashdeck::ssh::RuntimeInfo &info, flashdeck::security::Redactor &redactor)
{
    // One window per user and configuration: a second start brings the first to the front.
    flashdeck::SingleInstance instance(flashdeck::SingleInstance::keyFor(paths.configDir()));
    const auto role = instance.claim();
    if (role && role.value() == flashdeck::SingleInstance::Role::Secondary) {
        printErr(QCoreApplication::translate(
            "main",
            "Flashdeck is already running for this configuration; its window was brought to "
            "the front."));
        return ExitOk;
    }
    if (!role) {
        flashdeck::applog::app().warn("{}", role.message().toStdString());
    }

    flashdeck::fleet::Inventory inventory(paths.inventoryFile());
    if (const flashdeck::Status status = inventory.load(); !status) {
        // Shown, not fatal: the window opens with an empty list and the file is left alone.
        printErr(status.message());
        flashdeck::applog::app().error("{}", status.message().toStdString());
    }
    // --demo: simulated hosts in the inventory before the window opens; stopped at exit when
    // this run started them (a demo started by `flashdeck demo start` keeps running).
    flashdeck::demo::DemoHosts demo(paths, flashdeck::demo::DemoResources::locate());
    bool stopDemoAtExit = false;
    if (demoAsked) {
        stopDemoAtExit = demo.running().isEmpty();
        const flashdeck::Result<QList<flashdeck::demo::DemoHostInfo>> started =
            demo.start(inventory, QStringLiteral("b300x4"), 0.5);
        if (!started) {
            printErr(QCoreApplication::translate("main", "flashdeck: the demo did not start: ") + started.message());
            flashdeck::applog::app().error("demo: {} {}", started.message().toStdString(),
                                           started.status().detail().toStdString());
            stopDemoAtExit = false;
        }
    }
    flashdeck::security::SecretStore secrets;
    flashdeck::fleet::FleetWatcher fleet(paths, flashdeck::metrics::AlertThresholds::fromSettings(settings), &secrets);
    fleet.setKeepHistory(settings.keepMetricsHistory());
    // The operator's Prometheus, when it is the fleet's source: set before the window lists the
    // hosts, so that the hosts it knows are not all connected over SSH first.
    if (const flashdeck::prom::PromConfig prom = flashdeck::prom::PromConfig::fromSettings(settings); prom.enabled()) {
        const flashdeck::cli::StoredApiKey secret = prom.auth == flashdeck::prom::PromAuth::None
            ? flashdeck::cli::StoredApiKey{}
            : flashdeck::cli::storedSecret(QLatin1String(flashdeck::prom::PromConfig::kSecretKey),
                                           QStringLiteral("Prometheus"), flashdeck::prom::PromConfig::kSecretEnv);
        redactor.addSecret(secret.key);
        fleet.usePrometheus(prom, secret.key);
    }
    flashdeck::ui::MainWindow window(paths, settings, inventory, info, &fleet, &redactor);
    window.setDemoHandler([&] {
        const bool wasRunning = !demo.running().isEmpty();
        const flashdeck::Result<QList<flashdeck::demo::DemoHostInfo>> started =
            demo.start(inventory, QStringLiteral("b300x4"), 0.5);
        if (!started) {
            printErr(QCoreApplication::translate("main", "flashdeck: the demo did not start: ") + started.message());
            return;
        }
        stopDemoAtExit = stopDemoAtExit || !wasRunning; // started here: stopped at exit
        window.inventoryChanged();
    });
    QObject::connect(&instance, &flashdeck::SingleInstance::activationRequested, &window, [&window] {
        window.showNormal();
        window.raise();
        window.activateWindow();
    });
    flashdeck::ui::FirstPaintProbe::installIfAsked(); // the start-up benchmark's stopwatch
    window.show();
    // Ctrl+C or a SIGTERM ends the event loop like closing the window does, so what runs at
    // exit (stopping the demo's processes) still runs.
    flashdeck::StopSignals stopSignals;
    QObject::connect(&stopSignals, &flashdeck::StopSignals::stopRequested, &window, [] { QCoreApplication::quit(); });
    const int rc = QCoreApplication::exec();
    if (stopDemoAtExit) {
        if (const flashdeck::Status s = demo.stop(inventory); !s) {
            printErr(s.message());
        }
    }
    flashdeck::applog::app().info("flashdeck exiting with {}", rc);
    return rc;
}

} // namespace

int main(int argc, char **argv)
{
    const bool gui = wantsGui(argc, argv);
    const bool noDisplay = gui && !missingDisplay().isEmpty();
    std::unique_ptr<QCoreApplication> app =
        gui && !noDisplay ? std::make_unique<QApplication>(argc, argv) : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("flashdeck"));
    QCoreApplication::setApplicationVersion(QString::fromUtf8(flashdeck::buildinfo::version));
    if (gui && !noDisplay) {
        QGuiApplication::setApplicationDisplayName(QStringLiteral("Flashdeck"));
        QGuiApplication::setDesktopFileName(QStringLiteral("io.flashdeck.Flashdeck")); // packaging/*.desktop
        // The platform's style, with a focus ring a keyboard user sees on every button.
        QApplication::setStyle(new flashdeck::ui::FocusRingStyle(QApplication::style()->name()));
    }

    // The language comes first, so that every word below (help, errors) is in it: --lang, else
    // Settings → Language, else the system locale.
    const QStringList args = QCoreApplication::arguments();
    const QString configDir = optionValueAnywhere(args, QStringLiteral("config-dir"));
    const flashdeck::AppPaths paths(configDir);
    flashdeck::Settings settings(paths);
    flashdeck::Language language;
    const QString langArg = optionValueAnywhere(args, QStringLiteral("lang"));
    const std::optional<flashdeck::UiLanguage> chosen =
        flashdeck::Language::fromName(langArg.isEmpty() ? settings.language() : langArg);
    if (!langArg.isEmpty() && !chosen) {
        return earlyError(
            args, ExitUsage,
            QCoreApplication::translate("main", "flashdeck: unknown language \"%1\"; --lang takes zh_CN, en or system.")
                .arg(langArg));
    }
    if (const flashdeck::Status s = language.install(chosen.value_or(flashdeck::UiLanguage::System)); !s) {
        printErr(s.message());
    }
    if (noDisplay) {
        printErr(missingDisplay());
        return ExitCheckFailed; // a clear word instead of Qt's abort
    }

    QCommandLineParser parser;
    const MainOptions o = mainOptions();
    describe(parser, o);
    if (!parser.parse(QCoreApplication::arguments())) {
        printErr(parser.errorText() + QCoreApplication::translate("main", "\nRun 'flashdeck --help' for usage."));
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText();
        return ExitOk;
    }
    flashdeck::ssh::RuntimeInfo info = flashdeck::ssh::RuntimeInfo::current();
    if (parser.isSet(o.versionOption)) {
        QTextStream(stdout) << info.versionText();
        return ExitOk;
    }

    QString error;
    if (!paths.ensureExists(&error)) {
        return earlyError(args, ExitCheckFailed, error);
    }
    flashdeck::security::Redactor redactor;
    flashdeck::applog::LogOptions logOptions;
    logOptions.directory = paths.logDir();
    logOptions.toStderr = parser.isSet(o.logStderrOption) || args.contains(QStringLiteral("--log-stderr"));
    const QString envLevels = qEnvironmentVariable("FLASHDECK_LOG");
    logOptions.levels = envLevels.isEmpty() ? settings.logLevels() : envLevels;
    flashdeck::applog::Logging logging(redactor, logOptions);
    if (!logging.warning().isEmpty()) {
        printErr(QStringLiteral("flashdeck: ") + logging.warning());
    }
    info.logFile = logging.logFile();
    info.logLevels = logOptions.levels;
    flashdeck::applog::app().info("flashdeck {} starting (Qt {}, libssh {}), config in {}", info.version.toStdString(),
                                  info.qtVersion.toStdString(), info.libsshVersion.toStdString(),
                                  paths.configDir().toStdString());

    const QStringList commands = parser.positionalArguments();
    if (!commands.isEmpty()) {
        return runCommand(args, commands, paths, redactor, logging);
    }
    return runWindow(parser.isSet(o.demoOption), paths, settings, info, redactor);
}
