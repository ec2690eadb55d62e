#include "backend/ssh/authenticator.h"

#include "backend/applog/logging.h"
#include "backend/ssh/keyfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <spdlog/logger.h>

namespace flashdeck::ssh {

namespace {

constexpr int kMaxAttempts = 3;

// Server-supplied text is shown to a person: drop control characters (RFC 4256 §3.3).
QString sanitize(const char *text)
{
    QString out = QString::fromUtf8(text ? text : "");
    out.removeIf([](QChar c) { return c.category() == QChar::Other_Control && c != QLatin1Char('\n'); });
    return out.trimmed();
}

QString tildePath(const QString &path)
{
    const QString home = QDir::homePath();
    return path.startsWith(home + QLatin1Char('/')) ? QStringLiteral("~") + path.mid(home.size()) : path;
}

void wipe(QByteArray &secret)
{
    secret.fill('\0');
    secret.clear();
}

} // namespace

Authenticator::Authenticator(ssh_session session, QString user, QString host, QStringList identities, bool useAgent,
                             std::map<QString, KeyPtr> &keyCache, Hooks hooks)
    : m_session(session)
    , m_user(std::move(user))
    , m_host(std::move(host))
    , m_identities(std::move(identities))
    , m_useAgent(useAgent)
    , m_keyCache(keyCache)
    , m_hooks(std::move(hooks))
{ }

QString Authenticator::libsshError() const
{
    return QString::fromUtf8(ssh_get_error(m_session));
}

Authenticator::Progress Authenticator::begin()
{
    m_step = Step::None;
    return advance();
}

Authenticator::Progress Authenticator::advance()
{
    for (;;) {
        Progress p = Progress::Waiting;
        const Step before = m_step;
        const int identityBefore = m_identityIndex;
        switch (m_step) {
        case Step::None:
            p = stepNone();
            break;
        case Step::Agent:
            p = stepAgent();
            break;
        case Step::Identities:
            p = stepIdentity();
            break;
        case Step::KeyboardInteractive:
            p = stepKeyboardInteractive();
            break;
        case Step::Password:
            p = stepPassword();
            break;
        case Step::Finished:
            if (m_tried.isEmpty()) {
                return fail(
                    SshErrorCode::AuthNoMethod,
                    QCoreApplication::translate("Ssh",
                                                "%1 offers no authentication method Flashdeck can use (it accepts "
                                                "public key, keyboard-interactive and password). Check the server's "
                                                "sshd_config, or that a key for %2 exists.")
                        .arg(m_host, m_user));
            }
            return fail(
                SshErrorCode::AuthDenied,
                QCoreApplication::translate("Ssh",
                                            "%1 refused %2@%1 with every method we could try: %3. Check the user name, "
                                            "that your public key is in the server's authorized_keys, or the password.")
                    .arg(m_host, m_user, m_tried.join(QStringLiteral(", "))));
        }
        // Keep looping while steps make progress without needing an answer.
        if (p != Progress::Waiting || (m_step == before && m_identityIndex == identityBefore)) {
            return p;
        }
    }
}

Authenticator::Progress Authenticator::done(const QString &method)
{
    m_method = method;
    m_step = Step::Finished;
    applog::ssh().info("authenticated to {} as {} with {}", m_host.toStdString(), m_user.toStdString(),
                       method.toStdString());
    return Progress::Done;
}

Authenticator::Progress Authenticator::fail(SshErrorCode code, const QString &message)
{
    m_error = {code, message, libsshError()};
    m_step = Step::Finished;
    return Progress::Failed;
}

Authenticator::Progress Authenticator::partial()
{
    // Multi-factor: one method accepted, another required. Re-read what is on offer.
    m_methods = ssh_userauth_list(m_session, nullptr);
    m_identityIndex = 0;
    m_passwordAttempt = 1;
    m_kbdIntDone = false;
    m_step = Step::Agent;
    applog::ssh().info("partial authentication; server now offers methods {:#x}", m_methods);
    return Progress::Waiting;
}

Authenticator::Progress Authenticator::stepNone()
{
    const int rc = ssh_userauth_none(m_session, nullptr);
    if (rc == SSH_AUTH_SUCCESS) {
        return done(QStringLiteral("none"));
    }
    if (rc == SSH_AUTH_ERROR) {
        return fail(SshErrorCode::Protocol,
                    QCoreApplication::translate("Ssh", "The connection to %1 failed during authentication: %2")
                        .arg(m_host, libsshError()));
    }
    // "This NEEDS to be called after ssh_userauth_none()" (KIO sftp): the list comes with its reply.
    m_methods = ssh_userauth_list(m_session, nullptr);
    m_step = Step::Agent;
    return Progress::Waiting;
}

Authenticator::Progress Authenticator::stepAgent()
{
    m_step = Step::Identities;
    if (!(m_methods & SSH_AUTH_METHOD_PUBLICKEY) || !m_useAgent || qEnvironmentVariableIsEmpty("SSH_AUTH_SOCK")) {
        return Progress::Waiting;
    }
    const int rc = ssh_userauth_agent(m_session, nullptr);
    m_tried.append(QStringLiteral("publickey (ssh-agent)"));
    switch (rc) {
    case SSH_AUTH_SUCCESS:
        return done(QStringLiteral("publickey (ssh-agent)"));
    case SSH_AUTH_PARTIAL:
        return partial();
    case SSH_AUTH_ERROR:
        return fail(SshErrorCode::Protocol,
                    QCoreApplication::translate("Ssh", "Authentication with ssh-agent failed: %1").arg(libsshError()));
    default:
        return Progress::Waiting;
    }
}

Authenticator::Progress Authenticator::tryKey(ssh_key key, const QString &label)
{
    const int rc = ssh_userauth_publickey(m_session, nullptr, key);
    switch (rc) {
    case SSH_AUTH_SUCCESS:
        return done(QStringLiteral("publickey (%1)").arg(label));
    case SSH_AUTH_PARTIAL:
        return partial();
    case SSH_AUTH_ERROR:
        return fail(SshErrorCode::Protocol,
                    QCoreApplication::translate("Ssh", "Public key authentication failed: %1").arg(libsshError()));
    default:
        ++m_identityIndex;
        m_passphraseAttempt = 1;
        return Progress::Waiting;
    }
}

Authenticator::Progress Authenticator::stepIdentity()
{
    if (!(m_methods & SSH_AUTH_METHOD_PUBLICKEY) || m_identityIndex >= m_identities.size()) {
        m_step = Step::KeyboardInteractive;
        return Progress::Waiting;
    }
    const QString path = m_identities.at(m_identityIndex);
    const QString label = tildePath(path);
    if (const auto cached = m_keyCache.find(path); cached != m_keyCache.end()) {
        m_tried.append(QStringLiteral("publickey (%1)").arg(label));
        return tryKey(cached->second.get(), label);
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        ++m_identityIndex; // absent default identities are normal
        return Progress::Waiting;
    }
    const QByteArray contents = file.readAll();
    const QByteArray encodedPath = QFile::encodeName(path);

    // Ask the server first whether it would take this key: never ask for a passphrase of a
    // key that would be refused anyway.
    ssh_key rawPub = nullptr;
    const QByteArray pubPath = encodedPath + ".pub";
    if (ssh_pki_import_pubkey_file(pubPath.constData(), &rawPub) == SSH_OK) {
        const KeyPtr pub(rawPub);
        const int rc = ssh_userauth_try_publickey(m_session, nullptr, pub.get());
        if (rc == SSH_AUTH_ERROR) {
            return fail(SshErrorCode::Protocol,
                        QCoreApplication::translate("Ssh", "Public key authentication failed: %1").arg(libsshError()));
        }
        if (rc != SSH_AUTH_SUCCESS) {
            m_tried.append(QStringLiteral("publickey (%1)").arg(label));
            ++m_identityIndex;
            return Progress::Waiting;
        }
    }

    if (keyfile::isEncrypted(contents)) {
        m_hooks.passphrase(PassphraseRequest{
            path, m_passphraseAttempt,
            m_passphraseAttempt > 1 ? QCoreApplication::translate("Ssh", "Wrong passphrase.") : QString()});
        return Progress::Waiting;
    }
    ssh_key rawKey = nullptr;
    if (ssh_pki_import_privkey_file(encodedPath.constData(), nullptr, nullptr, nullptr, &rawKey) != SSH_OK) {
        applog::ssh().warn("cannot load identity {}: not a private key libssh can read", label.toStdString());
        ++m_identityIndex;
        return Progress::Waiting;
    }
    m_tried.append(QStringLiteral("publickey (%1)").arg(label));
    const Progress p = tryKey(rawKey, label);
    m_keyCache[path] = KeyPtr(rawKey);
    return p;
}

Authenticator::Progress Authenticator::answerPassphrase(std::optional<QByteArray> passphrase)
{
    const QString path = m_identities.value(m_identityIndex);
    const QString label = tildePath(path);
    if (!passphrase) {
        applog::ssh().info("passphrase for {} not given; trying the next method", label.toStdString());
        ++m_identityIndex;
        m_passphraseAttempt = 1;
        return advance();
    }
    ssh_key rawKey = nullptr;
    const QByteArray encodedPath = QFile::encodeName(path);
    const int rc =
        ssh_pki_import_privkey_file(encodedPath.constData(), passphrase->constData(), nullptr, nullptr, &rawKey);
    wipe(*passphrase);
    if (rc != SSH_OK) {
        if (++m_passphraseAttempt > kMaxAttempts) {
            m_tried.append(QStringLiteral("publickey (%1: wrong passphrase)").arg(label));
            ++m_identityIndex;
            m_passphraseAttempt = 1;
            return advance();
        }
        m_hooks.passphrase(
            PassphraseRequest{path, m_passphraseAttempt, QCoreApplication::translate("Ssh", "Wrong passphrase.")});
        return Progress::Waiting;
    }
    m_tried.append(QStringLiteral("publickey (%1)").arg(label));
    const Progress p = tryKey(rawKey, label);
    m_keyCache[path] = KeyPtr(rawKey);
    return p == Progress::Waiting ? advance() : p;
}

Authenticator::Progress Authenticator::stepKeyboardInteractive()
{
    if (!(m_methods & SSH_AUTH_METHOD_INTERACTIVE) || m_kbdIntDone) {
        m_step = Step::Password;
        return Progress::Waiting;
    }
    if (m_kbdIntWaiting) {
        return Progress::Waiting;
    }
    m_tried.append(QStringLiteral("keyboard-interactive"));
    return handleKbdIntReply(ssh_userauth_kbdint(m_session, nullptr, nullptr));
}

Authenticator::Progress Authenticator::handleKbdIntReply(int rc)
{
    // Servers may send rounds with no prompts at all; answer those at once and go on.
    while (rc == SSH_AUTH_INFO && ssh_userauth_kbdint_getnprompts(m_session) == 0) {
        rc = ssh_userauth_kbdint(m_session, nullptr, nullptr);
    }
    switch (rc) {
    case SSH_AUTH_INFO: {
        KbdIntChallenge challenge;
        challenge.name = sanitize(ssh_userauth_kbdint_getname(m_session));
        challenge.instruction = sanitize(ssh_userauth_kbdint_getinstruction(m_session));
        const int n = ssh_userauth_kbdint_getnprompts(m_session);
        for (int i = 0; i < n; ++i) {
            char echo = 0;
            const char *prompt = ssh_userauth_kbdint_getprompt(m_session, static_cast<unsigned>(i), &echo);
            challenge.prompts.append(KbdIntPrompt{sanitize(prompt), echo != 0});
        }
        m_kbdIntWaiting = true;
        m_hooks.keyboardInteractive(challenge);
        return Progress::Waiting;
    }
    case SSH_AUTH_SUCCESS:
        return done(QStringLiteral("keyboard-interactive"));
    case SSH_AUTH_PARTIAL:
        return partial();
    case SSH_AUTH_ERROR:
        return fail(
            SshErrorCode::Protocol,
            QCoreApplication::translate("Ssh", "Keyboard-interactive authentication failed: %1").arg(libsshError()));
    default:
        m_kbdIntDone = true;
        m_step = Step::Password; // advance() moves on from here
        return Progress::Waiting;
    }
}

Authenticator::Progress Authenticator::answerKeyboardInteractive(std::optional<QList<QByteArray>> answers)
{
    m_kbdIntWaiting = false;
    if (!answers) {
        return fail(SshErrorCode::AuthCancelled,
                    QCoreApplication::translate("Ssh", "Authentication to %1 was cancelled.").arg(m_host));
    }
    // Each answer's bytes must stay alive until setanswer returns (the KIO kbd-int hazard).
    for (qsizetype i = 0; i < answers->size(); ++i) {
        if (ssh_userauth_kbdint_setanswer(m_session, static_cast<unsigned>(i), (*answers)[i].constData()) < 0) {
            return fail(SshErrorCode::Protocol,
                        QCoreApplication::translate("Ssh", "Could not send the answers: %1").arg(libsshError()));
        }
    }
    for (QByteArray &a : *answers) {
        wipe(a);
    }
    const Progress p = handleKbdIntReply(ssh_userauth_kbdint(m_session, nullptr, nullptr));
    return p == Progress::Waiting && !m_kbdIntWaiting ? advance() : p;
}

Authenticator::Progress Authenticator::stepPassword()
{
    if (!(m_methods & SSH_AUTH_METHOD_PASSWORD) || m_passwordAttempt > kMaxAttempts) {
        m_step = Step::Finished;
        return Progress::Waiting;
    }
    if (m_passwordAttempt == 1) {
        m_tried.append(QStringLiteral("password"));
    }
    m_hooks.password(PasswordRequest{
        m_user, m_host, m_passwordAttempt,
        m_passwordAttempt > 1 ? QCoreApplication::translate("Ssh", "Incorrect user name or password.") : QString()});
    return Progress::Waiting;
}

Authenticator::Progress Authenticator::answerPassword(std::optional<QByteArray> password)
{
    if (!password) {
        return fail(SshErrorCode::AuthCancelled,
                    QCoreApplication::translate("Ssh", "Authentication to %1 was cancelled.").arg(m_host));
    }
    const int rc = ssh_userauth_password(m_session, nullptr, password->constData());
    wipe(*password);
    switch (rc) {
    case SSH_AUTH_SUCCESS:
        return done(QStringLiteral("password"));
    case SSH_AUTH_PARTIAL:
        partial();
        return advance();
    case SSH_AUTH_ERROR:
        return fail(SshErrorCode::Protocol,
                    QCoreApplication::translate("Ssh", "Password authentication failed: %1").arg(libsshError()));
    default:
        ++m_passwordAttempt;
        return stepPassword() == Progress::Waiting && m_step == Step::Password ? Progress::Waiting : advance();
    }
}

} // namespace flashdeck::ssh
