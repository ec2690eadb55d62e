#pragma once

#include <QString>

#include <functional>

namespace flashdeck {
namespace fleet {
class HostSession;
} // namespace fleet
} // namespace flashdeck

namespace flashdeck::cli {

struct CliContext;

/** The key a command starts with, before it reaches the host, and why there is none. */
struct StoredApiKey
{
    QString key;
    /** Empty when `key` is set: "no keyring on this machine (…)", "the keyring holds none for it". */
    QString whyNone;
    /** The key came from the environment variable, not the keyring: a refusal blames that variable. */
    bool fromEnvironment = false;
};

/**
 * The deployment's key from the keyring, else $SGLANG_API_KEY (what "Copy as curl" uses).
 * Waits for the keyring's answer (it may ask to be unlocked).
 */
StoredApiKey storedApiKey(const QString &deploymentId);
/** Any secret the same way: the keyring's `keyringKey` (`what` names it), else `envVar`. */
StoredApiKey storedSecret(const QString &keyringKey, const QString &what, const char *envVar);

/**
 * Calls `go` with the key to send: the stored one; none for a server Flashdeck did not deploy
 * (`--port`); else the one the deployment's running container was started with, read over the
 * host's Docker (a machine without a keyring: an SSH session, a headless server). When that
 * fails too it says precisely why on stderr (`command`: "chat", "loadtest") and calls
 * `done(1)`. A recovered key is registered with the log's redactor.
 */
void withApiKey(fleet::HostSession &session, CliContext &context, const QString &command, const QString &deploymentId,
                const StoredApiKey &stored, const std::function<void(int)> &done,
                const std::function<void(const QString &key)> &go);

} // namespace flashdeck::cli
