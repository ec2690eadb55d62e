#include "backend/cli/hostscommand.h"

#include "backend/cli/cliprompts.h"
#include "backend/cli/exitcodes.h"
#include "backend/core/apppaths.h"
#include "backend/core/hosttext.h"
#include "backend/fleet/inventory.h"
#include "backend/ssh/hostconnection.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QTextStream>
#include <QTimer>

#include <nlohmann/json.hpp>

namespace flashdeck::cli {

void addGlobalOptions(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("config-dir"),
                 QCoreApplication::translate("Cli", "Settings, inventory and data under DIR."), QStringLiteral("DIR")});
    p.addOption(
        {QStringLiteral("log-stderr"), QCoreApplication::translate("Cli", "Also write the log to standard error.")});
    // Read before the command runs (app/main.cpp): accepted here so that it may follow the command.
    p.addOption({QStringLiteral("lang"), QStringLiteral("zh_CN, en or system."), QStringLiteral("LANG")});
}

namespace {

const QString kHostsUsage = QStringLiteral("Usage: flashdeck hosts add NAME --ssh [USER@]HOST[:PORT] [--identity FILE] "
                                           "[--known-hosts FILE]\n"
                                           "       flashdeck hosts list [--json]\n"
                                           "       flashdeck hosts remove NAME\n"
                                           "       flashdeck hosts check NAME [--accept-new-host-key] [--json]");

std::string s(const QString &v)
{
    return v.toStdString();
}

void printHostsJson(QTextStream &out, const nlohmann::json &j)
{
    out << QString::fromStdString(j.dump()) << '\n';
    out.flush();
}

int hostsUsage(CliContext &c, const QString &message)
{
    c.err << "flashdeck hosts: " << message << '\n' << kHostsUsage << '\n';
    c.err.flush();
    return ExitUsage;
}

Result<fleet::Inventory> loadInventory(CliContext &c)
{
    fleet::Inventory inventory(c.paths.inventoryFile());
    if (Status s = inventory.load(); !s) {
        return s;
    }
    return inventory;
}

int cmdAdd(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption ssh(QStringLiteral("ssh"), QStringLiteral("[USER@]HOST[:PORT]"), QStringLiteral("SPEC"));
    const QCommandLineOption identity(QStringLiteral("identity"),
                                      QCoreApplication::translate("Cli", "Private key file."), QStringLiteral("FILE"));
    const QCommandLineOption knownHosts(
        QStringLiteral("known-hosts"), QCoreApplication::translate("Cli", "known_hosts file."), QStringLiteral("FILE"));
    const QCommandLineOption vendor(QStringLiteral("vendor"),
                                    QCoreApplication::translate("Cli", "nvidia or amd (a hint)."),
                                    QStringLiteral("VENDOR"));
    const QCommandLineOption notes(QStringLiteral("notes"), QCoreApplication::translate("Cli", "Free text."),
                                   QStringLiteral("TEXT"));
    p.addOptions({ssh, identity, knownHosts, vendor, notes});
    if (!p.parse(args)) {
        return hostsUsage(c, p.errorText());
    }
    const QStringList pos = p.positionalArguments();
    if (pos.size() != 2 || !p.isSet(ssh)) {
        return hostsUsage(c,
                          QCoreApplication::translate("Cli", "'hosts add' needs NAME and --ssh [USER@]HOST[:PORT]."));
    }
    Result<fleet::HostEntry> entry = fleet::HostEntry::fromSshSpec(pos.at(1), p.value(ssh));
    if (!entry) {
        return hostsUsage(c, entry.message());
    }
    fleet::HostEntry host = entry.value();
    host.identityFile = p.value(identity);
    host.knownHostsFile = p.value(knownHosts);
    host.vendorHint = p.value(vendor).toLower();
    host.notes = p.value(notes);
    if (!host.vendorHint.isEmpty() && host.vendorHint != QStringLiteral("nvidia") &&
        host.vendorHint != QStringLiteral("amd")) {
        return hostsUsage(c, QCoreApplication::translate("Cli", "--vendor must be nvidia or amd."));
    }
    // Added to the file as it is now, under its lock: hosts other processes add meanwhile stay.
    fleet::Inventory inventory(c.paths.inventoryFile());
    if (Result<QList<fleet::HostEntry>> added = inventory.add(host); !added) {
        c.err << added.message() << '\n';
        // A name taken (also by someone else meanwhile) is the caller's to change: a usage error,
        // as it was; a file that cannot be read or written is not.
        return inventory.find(host.name) ? ExitUsage : ExitCheckFailed;
    }
    c.out << QCoreApplication::translate("Cli", "Added %1 (%2). Check it with: flashdeck hosts check %1\n")
                 .arg(host.name, host.sshSpec());
    return ExitOk;
}

int cmdList(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption json(QStringLiteral("json"),
                                  QCoreApplication::translate("Cli", "One JSON object per line."));
    p.addOption(json);
    if (!p.parse(args)) {
        return hostsUsage(c, p.errorText());
    }
    if (p.positionalArguments().size() != 1) {
        return hostsUsage(c, QCoreApplication::translate("Cli", "'hosts list' takes no arguments."));
    }
    Result<fleet::Inventory> inventory = loadInventory(c);
    if (!inventory) {
        c.err << inventory.message() << '\n';
        return ExitCheckFailed;
    }
    const QList<fleet::HostEntry> &hosts = inventory.value().hosts();
    if (p.isSet(json)) {
        for (const fleet::HostEntry &h : hosts) {
            printHostsJson(c.out, nlohmann::json(h));
        }
        return ExitOk;
    }
    if (hosts.isEmpty()) {
        c.out << QCoreApplication::translate(
            "Cli", "No hosts yet. Add one with: flashdeck hosts add NAME --ssh [USER@]HOST[:PORT]\n");
        return ExitOk;
    }
    qsizetype width = 4;
    for (const fleet::HostEntry &h : hosts) {
        width = std::max(width, h.name.size());
    }
    c.out << QStringLiteral("NAME").leftJustified(width + 2) << "SSH\n";
    for (const fleet::HostEntry &h : hosts) {
        c.out << h.name.leftJustified(width + 2) << h.sshSpec()
              << (h.simulated ? QStringLiteral("  [SIMULATED]") : QString()) << '\n';
    }
    return ExitOk;
}

int cmdRemove(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    if (!p.parse(args)) {
        return hostsUsage(c, p.errorText());
    }
    const QStringList pos = p.positionalArguments();
    if (pos.size() != 2) {
        return hostsUsage(c, QCoreApplication::translate("Cli", "'hosts remove' needs NAME."));
    }
    fleet::Inventory inventory(c.paths.inventoryFile());
    if (Result<QList<fleet::HostEntry>> removed = inventory.remove(pos.at(1)); !removed) {
        c.err << removed.message() << '\n';
        return ExitCheckFailed;
    }
    c.out << QCoreApplication::translate("Cli", "Removed %1. Its known_hosts entry was kept.\n").arg(pos.at(1));
    return ExitOk;
}

struct CheckReport
{
    ssh::HostKeyInfo key;
    QString hostKey = QStringLiteral("unknown"); // trusted | accepted | rejected | refused
    ssh::ConnectionState state;
    ssh::CommandResult uname;
};

/**
 * Connects to `target` (an unknown host key trusted only with `accept`, said in words unless
 * `json`), runs `uname -a` through the login shell, and returns what was seen.
 */
CheckReport connectAndRunUname(const ssh::SshTarget &target, bool accept, bool json, CliContext &c)
{
    CheckReport report;
    QEventLoop loop;
    ssh::HostConnection connection(target);
    QObject::connect(&connection, &ssh::HostConnection::hostKeyVerified, &loop,
                     [&report](const ssh::HostKeyInfo &info) {
                         if (report.hostKey == QStringLiteral("unknown")) {
                             report.hostKey = QStringLiteral("trusted");
                         }
                         report.key = info;
                     });
    QObject::connect(&connection, &ssh::HostConnection::hostKeyNeedsDecision, &loop, [&](const ssh::HostKeyInfo &info) {
        report.key = info;
        const bool yes = accept;
        report.hostKey = yes ? QStringLiteral("accepted") : QStringLiteral("rejected");
        if (!json) {
            c.out << (yes ? QCoreApplication::translate("Cli", "New host key for %1: %2 %3 (accepted)\n")
                          : QCoreApplication::translate("Cli", "New host key for %1: %2 %3\n"))
                         .arg(info.host, info.keyType, info.fingerprint);
            c.out.flush();
        }
        connection.answerHostKey(yes);
    });
    answerAuthPromptsAtTerminal(connection, c);
    quint64 unameId = 0;
    QObject::connect(&connection, &ssh::HostConnection::stateChanged, &loop, [&](const ssh::ConnectionState &st) {
        report.state = st;
        if (st.phase == ssh::ConnectionPhase::Ready && unameId == 0) {
            unameId = connection.run("uname -a", 30000);
        } else if (st.phase == ssh::ConnectionPhase::Failed) {
            loop.quit();
        }
    });
    QObject::connect(&connection, &ssh::HostConnection::commandFinished, &loop,
                     [&](quint64 id, const ssh::CommandResult &r) {
                         if (id == unameId) {
                             report.uname = r;
                             loop.quit();
                         }
                     });
    connection.connectToHost();
    loop.exec();
    return report;
}

/**
 * The check's error and exit code: the connection's, else `uname -a`'s, else a login shell that
 * gave no usable answer (`user`: the account, for the advice). Marks a refused host key.
 */
ssh::SshError checkVerdict(CheckReport &report, const QString &user, int &code)
{
    ssh::SshError error = report.state.error;
    if (!error.isError() && report.uname.error.isError()) {
        error = report.uname.error;
    }
    code = exitCodeFor(error.code);
    // What the account's login shell printed (nologin writes to stdout, a broken rc file to either).
    const QString printed = QString(hostText(report.uname.stdoutData).trimmed() + QLatin1Char(' ') +
                                    hostText(report.uname.stderrData).trimmed())
                                .trimmed();
    if (!error.isError() && !report.uname.succeeded()) {
        code = ExitCheckFailed;
        error = {
            ssh::SshErrorCode::Protocol,
            QCoreApplication::translate("Cli",
                                        "'uname -a' exited with %1: %2. Check the account's login shell on the host "
                                        "(getent passwd %3) and its startup files.")
                .arg(report.uname.exitCode.value_or(-1))
                .arg(printed.isEmpty() ? QCoreApplication::translate("Cli", "it printed nothing") : printed, user),
            {}};
    } else if (!error.isError() && !hostText(report.uname.stdoutData).trimmed().startsWith(QLatin1String("Linux"))) {
        // Every command runs through the login shell: one that swallows it answers "OK" with
        // nothing in it, and every later step would fail in its own confusing way.
        code = ExitCheckFailed;
        error = {ssh::SshErrorCode::Protocol,
                 QCoreApplication::translate(
                     "Cli",
                     "The login shell on the host gave no usable answer to 'uname -a' (%1). Flashdeck runs "
                     "its commands with /bin/sh through the login shell: check the account's shell "
                     "(getent passwd %2) and its startup files.")
                     .arg(printed.isEmpty() ? QCoreApplication::translate("Cli", "it printed nothing")
                                            : QStringLiteral("it printed: ") + printed,
                          user),
                 {}};
    }
    if (report.state.error.code == ssh::SshErrorCode::HostKeyChanged ||
        report.state.error.code == ssh::SshErrorCode::HostKeyOther ||
        report.state.error.code == ssh::SshErrorCode::HostKeyRevoked) {
        report.hostKey = QStringLiteral("refused");
    }
    return error;
}

void printCheckJson(CliContext &c, const fleet::HostEntry &host, const CheckReport &report, int code,
                    const ssh::SshError &error)
{
    nlohmann::json j{{"host", s(host.name)},
                     {"ssh", s(host.sshSpec())},
                     {"key_type", s(report.key.keyType)},
                     {"fingerprint", s(report.key.fingerprint)},
                     {"host_key", s(report.hostKey)},
                     {"ok", code == ExitOk},
                     {"exit_code", code}};
    if (!report.state.authMethod.isEmpty()) {
        j["auth"] = s(report.state.authMethod);
    }
    if (!report.state.cipher.isEmpty()) {
        j["cipher"] = s(report.state.cipher); // what this session encrypts with
        j["kex"] = s(report.state.kex);
    }
    if (code == ExitOk) {
        j["uname"] = s(hostText(report.uname.stdoutData));
    } else {
        j["error"] = {{"code", s(errorCodeName(error.code))}, {"message", s(error.message)}};
    }
    printHostsJson(c.out, j);
}

void printCheckWords(CliContext &c, const CheckReport &report, int code, const ssh::SshError &error)
{
    if (!report.key.fingerprint.isEmpty()) {
        c.out << QCoreApplication::translate("Cli", "Host key: %1 %2 (%3)\n")
                     .arg(report.key.keyType, report.key.fingerprint, report.hostKey);
    }
    if (code == ExitOk) {
        c.out << QCoreApplication::translate("Cli", "Authenticated: %1\n").arg(report.state.authMethod)
              << QCoreApplication::translate("Cli", "Cipher: %1 (key exchange %2)\n")
                     .arg(report.state.cipher, report.state.kex)
              << "uname -a: " << hostText(report.uname.stdoutData) << '\n';
        c.out << "OK\n";
    } else {
        c.err << error.message << '\n';
        if (error.code == ssh::SshErrorCode::HostKeyUnknown) {
            c.err << QCoreApplication::translate(
                "Cli", "Run again with --accept-new-host-key once you have compared the fingerprint.\n");
        }
    }
    c.out.flush();
    c.err.flush();
}

int cmdCheck(const QStringList &args, CliContext &c)
{
    QCommandLineParser p;
    addGlobalOptions(p);
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("One JSON object."));
    const QCommandLineOption accept(
        QStringLiteral("accept-new-host-key"),
        QCoreApplication::translate("Cli", "Trust an unknown host key (never a changed one)."));
    const QCommandLineOption timeout(QStringLiteral("timeout"),
                                     QCoreApplication::translate("Cli", "Connect timeout in seconds."),
                                     QStringLiteral("SECONDS"), QStringLiteral("15"));
    p.addOptions({json, accept, timeout});
    if (!p.parse(args)) {
        return hostsUsage(c, p.errorText());
    }
    const QStringList pos = p.positionalArguments();
    if (pos.size() != 2) {
        return hostsUsage(c, QCoreApplication::translate("Cli", "'hosts check' needs NAME."));
    }
    Result<fleet::Inventory> inventory = loadInventory(c);
    if (!inventory) {
        c.err << inventory.message() << '\n';
        return ExitCheckFailed;
    }
    const std::optional<fleet::HostEntry> host = inventory.value().find(pos.at(1));
    if (!host) {
        c.err << QCoreApplication::translate("Cli",
                                             "No host named \"%1\" in the inventory (see 'flashdeck hosts list').\n")
                     .arg(pos.at(1));
        return ExitUsage;
    }
    ssh::SshTarget target = host->toTarget();
    target.connectTimeoutMs = std::max(1, p.value(timeout).toInt()) * 1000;
    target.reconnect = false;

    CheckReport report = connectAndRunUname(target, p.isSet(accept), p.isSet(json), c);
    int code = ExitOk;
    const ssh::SshError error = checkVerdict(report, target.user, code);
    if (p.isSet(json)) {
        printCheckJson(c, *host, report, code, error);
    } else {
        printCheckWords(c, report, code, error);
    }
    return code;
}

} // namespace

int runHostsCommand(const QStringList &args, CliContext &context)
{
    // args: program, "hosts", verb, …
    const QString verb = args.value(2);
    QStringList rest = args;
    rest.removeAt(1); // drop "hosts": each verb's parser sees program, verb, arguments
    if (verb == QStringLiteral("add")) {
        return cmdAdd(rest, context);
    }
    if (verb == QStringLiteral("list")) {
        return cmdList(rest, context);
    }
    if (verb == QStringLiteral("remove")) {
        return cmdRemove(rest, context);
    }
    if (verb == QStringLiteral("check")) {
        return cmdCheck(rest, context);
    }
    return hostsUsage(context,
                      verb.isEmpty() ? QCoreApplication::translate("Cli", "which hosts command?")
                                     : QCoreApplication::translate("Cli", "unknown command \"%1\".").arg(verb));
}

} // namespace flashdeck::cli
