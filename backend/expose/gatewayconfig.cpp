#include "backend/expose/gatewayconfig.h"

#include "backend/chat/mediapolicy.h"

#include <QCoreApplication>
#include <QFile>
#include <QHostAddress>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

namespace flashdeck::expose {

namespace {

/** A path as an nginx string: quoted; `$` would start a variable in some directives, so refused. */
Result<QString> nginxPath(const QString &path)
{
    static const QRegularExpression unsafe(QStringLiteral("[\"'\\\\$;{}\\x00-\\x1f]"));
    if (!path.startsWith(QLatin1Char('/')) || path.contains(unsafe)) {
        return Status::failure(QCoreApplication::translate("Expose",
                                                           "The gateway cannot use the path %1: it must be "
                                                           "absolute, without quotes, $, ; or braces.")
                                   .arg(path));
    }
    return QString(QLatin1Char('"') + path + QLatin1Char('"'));
}

/** The JSON error body clients read, in the OpenAI shape; no ' or $ (nginx string, variables). */
QString errorBody(int status, const QString &type, const QString &message)
{
    const nlohmann::json body{
        {"error", {{"message", message.toStdString()}, {"type", type.toStdString()}, {"code", status}}}};
    return QString::fromStdString(body.dump());
}

QString megabytes(qint64 bytes)
{
    return QString::number(double(bytes) / 1048576.0, 'g', 4) + QStringLiteral(" MiB");
}

// The gateway's words to API clients: English, a contract like SGLang's own error texts.
QString errorLocations(const GatewayOptions &o)
{
    struct Page
    {
        int status;
        const char *type;
        QString message;
        bool retry;
    };
    const Page pages[] = {
        {401, "authentication_error", QStringLiteral("An API key is required: send it as Authorization: Bearer KEY."),
         false},
        {403, "permission_error",
         QStringLiteral("This gateway does not accept requests from your address; ask its operator to allow your "
                        "network."),
         false},
        {404, "not_found_error",
         QStringLiteral("Only the OpenAI-compatible API (/v1/) and /health are served through this gateway."), false},
        {413, "invalid_request_error",
         QStringLiteral("The request is larger than this gateway accepts (%1); send smaller media.")
             .arg(megabytes(o.maxBodyBytes)),
         false},
        {429, "rate_limit_error",
         QStringLiteral("Too many requests from your address (limit %1, burst %2); retry in a moment.")
             .arg(o.rate.toString())
             .arg(o.burst),
         true},
        {503, "overloaded_error",
         QStringLiteral("The server is answering as many requests as this gateway lets through (%1); retry in a "
                        "moment.")
             .arg(o.maxConcurrent),
         true},
    };
    QString text;
    for (const Page &p : pages) {
        text += QStringLiteral("        error_page %1 = @flashdeck_%1;\n"
                               "        location @flashdeck_%1 {\n"
                               "            default_type application/json;\n")
                    .arg(p.status);
        if (p.status == 401) {
            // RFC 6750 §3: a 401 names the scheme it wants.
            text += QStringLiteral("            add_header WWW-Authenticate Bearer always;\n");
        }
        if (p.retry) {
            text += QStringLiteral("            add_header Retry-After 1 always;\n");
        }
        text += QStringLiteral("            return %1 '%2\\n';\n        }\n")
                    .arg(p.status)
                    .arg(errorBody(p.status, QLatin1String(p.type), p.message));
    }
    return text;
}

QString listenSpec(const GatewayOptions &o)
{
    const QHostAddress address(o.listenAddress);
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
        ? QLatin1Char('[') + address.toString() + QLatin1Char(']')
        : address.toString();
    return QStringLiteral("%1:%2").arg(host).arg(o.listenPort);
}

QString geoBlock(const GatewayOptions &o)
{
    QString text = QStringLiteral("    geo $flashdeck_source_allowed {\n        default 0;\n");
    for (const Cidr &cidr : o.allow) {
        text += QStringLiteral("        %1 1;\n").arg(cidr.toString());
    }
    return text + QStringLiteral("    }\n");
}

/** The http block's settings: limits, timeouts, body handling, logs. */
QString httpSettings(const GatewayOptions &o, const QString &run, const QString &script)
{
    QString text;
    text += QStringLiteral("    server_tokens off;\n    default_type application/json;\n");
    for (const char *temp : {"client_body", "proxy", "fastcgi", "uwsgi", "scgi"}) {
        text +=
            QStringLiteral("    %1_temp_path %2;\n")
                .arg(QLatin1String(temp), run.chopped(1) + QLatin1Char('/') + QLatin1String(temp) + QLatin1Char('"'));
    }
    // No query string, header, key or body in the log (F32): method, path, status, sizes, time.
    text += QStringLiteral("    log_format flashdeck '$remote_addr [$time_iso8601] \"$request_method $uri\" $status "
                           "$request_length $bytes_sent $request_time';\n"
                           "    access_log /dev/stdout flashdeck;\n");
    text += QStringLiteral("    js_import gateway from %1;\n").arg(script);
    text += geoBlock(o);
    // SGLang compares the header with "Bearer " + key exactly; a request without that form never
    // reaches it (nginx map: https://nginx.org/en/docs/http/ngx_http_map_module.html).
    text += QStringLiteral("    map $http_authorization $flashdeck_has_key {\n        default 0;\n"
                           "        \"~^Bearer [^ ]+$\" 1;\n    }\n");
    // One key for the whole gateway: the concurrency limit is across all clients.
    text += QStringLiteral("    map $server_port $flashdeck_all {\n        default all;\n    }\n");
    text += QStringLiteral("    limit_req_zone $binary_remote_addr zone=flashdeck_rate:10m rate=%1;\n"
                           "    limit_req_status 429;\n"
                           "    limit_conn_zone $flashdeck_all zone=flashdeck_inflight:1m;\n"
                           "    limit_conn_status 503;\n")
                .arg(o.rate.toNginx());
    // The whole body in one memory buffer, so the script sees all of it (r.requestText is
    // undefined for a body written to a file: https://nginx.org/en/docs/njs/reference.html).
    text += QStringLiteral("    client_max_body_size %1;\n    client_body_buffer_size %1;\n"
                           "    client_body_in_single_buffer on;\n")
                .arg(o.maxBodyBytes);
    text += QStringLiteral("    client_header_timeout %1s;\n    client_body_timeout %1s;\n    send_timeout %1s;\n"
                           "    proxy_connect_timeout 10s;\n    proxy_read_timeout %2s;\n    proxy_send_timeout %2s;\n")
                .arg(o.clientTimeoutSeconds)
                .arg(o.upstreamTimeoutSeconds);
    return text;
}

QString serverBlock(const GatewayOptions &o, const QString &cert, const QString &key)
{
    QString text = QStringLiteral("    server {\n        listen %1 ssl;\n"
                                  "        ssl_certificate %2;\n        ssl_certificate_key %3;\n"
                                  "        ssl_protocols TLSv1.2 TLSv1.3;\n")
                       .arg(listenSpec(o), cert, key);
    // Rewrite-phase returns run before the body is read, the limits and any proxying
    // (https://nginx.org/en/docs/dev/development_guide.html#http_phases).
    text += QStringLiteral("        if ($flashdeck_source_allowed = 0) {\n            return 403;\n        }\n"
                           "        if ($flashdeck_has_key = 0) {\n            return 401;\n        }\n");
    text += QStringLiteral("        limit_req zone=flashdeck_rate burst=%1 nodelay;\n"
                           "        limit_conn flashdeck_inflight %2;\n")
                .arg(o.burst)
                .arg(o.maxConcurrent);
    text += errorLocations(o);
    text += QStringLiteral("        location /v1/ {\n            js_content gateway.check;\n        }\n"
                           "        location = /health {\n            proxy_pass http://127.0.0.1:%1;\n        }\n"
                           "        location / {\n            return 404;\n        }\n")
                .arg(o.upstreamPort);
    // Streams (SSE) pass as they come: no buffering of the answer.
    text += QStringLiteral("        location @flashdeck_server {\n            proxy_pass http://127.0.0.1:%1;\n"
                           "            proxy_http_version 1.1;\n            proxy_set_header Connection \"\";\n"
                           "            proxy_buffering off;\n        }\n    }\n")
                .arg(o.upstreamPort);
    return text;
}

QString scriptFor(const GatewayOptions &o)
{
    QFile file(QStringLiteral(":/expose/gateway.js"));
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    QString text = QString::fromUtf8(file.readAll());
    nlohmann::json allow = nlohmann::json::array();
    for (const QString &host : o.mediaAllow) {
        allow.push_back(host.toStdString());
    }
    nlohmann::json blocked = nlohmann::json::array();
    for (const auto &[cidr, why] : chat::MediaPolicy::blockedRanges()) {
        const auto subnet = QHostAddress::parseSubnet(cidr);
        if (subnet.first.protocol() == QAbstractSocket::IPv4Protocol) {
            blocked.push_back({subnet.first.toIPv4Address(), subnet.second, why.toStdString()});
        }
    }
    text.replace(QLatin1String("/*@MEDIA_ALLOW@*/[]"), QString::fromStdString(allow.dump()));
    text.replace(QLatin1String("/*@BLOCKED_V4@*/[]"), QString::fromStdString(blocked.dump()));
    return text;
}

} // namespace

Result<GatewayConfig> GatewayConfig::generate(const GatewayOptions &options, const GatewayFiles &files)
{
    if (Status s = options.validate(); !s) {
        return s;
    }
    const auto cert = nginxPath(files.certificate);
    const auto key = nginxPath(files.key);
    const auto script = nginxPath(files.script);
    const auto run = nginxPath(files.runDir);
    const auto module = nginxPath(files.jsModule);
    for (const auto *path : {&cert, &key, &script, &run, &module}) {
        if (!*path) {
            return path->status();
        }
    }
    static const QRegularExpression workers(QStringLiteral("^(auto|[1-9][0-9]{0,2})$"));
    if (!workers.match(files.workerProcesses).hasMatch()) {
        return Status::failure(QStringLiteral("worker_processes %1: auto or a number").arg(files.workerProcesses));
    }
    GatewayConfig config;
    config.m_script = scriptFor(options);
    Q_ASSERT(!config.m_script.isEmpty()); // a resource of this library
    config.m_nginxConf =
        QStringLiteral("# Flashdeck's gateway in front of the model server (flashdeck expose).\n"
                       "# Written from the expose options: change them and expose again.\n"
                       "load_module %1;\nworker_processes %2;\npid %3;\nerror_log stderr warn;\n"
                       "events {\n    worker_connections 1024;\n}\nhttp {\n")
            .arg(module.value(), files.workerProcesses, run.value().chopped(1) + QStringLiteral("/nginx.pid\""));
    config.m_nginxConf += httpSettings(options, run.value(), script.value());
    config.m_nginxConf += serverBlock(options, cert.value(), key.value());
    config.m_nginxConf += QStringLiteral("}\n");
    return config;
}

} // namespace flashdeck::expose
