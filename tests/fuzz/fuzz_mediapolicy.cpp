// The remote-media policy (F23, F33): URLs typed by a user, addresses a resolver returned and
// image bytes from the network. Properties: a URL that passes is https on 443, without user
// info, names an allowed host and no address literal; an address that passes is in no blocked
// range and none of Qt's own special kinds.

#include "backend/chat/imageprobe.h"
#include "backend/chat/mediapolicy.h"
#include "tests/fuzz/fuzzinput.h"

#include <QHostAddress>
#include <QUrl>
#include <QtEndian>

#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace flashdeck::chat;
    const QByteArray input = flashdeck::fuzz::bytes(data, size);
    MediaLimits limits;
    limits.allowedHosts = {QStringLiteral("images.example.org"), QStringLiteral("*.cdn.example.net")};
    limits.maxBytes = 1 << 20;
    limits.maxPixels = 4'000'000;
    const MediaPolicy policy(limits);

    const QString text = QString::fromUtf8(input);
    if (policy.checkUrl(text).isOk()) {
        const QUrl url(text.trimmed(), QUrl::StrictMode);
        FUZZ_CHECK(url.isValid());
        FUZZ_CHECK(url.scheme() == QLatin1String("https"));
        FUZZ_CHECK(url.port(443) == 443);
        FUZZ_CHECK(url.userInfo().isEmpty());
        QString host = url.host(QUrl::FullyEncoded).toLower(); // as the DNS sees it
        if (host.endsWith(QLatin1Char('.'))) {
            host.chop(1);
        }
        FUZZ_CHECK(QHostAddress(host).isNull() && QHostAddress(url.host()).isNull());
        FUZZ_CHECK(host == QLatin1String("images.example.org") || host.endsWith(QLatin1String(".cdn.example.net")));
    }

    if (size >= 16) {
        Q_IPV6ADDR bytes16;
        std::memcpy(bytes16.c, data, 16);
        for (const QHostAddress &address : {QHostAddress(bytes16), QHostAddress(qFromBigEndian<quint32>(data))}) {
            const bool allowed = policy.checkAddress(address).isOk();
            FUZZ_CHECK(allowed == !MediaPolicy::blockedRange(address).has_value());
            if (allowed) {
                FUZZ_CHECK(!address.isLoopback() && !address.isLinkLocal() && !address.isMulticast() &&
                           !address.isBroadcast() && !address.isNull() && !address.isSiteLocal() &&
                           !address.isUniqueLocalUnicast());
                bool v4 = false;
                const quint32 embedded = address.toIPv4Address(&v4);
                if (v4 && address.protocol() == QAbstractSocket::IPv6Protocol) {
                    FUZZ_CHECK(policy.checkAddress(QHostAddress(embedded)).isOk()); // mapped: the IPv4 rules too
                }
            }
        }
    }

    const auto image = policy.checkImage(input);
    if (image) {
        FUZZ_CHECK(input.size() <= limits.maxBytes);
    } else {
        FUZZ_CHECK(!image.message().isEmpty());
    }
    return 0;
}
