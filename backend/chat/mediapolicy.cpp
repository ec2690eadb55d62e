#include "backend/chat/mediapolicy.h"

#include "backend/chat/imageprobe.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QRegularExpression>
#include <QUrl>

namespace flashdeck::chat {

namespace {

struct Range
{
    const char *cidr;
    const char *why;
};

// IANA special-purpose registries (RFC 6890 and successors); anything listed is never fetched.
constexpr Range kBlocked[] = {
    {"0.0.0.0/8", "\"this network\" (RFC 791)"},
    {"10.0.0.0/8", "private (RFC 1918)"},
    {"100.64.0.0/10", "carrier-grade NAT (RFC 6598)"},
    {"127.0.0.0/8", "loopback"},
    {"169.254.0.0/16", "link-local (the cloud metadata service lives at 169.254.169.254)"},
    {"172.16.0.0/12", "private (RFC 1918)"},
    {"192.0.0.0/24", "IETF protocol assignments (RFC 6890)"},
    {"192.0.2.0/24", "documentation (RFC 5737)"},
    {"192.88.99.0/24", "6to4 relay anycast (RFC 7526)"},
    {"192.168.0.0/16", "private (RFC 1918)"},
    {"198.18.0.0/15", "benchmarking (RFC 2544)"},
    {"198.51.100.0/24", "documentation (RFC 5737)"},
    {"203.0.113.0/24", "documentation (RFC 5737)"},
    {"224.0.0.0/4", "multicast"},
    {"240.0.0.0/4", "reserved (RFC 1112), incl. broadcast"},
    {"::/128", "unspecified"},
    {"::1/128", "loopback"},
    {"::ffff:0:0/96", "IPv4-mapped IPv6"},
    {"::/96", "IPv4-compatible IPv6 (deprecated)"},
    {"64:ff9b::/96", "NAT64 (RFC 6052): an IPv4 address inside"},
    {"64:ff9b:1::/48", "local-use NAT64 (RFC 8215)"},
    {"100::/64", "discard-only (RFC 6666)"},
    {"2001::/32", "Teredo (RFC 4380): an IPv4 address inside"},
    {"2001:2::/48", "benchmarking (RFC 5180)"},
    {"2001:db8::/32", "documentation (RFC 3849)"},
    {"2002::/16", "6to4 (RFC 3056): an IPv4 address inside"},
    {"fc00::/7", "unique local (RFC 4193)"},
    {"fe80::/10", "link-local"},
    {"fec0::/10", "site-local (deprecated)"},
    {"ff00::/8", "multicast"},
};

/** Any host inet_aton() would take for an address: all-numeric labels, decimal, octal or hex. */
bool looksNumeric(const QString &host)
{
    static const QRegularExpression numeric(QStringLiteral("^(0x[0-9a-f]*|[0-9]+)(\\.(0x[0-9a-f]*|[0-9]+))*\\.?$"),
                                            QRegularExpression::CaseInsensitiveOption);
    return numeric.match(host).hasMatch();
}

} // namespace

MediaPolicy::MediaPolicy(MediaLimits limits)
    : m_limits(std::move(limits))
{ }

std::optional<QString> MediaPolicy::blockedRange(const QHostAddress &address)
{
    if (address.isNull()) {
        return QCoreApplication::translate("Chat", "not an address");
    }
    QHostAddress a = address;
    a.setScopeId(QString());
    for (const Range &r : kBlocked) {
        const auto subnet = QHostAddress::parseSubnet(QLatin1String(r.cidr));
        if (a.protocol() == subnet.first.protocol() && a.isInSubnet(subnet)) {
            return QLatin1String(r.why);
        }
    }
    if (a.protocol() == QAbstractSocket::IPv6Protocol) {
        // Only global unicast (2000::/3) is left to fetch from.
        const Q_IPV6ADDR v6 = a.toIPv6Address();
        if ((v6[0] & 0xe0) != 0x20) {
            return QCoreApplication::translate("Chat", "not global unicast IPv6");
        }
    }
    return std::nullopt;
}

QList<std::pair<QString, QString>> MediaPolicy::blockedRanges()
{
    QList<std::pair<QString, QString>> ranges;
    for (const Range &r : kBlocked) {
        ranges.append({QLatin1String(r.cidr), QLatin1String(r.why)});
    }
    return ranges;
}

bool MediaPolicy::hostAllowed(const QString &aceHost) const
{
    for (QString entry : m_limits.allowedHosts) {
        entry = entry.trimmed().toLower();
        if (entry.endsWith(QLatin1Char('.'))) {
            entry.chop(1);
        }
        if (entry.startsWith(QLatin1String("*."))) {
            const QString suffix = QString::fromLatin1(QUrl::toAce(entry.mid(2)));
            if (!suffix.isEmpty() && aceHost.endsWith(QLatin1Char('.') + suffix)) {
                return true;
            }
        } else if (!entry.isEmpty() && QString::fromLatin1(QUrl::toAce(entry)) == aceHost) {
            return true;
        }
    }
    return false;
}

Status MediaPolicy::checkUrl(const QString &text) const
{
    const QString trimmed = text.trimmed();
    if (trimmed.contains(QLatin1Char('\\')) || trimmed.contains(QRegularExpression(QStringLiteral("[\\x00-\\x20]")))) {
        return Status::failure(
            QCoreApplication::translate("Chat",
                                        "The URL contains a backslash, a space or a control character; "
                                        "copy it again from the browser's address bar."));
    }
    const QUrl url(trimmed, QUrl::StrictMode);
    if (!url.isValid() || url.isRelative()) {
        return Status::failure(QCoreApplication::translate("Chat",
                                                           "That is not a valid URL; an image URL looks like "
                                                           "https://images.example.org/cat.png."));
    }
    if (url.scheme() != QLatin1String("https")) {
        return Status::failure(
            QCoreApplication::translate("Chat",
                                        "Only https image URLs are fetched (this one is %1:). Download the "
                                        "image and attach the file instead.")
                .arg(url.scheme()));
    }
    if (!url.userInfo().isEmpty()) {
        return Status::failure(
            QCoreApplication::translate("Chat",
                                        "The URL carries a user name or password before '@'; such URLs are "
                                        "refused (they hide the real host). Remove that part."));
    }
    if (url.port(443) != 443) {
        return Status::failure(
            QCoreApplication::translate("Chat", "Only port 443 is fetched (this URL asks for %1).").arg(url.port()));
    }
    QString host = url.host(QUrl::FullyEncoded).toLower(); // the ACE form: IDN compared as the DNS sees it
    if (host.endsWith(QLatin1Char('.'))) {
        host.chop(1);
    }
    if (host.isEmpty()) {
        return Status::failure(QCoreApplication::translate("Chat", "The URL names no host."));
    }
    if (!QHostAddress(host).isNull() || host.startsWith(QLatin1Char('[')) || looksNumeric(host)) {
        return Status::failure(
            QCoreApplication::translate("Chat",
                                        "The URL gives an address (%1) instead of a host name; addresses "
                                        "are never fetched. Use the image's https://name/… URL.")
                .arg(host));
    }
    if (m_limits.allowedHosts.isEmpty()) {
        return Status::failure(
            QCoreApplication::translate("Chat",
                                        "No image host is allowed yet. Add %1 under Settings → Playground → "
                                        "Allowed image hosts, or attach the file instead.")
                .arg(host));
    }
    if (!hostAllowed(host)) {
        return Status::failure(
            QCoreApplication::translate("Chat",
                                        "%1 is not on the allowed image hosts (Settings → Playground). Add it "
                                        "there if you trust it, or attach the file instead.")
                .arg(host));
    }
    return Status::ok();
}

Status MediaPolicy::checkAddress(const QHostAddress &address) const
{
    if (const auto why = blockedRange(address)) {
        return Status::failure(
            QCoreApplication::translate("Chat",
                                        "The image host resolves to %1, which is %2; Flashdeck does not fetch "
                                        "from such addresses.")
                .arg(address.toString(), *why));
    }
    return Status::ok();
}

Result<ImageInfo> MediaPolicy::checkImage(const QByteArray &bytes) const
{
    if (bytes.size() > m_limits.maxBytes) {
        return Status::failure(
            QCoreApplication::translate("Chat", "The image is %1 MB; the limit is %2 MB (Settings → Playground).")
                .arg(double(bytes.size()) / 1048576.0, 0, 'f', 1)
                .arg(double(m_limits.maxBytes) / 1048576.0, 0, 'f', 1));
    }
    auto info = probeImage(bytes);
    if (!info) {
        return info;
    }
    const qint64 pixels = qint64(info.value().width) * info.value().height;
    if (info.value().width <= 0 || info.value().height <= 0) {
        return Status::failure(
            QCoreApplication::translate("Chat", "The image says it is %1 × %2 pixels; it cannot be sent.")
                .arg(info.value().width)
                .arg(info.value().height));
    }
    if (pixels > m_limits.maxPixels) {
        return Status::failure(
            QCoreApplication::translate("Chat",
                                        "The image is %1 × %2 pixels (%3 MP); the limit is %4 MP. Scale it "
                                        "down first.")
                .arg(info.value().width)
                .arg(info.value().height)
                .arg(double(pixels) / 1e6, 0, 'f', 1)
                .arg(double(m_limits.maxPixels) / 1e6, 0, 'f', 1));
    }
    return info;
}

} // namespace flashdeck::chat
