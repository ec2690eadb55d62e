#pragma once

#include "backend/core/result.h"

#include <QDateTime>
#include <QSslCertificate>
#include <QString>

namespace flashdeck::expose {

/**
 * The gateway's certificate as Flashdeck reads it: the one PEM certificate of a file (the
 * operator's, or the one made on the host), its public-key pin and fingerprint, and whether it
 * can be served now.
 */
class GatewayCertificate final
{
public:
    /** The first certificate of PEM `bytes`; `source` names the file in the refusal. */
    [[nodiscard]] static Result<GatewayCertificate> fromPem(const QByteArray &bytes, const QString &source);

    /**
     * base64 of the SHA-256 of the DER SubjectPublicKeyInfo: what `curl --pinnedpubkey
     * 'sha256//…'` compares (https://curl.se/docs/manpage.html#--pinnedpubkey). It survives a
     * renewal that keeps the key, unlike the certificate's fingerprint.
     */
    QString publicKeySha256() const;
    /** SHA-256 of the certificate's DER, "AB:CD:…", as browsers and `openssl x509 -fingerprint` show it. */
    QString fingerprint() const;
    QDateTime expires() const { return m_certificate.expiryDate(); }
    /** Refuses a certificate that has expired or is not valid yet at `now`, saying when. */
    [[nodiscard]] Status usableAt(const QDateTime &now) const;
    const QSslCertificate &certificate() const { return m_certificate; }
    /**
     * Empty when a subjectAltName names `address` (an IP entry for an address, a DNS entry,
     * "*.example.org" for one label, for a name); else the warning: what clients that check the
     * name will do, and what to do about it.
     */
    QString nameMismatch(const QString &address) const;

    /**
     * The host's shell command (run in `dir`'s tls folder) that makes the self-signed certificate
     * and key for `address` and prints the certificate. openssl's stderr is left to the command's
     * stderr: when it fails, its own words are the error, not an exit code.
     */
    static QByteArray selfSignedCommand(const QByteArray &quotedDir, const QString &address);

private:
    explicit GatewayCertificate(QSslCertificate certificate);
    QSslCertificate m_certificate;
};

} // namespace flashdeck::expose
