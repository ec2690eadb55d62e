#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace flashdeck::ssh {

/** Facts about private key files, read without asking for a passphrase. */
namespace keyfile {

/**
 * True when the key needs a passphrase: PEM with "Proc-Type: 4,ENCRYPTED", PKCS#8
 * "ENCRYPTED PRIVATE KEY", or OpenSSH's own format with a cipher other than "none"
 * (PROTOCOL.key in OpenSSH's source: "openssh-key-v1\0", then string ciphername).
 */
bool isEncrypted(const QByteArray &contents);

/** The identities OpenSSH and libssh try when none is configured, in their order. */
QStringList defaultIdentities(const QString &sshDir);

} // namespace keyfile
} // namespace flashdeck::ssh
