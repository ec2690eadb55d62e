#include "backend/cli/exposecheck.h"

#include "backend/cli/cliapikey.h"
#include "backend/cli/clisession.h"
#include "backend/cli/exitcodes.h"
#include "backend/cli/exposerequest.h"
#include "backend/cli/hostscommand.h"
#include "backend/cli/stepprinter.h"
#include "backend/core/apppaths.h"
#include "backend/expose/gatewaycheck.h"
#include "backend/expose/gatewayrecord.h"
#include "backend/fleet/hostsession.h"
#include "backend/recipe/deployment.h"

#include <QCoreApplication>
#include <QTextStream>

namespace flashdeck::cli {

int runExposeCheck(const ExposeRequest &r, const fleet::HostEntry &host, CliContext &c)
{
    const auto record = expose::GatewayRecord::read(c.paths, host.name);
    if (!record || !record.value()) {
        c.err << (record ? QCoreApplication::translate("Cli",
                                                       "%1 is not exposed: run 'flashdeck expose %1 --allow "
                                                       "CIDR' first.")
                               .arg(host.name)
                         : record.message())
              << '\n';
        return ExitCheckFailed;
    }
    const expose::GatewayRecord gateway = *record.value();
    const Result<recipe::Deployment> deployment = recipe::Deployment::read(c.paths, host.name);
    const QString id = deployment ? deployment.value().id().toString() : QString();
    const StoredApiKey stored = storedApiKey(id);
    const QString address = r.connectHost.isEmpty() ? gateway.address : r.connectHost;
    const int port = r.connectPort > 0 ? r.connectPort : gateway.port;
    return runOnHost(host, c, [&](fleet::HostSession &session, std::function<void(int)> done) {
        withApiKey(session, c, QStringLiteral("expose"), id, stored, done, [&, done](const QString &key) {
            auto *check = new expose::GatewayCheck(gateway, key, address, port, &session);
            QObject::connect(check, &expose::GatewayCheck::step, check,
                             [&c, &r, &host](const recipe::StepRecord &step) {
                                 printStep(c, step, r.json, r.json ? host.name : QString());
                             });
            QObject::connect(check, &expose::GatewayCheck::finished, check, [&c, check, done](bool passed) {
                c.out.flush();
                check->deleteLater();
                done(passed ? ExitOk : ExitCheckFailed);
            });
            check->start();
        });
    });
}

} // namespace flashdeck::cli
