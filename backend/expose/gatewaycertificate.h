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

private:
    explicit GatewayCertificate(QSslCertificate certificate);
    QSslCertificate m_certificate;
};

} // namespace flashdeck::expose
