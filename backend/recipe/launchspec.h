#pragma once

#include "backend/core/result.h"
#include "backend/recipe/importedlaunch.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>

namespace flashdeck::recipe {

struct Recipe;
struct RecipeProfile;

/** What a launch needs besides the recipe: the pins, the key, and the operator's choices. */
struct LaunchInputs
{
    QString deploymentId; // the io.flashdeck.deployment label value
    QString imageDigest; // sha256:… from pin.image
    QString modelSha; // 40-hex commit from pin.model
    QString apiKey; // never printed: the runbook reads it from $FLASHDECK_API_KEY
    QString hostHome; // the host's $HOME, to expand ~ in the cache mounts
    /** Publish on 0.0.0.0 instead of 127.0.0.1 (F16, F30): needs an API key. */
    bool exposePublicly = false;
    /** The Low-Latency profile's extra flags, typed by the operator (not in the seed, F10). */
    QStringList operatorFlags;
    /** --hicache-size in GB per rank (F36); empty: off. */
    std::optional<int> hicacheGbPerRank;
    /** A pre-downloaded revision on the host (F27): mounted, HF_HUB_OFFLINE=1. Empty: the Hub. */
    QString offlineModelDir;
    /** The operator's Hugging Face token, passed as HF_TOKEN (gated or rate-limited downloads). */
    QString hfToken;
    /**
     * SGLang's configuration generator's command: its server arguments and environment replace
     * the profile's (no B300 flag is added); Flashdeck still sets the model, the pin, the port,
     * the key and --enable-metrics.
     */
    std::optional<ImportedLaunch> imported;
};

/** One container to create: the Engine API body and the equivalent `docker run`. */
struct ContainerSpec
{
    QString name;
    QString role; // "server" or "router"
    quint16 hostPort = 0;
    nlohmann::json createBody; // POST /containers/create; the key is the real one: never log it
    QStringList dockerRunArgs; // argv after "docker"; the key appears as "$FLASHDECK_API_KEY"
    /** A shell line for the runbook (quoted; the key stays a variable). */
    QString dockerRunLine() const;
};

/**
 * Builds the containers of a profile (host contract §4) and checks the rules that hold
 * before anything runs: a launchable profile, loopback publishing unless exposed on purpose
 * with a key (F16, F30), one GPU per TP rank, TP ≤ 4 for NVFP4 on ROCm (F11), a key of at
 * least 32 random bytes, the operator's flags for Low-Latency (F10).
 */
[[nodiscard]] Result<QList<ContainerSpec>> buildLaunch(const Recipe &recipe, const RecipeProfile &profile,
                                                       const LaunchInputs &inputs);

/** A new API key: 32 bytes from the system's CSPRNG, base64url, prefixed "sk-fd-". */
QString generateApiKey();

} // namespace flashdeck::recipe
