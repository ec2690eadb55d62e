#pragma once

#include <QString>

#include <nlohmann/json_fwd.hpp>

namespace flashdeck::expose {

struct GatewayRecord;

/**
 * A placed gateway as the deployment's own records show it: its pinned image and configuration
 * for `flashdeck pins`, and the runbook's part that makes it again. Never the key: it stays on
 * the host, and neither form names more of it than where it lies.
 */
struct GatewayManifest
{
    /** pins' "gateway": image, listen, port, allow, limits, media hosts, TLS mode, the pin. */
    static nlohmann::json toJson(const GatewayRecord &r);
    /** The `flashdeck expose` line that places the same gateway again (your files for --tls-*). */
    static QString exposeCommand(const GatewayRecord &r);
    /** The runbook's gateway part: what it is, and the commands that start it again from its folder. */
    static QString runbookSection(const GatewayRecord &r);
    /** The image it runs, name@sha256:… (a record from before it named one: the pinned image). */
    static QString image(const GatewayRecord &r);
    /** "self-signed" or "certificate": how the gateway got its certificate. */
    static QString tlsMode(const GatewayRecord &r);
};

} // namespace flashdeck::expose
