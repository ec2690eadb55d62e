#pragma once

#include "backend/core/result.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace flashdeck::recipe {

/** One server argument as the generator wrote it: `--tp 4`, `--tp=4`, `--enable-metrics`, `--cuda-graph-bs 1 2 4`. */
struct ServerArg
{
    QString flag; // "--tp"
    QStringList values; // none for a switch; several for a list flag
    bool joined = false; // written "--flag=value" (one word)

    /** The words it was written as. */
    QStringList words() const;
    /** "--tp 4" (quoted where a shell needs it): for messages and previews. */
    QString text() const;
    friend bool operator==(const ServerArg &, const ServerArg &) = default;
};

/** A docker run option the generator's command gave that Flashdeck does not carry over, and why. */
struct IgnoredDockerOption
{
    QString option; // as written: "--gpus all", "-p 30000:30000"
    QString why;
};

/**
 * What SGLang's configuration generator prints, read as data: `python3 -m sglang.launch_server …`
 * or `sglang serve …` (optionally after `NAME=value` environment words), or a whole
 * `docker run [options] IMAGE python3 -m sglang.launch_server …`, with `\`-newline continuations.
 * The text is split as a POSIX shell would split it (ShellWords) and never run.
 *
 * From a docker form it keeps the image reference and the `-e`/`--env` environment; the other
 * docker options are recorded with why Flashdeck sets them itself (GPUs, ports, caches, shared
 * memory). The server arguments stay in the order given.
 */
class GeneratorCommand
{
public:
    enum class Form { LaunchServer, SglangServe, DockerRun };

    /** Reads `text`; a failure says what is wrong and where, in words. */
    [[nodiscard]] static Result<GeneratorCommand> parse(const QString &text);

    Form form() const { return m_form; }
    const QList<ServerArg> &serverArgs() const { return m_args; }
    /** The server arguments as words, in order (what goes after the entry point). */
    QStringList serverWords() const;
    /** The argument of `flag` ("--tp-size" finds "--tp-size" only); null when absent. */
    const ServerArg *find(const QString &flag) const;
    /** The image of a docker form, as written ("lmsysorg/sglang:v0.5.23-cu130"); empty otherwise. */
    const QString &image() const { return m_image; }
    /** "KEY=VALUE" from -e/--env and leading NAME=value words, in order. */
    const QStringList &environment() const { return m_env; }
    const QList<IgnoredDockerOption> &ignoredDockerOptions() const { return m_ignored; }
    /** The entry point as given: "python3 -m sglang.launch_server" or "sglang serve". */
    const QString &entrypoint() const { return m_entrypoint; }

private:
    /** docker run's options from `i` on, up to the image; `i` ends on the image. */
    [[nodiscard]] Status readDockerOptions(const QStringList &words, qsizetype &i);
    /** The server's arguments from `i` on: each flag with the values after it, in order. */
    [[nodiscard]] Status readServerArgs(const QStringList &words, qsizetype i);

    Form m_form = Form::LaunchServer;
    QString m_entrypoint;
    QList<ServerArg> m_args;
    QString m_image;
    QStringList m_env;
    QList<IgnoredDockerOption> m_ignored;
};

} // namespace flashdeck::recipe
