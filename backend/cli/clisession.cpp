#include "backend/cli/clisession.h"

#include "backend/cli/cliprompts.h"
#include "backend/cli/exitcodes.h"
#include "backend/cli/hostscommand.h"
#include "backend/fleet/hostentry.h"
#include "backend/ssh/hostconnection.h"

#include <QEventLoop>
#include <QTextStream>

namespace flashdeck::cli {

int runOnHost(const HostEntry &host, CliContext &c,
              const std::function<void(ssh::HostConnection &, std::function<void(int)> done)> &work)
{
    ssh::SshTarget target = host.toTarget();
    target.reconnect = true; // a dropped connection comes back; the work is idempotent
    ssh::HostConnection connection(target);
    answerAuthPromptsAtTerminal(connection, c);
    QEventLoop loop;
    int code = ExitOk;
    bool started = false;
    QObject::connect(&connection, &ssh::HostConnection::hostKeyNeedsDecision, &loop, [&](const ssh::HostKeyInfo &info) {
        c.err << "The host key of " << info.host << " is not known (" << info.keyType << ' ' << info.fingerprint
              << "). Check it with 'flashdeck hosts check " << host.name << " --accept-new-host-key' first.\n";
        connection.answerHostKey(false);
    });
    QObject::connect(&connection, &ssh::HostConnection::stateChanged, &loop, [&](const ssh::ConnectionState &st) {
        if (st.phase == ssh::ConnectionPhase::Failed && !started) {
            c.err << st.error.message << '\n';
            code = exitCodeFor(st.error.code);
            loop.quit();
        } else if (st.phase == ssh::ConnectionPhase::Ready && !started) {
            started = true;
            work(connection, [&](int rc) {
                code = rc;
                loop.quit();
            });
        }
    });
    connection.connectToHost();
    loop.exec();
    return code;
}

} // namespace flashdeck::cli
