#include "backend/ssh/knownhosts.h"

#include "backend/ssh/sshhandles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace flashdeck::ssh {

QString KnownHosts::hostPattern(const QString &host, unsigned int port)
{
    return port == 22 || port == 0 ? host : QStringLiteral("[%1]:%2").arg(host).arg(port);
}

std::pair<QString, QString> KnownHosts::findEntry(const QString &knownHostsFile, const QString &pattern)
{
    QFile file(knownHostsFile);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QByteArray host = pattern.toUtf8();
    int lineNo = 0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        ++lineNo;
        if (line.isEmpty() || line.startsWith('#')) {
            continue;
        }
        ssh_knownhosts_entry *raw = nullptr;
        // Matches plain, wildcard and hashed (|1|…) host fields the way libssh does.
        if (ssh_known_hosts_parse_line(host.constData(), line.constData(), &raw) == SSH_OK && raw) {
            KnownHostsEntryPtr entry(raw);
            const QString type =
                entry->publickey ? QString::fromUtf8(ssh_key_type_to_char(ssh_key_type(entry->publickey))) : QString();
            return {QStringLiteral("%1:%2").arg(knownHostsFile).arg(lineNo), type};
        }
    }
    return {};
}

QString KnownHosts::findRevoked(const QString &knownHostsFile, const QByteArray &keyBase64)
{
    QFile file(knownHostsFile);
    if (keyBase64.isEmpty() || !file.open(QIODevice::ReadOnly)) {
        return {};
    }
    int lineNo = 0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().simplified();
        ++lineNo;
        if (!line.startsWith("@revoked ")) {
            continue;
        }
        // "@revoked PATTERNS KEYTYPE BASE64 [COMMENT]" (sshd(8), SSH_KNOWN_HOSTS FILE FORMAT)
        const QList<QByteArray> fields = line.split(' ');
        if (fields.size() >= 4 && fields.at(3) == keyBase64) {
            return QStringLiteral("%1:%2").arg(knownHostsFile).arg(lineNo);
        }
    }
    return {};
}

HostKeyInfo KnownHosts::inspect(ssh_session session, const QString &knownHostsFile)
{
    HostKeyInfo info;
    info.knownHostsFile = knownHostsFile;

    char *hostRaw = nullptr;
    if (ssh_options_get(session, SSH_OPTIONS_HOST, &hostRaw) == SSH_OK && hostRaw) {
        info.host = QString::fromUtf8(hostRaw);
        ssh_string_free_char(hostRaw);
    }
    unsigned int port = 22;
    (void)ssh_options_get_port(session, &port);
    info.host = hostPattern(info.host, port);

    ssh_key rawKey = nullptr;
    if (ssh_get_server_publickey(session, &rawKey) != SSH_OK || !rawKey) {
        info.state = KnownHostState::Error;
        return info;
    }
    const KeyPtr key(rawKey);
    info.keyType = QString::fromUtf8(ssh_key_type_to_char(ssh_key_type(key.get())));
    unsigned char *hashRaw = nullptr;
    size_t hashLen = 0;
    if (ssh_get_publickey_hash(key.get(), SSH_PUBLICKEY_HASH_SHA256, &hashRaw, &hashLen) == SSH_OK) {
        const HashPtr hash(hashRaw);
        const CStringPtr text(ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash.get(), hashLen));
        info.fingerprint = QString::fromUtf8(text.get()); // "SHA256:…", as OpenSSH prints it
    }
    char *base64Raw = nullptr;
    if (ssh_pki_export_pubkey_base64(key.get(), &base64Raw) == SSH_OK && base64Raw) {
        const CStringPtr base64(base64Raw);
        if (const QString where = findRevoked(knownHostsFile, QByteArray(base64.get())); !where.isEmpty()) {
            info.state = KnownHostState::Revoked;
            info.knownLine = where;
            return info;
        }
    }

    switch (ssh_session_is_known_server(session)) {
    case SSH_KNOWN_HOSTS_OK:
        info.state = KnownHostState::Ok;
        break;
    case SSH_KNOWN_HOSTS_UNKNOWN:
        info.state = KnownHostState::Unknown;
        break;
    case SSH_KNOWN_HOSTS_NOT_FOUND:
        info.state = KnownHostState::NotFound;
        break;
    case SSH_KNOWN_HOSTS_CHANGED:
        info.state = KnownHostState::Changed;
        break;
    case SSH_KNOWN_HOSTS_OTHER:
        info.state = KnownHostState::Other;
        break;
    case SSH_KNOWN_HOSTS_ERROR:
        info.state = KnownHostState::Error;
        break;
    }
    if (info.state == KnownHostState::Changed || info.state == KnownHostState::Other) {
        const auto [where, type] = findEntry(knownHostsFile, info.host);
        info.knownLine = where;
        info.knownKeyType = type;
    }
    return info;
}

