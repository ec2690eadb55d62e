#include "backend/ssh/keyfile.h"

#include <QDir>
#include <QtEndian>

namespace flashdeck::ssh::keyfile {

bool isEncrypted(const QByteArray &contents)
{
    if (contents.contains("Proc-Type: 4,ENCRYPTED") || contents.contains("BEGIN ENCRYPTED PRIVATE KEY")) {
        return true;
    }
    static const QByteArray begin("-----BEGIN OPENSSH PRIVATE KEY-----");
    static const QByteArray end("-----END OPENSSH PRIVATE KEY-----");
    const qsizetype from = contents.indexOf(begin);
    const qsizetype to = contents.indexOf(end);
    if (from < 0 || to < from) {
        return false;
    }
    const QByteArray body =
        QByteArray::fromBase64(contents.mid(from + begin.size(), to - from - begin.size()).simplified());
    static const QByteArray magic("openssh-key-v1", 15); // includes the terminating NUL
    if (!body.startsWith(magic) || body.size() < magic.size() + 4) {
        return false;
    }
    const quint32 len = qFromBigEndian<quint32>(body.constData() + magic.size());
    if (len > 64 || body.size() < magic.size() + 4 + qsizetype(len)) {
        return false;
    }
    return body.mid(magic.size() + 4, len) != "none";
}

QStringList defaultIdentities(const QString &sshDir)
{
    const QDir dir(sshDir);
    return {dir.filePath(QStringLiteral("id_ed25519")), dir.filePath(QStringLiteral("id_ecdsa")),
            dir.filePath(QStringLiteral("id_rsa"))};
}

} // namespace flashdeck::ssh::keyfile
