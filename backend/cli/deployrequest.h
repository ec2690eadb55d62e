#pragma once

#include "backend/deploy/acknowledgements.h"
#include "backend/deploy/deployrunner.h"
#include "backend/fleet/hostentry.h"
#include "backend/recipe/importedlaunch.h"
#include "backend/recipe/licenseterms.h"
#include "backend/recipe/pins.h"
#include "backend/recipe/recipe.h"

#include <QStringList>

#include <optional>

namespace flashdeck::cli {

struct CliContext;

/** The licence summary and the acknowledgements file: one recorded, or one to record (F40). */
struct LicenseState
{
    LicenseTerms terms;
    /** --accept-license, recorded when the plan reaches the licence step on the host. */
    std::optional<Acknowledgement> pending;
    /** What the host has on record already. */
    std::optional<Acknowledgement> recorded;
};

/** What `flashdeck deploy`'s command line asks for, read and checked. */
struct DeployRequest
{
    bool json = false;
    bool resume = false;
    std::optional<Pins> pinsFile;
    HostEntry host;
    Recipe recipe;
    RecipeProfile listed; // the profile the operator named (or the default)
    RecipeProfile profile; // what runs: the generator's command and the choices applied to it
    quint16 port = 0;
    QString image;
    std::optional<ImportedLaunch> imported;
    LicenseState license;
    DeployOptions options;
};

/** The exit code where the command stops; none: go on. */
using Stop = std::optional<int>;

/**
 * Reads deploy's arguments into `request`, checking each as the operator would want it checked
 * before anything connects: the pins, the host and profile, the generator's command, the licence
 * (from `acks`) and the runner's options. Where one fails it is said (on stderr, or as --json's
 * error object with its code) and the exit code returned.
 */
[[nodiscard]] Stop readDeployRequest(const QStringList &args, CliContext &context, const Acknowledgements &acks,
                                     DeployRequest &request);

} // namespace flashdeck::cli
