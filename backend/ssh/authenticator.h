#pragma once

#include "backend/ssh/sshhandles.h"
#include "backend/ssh/sshtypes.h"

#include <functional>
#include <map>
#include <optional>

namespace flashdeck::ssh {

/**
 * The authentication chain as a state machine (conventions §5.5): none → public key
 * (ssh-agent, then each identity; encrypted keys ask for a passphrase) → keyboard-interactive
 * (all prompts of a round in one request) → password.
 *
 * It never blocks waiting for a person: when it needs an answer it calls a hook and returns
 * Waiting; the worker feeds the answer back later. libssh calls themselves are blocking,
 * bounded by the session timeout, on the host's own thread.
 */
class Authenticator final
{
public:
    struct Hooks
    {
        std::function<void(const PassphraseRequest &)> passphrase;
        std::function<void(const KbdIntChallenge &)> keyboardInteractive;
        std::function<void(const PasswordRequest &)> password;
    };
    enum class Progress { Done, Waiting, Failed };

    /**
     * `keyCache` keeps keys decrypted in this run, so a reconnect does not ask again; it is
     * owned by the worker and never written anywhere.
     */
    Authenticator(ssh_session session, QString user, QString host, QStringList identities, bool useAgent,
                  std::map<QString, KeyPtr> &keyCache, Hooks hooks);

    Progress begin();
    Progress answerPassphrase(std::optional<QByteArray> passphrase);
    Progress answerKeyboardInteractive(std::optional<QList<QByteArray>> answers);
    Progress answerPassword(std::optional<QByteArray> password);

    const SshError &error() const { return m_error; }
    const QString &method() const { return m_method; }

private:
    enum class Step { None, Agent, Identities, KeyboardInteractive, Password, Finished };

    Progress advance();
    Progress stepNone();
    Progress stepAgent();
    Progress stepIdentity();
    Progress stepKeyboardInteractive();
    Progress stepPassword();
    Progress handleKbdIntReply(int rc);
    Progress tryKey(ssh_key key, const QString &label);
    Progress partial();
    Progress done(const QString &method);
    Progress fail(SshErrorCode code, const QString &message);
    QString libsshError() const;

    ssh_session m_session;
    QString m_user;
    QString m_host;
    QStringList m_identities;
    bool m_useAgent;
    std::map<QString, KeyPtr> &m_keyCache;
    Hooks m_hooks;

    Step m_step = Step::None;
    int m_methods = 0;
    int m_identityIndex = 0;
    int m_passphraseAttempt = 1;
    int m_passwordAttempt = 1;
    bool m_kbdIntDone = false;
    bool m_kbdIntWaiting = false;
    QStringList m_tried;
    SshError m_error;
    QString m_method;
};

} // namespace flashdeck::ssh
