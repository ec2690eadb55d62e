#pragma once

#include "backend/core/result.h"

#include <QString>

#include <nlohmann/json_fwd.hpp>

namespace flashdeck {

struct Deployment;

/**
 * What a host runs, pinned (F06: the image by digest, the model by commit): read from its
 * deployment's manifest, printed by `flashdeck pins`, written to a pins file by `pins lock`.
 * `launchSha256` identifies the launch line (flags included; the key is never in it: the
 * manifest holds it as $FLASHDECK_API_KEY), so two hosts launched alike compare equal.
 */
struct Pins
{
    QString host;
    QString image;
    QString imageDigest;
    QString modelRevision;
    QString profile;
    QString launchSha256;
    QString deployedAt;

    /** The pins of a recorded deployment; a failure names what it lacks (no digest: never pinned). */
    [[nodiscard]] static Result<Pins> of(const Deployment &deployment);
    /** {"host","image","image_digest","model_revision","profile","launch_sha256","deployed_at"}. */
    nlohmann::json toJson() const;
    [[nodiscard]] Status writeTo(const QString &path) const;
};

} // namespace flashdeck
