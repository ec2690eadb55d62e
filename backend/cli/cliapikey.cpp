#include "backend/cli/cliapikey.h"

#include "backend/cli/exitcodes.h"
#include "backend/cli/hostscommand.h"
#include "backend/deploy/apikeyrecovery.h"
#include "backend/fleet/hostsession.h"
#include "backend/security/redactor.h"
#include "backend/security/secretstore.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTextStream>

namespace flashdeck::cli {

StoredApiKey storedSecret(const QString &keyringKey, const QString &what, const char *envVar)
{
    StoredApiKey stored;
    security::SecretStore secrets;
    if (!keyringKey.isEmpty()) {
        QEventLoop wait;
        bool answered = false;
        QString problem;
        secrets.read(keyringKey, [&](const Result<QString> &key) {
            stored.key = key ? key.value() : QString();
            problem = key ? QString() : key.message();
            answered = true;
            wait.quit();
        });
        if (!answered) {
            wait.exec();
        }
        if (stored.key.isEmpty()) {
            stored.whyNone = !secrets.keyringAvailable()
                ? QCoreApplication::translate("Cli", "this machine has no keyring (%1)").arg(secrets.memoryOnlyReason())
                : problem.isEmpty() ? QCoreApplication::translate("Cli", "the keyring holds none for %1").arg(what)
                                    : QCoreApplication::translate("Cli", "the keyring said: %1").arg(problem);
        }
    }
    if (stored.key.isEmpty()) {
        stored.key = qEnvironmentVariable(envVar);
        stored.fromEnvironment = !stored.key.isEmpty();
    }
    if (!stored.key.isEmpty()) {
        stored.whyNone.clear();
    }
    return stored;
}

StoredApiKey storedApiKey(const QString &deploymentId)
{
    return storedSecret(deploymentId.isEmpty() ? QString() : security::SecretStore::apiKeyKey(deploymentId),
                        deploymentId, "SGLANG_API_KEY");
}

void withApiKey(fleet::HostSession &session, CliContext &context, const QString &command, const QString &deploymentId,
                const StoredApiKey &stored, const std::function<void(int)> &done,
                const std::function<void(const QString &key)> &go)
{
    if (!stored.key.isEmpty() || deploymentId.isEmpty()) {
        if (context.redactor && !stored.key.isEmpty()) {
            context.redactor->addSecret(stored.key);
        }
        go(stored.key);
        return;
    }
    deploy::ApiKeyRecovery *recovery = session.apiKeyRecovery(deploymentId, &session);
    QObject::connect(
        recovery, &deploy::ApiKeyRecovery::finished, recovery,
        [recovery, &context, command, deploymentId, why = stored.whyNone, done, go](const Result<QString> &key) {
            recovery->deleteLater();
            if (!key) {
                context.err << "flashdeck " << command << ": "
                            << QCoreApplication::translate(
                                   "Cli",
                                   "no API key for %1: %2, and it could not be read from the server: %3 Or set "
                                   "SGLANG_API_KEY to the key the server was started with.\n")
                                   .arg(deploymentId, why, key.message());
                context.err.flush();
                done(ExitCheckFailed);
                return;
            }
            if (context.redactor) {
                context.redactor->addSecret(key.value());
            }
            go(key.value());
        });
    recovery->start();
}

} // namespace flashdeck::cli
