#include "backend/cli/clisession.h"

#include "backend/cli/cliprompts.h"
#include "backend/cli/exitcodes.h"
#include "backend/cli/hostscommand.h"
#include "backend/core/apppaths.h"
#include "backend/fleet/hostentry.h"
#include "backend/fleet/inventory.h"
#include "backend/ssh/hostconnection.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTextStream>

namespace flashdeck::cli {

std::unique_ptr<ssh::HostConnection>
startOnHost(const HostEntry &host, CliContext &c,
            const std::function<void(ssh::HostConnection &, std::function<void(int)> done)> &work,
            const std::function<void(int)> &finished)
{
    ssh::SshTarget target = host.toTarget();
    target.reconnect = true; // a dropped connection comes back; the work is idempotent
    auto connection = std::make_unique<ssh::HostConnection>(target);
    ssh::HostConnection *conn = connection.get();
    answerAuthPromptsAtTerminal(*conn, c);
    auto started = std::make_shared<bool>(false);
    const QString name = host.name;
    QObject::connect(
        conn, &ssh::HostConnection::hostKeyNeedsDecision, conn, [&c, conn, name](const ssh::HostKeyInfo &info) {
            c.err << QCoreApplication::translate("Cli",
                                                 "The host key of %1 is not known (%2 %3). Check it with 'flashdeck "
                                                 "hosts check %4 --accept-new-host-key' first.\n")
                         .arg(info.host, info.keyType, info.fingerprint, name);
            conn->answerHostKey(false);
        });
    QObject::connect(conn, &ssh::HostConnection::stateChanged, conn,
                     [&c, conn, started, work, finished](const ssh::ConnectionState &st) {
                         if (st.phase == ssh::ConnectionPhase::Failed && !*started) {
                             *started = true; // once: a failed connection reports one code
                             c.err << st.error.message << '\n';
                             finished(exitCodeFor(st.error.code));
                         } else if (st.phase == ssh::ConnectionPhase::Ready && !*started) {
                             *started = true;
                             work(*conn, finished);
                         }
                     });
    conn->connectToHost();
    return connection;
}

std::optional<HostEntry> findHost(CliContext &c, const QString &name, int *exitCode)
{
    Inventory inventory(c.paths.inventoryFile());
    if (Status s = inventory.load(); !s) {
        c.err << s.message() << '\n';
        *exitCode = ExitCheckFailed;
        return std::nullopt;
    }
    std::optional<HostEntry> host = inventory.find(name);
    if (!host) {
        c.err << QCoreApplication::translate("Cli",
                                             "No host named \"%1\" in the inventory (see 'flashdeck hosts list').\n")
                     .arg(name);
        *exitCode = ExitUsage;
    }
    return host;
}

int runOnHost(const HostEntry &host, CliContext &c,
              const std::function<void(ssh::HostConnection &, std::function<void(int)> done)> &work)
{
    QEventLoop loop;
    int code = ExitOk;
    const std::unique_ptr<ssh::HostConnection> connection = startOnHost(host, c, work, [&](int rc) {
        code = rc;
        loop.quit();
    });
    loop.exec();
    return code;
}

} // namespace flashdeck::cli
