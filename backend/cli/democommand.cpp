#include "backend/cli/democommand.h"

#include "backend/cli/exitcodes.h"
#include "backend/core/apppaths.h"
#include "backend/demo/demohost.h"
#include "backend/fleet/inventory.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <nlohmann/json.hpp>

namespace flashdeck::cli {

namespace {

const QString kDemoUsage =
    QStringLiteral("Usage: flashdeck demo start [--scenario NAME] [--time-factor X] [--hosts N] [--json]\n"
                   "       flashdeck demo status [--json]\n"
                   "       flashdeck demo stop");

int usage(CliContext &c, const QString &message)
{
    c.err << "flashdeck demo: " << message << '\n' << kDemoUsage << '\n';
    c.err.flush();
    return ExitUsage;
}

void printHosts(CliContext &c, const QList<demo::DemoHostInfo> &hosts, bool json)
{
    if (json) {
        nlohmann::json list = nlohmann::json::array();
        for (const demo::DemoHostInfo &h : hosts) {
            list.push_back(h);
        }
        c.out << QString::fromStdString(nlohmann::json{{"hosts", list}}.dump()) << '\n';
        c.out.flush();
        return;
    }
    c.out << QCoreApplication::translate("Cli", "Simulated hosts on loopback (nothing here is a real GPU server):\n");
    for (const demo::DemoHostInfo &h : hosts) {
        c.out
            << "  " << h.name.leftJustified(10) << ' ' << h.description.leftJustified(34) << ' '
            << QCoreApplication::translate("Cli", "scenario %1, %2@127.0.0.1:%3\n").arg(h.scenario, h.user).arg(h.port);
    }
    c.out << QCoreApplication::translate("Cli", "Connect with OpenSSH:\n");
    for (const demo::DemoHostInfo &h : hosts) {
        c.out << "  " << h.sshCommand() << '\n';
    }
    c.out << QCoreApplication::translate(
        "Cli", "Open the window with 'flashdeck'; stop the demo with 'flashdeck demo stop'.\n");
    c.out.flush();
}

} // namespace

int runDemoCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption scenario(QStringLiteral("scenario"),
                                      QCoreApplication::translate("Cli", "Scenario of host 'demo' (default b300x4)."),
                                      QStringLiteral("NAME"), QStringLiteral("b300x4"));
    const QCommandLineOption factor(QStringLiteral("time-factor"),
                                    QCoreApplication::translate("Cli", "Scale every simulated duration (default 0.5)."),
                                    QStringLiteral("X"), QStringLiteral("0.5"));
    const QCommandLineOption json(QStringLiteral("json"), QCoreApplication::translate("Cli", "Print JSON."));
    const QCommandLineOption count(
        QStringLiteral("hosts"),
        QCoreApplication::translate("Cli",
                                    "How many hosts run the scenario: demo, demo-2, … (default 1; at "
                                    "most 8)."),
        QStringLiteral("N"), QStringLiteral("1"));
    p.addOptions({scenario, factor, json, count});
    if (!p.parse(args)) {
        return usage(c, p.errorText());
    }
    const QStringList pos = p.positionalArguments();
    const QString verb = pos.value(1);
    if (pos.size() != 2 ||
        (verb != QLatin1String("start") && verb != QLatin1String("stop") && verb != QLatin1String("status"))) {
        return usage(c, QCoreApplication::translate("Cli", "expected start, status or stop."));
    }
    bool ok = false;
    const double timeFactor = p.value(factor).toDouble(&ok);
    if (!ok || timeFactor <= 0) {
        return usage(c, QCoreApplication::translate("Cli", "--time-factor must be a positive number."));
    }
    const int hostCount = p.value(count).toInt(&ok);
    if (!ok || hostCount < 1 || hostCount > 8) {
        return usage(c, QCoreApplication::translate("Cli", "--hosts takes a number from 1 to 8."));
    }
    fleet::Inventory inventory(c.paths.inventoryFile());
    if (Status s = inventory.load(); !s) {
        c.err << s.message() << '\n';
        return ExitCheckFailed;
    }
    demo::DemoHosts demo(c.paths, demo::DemoResources::locate());
    if (verb == QLatin1String("status")) {
        const QList<demo::DemoHostInfo> hosts = demo.running();
        if (hosts.isEmpty() && !p.isSet(json)) {
            c.out << QCoreApplication::translate("Cli", "No demo is running. Start one with 'flashdeck demo start'.\n");
            return ExitOk;
        }
        printHosts(c, hosts, p.isSet(json));
        return ExitOk;
    }
    if (verb == QLatin1String("stop")) {
        const Status s = demo.stop(inventory);
        if (!s) {
            c.err << s.message() << '\n';
            return ExitCheckFailed;
        }
        if (!p.isSet(json)) {
            c.out << QCoreApplication::translate("Cli", "Demo stopped; its hosts removed from the inventory.\n");
        }
        return ExitOk;
    }
    const Result<QList<demo::DemoHostInfo>> started = demo.start(inventory, p.value(scenario), timeFactor, hostCount);
    if (!started) {
        c.err << started.message() << '\n';
        if (!started.status().detail().isEmpty()) {
            c.err << started.status().detail() << '\n';
        }
        return ExitCheckFailed;
    }
    printHosts(c, started.value(), p.isSet(json));
    return ExitOk;
}

} // namespace flashdeck::cli
