#include "backend/ssh/cipherpreference.h"

#include <QFile>
#include <QList>

namespace flashdeck::ssh {

QByteArray CipherPreference::list(bool aesInstructions)
{
    // Names as OpenSSH and libssh 0.10 spell them (libssh src/kex.c, AES_GCM and CHACHA20).
    static const QByteArray aead = "aes128-gcm@openssh.com,aes256-gcm@openssh.com";
    static const QByteArray chacha = "chacha20-poly1305@openssh.com";
    static const QByteArray ctr = "aes128-ctr,aes192-ctr,aes256-ctr"; // servers older than GCM support
    return aesInstructions ? aead + ',' + chacha + ',' + ctr : chacha + ',' + aead + ',' + ctr;
}

bool CipherPreference::cpuInfoHasAes(const QByteArray &cpuinfo)
{
    for (const QByteArray &line : cpuinfo.split('\n')) {
        // x86: "flags : … aes … pclmulqdq …"; Arm64: "Features : … aes pmull …".
        if (!line.startsWith("flags") && !line.startsWith("Features")) {
            continue;
        }
        const QList<QByteArray> words = line.mid(line.indexOf(':') + 1).simplified().split(' ');
        const bool aes = words.contains("aes");
        const bool gmul = words.contains("pclmulqdq") || words.contains("pmull");
        return aes && gmul;
    }
    return false;
}

bool CipherPreference::cpuHasAes()
{
    static const bool has = [] {
        QFile f(QStringLiteral("/proc/cpuinfo"));
        // The first processor's block is enough: every core of one machine has the same flags.
        return f.open(QIODevice::ReadOnly) && cpuInfoHasAes(f.read(64 * 1024));
    }();
    return has;
}

QByteArray CipherPreference::forThisMachine()
{
    return list(cpuHasAes());
}

} // namespace flashdeck::ssh
