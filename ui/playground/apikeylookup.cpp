#include "ui/playground/apikeylookup.h"

#include "backend/chat/chatclient.h"
#include "backend/core/result.h"
#include "backend/deploy/apikeyrecovery.h"
#include "backend/fleet/hostsession.h"
#include "backend/security/secretstore.h"

#include <QCoreApplication>
#include <QPointer>

namespace flashdeck::ui {

// The texts keep PlaygroundPage's translation context: they were the page's, and are translated as such.

void ApiKeyLookup::start(security::SecretStore &secrets, fleet::HostSession &session, const QString &deploymentId,
                         chat::ChatClient &client, const Report &report)
{
    QPointer<chat::ChatClient> guard(&client);
    QPointer<security::SecretStore> store(&secrets);
    QPointer<fleet::HostSession> host(&session);
    secrets.read(security::SecretStore::apiKeyKey(deploymentId),
                 [guard, store, deploymentId, host, report](const Result<QString> &key) {
                     chat::ChatClient *chatClient = guard.data();
                     if (chatClient == nullptr) {
                         return;
                     }
                     const bool have = key && !key.value().isEmpty();
                     chatClient->setApiKey(have ? key.value() : QString());
                     if (have) {
                         // Without a keyring (a headless machine) the key the deployment wrote
                         // is held in memory for this run: say where it really came from.
                         const security::SecretStore *kept = store.data(); // one read of the guarded pointer
                         const bool inKeyring = kept != nullptr && kept->keyringAvailable();
                         report(inKeyring
                                    ? QCoreApplication::translate("PlaygroundPage", "from the keyring (••••••)")
                                    : QCoreApplication::translate(
                                          "PlaygroundPage", "kept in memory for this run, no keyring here (••••••)"));
                         return;
                     }
                     // None in the keyring (a machine without one): the key the running server was
                     // started with, read over the host's Docker.
                     if (fleet::HostSession *h = host.data()) {
                         recover(*h, deploymentId, *chatClient, report);
                     }
                 });
}

void ApiKeyLookup::recover(fleet::HostSession &session, const QString &deploymentId, chat::ChatClient &client,
                           const Report &report)
{
    QPointer<chat::ChatClient> guard(&client);
    deploy::ApiKeyRecovery *recovery = session.apiKeyRecovery(deploymentId, &client);
    QObject::connect(
        recovery, &deploy::ApiKeyRecovery::finished, &client, [recovery, guard, report](const Result<QString> &found) {
            recovery->deleteLater();
            chat::ChatClient *c = guard.data();
            if (c == nullptr) {
                return;
            }
            if (found) {
                c->setApiKey(found.value());
            }
            report(found ? QCoreApplication::translate("PlaygroundPage", "from the running server (••••••)")
                         : QCoreApplication::translate("PlaygroundPage",
                                                       "none — %1 The server will refuse requests if it has one.")
                               .arg(found.message()));
        });
    recovery->start();
}

} // namespace flashdeck::ui
