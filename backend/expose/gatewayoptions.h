#pragma once

#include "backend/core/result.h"
#include "backend/expose/cidr.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace flashdeck::expose {

/** Where the gateway's certificate comes from. */
enum class TlsMode {
    OperatorCertificate, // --tls-cert / --tls-key: the operator's own
    SelfSigned, // --self-signed: made on the host; its SHA-256 fingerprint is shown and pinned
};

/** Who reads a refusal: the command line names its options (--port), the window its fields. */
enum class Wording { CommandLine, Window };

/** The settings a refusal can name. */
enum class GatewaySetting { Listen, Port, UpstreamPort, Rate, Burst, MaxConcurrent, MaxBody, MediaAllow };

/** The name a refusal gives a setting: "--port" on the command line, "port" in the window. */
QString settingName(GatewaySetting setting, Wording wording);

/** Requests per second or per minute, as nginx's limit_req_zone takes them. */
struct RequestRate
{
    enum class Per { Second, Minute };
    int count = 0;
    Per per = Per::Second;

    /** "10/s", "600/m", "10r/s" (nginx's own spelling); a refusal names the setting as `wording` does. */
    [[nodiscard]] static Result<RequestRate> parse(const QString &text, Wording wording = Wording::CommandLine);
    QString toString() const; // "10/s"
    QString toNginx() const; // "10r/s"
    bool operator==(const RequestRate &) const = default;
};

/**
 * What `flashdeck expose` puts in front of the SGLang server: a TLS gateway that lets in only
 * the listed source networks, requires the API key, limits rate, concurrency, body size and time,
 * and refuses remote media URLs that are not allowed (the deployment page's rules for serving
 * beyond loopback: F30, F31, F33, F35).
 *
 * The defaults are the ones preview() states and justifies; `allow` has none on purpose.
 */
struct GatewayOptions
{
    /** The host's address the gateway listens on ("0.0.0.0": every IPv4 address of the host). */
    QString listenAddress = QStringLiteral("0.0.0.0");
    /** 8443: HTTPS without taking 443 from a web server the host may already run. */
    int listenPort = 8443;
    /** The server's (or the Router's) port on the host's loopback; 30000 is the recipe's. */
    int upstreamPort = 30000;
    TlsMode tls = TlsMode::SelfSigned;
    QList<Cidr> allow;
    /** Per client address. A chat turn is one request; an agent sends a few a second. */
    RequestRate rate{10, RequestRate::Per::Second};
    /** Requests over the rate that are still served at once (a page of parallel tool calls). */
    int burst = 20;
    /** Requests in flight across all clients; more queue in SGLang without getting served sooner. */
    int maxConcurrent = 64;
    /** 32 MiB: the Playground's 20 MiB image, base64 (×4/3, ~27 MiB), plus the messages. */
    qint64 maxBodyBytes = 32 * 1024 * 1024;
    /** Between two reads of a client's request, and of our answer to it. */
    int clientTimeoutSeconds = 60;
    /** Between two reads from the server: a long answer without streaming can think for minutes. */
    int upstreamTimeoutSeconds = 600;
    /** Image hosts (ASCII, lower case, "*.example.org" for its subdomains) remote URLs may name. */
    QStringList mediaAllow;
    /** How refusals (here and the placement's) name the settings. */
    Wording wording = Wording::CommandLine;

    QString nameOf(GatewaySetting setting) const { return settingName(setting, wording); }
    /** Refuses what nginx would refuse or what would expose more than the operator meant. */
    [[nodiscard]] Status validate() const;

    /** "32m", "512k", "1g", "32MiB", "1048576" (bytes); nginx's binary units. */
    [[nodiscard]] static Result<qint64> parseSize(const QString &text, const QString &option);
    /** "60", "60s", "10m", "1h": whole seconds. */
    [[nodiscard]] static Result<int> parseSeconds(const QString &text, const QString &option);
    /** "images.example.org", "*.example.org": the ACE, lower-case form the gateway compares. */
    [[nodiscard]] static Result<QString> parseMediaHost(const QString &text, Wording wording = Wording::CommandLine);
    /** A whole number in [min, max], or words naming the option. */
    [[nodiscard]] static Result<int> parseCount(const QString &text, const QString &option, int min, int max);
};

} // namespace flashdeck::expose
