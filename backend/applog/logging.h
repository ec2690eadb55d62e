#pragma once

#include "backend/core/result.h"

#include <QString>

#include <memory>
#include <vector>

namespace spdlog {
class logger;
namespace sinks {
class sink;
} // namespace sinks
} // namespace spdlog

namespace flashdeck {

namespace security {
class Redactor;
} // namespace security

namespace applog {

/** Per-subsystem loggers. Before Logging is set up they discard everything. */
spdlog::logger &app();
spdlog::logger &ssh();
spdlog::logger &deploy();
spdlog::logger &docker();
spdlog::logger &metrics();
spdlog::logger &chat();
spdlog::logger &ui();
spdlog::logger &qt();

struct LogOptions
{
    /** Folder for the rotating log file; empty means no file. */
    QString directory;
    bool toStderr = false;
    /** FLASHDECK_LOG syntax; empty means info for everything. */
    QString levels;
    std::size_t maxFileBytes = 5 * 1024 * 1024;
    std::size_t maxFiles = 5;
    /** Extra sinks (tests use an in-memory one); they sit behind the redactor too. */
    std::vector<std::shared_ptr<spdlog::sinks::sink>> extraSinks;
};

/**
 * Owns the loggers and their shared sinks for the life of the process; built once in main().
 * Every sink sits behind one RedactingSink. Installs a Qt message handler that forwards
 * qDebug/qWarning & co. (category "flashdeck.<subsystem>" picks the logger, anything else
 * goes to "qt"), and removes it again on destruction.
 */
class Logging final
{
public:
    Logging(const security::Redactor &redactor, LogOptions options);
    ~Logging();
    Logging(const Logging &) = delete;
    Logging &operator=(const Logging &) = delete;

    /** Non-empty when the options were partly unusable (bad spec, unwritable folder). */
    const QString &warning() const { return m_warning; }
    QString logFile() const { return m_logFile; }

    /** Applies a level spec to every logger (unnamed subsystems get info or the default). */
    [[nodiscard]] Status setLevels(const QString &spec);

    void flush();

private:
    QString m_warning;
    QString m_logFile;
    std::shared_ptr<spdlog::sinks::sink> m_gate;
};

} // namespace applog
} // namespace flashdeck
