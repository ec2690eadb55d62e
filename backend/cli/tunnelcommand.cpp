#include "backend/cli/tunnelcommand.h"

#include "backend/chat/chattarget.h"
#include "backend/cli/clisession.h"
#include "backend/cli/exitcodes.h"
#include "backend/cli/hostscommand.h"
#include "backend/core/stopsignals.h"
#include "backend/fleet/hostsession.h"
#include "backend/ssh/transport.h"
#include "backend/ssh/tunnelreply.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <nlohmann/json.hpp>

namespace flashdeck::cli {

namespace {

const QString kTunnelUsage = QStringLiteral("Usage: flashdeck tunnel HOST [--local-port N] [--port N] [--json]");

/** A port number option's value, or 0 (said on stderr) when it is none. */
quint16 portValue(const QCommandLineParser &p, const QCommandLineOption &option, CliContext &c)
{
    bool ok = false;
    const uint n = p.value(option).toUInt(&ok);
    if (!ok || n == 0 || n > 65535) {
        c.err << "flashdeck tunnel: "
              << QCoreApplication::translate("Cli", "--%1 takes a port number (1 to 65535).\n")
                     .arg(option.names().constFirst());
        return 0;
    }
    return quint16(n);
}

void printForwarding(CliContext &c, bool json, const QString &host, quint16 localPort, quint16 remotePort)
{
    const QString url = QStringLiteral("http://127.0.0.1:%1").arg(localPort);
    if (json) {
        const nlohmann::json o = {{"url", url.toStdString()}, {"local_port", localPort}, {"remote_port", remotePort}};
        c.out << QString::fromStdString(o.dump()) << '\n';
    } else {
        c.out << QCoreApplication::translate("Cli", "Forwarding %1 → %2:%3 (only you can connect; Ctrl-C stops)\n")
                     .arg(url, host)
                     .arg(remotePort);
    }
    c.out.flush(); // a script waits for this line before it connects
}

} // namespace

int runTunnelCommand(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption localPortOpt(
        QStringLiteral("local-port"),
        QCoreApplication::translate("Cli", "Listen on this port of 127.0.0.1 (default: any free port)."),
        QStringLiteral("N"));
    const QCommandLineOption portOpt(
        QStringLiteral("port"),
        QCoreApplication::translate("Cli", "The server's port on the host (default: the deployment's)."),
        QStringLiteral("N"));
    const QCommandLineOption jsonOpt(
        QStringLiteral("json"),
        QCoreApplication::translate("Cli", "Print {\"url\", \"local_port\", \"remote_port\"}."));
    p.addOptions({localPortOpt, portOpt, jsonOpt});
    if (!p.parse(args)) {
        c.err << "flashdeck tunnel: " << p.errorText() << '\n' << kTunnelUsage << '\n';
        return ExitUsage;
    }
    const QStringList positional = p.positionalArguments().mid(1);
    if (positional.size() != 1) {
        c.err << "flashdeck tunnel: give one HOST.\n" << kTunnelUsage << '\n';
        return ExitUsage;
    }
    const quint16 localPort = p.isSet(localPortOpt) ? portValue(p, localPortOpt, c) : 0;
    quint16 remotePort = p.isSet(portOpt) ? portValue(p, portOpt, c) : 0;
    if ((p.isSet(localPortOpt) && localPort == 0) || (p.isSet(portOpt) && remotePort == 0)) {
        return ExitUsage;
    }
    int code = ExitOk;
    const std::optional<fleet::HostEntry> host = findHost(c, positional.first(), &code);
    if (!host) {
        return code;
    }
    if (remotePort == 0) {
        const Result<chat::ChatTarget> target = chat::chatTargetFor(c.paths, host->name);
        if (!target) {
            c.err << target.message() << '\n';
            return ExitUsage;
        }
        remotePort = target.value().port;
    }

    const bool json = p.isSet(jsonOpt);
    StopSignals stopSignals;
    return runOnHost(*host, c, [&](fleet::HostSession &session, std::function<void(int)> done) {
        ssh::Transport &connection = session.connection();
        // The server listens on the host's loopback (host contract: never on a public address).
        ssh::TunnelReply *tunnel =
            connection.tunnelToPort(QStringLiteral("127.0.0.1"), remotePort, localPort, &connection);
        tunnel->onOpened(
            tunnel,
            [&c, json, name = host->name, remotePort](quint16 port) {
                printForwarding(c, json, name, port, remotePort);
            },
            [&c, done, localPort](const QString &message) {
                c.err << "flashdeck tunnel: " << message;
                if (localPort != 0) {
                    c.err << QCoreApplication::translate(
                        "Cli", " Choose another --local-port, or leave it out for a free port.");
                }
                c.err << '\n';
                done(ExitCheckFailed);
            });
        // A dropped session comes back (the listener stays); only a tunnel gone for good ends it.
        QObject::connect(tunnel, &ssh::TunnelReply::closed, tunnel, [&c, done](const QString &message) {
            c.err << "flashdeck tunnel: " << message << '\n';
            done(ExitCheckFailed);
        });
        QObject::connect(&stopSignals, &StopSignals::stopRequested, tunnel, [tunnel, done](int) {
            tunnel->close();
            done(ExitOk);
        });
    });
}

} // namespace flashdeck::cli
