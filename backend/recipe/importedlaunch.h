#pragma once

#include "backend/core/result.h"
#include "backend/probe/gpuvendor.h"
#include "backend/recipe/generatorcommand.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <utility>

namespace flashdeck::recipe {

struct Recipe;
struct RecipeProfile;

/** A flag Flashdeck sets on the imported command whatever the generator said, and why. */
struct OwnedFlag
{
    QString flag;
    QString value; // as Flashdeck sets it ("" for a switch; "(generated)" for the key)
    QString why;
};

/** What the imported command is checked against before anything is pulled. */
struct ImportContext
{
    probe::GpuVendor vendor = probe::GpuVendor::Nvidia;
    /** The GPUs each server gets (the profile's per service, or --gpus). */
    int gpusPerService = 0;
    /** Where those GPUs come from, in words ("--gpus 0,1,2,3", "the host's 8 GPUs", "each of the two services"). */
    QString gpusFrom;
    quint16 port = 30000; // the (first) server's port inside the container
    /** The revision Flashdeck pins: the operator's commit, else the recipe's ("main"); empty: not checked (an upgrade
     * changes it). */
    QString revision;
    bool offline = false; // the weights load from a folder on the host
};

/**
 * SGLang's configuration generator's command made into what Flashdeck launches (the page: for
 * GB-series, B200, H200 or AMD, use the generator; never substitute its parameters into the B300
 * baseline). The generator's server arguments stay as given; Flashdeck owns the model
 * (`--model-path`, `--revision`: the pin), where the server listens (`--host 0.0.0.0`, `--port`,
 * published on the host's loopback), `--api-key` (generated) and `--enable-metrics` (added).
 *
 * Refused before anything is pulled, with the numbers: TP × DP × PP other than the GPUs a server
 * gets; TP above 4 on ROCm (the NVFP4 checkpoint runs at TP 4 or lower there); another model;
 * a Flashdeck-owned flag with another value.
 */
struct ImportedLaunch
{
    GeneratorCommand command;
    QString text; // the command as the operator gave it (the manifest keeps it)
    /** The generator's server arguments without the ones Flashdeck sets, in order. */
    QStringList serverArgs;
    /** The environment of the docker form and leading NAME=value words, without the GPU lists Flashdeck sets. */
    QStringList env;
    QString image; // NAME:TAG of a docker form; empty: none given
    QString imageDigest; // a digest the docker form named (NAME@sha256:…); empty: pinned at the pin step
    int tp = 1;
    int dp = 1;
    int pp = 1;
    QList<OwnedFlag> owned;
    /** What was given and is not carried over (docker options, GPU lists), with why. */
    QStringList notes;
    QString memFractionStatic; // the generator's --mem-fraction-static; empty: SGLang's default

    [[nodiscard]] static Result<ImportedLaunch> make(const QString &text, const Recipe &recipe,
                                                     const ImportContext &context);
    /**
     * The profile a generator-only entry runs with an imported command: one service on `gpus`
     * GPUs (0…n-1 until the operator's --gpus), the port, shared memory and IPC of Flashdeck's
     * containers; marked unverified, so every run says so.
     */
    static RecipeProfile layout(const RecipeProfile &generatorOnly, int gpus, const QString &memFraction);
    /**
     * The command checked against the profile it runs in (`listed`'s layout; for a host with no
     * verified command, one service on `gpus` or on the GPUs the command asks for) and that layout:
     * what `deploy --launch-command` and the window's generator box run.
     */
    [[nodiscard]] static Result<std::pair<ImportedLaunch, RecipeProfile>>
    forProfile(const Recipe &recipe, const RecipeProfile &listed, const QString &text, const QString &gpus,
               quint16 port, const QString &revision, bool offline);

    /** What will run, in lines for the plan and the window: the arguments, what Flashdeck sets and why. */
    QStringList preview() const;
    /** The words of the page, in plain words: why a host without a verified profile needs the command. */
    static QString generatorAdvice(const QString &hardware);
};

} // namespace flashdeck::recipe
