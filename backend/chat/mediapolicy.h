#pragma once

#include "backend/core/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

class QHostAddress;
class QUrl;

namespace flashdeck::chat {

struct ImageInfo;

/** The limits an image must meet before it is sent (Settings → Playground). */
struct MediaLimits
{
    /** Exact host names, or "*.example.org" for its subdomains; empty: no remote URL at all. */
    QStringList allowedHosts;
    qint64 maxBytes = 20 * 1024 * 1024;
    qint64 maxPixels = 40'000'000; // about 8 000 × 5 000
    int timeoutMs = 15000;
};

/**
 * The remote-media policy of issue 8 (F23, F33). SGLang fetches image URLs from the GPU host,
 * inside the operator's network, and older builds open local paths (sglang-facts §6): a URL is
 * therefore never handed to the server. Flashdeck fetches it itself, only when the URL and
 * every address its name resolves to pass here, and sends the checked bytes as a data URI.
 *
 * A URL passes when it is https on port 443, carries no user info, names its host (no address
 * literal, nor the decimal, octal, hex or short forms inet_aton would still accept) and that
 * host is on the allow-list. An address passes when it is global unicast: not unspecified,
 * loopback, private (RFC 1918), CGNAT (RFC 6598), link-local (incl. 169.254.169.254, the cloud
 * metadata service), benchmarking, documentation, multicast or reserved; for IPv6 also not
 * ULA, site-local, IPv4-mapped, IPv4-compatible, NAT64, 6to4 or Teredo (each can carry an IPv4
 * address past the IPv4 rules). QHostAddress::isGlobal() is not used: it accepts 10/8.
 */
class MediaPolicy final
{
public:
    explicit MediaPolicy(MediaLimits limits);

    const MediaLimits &limits() const { return m_limits; }

    /** Checks a URL before any lookup; the failure names the rule and what to do. */
    [[nodiscard]] Status checkUrl(const QString &url) const;
    /** Checks one address the host name resolved to (every one must pass). */
    [[nodiscard]] Status checkAddress(const QHostAddress &address) const;
    /** Why an address may not be fetched from ("loopback", "private (RFC 1918)", …), or nothing. */
    static std::optional<QString> blockedRange(const QHostAddress &address);
    /** Every blocked range, as "CIDR" and why: the gateway's script is written from the same table. */
    static QList<std::pair<QString, QString>> blockedRanges();
    /** Checks fetched or attached bytes: size, type by content, pixels. */
    [[nodiscard]] Result<ImageInfo> checkImage(const QByteArray &bytes) const;

private:
    bool hostAllowed(const QString &aceHost) const;

    MediaLimits m_limits;
};

} // namespace flashdeck::chat
