#pragma once

#include <QString>

namespace flashdeck::expose {

/**
 * The image the gateway runs: Docker Hub's official `nginx` image, pinned by digest as the
 * server's image is (the deployment page asks for pins; F06). Its Debian build carries the njs
 * module (`nginx-module-njs`, /usr/lib/nginx/modules/ngx_http_js_module.so) that reads the
 * request body for the media check.
 *
 * The digest: nginx:1.28.0 (the stable branch, Debian bookworm) as public configurations pinned
 * it in 2025 (e.g. the Docker provider's own documentation of docker_registry_image,
 * kreuzwerker/terraform-provider-docker). It was NOT verified against Docker Hub when this was
 * written (no registry access offline); before a release, check it with
 * `docker buildx imagetools inspect nginx:1.28.0` and replace it if Docker Hub names another
 * index digest (official images are rebuilt when Debian's base changes; an older digest stays
 * pullable).
 */
struct GatewayImage
{
    static QString repository() { return QStringLiteral("nginx"); }
    /** What `docker pull` names on Docker Hub (official images live under library/). */
    static QString qualifiedName() { return QStringLiteral("docker.io/library/nginx"); }
    static QString tag() { return QStringLiteral("1.28.0"); }
    static QString digest()
    {
        return QStringLiteral("sha256:eaa7e36decc3421fc04478c586dfea0d931cebe47d5bc0b15d758a32ba51126f");
    }
    /** "nginx@sha256:…": what the container is created from (never the tag, which moves). */
    static QString pinned() { return repository() + QLatin1Char('@') + digest(); }
};

} // namespace flashdeck::expose
