#include "backend/expose/gatewaymanifest.h"

#include "backend/core/shellquote.h"
#include "backend/expose/gatewaycontainer.h"
#include "backend/expose/gatewayimage.h"
#include "backend/expose/gatewayoptions.h"
#include "backend/expose/gatewayrecord.h"

#include <QStringList>

#include <nlohmann/json.hpp>

namespace flashdeck::expose {

namespace {

std::string s(const QString &v)
{
    return v.toStdString();
}

nlohmann::json list(const QStringList &items)
{
    nlohmann::json out = nlohmann::json::array();
    for (const QString &i : items) {
        out.push_back(i.toStdString());
    }
    return out;
}

QString q(const QString &v)
{
    return QString::fromUtf8(shellQuote(v));
}

QString digestOf(const GatewayRecord &r)
{
    const QString image = GatewayManifest::image(r);
    const qsizetype at = image.indexOf(QLatin1Char('@'));
    return at < 0 ? QString() : image.mid(at + 1);
}

} // namespace

QString GatewayManifest::image(const GatewayRecord &r)
{
    return r.image.isEmpty() ? GatewayImage::pinned() : r.image;
}

QString GatewayManifest::tlsMode(const GatewayRecord &r)
{
    return r.selfSigned ? QStringLiteral("self-signed") : QStringLiteral("certificate");
}

nlohmann::json GatewayManifest::toJson(const GatewayRecord &r)
{
    return {{"image", s(image(r))},
            {"image_digest", s(digestOf(r))},
            {"container", s(r.containerName)},
            {"url", s(r.url())},
            {"listen_address", s(r.listenAddress)},
            {"port", r.port},
            {"upstream_port", r.upstreamPort},
            {"allow", list(r.allow)},
            {"rate", s(r.rate)},
            {"burst", r.burst},
            {"max_concurrent", r.maxConcurrent},
            {"max_body_bytes", r.maxBodyBytes},
            {"client_timeout_seconds", r.clientTimeoutSeconds},
            {"upstream_timeout_seconds", r.upstreamTimeoutSeconds},
            {"media_allow", list(r.mediaAllow)},
            {"tls", s(tlsMode(r))},
            {"sha256", s(r.publicKeySha256)},
            {"certificate_sha256", s(r.certificateSha256)},
            {"certificate_expires", s(r.certificateExpires)},
            {"host_dir", s(r.hostDir)},
            {"expose_command", s(exposeCommand(r))}};
}

QString GatewayManifest::exposeCommand(const GatewayRecord &r)
{
    QStringList args{QStringLiteral("flashdeck"), QStringLiteral("expose"), q(r.host)};
    for (const QString &cidr : r.allow) {
        args << QStringLiteral("--allow") << q(cidr);
    }
    if (!r.listenAddress.isEmpty()) {
        args << QStringLiteral("--listen") << q(r.listenAddress);
    }
    args << QStringLiteral("--port") << QString::number(r.port);
    if (!r.rate.isEmpty()) {
        args << QStringLiteral("--rate") << q(r.rate);
    }
    if (r.burst > 0) {
        args << QStringLiteral("--burst") << QString::number(r.burst);
    }
    if (r.maxConcurrent > 0) {
        args << QStringLiteral("--max-concurrent") << QString::number(r.maxConcurrent);
    }
    if (r.maxBodyBytes > 0) {
        args << QStringLiteral("--max-body") << QString::number(r.maxBodyBytes);
    }
    const GatewayOptions defaults;
    if (r.clientTimeoutSeconds > 0 && r.clientTimeoutSeconds != defaults.clientTimeoutSeconds) {
        args << QStringLiteral("--client-timeout") << QString::number(r.clientTimeoutSeconds);
    }
    if (r.upstreamTimeoutSeconds > 0 && r.upstreamTimeoutSeconds != defaults.upstreamTimeoutSeconds) {
        args << QStringLiteral("--upstream-timeout") << QString::number(r.upstreamTimeoutSeconds);
    }
    for (const QString &m : r.mediaAllow) {
        args << QStringLiteral("--media-allow") << q(m);
    }
    args << (r.selfSigned ? QStringLiteral("--self-signed")
                          : QStringLiteral("--tls-cert YOUR-CERTIFICATE.pem --tls-key YOUR-KEY.pem"));
    return args.join(QLatin1Char(' '));
}

QString GatewayManifest::runbookSection(const GatewayRecord &r)
{
    const QString mount = GatewayContainer::mountPoint();
    QStringList l;
    l << QString() << QStringLiteral("# == The gateway in front of the server ('flashdeck expose'; upgrades keep it)")
      << QStringLiteral("#   image         %1 (nginx, pinned by digest)").arg(image(r))
      << QStringLiteral("#   listens on    %1:%2 (%3), proxies to 127.0.0.1:%4")
             .arg(r.listenAddress, QString::number(r.port), r.url(), QString::number(r.upstreamPort))
      << QStringLiteral("#   allowed       %1").arg(r.allow.join(QStringLiteral(" ")))
      << QStringLiteral("#   limits        %1 per client address, burst %2; %3 requests in flight; bodies up to "
                        "%4 bytes")
             .arg(r.rate, QString::number(r.burst), QString::number(r.maxConcurrent), QString::number(r.maxBodyBytes))
      << QStringLiteral("#   remote media  %1")
             .arg(r.mediaAllow.isEmpty() ? QStringLiteral("no host allowed (data URIs only)")
                                         : r.mediaAllow.join(QStringLiteral(" ")))
      << (r.selfSigned
              ? QStringLiteral("#   TLS           self-signed, made on the host; pin sha256//%1").arg(r.publicKeySha256)
              : QStringLiteral("#   TLS           the operator's certificate (SHA-256 %1, valid until %2)")
                    .arg(r.certificateSha256, r.certificateExpires))
      << QStringLiteral("# Its configuration, certificate and key stay on the host in %1 (never in this script).")
             .arg(r.hostDir)
      << QStringLiteral("# Placed again from scratch with Flashdeck (a new self-signed certificate has a new pin):")
      << QStringLiteral("#   %1").arg(exposeCommand(r)) << QStringLiteral("GATEWAY_IMAGE=%1").arg(q(image(r)))
      << QStringLiteral("GATEWAY_NAME=%1").arg(q(r.containerName)) << QStringLiteral("GATEWAY_DIR=%1").arg(q(r.hostDir))
      << QStringLiteral("step \"gateway: $GATEWAY_NAME runs from $GATEWAY_DIR\"")
      << QStringLiteral("if [ \"$(docker inspect -f '{{.State.Running}}' \"$GATEWAY_NAME\" 2>/dev/null)\" != true ]; "
                        "then")
      << QStringLiteral("  [ -f \"$GATEWAY_DIR/nginx.conf\" ] || { echo \"FAIL: no $GATEWAY_DIR/nginx.conf: place the "
                        "gateway again with the flashdeck expose line above\" >&2; exit 1; }")
      << QStringLiteral("  docker rm -f \"$GATEWAY_NAME\" >/dev/null 2>&1 || true")
      << QStringLiteral(
             "  docker run -d --name \"$GATEWAY_NAME\" --label %1=%2 --label %3=gateway --network host "
             "--restart no -v \"$GATEWAY_DIR:%4:ro\" --entrypoint nginx \"$GATEWAY_IMAGE\" -c %4/nginx.conf "
             "-e stderr -g 'daemon off;' >/dev/null || { echo 'FAIL: the gateway did not start' >&2; exit 1; }")
             .arg(QLatin1String(GatewayContainer::kGatewayLabel), q(r.host),
                  QLatin1String(GatewayContainer::kRoleLabel), mount)
      << QStringLiteral("fi") << QStringLiteral("printf 'Gateway: %s\\n' %1").arg(q(r.url()));
    return l.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace flashdeck::expose