Status KnownHosts::accept(ssh_session session, const QString &knownHostsFile)
{
    const QString dir = QFileInfo(knownHostsFile).absolutePath();
    if (!QDir().mkpath(dir)) {
        return Status::failure(QCoreApplication::translate(
                                   "Ssh", "Cannot create %1 to record the host key. Check the folder's permissions.")
                                   .arg(dir));
    }
    if (ssh_session_update_known_hosts(session) != SSH_OK) {
        return Status::failure(
            QCoreApplication::translate("Ssh",
                                        "Could not write the host key to %1, so it would not be recognised "
                                        "next time. Check that the file is writable and the disk not full.")
                .arg(knownHostsFile),
            QString::fromUtf8(ssh_get_error(session)));
    }
    return Status::ok();
}

SshError KnownHosts::refusal(const HostKeyInfo &info)
{
    SshError error;
    const QString removeHint =
        QCoreApplication::translate("Ssh",
                                    "If you know why it changed (the server was reinstalled or its keys "
                                    "regenerated), confirm the new fingerprint with the server's "
                                    "administrator, then remove the old key deliberately with:\n"
                                    "  ssh-keygen -f '%1' -R '%2'\nand connect again.")
            .arg(info.knownHostsFile, info.host);
    switch (info.state) {
    case KnownHostState::Changed:
        error.code = SshErrorCode::HostKeyChanged;
        error.message = QCoreApplication::translate(
                            "Ssh",
                            "WARNING: the host key of %1 has changed. Someone could be intercepting this connection "
                            "(a man-in-the-middle attack), or the server's key was replaced. Connection refused.\n"
                            "The %2 key the server sent has fingerprint %3.\n"
                            "The key we know for it is at %4.\n%5")
                            .arg(info.host, info.keyType, info.fingerprint,
                                 info.knownLine.isEmpty() ? info.knownHostsFile : info.knownLine, removeHint);
        break;
    case KnownHostState::Other:
        error.code = SshErrorCode::HostKeyOther;
        error.message = QCoreApplication::translate(
                            "Ssh",
                            "The server %1 sent a %2 key (%3), but the key we know for it is of another type "
                            "(%4, at %5). An attacker could be offering a key type we never verified, so the "
                            "connection is refused.\n%6")
                            .arg(info.host, info.keyType, info.fingerprint,
                                 info.knownKeyType.isEmpty() ? QCoreApplication::translate("Ssh", "another type")
                                                             : info.knownKeyType,
                                 info.knownLine.isEmpty() ? info.knownHostsFile : info.knownLine, removeHint);
        break;
    case KnownHostState::Revoked:
        error.code = SshErrorCode::HostKeyRevoked;
        error.message =
            QCoreApplication::translate("Ssh",
                                        "The server %1 sent a %2 key (%3) that is marked revoked at %4. A revoked "
                                        "key must never be trusted again, so the connection is refused. Ask the "
                                        "server's administrator for its current key.")
                .arg(info.host, info.keyType, info.fingerprint, info.knownLine);
        break;
    case KnownHostState::Unknown:
    case KnownHostState::NotFound:
        error.code = SshErrorCode::HostKeyUnknown;
        error.message =
            QCoreApplication::translate("Ssh",
                                        "The host key of %1 (%2 %3) is not trusted yet and was not accepted. "
                                        "Compare the fingerprint with the server's (ssh-keygen -lf "
                                        "/etc/ssh/ssh_host_*_key.pub on the server) before accepting it.")
                .arg(info.host, info.keyType, info.fingerprint);
        break;
    case KnownHostState::Error:
        error.code = SshErrorCode::HostKeyError;
        error.message =
            QCoreApplication::translate("Ssh",
                                        "Could not check the host key of %1 against %2. Check that the file "
                                        "is readable and well-formed.")
                .arg(info.host, info.knownHostsFile);
        break;
    case KnownHostState::Ok:
        break;
    }
    return error;
}

} // namespace flashdeck::ssh
