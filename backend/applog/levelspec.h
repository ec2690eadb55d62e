#pragma once

#include "backend/core/result.h"

#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <string>

namespace flashdeck::applog {

/** Log levels, as spdlog names them. */
enum class Level { Trace, Debug, Info, Warn, Error, Critical, Off };

/**
 * A parsed level spec in FLASHDECK_LOG's syntax: comma-separated `subsystem=level` pairs and
 * at most one bare `level` that applies to every other subsystem, e.g. `ssh=debug,info`.
 */
struct LevelSpec
{
    std::optional<Level> defaultLevel;
    std::map<std::string, Level> perSubsystem;
};

/** The subsystems that own a logger. */
QStringList subsystems();

/** Parses a spec; unknown subsystems and level names are errors that name the culprit. */
Result<LevelSpec> parseLevelSpec(const QString &spec);

QString levelName(Level level);

} // namespace flashdeck::applog
