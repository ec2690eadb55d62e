#pragma once

#include <QString>

#include <functional>

namespace flashdeck {
namespace chat {
class ChatClient;
} // namespace chat
namespace fleet {
class HostSession;
} // namespace fleet
namespace security {
class SecretStore;
} // namespace security
} // namespace flashdeck

namespace flashdeck::ui {

/**
 * Gives the Playground's chat client its deployment's API key: the keyring's, or else the key the
 * running server was started with, read over the host's Docker. The Playground's target line says
 * where the key came from; once the client is gone (the page chose another server), nothing
 * happens.
 */
class ApiKeyLookup final
{
public:
    /** Where the key came from, in the target line's words ("from the keyring (••••••)", …). */
    using Report = std::function<void(const QString &source)>;

    static void start(security::SecretStore &secrets, fleet::HostSession &session, const QString &deploymentId,
                      chat::ChatClient &client, const Report &report);

private:
    static void recover(fleet::HostSession &session, const QString &deploymentId, chat::ChatClient &client,
                        const Report &report);
};

} // namespace flashdeck::ui
