#include "backend/expose/gatewaycertificate.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QSslKey>

namespace flashdeck::expose {

GatewayCertificate::GatewayCertificate(QSslCertificate certificate)
    : m_certificate(std::move(certificate))
{ }

Result<GatewayCertificate> GatewayCertificate::fromPem(const QByteArray &bytes, const QString &source)
{
    const QList<QSslCertificate> certificates = QSslCertificate::fromData(bytes, QSsl::Pem);
    if (certificates.isEmpty() || certificates.first().isNull()) {
        return Status::failure(
            QCoreApplication::translate("Expose", "%1 holds no PEM certificate (\"-----BEGIN CERTIFICATE-----\").")
                .arg(source));
    }
    if (certificates.first().publicKey().isNull()) {
        return Status::failure(
            QCoreApplication::translate("Expose", "The certificate in %1 has a public key Flashdeck cannot read.")
                .arg(source));
    }
    return GatewayCertificate(certificates.first());
}

QString GatewayCertificate::publicKeySha256() const
{
    // Qt writes a public key as PEM "PUBLIC KEY" (PEM_write_bio_PUBKEY): its DER is the
    // SubjectPublicKeyInfo, RSA and EC alike.
    const QByteArray spki = m_certificate.publicKey().toDer();
    return QString::fromLatin1(QCryptographicHash::hash(spki, QCryptographicHash::Sha256).toBase64());
}

QString GatewayCertificate::fingerprint() const
{
    return QString::fromLatin1(m_certificate.digest(QCryptographicHash::Sha256).toHex(':').toUpper());
}

Status GatewayCertificate::usableAt(const QDateTime &now) const
{
    if (m_certificate.expiryDate() <= now) {
        return Status::failure(QCoreApplication::translate("Expose",
                                                           "The certificate expired on %1: clients would refuse it. "
                                                           "Renew it, or use --self-signed.")
                                   .arg(m_certificate.expiryDate().toUTC().toString(Qt::ISODate)));
    }
    if (m_certificate.effectiveDate() > now) {
        return Status::failure(QCoreApplication::translate("Expose",
                                                           "The certificate is valid only from %1: clients would "
                                                           "refuse it until then (is this machine's clock right?).")
                                   .arg(m_certificate.effectiveDate().toUTC().toString(Qt::ISODate)));
    }
    return Status::ok();
}

} // namespace flashdeck::expose
