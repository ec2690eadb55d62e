#pragma once

#include "backend/core/result.h"

#include <QString>

namespace flashdeck::docker {

/**
 * An image reference as the operator writes it ("lmsysorg/sglang:dev", "registry.example:5000/
 * team/sglang:rocm", "127.0.0.1:5000/sglang:test"), split the way the docker CLI splits it.
 *
 * dockerd wants the pull's `fromImage` fully qualified, and the registry is the first path
 * component only when it looks like a host (has a '.' or a ':', or is "localhost"); otherwise it
 * is Docker Hub, and a one-component name lives under "library/" (distribution's
 * reference.ParseNormalizedNamed). Prefixing "docker.io/" to every name, as we once did, sends
 * "127.0.0.1:5000/sglang" to Docker Hub.
 */
struct ImageRef
{
    QString name; // as written, without tag or digest: "lmsysorg/sglang", "127.0.0.1:5000/sglang"
    QString tag; // "latest" when none was written

    /** Splits "NAME[:TAG]"; an error in words for an empty name, a digest or a bad character. */
    [[nodiscard]] static Result<ImageRef> parse(const QString &text);

    /** "NAME:TAG", as written (what `/distribution/{name}/json` and the operator see). */
    QString reference() const { return name + QLatin1Char(':') + tag; }
    /** The registry's host ("docker.io" for Docker Hub). */
    QString registry() const;
    /** The fully qualified repository dockerd pulls: "docker.io/library/busybox", "127.0.0.1:5000/sglang". */
    QString qualifiedName() const;
};

} // namespace flashdeck::docker
