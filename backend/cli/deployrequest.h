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
    recipe::LicenseTerms terms;
    /** --accept-license, recorded when the plan reaches the licence step on the host. */
    std::optional<deploy::Acknowledgement> pending;
    /** What the host has on record already. */
    std::optional<deploy::Acknowledgement> recorded;
};

/** What `flashdeck deploy`'s command line asks for, read and checked. */
struct DeployRequest
{
    bool json = false;
    bool resume = false;
    std::optional<recipe::Pins> pinsFile;
    fleet::HostEntry host;
    recipe::Recipe recipe;
    recipe::RecipeProfile listed; // the profile the operator named (or the default)
    recipe::RecipeProfile profile; // what runs: the generator's command and the choices applied to it
    quint16 port = 0;
    QString image;
    std::optional<recipe::ImportedLaunch> imported;
    LicenseState license;
    deploy::DeployOptions options;
};

/** The exit code where the command stops; none: go on. */
using Stop = std::optional<int>;

/**
 * Reads deploy's arguments into `request`, checking each as the operator would want it checked
 * before anything connects: the pins, the host and profile, the generator's command, the licence
 * (from `acks`) and the runner's options. Where one fails it is said (on stderr, or as --json's
 * error object with its code) and the exit code returned.
 */
[[nodiscard]] Stop readDeployRequest(const QStringList &args, CliContext &context, const deploy::Acknowledgements &acks,
                                     DeployRequest &request);

} // namespace flashdeck::cli
