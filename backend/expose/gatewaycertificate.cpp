#include "backend/expose/gatewaycertificate.h"

#include "backend/core/shellquote.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QHostAddress>
#include <QSslKey>
#include <QStringList>

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

namespace {

/** A DNS entry naming `host`: equal, or "*.rest" for exactly one more label (RFC 6125). */
bool dnsMatches(const QString &entry, const QString &host)
{
    const QString e = entry.toLower();
    const QString h = host.toLower();
    if (!e.startsWith(QLatin1String("*."))) {
        return e == h;
    }
    const qsizetype dot = h.indexOf(QLatin1Char('.'));
    return dot > 0 && h.mid(dot) == e.mid(1);
}

} // namespace

QString GatewayCertificate::nameMismatch(const QString &address) const
{
    const auto names = m_certificate.subjectAlternativeNames();
    const QHostAddress ip(address);
    QStringList named;
    for (auto it = names.cbegin(); it != names.cend(); ++it) {
        if (it.key() == QSsl::AlternativeNameEntryType::IpAddressEntry) {
            if (!ip.isNull() && QHostAddress(it.value()).isEqual(ip)) {
                return {};
            }
        } else if (it.key() == QSsl::AlternativeNameEntryType::DnsEntry) {
            if (ip.isNull() && dnsMatches(it.value(), address)) {
                return {};
            }
        } else {
            continue;
        }
        named.append(it.value());
    }
    return QCoreApplication::translate(
               "Expose",
               "Warning: the certificate's subjectAltName names %1, not %2, the address in the gateway's URL. "
               "Browsers, curl and the OpenAI clients check that name and will reject the connection (curl: "
               "\"no alternative certificate subject name matches\"). Get a certificate for %2, or expose with "
               "--listen set to an address it names; a client that cannot wait can pin the key (--pinnedpubkey) "
               "and skip the name check (curl --insecure).")
        .arg(named.isEmpty() ? QCoreApplication::translate("Expose", "nothing") : named.join(QStringLiteral(", ")),
             address);
}

QByteArray GatewayCertificate::selfSignedCommand(const QByteArray &quotedDir, const QString &address)
{
    const QString san = QHostAddress(address).isNull() ? QStringLiteral("subjectAltName=DNS:") + address
                                                       : QStringLiteral("subjectAltName=IP:") + address;
    // An EC P-256 key (what browsers and curl prefer to a 2048-bit RSA one), made where it is used.
    return "umask 077 && cd " + quotedDir +
        "/tls && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout key.pem -out "
        "cert.pem -days 365 -subj /CN=flashdeck-gateway -addext " +
        shellQuote(san) + " && cat cert.pem";
}

} // namespace flashdeck::expose
