#pragma once

#include "backend/core/result.h"

#include <QHostAddress>
#include <QString>

namespace flashdeck::expose {

/**
 * A source network the gateway lets in (`--allow`): an address and a prefix length, with no bits
 * set past the prefix. A bare address is the one host (/32 or /128).
 */
class Cidr final
{
public:
    /**
     * "10.0.0.0/8", "2001:db8::/32", "192.0.2.7"; refuses anything else with words that say why,
     * naming the text as `named` does ("--allow" on the command line, the window's field).
     */
    [[nodiscard]] static Result<Cidr> parse(const QString &text, const QString &named = QStringLiteral("--allow"));

    const QHostAddress &address() const { return m_address; }
    int prefixLength() const { return m_prefix; }
    bool isIPv6() const { return m_address.protocol() == QAbstractSocket::IPv6Protocol; }
    /** The canonical form nginx's geo block reads: "10.0.0.0/8". */
    QString toString() const;
    bool contains(const QHostAddress &address) const;

private:
    Cidr(QHostAddress address, int prefix);

    QHostAddress m_address;
    int m_prefix = 0;
};

} // namespace flashdeck::expose
