#include "backend/cli/clisession.h"

#include "backend/cli/cliprompts.h"
#include "backend/cli/exitcodes.h"
#include "backend/cli/hostscommand.h"
#include "backend/core/apppaths.h"
#include "backend/fleet/hostentry.h"
#include "backend/fleet/hostsession.h"
#include "backend/fleet/inventory.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTextStream>

namespace flashdeck::cli {

std::unique_ptr<fleet::HostSession>
startOnHost(const fleet::HostEntry &host, CliContext &c,
            const std::function<void(fleet::HostSession &, std::function<void(int)> done)> &work,
            const std::function<void(int)> &finished)
{
    // The host as the window sees it (one connection, one Docker endpoint, the API key's recovery),
    // its prompts answered at this terminal; a dropped connection comes back (the work is idempotent).
    auto session = std::make_unique<fleet::HostSession>(host);
    fleet::HostSession *s = session.get();
    answerAuthPromptsAtTerminal(*s, c);
    auto started = std::make_shared<bool>(false);
    const QString name = host.name;
    QObject::connect(s, &fleet::HostSession::hostKeyNeedsDecision, s, [&c, s, name](const ssh::HostKeyInfo &info) {
        c.err << QCoreApplication::translate("Cli",
                                             "The host key of %1 is not known (%2 %3). Check it with 'flashdeck "
                                             "hosts check %4 --accept-new-host-key' first.\n")
                     .arg(info.host, info.keyType, info.fingerprint, name);
        s->answerHostKey(false);
    });
    QObject::connect(s, &fleet::HostSession::stateChanged, s,
                     [&c, s, started, work, finished](const ssh::ConnectionState &st) {
                         if (st.phase == ssh::ConnectionPhase::Failed && !*started) {
                             *started = true; // once: a failed connection reports one code
                             c.err << st.error.message << '\n';
                             finished(exitCodeFor(st.error.code));
                         } else if (st.phase == ssh::ConnectionPhase::Ready && !*started) {
                             *started = true;
                             work(*s, finished);
                         }
                     });
    s->connectWithOperator();
    return session;
}

std::optional<fleet::HostEntry> findHost(CliContext &c, const QString &name, int *exitCode)
{
    fleet::Inventory inventory(c.paths.inventoryFile());
    if (Status s = inventory.load(); !s) {
        c.err << s.message() << '\n';
        *exitCode = ExitCheckFailed;
        return std::nullopt;
    }
    std::optional<fleet::HostEntry> host = inventory.find(name);
    if (!host) {
        c.err << QCoreApplication::translate("Cli",
                                             "No host named \"%1\" in the inventory (see 'flashdeck hosts list').\n")
                     .arg(name);
        *exitCode = ExitUsage;
    }
    return host;
}

int runOnHost(const fleet::HostEntry &host, CliContext &c,
              const std::function<void(fleet::HostSession &, std::function<void(int)> done)> &work)
{
    QEventLoop loop;
    int code = ExitOk;
    const std::unique_ptr<fleet::HostSession> session = startOnHost(host, c, work, [&](int rc) {
        code = rc;
        loop.quit();
    });
    loop.exec();
    return code;
}

} // namespace flashdeck::cli
