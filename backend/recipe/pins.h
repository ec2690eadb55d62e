#pragma once

#include "backend/core/result.h"

#include <QString>

#include <nlohmann/json_fwd.hpp>

namespace flashdeck::recipe {

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
    /** SGLang's configuration generator's command the host runs, as given; empty: the recipe's flags. */
    QString launchCommand;

    /** The pins of a recorded deployment; a failure names what it lacks (no digest: never pinned). */
    [[nodiscard]] static Result<Pins> of(const Deployment &deployment);
    /** {"host","image","image_digest","model_revision","profile","launch_sha256","deployed_at"}. */
    nlohmann::json toJson() const;
    [[nodiscard]] Status writeTo(const QString &path) const;
    /** A pins file as `pins lock` writes it; a failure names the file and what is wrong in it. */
    [[nodiscard]] static Result<Pins> readFrom(const QString &path);
    [[nodiscard]] static Result<Pins> fromJson(const nlohmann::json &json);
    /** sha256: and 64 lowercase hex digits: an image digest as dockerd prints it. */
    static bool isImageDigest(const QString &text);
    /** 40 lowercase hex digits: a full git commit id, as the Hub's `sha`. */
    static bool isModelRevision(const QString &text);
    /**
     * What differs from `wanted`, in words ("image digest sha256:0a1b2c3d4e5f… where the pins say
     * sha256:…"): the image digest, the model revision and the profile. Empty: the same pins.
     */
    QStringList differencesFrom(const Pins &wanted) const;
    /** "sha256:0a1b2c3d4e5f" or "62cbc27f7e9e": short forms for tables and summaries. */
    static QString shortDigest(const QString &digest);
    static QString shortRevision(const QString &revision);
};

} // namespace flashdeck::recipe
