#pragma once

#include <QStringList>

#include <functional>
#include <optional>

class QCommandLineParser;
class QTextStream;

namespace flashdeck {
class AppPaths;
namespace security {
class Redactor;
} // namespace security
} // namespace flashdeck

namespace flashdeck::cli {

/** Where a command reads and writes; tests give their own streams and prompt. */
struct CliContext
{
    const AppPaths &paths;
    QTextStream &out;
    QTextStream &err;
    std::function<std::optional<QString>(const QString &prompt, bool echo)> prompt;
    /** The log's redactor: secrets a command creates (API keys) are registered here. */
    security::Redactor *redactor = nullptr;
};

/**
 * The options every command accepts after its name (--config-dir, --log-stderr), so they may
 * come anywhere on the line; main() applies them.
 */
void addGlobalOptions(QCommandLineParser &parser);

/**
 * `flashdeck hosts add|list|remove|check …`. `args` starts with the program name, then
 * "hosts" and the rest (QCommandLineParser's convention). Returns the exit code.
 */
int runHostsCommand(const QStringList &args, CliContext &context);

} // namespace flashdeck::cli
