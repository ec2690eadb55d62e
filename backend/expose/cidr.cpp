#include "backend/expose/cidr.h"

#include <QCoreApplication>

namespace flashdeck::expose {

Cidr::Cidr(QHostAddress address, int prefix)
    : m_address(std::move(address))
    , m_prefix(prefix)
{ }

namespace {

Status notACidr(const QString &named, const QString &text)
{
    return Status::failure(
        QCoreApplication::translate("Expose",
                                    "%1 %2 is not a network: give an address with its prefix length, as "
                                    "10.0.0.0/8, 192.168.1.0/24 or 2001:db8::/32 (a host name is not accepted: "
                                    "the gateway checks the connecting address, not a name).")
            .arg(named, text));
}

/** The address with every bit past `prefix` cleared. */
QHostAddress networkOf(const QHostAddress &address, int prefix)
{
    if (address.protocol() == QAbstractSocket::IPv4Protocol) {
        const quint32 mask = prefix == 0 ? 0u : ~quint32(0) << (32 - prefix);
        return QHostAddress(address.toIPv4Address() & mask);
    }
    Q_IPV6ADDR bytes = address.toIPv6Address();
    for (int i = 0; i < 16; ++i) {
        const int keep = qBound(0, prefix - i * 8, 8);
        bytes[i] &= quint8(keep == 0 ? 0 : 0xff << (8 - keep));
    }
    return QHostAddress(bytes);
}

} // namespace

Result<Cidr> Cidr::parse(const QString &input, const QString &named)
{
    const QString text = input.trimmed();
    const qsizetype slash = text.indexOf(QLatin1Char('/'));
    const QString addressPart = slash < 0 ? text : text.left(slash);
    QHostAddress address;
    if (addressPart.contains(QLatin1Char('%')) || !address.setAddress(addressPart)) {
        return notACidr(named, input);
    }
    const int bits = address.protocol() == QAbstractSocket::IPv4Protocol ? 32 : 128;
    int prefix = bits;
    if (slash >= 0) {
        bool ok = false;
        const QString prefixPart = text.mid(slash + 1);
        prefix = prefixPart.toInt(&ok);
        if (!ok || prefixPart.startsWith(QLatin1Char('+')) || prefix < 0 || prefix > bits) {
            return Status::failure(QCoreApplication::translate("Expose",
                                                               "%1 %2: the prefix length must be a number "
                                                               "from 0 to %3 for this address.")
                                       .arg(named, input)
                                       .arg(bits));
        }
    }
    if (prefix == 0) {
        return Status::failure(
            QCoreApplication::translate("Expose",
                                        "%1 %2 lets every address in, which is no restriction at all. "
                                        "Name the networks your colleagues and services connect from.")
                .arg(named, input));
    }
    const QHostAddress network = networkOf(address, prefix);
    if (network != address) {
        return Status::failure(
            QCoreApplication::translate("Expose",
                                        "%1 %2 has bits set past its prefix length. Write %3/%4 for the "
                                        "network, or %5/%6 for that one address.")
                .arg(named, input, network.toString())
                .arg(prefix)
                .arg(address.toString())
                .arg(bits));
    }
    return Cidr(address, prefix);
}

QString Cidr::toString() const
{
    return QStringLiteral("%1/%2").arg(m_address.toString()).arg(m_prefix);
}

bool Cidr::contains(const QHostAddress &address) const
{
    return address.isInSubnet(m_address, m_prefix);
}

} // namespace flashdeck::expose
