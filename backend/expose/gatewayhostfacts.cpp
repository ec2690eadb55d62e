#include "backend/expose/gatewayhostfacts.h"

#include <QHostAddress>

namespace flashdeck::expose {

namespace {

/** "127.0.0.1:30000" → ("127.0.0.1", 30000); "[::]:22" → ("::", 22); "*:80" → ("*", 80). */
std::pair<QString, int> split(const QString &local)
{
    const qsizetype colon = local.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0) {
        return {{}, 0};
    }
    QString address = local.left(colon);
    if (address.startsWith(QLatin1Char('[')) && address.endsWith(QLatin1Char(']'))) {
        address = address.mid(1, address.size() - 2);
    }
    // ss adds the interface to a scoped address ("127.0.0.53%lo:53").
    address = address.section(QLatin1Char('%'), 0, 0);
    return {address, local.mid(colon + 1).toInt()};
}

bool isWildcard(const QHostAddress &a)
{
    return a == QHostAddress(QHostAddress::AnyIPv4) || a == QHostAddress(QHostAddress::AnyIPv6);
}

} // namespace

QByteArray GatewayHostFacts::probeCommand()
{
    return "printf 'home %s\\n' \"$HOME\"; "
           "if command -v openssl >/dev/null 2>&1; then echo 'openssl yes'; fi; "
           "if command -v ss >/dev/null 2>&1; then echo 'ss yes'; ss -Htln | awk '{print \"listen \" $4}'; fi";
}

GatewayHostFacts GatewayHostFacts::parse(const QByteArray &output)
{
    GatewayHostFacts facts;
    for (const QByteArray &raw : output.split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.startsWith(QLatin1String("home "))) {
            facts.m_home = line.mid(5);
        } else if (line == QLatin1String("openssl yes")) {
            facts.m_openssl = true;
        } else if (line == QLatin1String("ss yes")) {
            facts.m_ss = true;
        } else if (line.startsWith(QLatin1String("listen "))) {
            facts.m_listeners.append(line.mid(7));
        }
    }
    return facts;
}

std::optional<QString> GatewayHostFacts::taking(const QString &address, int port) const
{
    const QHostAddress wanted(address);
    for (const QString &local : m_listeners) {
        const auto [text, p] = split(local);
        if (p != port) {
            continue;
        }
        if (text == QLatin1String("*")) {
            return local;
        }
        const QHostAddress held(text);
        const bool sameFamily = held.protocol() == wanted.protocol();
        if (held == wanted || (sameFamily && (isWildcard(held) || isWildcard(wanted)))) {
            return local;
        }
    }
    return std::nullopt;
}

} // namespace flashdeck::expose
