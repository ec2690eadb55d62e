#include "backend/ssh/sessionsetup.h"

#include "backend/applog/logging.h"
#include "backend/ssh/cipherpreference.h"
#include "backend/ssh/keyfile.h"
#include "backend/ssh/sshconfig.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

#include <spdlog/logger.h>

namespace flashdeck::ssh {

SshError SessionSetup::connectError(ssh_session session, const QString &where)
{
    const QString text = QString::fromUtf8(ssh_get_error(session));
    const QString lower = text.toLower();
    SshError e;
    e.detail = QCoreApplication::translate("Ssh", "%1 (libssh code %2)").arg(text).arg(ssh_get_error_code(session));
    if (lower.contains(QStringLiteral("timeout")) || lower.contains(QStringLiteral("timed out"))) {
        e.code = SshErrorCode::TimedOut;
        e.message =
            QCoreApplication::translate("Ssh",
                                        "%1 did not answer in time. Check that the host is up, the address and port "
                                        "are right, and no firewall drops SSH.")
                .arg(where);
    } else if (lower.contains(QStringLiteral("refused")) || lower.contains(QStringLiteral("resolve")) ||
               lower.contains(QStringLiteral("unreachable")) || lower.contains(QStringLiteral("no route")) ||
               lower.contains(QStringLiteral("getaddrinfo")) || lower.contains(QStringLiteral("connect"))) {
        e.code = SshErrorCode::Unreachable;
        e.message = QCoreApplication::translate(
                        "Ssh", "Cannot reach %1: %2. Check the address and port, and that sshd runs there.")
                        .arg(where, text);
    } else if (lower.contains(QStringLiteral("no match for method encryption"))) {
        // The server offers only ciphers Flashdeck never uses (CipherPreference): say which, in
        // libssh's words ("… server [aes128-cbc], client [aes128-gcm@openssh.com,…]").
        e.code = SshErrorCode::Protocol;
        e.message =
            QCoreApplication::translate("Ssh",
                                        "%1 offers no cipher Flashdeck uses: %2. Flashdeck offers AES-GCM, "
                                        "ChaCha20-Poly1305 and AES-CTR, never CBC or 3DES: allow one of them in the "
                                        "host's sshd_config (Ciphers; OpenSSH's defaults include them all).")
                .arg(where, text);
    } else {
        e.code = SshErrorCode::Protocol;
        e.message = QCoreApplication::translate("Ssh", "The SSH handshake with %1 failed: %2").arg(where, text);
    }
    return e;
}

QString SessionSetup::knownHostsPath(const SshTarget &target)
{
    return target.knownHostsFile.isEmpty() ? QDir::homePath() + QStringLiteral("/.ssh/known_hosts")
                                           : expandHome(target.knownHostsFile);
}

QStringList SessionSetup::identityCandidates(const SshTarget &target)
{
    QStringList out;
    if (!target.identityFile.isEmpty()) {
        out.append(expandHome(target.identityFile));
    }
    if (target.configFile != QStringLiteral("none")) {
        const SshConfig config =
            SshConfig::load(target.configFile.isEmpty() ? SshConfig::defaultPath() : target.configFile);
        for (const QString &f : config.resolve(target.host).identityFiles) {
            if (!out.contains(f)) {
                out.append(f);
            }
        }
    }
    for (const QString &f : keyfile::defaultIdentities(QDir::homePath() + QStringLiteral("/.ssh"))) {
        if (!out.contains(f)) {
            out.append(f);
        }
    }
    return out;
}

SessionPtr SessionSetup::create(const SshTarget &target, SshError &error, QString *effectiveUser,
                                QString *effectiveHost)
{
    SessionPtr session(ssh_new());
    ssh_session s = session.get();
    const QByteArray host = target.host.toUtf8();
    const QByteArray user = target.user.toUtf8();
    const QByteArray knownHosts = QFile::encodeName(knownHostsPath(target));
    const long timeoutUsec = static_cast<long>(target.connectTimeoutMs) * 1000;
    const int nodelay = 1;
    const unsigned int port = target.port;
    const bool processConfig = target.configFile != QStringLiteral("none");

    // KIO's order (conventions §5.3): host, port, user, known_hosts, then the config file
    // last, so explicit settings win ("Options that were already set explicitly … take
    // precedence", libssh src/options.c).
    auto setOpt = [&](ssh_options_e option, const void *value, const char *what) {
        if (ssh_options_set(s, option, value) == SSH_OK) {
            return true;
        }
        error = {SshErrorCode::Protocol,
                 QCoreApplication::translate("Ssh", "Invalid SSH option %1 for %2.")
                     .arg(QString::fromUtf8(what), target.host),
                 QString::fromUtf8(ssh_get_error(s))};
        return false;
    };
    if (!setOpt(SSH_OPTIONS_HOST, host.constData(), "host") ||
        !setOpt(SSH_OPTIONS_TIMEOUT_USEC, &timeoutUsec, "timeout") ||
        !setOpt(SSH_OPTIONS_NODELAY, &nodelay, "nodelay")) {
        return {};
    }
    if (port != 0 && !setOpt(SSH_OPTIONS_PORT, &port, "port")) {
        return {};
    }
    if (!user.isEmpty() && !setOpt(SSH_OPTIONS_USER, user.constData(), "user")) {
        return {};
    }
    if (!setOpt(SSH_OPTIONS_KNOWNHOSTS, knownHosts.constData(), "known_hosts")) {
        return {};
    }
    if (!processConfig) {
        const bool no = false;
        if (!setOpt(SSH_OPTIONS_PROCESS_CONFIG, &no, "process-config")) {
            return {};
        }
    } else {
        const QByteArray config = QFile::encodeName(expandHome(target.configFile));
        if (ssh_options_parse_config(s, config.isEmpty() ? nullptr : config.constData()) != SSH_OK) {
            applog::ssh().warn("could not parse the SSH config for {}: {}", target.host.toStdString(),
                               ssh_get_error(s));
        }
        // The user's config may say `StrictHostKeyChecking no` or point UserKnownHostsFile at
        // /dev/null; libssh then accepts an unknown key without asking. Host-key trust is
        // Flashdeck's policy, not the config's (reference Table ): re-assert both after
        // parsing. tst_hostkeys::userConfig_cannotWeakenThePolicy proves it.
        const int strict = 1;
        if (!setOpt(SSH_OPTIONS_STRICTHOSTKEYCHECK, &strict, "strict-host-key-checking") ||
            !setOpt(SSH_OPTIONS_KNOWNHOSTS, knownHosts.constData(), "known_hosts")) {
            return {};
        }
    }
    // Set after the config, so a `Ciphers` line there cannot bring back a weak one.
    const QByteArray ciphers = CipherPreference::forThisMachine();
    if (!setOpt(SSH_OPTIONS_CIPHERS_C_S, ciphers.constData(), "ciphers") ||
        !setOpt(SSH_OPTIONS_CIPHERS_S_C, ciphers.constData(), "ciphers")) {
        return {};
    }
    char *value = nullptr;
    if (ssh_options_get(s, SSH_OPTIONS_USER, &value) == SSH_OK) {
        *effectiveUser = QString::fromUtf8(value);
        ssh_string_free_char(value);
    }
    if (ssh_options_get(s, SSH_OPTIONS_HOST, &value) == SSH_OK) {
        *effectiveHost = QString::fromUtf8(value);
        ssh_string_free_char(value);
    }
    return session;
}

} // namespace flashdeck::ssh
