#pragma once

#include "backend/core/result.h"
#include "backend/expose/gatewayoptions.h"

#include <QString>

namespace flashdeck::expose {

/** Where the gateway's nginx finds its files and keeps its state. */
struct GatewayFiles
{
    QString certificate = QStringLiteral("/etc/nginx/flashdeck/tls/cert.pem");
    QString key = QStringLiteral("/etc/nginx/flashdeck/tls/key.pem");
    QString script = QStringLiteral("/etc/nginx/flashdeck/gateway.js");
    /** The pid file and the temporary folders; /var/cache/nginx exists in the official image. */
    QString runDir = QStringLiteral("/var/cache/nginx");
    /** Debian's path, and the official image's (its /etc/nginx/modules points here). */
    QString jsModule = QStringLiteral("/usr/lib/nginx/modules/ngx_http_js_module.so");
    /** "auto" in the container; a test may ask for fewer. */
    QString workerProcesses = QStringLiteral("auto");
};

/**
 * The gateway's nginx configuration and njs script, written from validated GatewayOptions.
 *
 * Order of refusals, cheapest first and before the server sees anything: a source address not
 * in --allow (403), no `Authorization: Bearer …` (401; SGLang still checks the key itself), a
 * body over --max-body (413), past the rate (429) or the concurrency (503), then the script's
 * media check (403) on the OpenAI-compatible API. Only /v1/ and /health are passed on.
 */
class GatewayConfig final
{
public:
    /** Refuses invalid options (GatewayOptions::validate) and paths nginx could misread. */
    [[nodiscard]] static Result<GatewayConfig> generate(const GatewayOptions &options, const GatewayFiles &files = {});

    const QString &nginxConf() const { return m_nginxConf; }
    const QString &script() const { return m_script; }

private:
    GatewayConfig() = default;

    QString m_nginxConf;
    QString m_script;
};

} // namespace flashdeck::expose
