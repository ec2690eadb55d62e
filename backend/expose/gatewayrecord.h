#pragma once

#include "backend/core/result.h"

#include <QString>
#include <QStringList>

#include <nlohmann/json_fwd.hpp>

#include <optional>

namespace flashdeck {
class AppPaths;
} // namespace flashdeck

namespace flashdeck::expose {

/**
 * A gateway Flashdeck placed on a host (`flashdeck expose`): what it runs, where it listens,
 * who it lets in and the certificate's pin. Kept beside the host's deployment manifest, in
 * deployments/<host>/gateway.json (a file of its own: a deploy or an upgrade rewrites the
 * manifest, and must not drop the gateway with it). `status` reads it; `unexpose` removes it.
 * Holds no secret: the key stays on the host.
 */
struct GatewayRecord
{
    QString host;
    /** The address colleagues use (the listen address, or the host's when it listens on all). */
    QString address;
    int port = 0;
    QString listenAddress;
    int upstreamPort = 0;
    QStringList allow;
    /** curl's --pinnedpubkey value without "sha256//": base64 of the SHA-256 of the public key. */
    QString publicKeySha256;
    /** The certificate's SHA-256 fingerprint (hex, colon-separated), as browsers show it. */
    QString certificateSha256;
    QString certificateExpires; // UTC, ISO 8601
    bool selfSigned = false;
    QString image; // nginx@sha256:…
    QString containerName;
    QString hostDir; // the folder on the host with the configuration and certificate
    QString rate;
    int burst = 0;
    int maxConcurrent = 0;
    qint64 maxBodyBytes = 0;
    /** Between two reads from a client, and from the server (0: a record older than these fields). */
    int clientTimeoutSeconds = 0;
    int upstreamTimeoutSeconds = 0;
    QStringList mediaAllow;
    QString exposedAt; // UTC, ISO 8601

    /** "https://ADDRESS:PORT" (IPv6 in brackets). */
    QString url() const;
    /**
     * The curl line a colleague in an allowed network runs: the pin checks the key ($SGLANG_API_KEY
     * stays a variable: the key is never printed).
     */
    QString curlLine() const;
    /** What `status --json` prints as "exposed": url, sha256, allow. */
    nlohmann::json statusJson() const;

    static QString file(const AppPaths &paths, const QString &host);
    /** The host's gateway; nullopt when none is recorded; a failure names a damaged file. */
    [[nodiscard]] static Result<std::optional<GatewayRecord>> read(const AppPaths &paths, const QString &host);
    [[nodiscard]] Status write(const AppPaths &paths) const;
    [[nodiscard]] static Status remove(const AppPaths &paths, const QString &host);
    QByteArray toJson() const;
    [[nodiscard]] static Result<GatewayRecord> fromJson(const QByteArray &bytes);
};

} // namespace flashdeck::expose
