#include "backend/expose/gatewaypreview.h"

#include <QCoreApplication>
#include <QHostAddress>

namespace flashdeck::expose {

namespace {

QString where(const GatewayOptions &o)
{
    const QHostAddress address(o.listenAddress);
    const bool v6 = address.protocol() == QAbstractSocket::IPv6Protocol;
    const QString url = QStringLiteral("https://%1:%2")
                            .arg(v6 ? QLatin1Char('[') + address.toString() + QLatin1Char(']') : address.toString())
                            .arg(o.listenPort);
    const QString tls = o.tls == TlsMode::SelfSigned
        ? QCoreApplication::translate("Expose",
                                      "a self-signed certificate made on the host; its SHA-256 fingerprint is shown "
                                      "once exposed, for clients to pin")
        : QCoreApplication::translate("Expose",
                                      "your certificate and key (the key is copied with mode 0600 and never logged)");
    return QCoreApplication::translate(
               "Expose", "Listens on %1 (TLS: %2) and passes requests to the server on the host's loopback, port %3.\n")
        .arg(url, tls)
        .arg(o.upstreamPort);
}

QString who(const GatewayOptions &o)
{
    QStringList networks;
    for (const Cidr &cidr : o.allow) {
        networks << cidr.toString();
    }
    return QCoreApplication::translate(
               "Expose",
               "Who may connect: %1; every other address gets 403. A firewall or security group in front of the "
               "host is still worth having.\n"
               "The API key stays required: without \"Authorization: Bearer KEY\" the gateway answers 401 before "
               "the server sees the request, and the server checks the key itself.\n")
        .arg(networks.join(QStringLiteral(", ")));
}

QString limits(const GatewayOptions &o)
{
    const QString mib = QString::number(double(o.maxBodyBytes) / 1048576.0, 'g', 4);
    return QCoreApplication::translate(
               "Expose",
               "Limits:\n"
               "  rate       %1 per client address, burst %2, then 429 (a chat turn is one request; an agent's "
               "parallel tool calls come in bursts)\n"
               "  in flight  %3 requests across all clients, then 503 (more would only wait in the server's "
               "queue)\n"
               "  body       %4 MiB, then 413 (the Playground's largest image, 20 MiB, is about 27 MiB as base64)\n"
               "  timeouts   %5 s between reads from a client; %6 s waiting for the server (an answer without "
               "streaming can think for minutes)\n")
        .arg(o.rate.toString())
        .arg(o.burst)
        .arg(o.maxConcurrent)
        .arg(mib)
        .arg(o.clientTimeoutSeconds)
        .arg(o.upstreamTimeoutSeconds);
}

QString previewRefused(const GatewayOptions &o)
{
    const QString hosts = o.mediaAllow.isEmpty()
        ? QCoreApplication::translate("Expose", "none, so only data: URIs pass")
        : o.mediaAllow.join(QStringLiteral(", "));
    return QCoreApplication::translate(
               "Expose",
               "Refused before the server sees them:\n"
               "  media URLs in messages (image_url, video_url, audio_url) other than https on port 443 to an "
               "allowed host; allowed hosts: %1. Address literals (private, loopback, link-local or any "
               "other), http:, file: and local paths are always refused; data: URIs pass within the body limit\n"
               "  any path but /v1/ and /health (404)\n"
               "Not logged: API keys, prompts, media or answers (the log has the method, path, status, sizes and "
               "time).\n"
               "Left to you: the server fetches allowed media URLs itself, so the gateway does not bound their "
               "redirects, download time, bytes or pixels; allow only hosts you trust.\n")
        .arg(hosts);
}

} // namespace

QString GatewayPreview::text(const GatewayOptions &options)
{
    return where(options) + who(options) + limits(options) + previewRefused(options);
}

} // namespace flashdeck::expose
