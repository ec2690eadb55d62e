#include "backend/recipe/generatorcommand.h"

#include "backend/core/shellquote.h"
#include "backend/recipe/shellwords.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <optional>

namespace flashdeck::recipe {

namespace {

/** What Flashdeck does instead of a docker run option it does not carry over. */
enum class Instead { Env, Gpus, Ports, Caches, SharedMemory, Container, Privileges, Other, Refused };

struct DockerOption
{
    const char *longName; // "--env"
    char shortName; // 'e', or 0
    bool takesValue;
    Instead instead;
};

// docker run's options (docker CLI reference, "docker container run"): whether each takes a
// value decides where the image is, so an option not listed here is refused rather than guessed.
constexpr DockerOption kDockerOptions[] = {
    {"--env", 'e', true, Instead::Env},
    {"--env-file", 0, true, Instead::Other},
    {"--gpus", 0, true, Instead::Gpus},
    {"--device", 0, true, Instead::Gpus},
    {"--group-add", 0, true, Instead::Gpus},
    {"--runtime", 0, true, Instead::Gpus},
    {"--publish", 'p', true, Instead::Ports},
    {"--publish-all", 'P', false, Instead::Ports},
    {"--network", 0, true, Instead::Ports},
    {"--net", 0, true, Instead::Ports},
    {"--expose", 0, true, Instead::Ports},
    {"--add-host", 0, true, Instead::Ports},
    {"--dns", 0, true, Instead::Ports},
    {"--hostname", 'h', true, Instead::Ports},
    {"--volume", 'v', true, Instead::Caches},
    {"--mount", 0, true, Instead::Caches},
    {"--tmpfs", 0, true, Instead::Caches},
    {"--volumes-from", 0, true, Instead::Caches},
    {"--shm-size", 0, true, Instead::SharedMemory},
    {"--ipc", 0, true, Instead::SharedMemory},
    {"--name", 0, true, Instead::Container},
    {"--rm", 0, false, Instead::Container},
    {"--detach", 'd', false, Instead::Container},
    {"--interactive", 'i', false, Instead::Container},
    {"--tty", 't', false, Instead::Container},
    {"--init", 0, false, Instead::Container},
    {"--restart", 0, true, Instead::Container},
    {"--label", 'l', true, Instead::Container},
    {"--pull", 0, true, Instead::Container},
    {"--platform", 0, true, Instead::Container},
    {"--log-driver", 0, true, Instead::Container},
    {"--log-opt", 0, true, Instead::Container},
    {"--attach", 'a', true, Instead::Container},
    {"--privileged", 0, false, Instead::Privileges},
    {"--cap-add", 0, true, Instead::Privileges},
    {"--cap-drop", 0, true, Instead::Privileges},
    {"--security-opt", 0, true, Instead::Privileges},
    {"--ulimit", 0, true, Instead::Privileges},
    {"--user", 'u', true, Instead::Privileges},
    {"--userns", 0, true, Instead::Privileges},
    {"--pid", 0, true, Instead::Privileges},
    {"--uts", 0, true, Instead::Privileges},
    {"--cgroupns", 0, true, Instead::Privileges},
    {"--device-cgroup-rule", 0, true, Instead::Privileges},
    {"--sysctl", 0, true, Instead::Privileges},
    {"--memory", 'm', true, Instead::Other},
    {"--cpus", 0, true, Instead::Other},
    {"--cpuset-cpus", 0, true, Instead::Other},
    {"--workdir", 'w', true, Instead::Other},
    {"--stop-signal", 0, true, Instead::Other},
    {"--stop-timeout", 0, true, Instead::Other},
    {"--pids-limit", 0, true, Instead::Other},
    {"--entrypoint", 0, true, Instead::Refused},
};

const DockerOption *dockerOption(const QString &longName, QChar shortName)
{
    for (const DockerOption &o : kDockerOptions) {
        if ((!longName.isEmpty() && longName == QLatin1String(o.longName)) ||
            (longName.isEmpty() && o.shortName != 0 && shortName == QLatin1Char(o.shortName))) {
            return &o;
        }
    }
    return nullptr;
}

/** One docker run option as given: which, as written, and its value (empty for a switch). */
struct GivenOption
{
    const DockerOption *option;
    QString name;
    QString value;
};

Status unknownOption(const QString &name)
{
    return Status::failure(QCoreApplication::translate("Recipe",
                                                       "The docker run option \"%1\" is not one Flashdeck knows: it "
                                                       "cannot tell where the image is. Leave it out: Flashdeck "
                                                       "creates the container itself.")
                               .arg(name));
}

Status noValue(const QString &name)
{
    return Status::failure(QCoreApplication::translate("Recipe", "The docker run option %1 has no value.").arg(name));
}

/** "--env KEY=v", "--env=KEY=v", "--rm": the value from the word or the next one. */
Result<QList<GivenOption>> readLongOption(const QString &w, const QStringList &words, qsizetype &i)
{
    const qsizetype eq = w.indexOf(QLatin1Char('='));
    const QString name = eq < 0 ? w : w.left(eq);
    const DockerOption *o = dockerOption(name, {});
    if (!o) {
        return unknownOption(name);
    }
    if (o->instead == Instead::Refused) {
        return Status::failure(QCoreApplication::translate("Recipe",
                                                           "%1 replaces SGLang's server with another program: "
                                                           "Flashdeck runs the server itself. Leave it out.")
                                   .arg(name));
    }
    QString value;
    if (eq >= 0) {
        value = w.mid(eq + 1);
    } else if (o->takesValue) {
        if (i >= words.size()) {
            return noValue(name);
        }
        value = words.at(i++);
    }
    return QList<GivenOption>{{o, name, value}};
}

/** A cluster of short options: "-it", "-e KEY=v", "-eKEY=v", "-p30000:30000". */
Result<QList<GivenOption>> readShortOptions(const QString &w, const QStringList &words, qsizetype &i)
{
    QList<GivenOption> out;
    for (qsizetype k = 1; k < w.size(); ++k) {
        const DockerOption *o = dockerOption({}, w.at(k));
        const QString name = QStringLiteral("-") + w.at(k);
        if (!o) {
            return unknownOption(name);
        }
        QString value;
        if (o->takesValue) {
            value = w.mid(k + 1); // the rest of the word is the value
            if (value.isEmpty()) {
                if (i >= words.size()) {
                    return noValue(name);
                }
                value = words.at(i++);
            }
            k = w.size();
        }
        out.append({o, name, value});
    }
    return out;
}

QString insteadWords(Instead instead)
{
    switch (instead) {
    case Instead::Gpus:
        return QCoreApplication::translate("Recipe", "Flashdeck gives the container the GPUs of the deployment");
    case Instead::Ports:
        return QCoreApplication::translate("Recipe",
                                           "Flashdeck publishes the server's port on the host's loopback only");
    case Instead::Caches:
        return QCoreApplication::translate("Recipe",
                                           "Flashdeck maps the Hugging Face and kernel caches (and a model folder) "
                                           "itself");
    case Instead::SharedMemory:
        return QCoreApplication::translate("Recipe", "Flashdeck sets the shared memory and IPC of the profile");
    case Instead::Container:
        return QCoreApplication::translate("Recipe", "Flashdeck names, labels and starts the container itself");
    case Instead::Privileges:
        return QCoreApplication::translate("Recipe",
                                           "Flashdeck gives the container the devices it needs and no other "
                                           "privileges");
    case Instead::Other:
    case Instead::Env:
    case Instead::Refused:
        break;
    }
    return QCoreApplication::translate("Recipe", "not carried over to Flashdeck's container");
}

/** NAME=value, as a shell reads an assignment before a command (XCU 2.9.1). */
bool isAssignment(const QString &word)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*="));
    return re.match(word).hasMatch();
}

/** A server flag ("--tp", "-h"), not a value ("-1", "-0.5", "-"). */
bool isFlag(const QString &word)
{
    return word.size() > 1 && word.at(0) == QLatin1Char('-') && !word.at(1).isDigit() && word.at(1) != QLatin1Char('.');
}

QString quoted(const QStringList &words)
{
    return QString::fromUtf8(shellJoin(words));
}

Status expectedServer(const QStringList &words, qsizetype at, const QString &where)
{
    const QString seen = at < words.size() ? quoted(words.mid(at, 3)) : QString();
    return Status::failure(
        seen.isEmpty()
            ? QCoreApplication::translate("Recipe",
                                          "%1 there is no command: Flashdeck expects SGLang's server, python3 -m "
                                          "sglang.launch_server or sglang serve, as the generator prints it.")
                  .arg(where)
            : QCoreApplication::translate("Recipe",
                                          "%1 Flashdeck expects SGLang's server, python3 -m sglang.launch_server or "
                                          "sglang serve, not \"%2\": paste the command SGLang's configuration "
                                          "generator printed.")
                  .arg(where, seen));
}

/** The entry point at `at`: its word count, and whether it is `sglang serve`; nullopt when none. */
std::optional<std::pair<int, bool>> entrypointAt(const QStringList &words, qsizetype at)
{
    const auto word = [&](qsizetype i) { return i < words.size() ? words.at(i) : QString(); };
    static const QRegularExpression python(QStringLiteral("^(/usr(/local)?/bin/)?python(3(\\.[0-9]+)?)?$"));
    if (python.match(word(at)).hasMatch() && word(at + 1) == QLatin1String("-m") &&
        word(at + 2) == QLatin1String("sglang.launch_server")) {
        return std::pair{3, false};
    }
    if (word(at) == QLatin1String("sglang") && word(at + 1) == QLatin1String("serve")) {
        return std::pair{2, true};
    }
    return std::nullopt;
}

} // namespace

QStringList ServerArg::words() const
{
    if (joined && values.size() == 1) {
        return {flag + QLatin1Char('=') + values.first()};
    }
    return QStringList{flag} + values;
}

QString ServerArg::text() const
{
    return quoted(words());
}

QStringList GeneratorCommand::serverWords() const
{
    QStringList out;
    for (const ServerArg &a : m_args) {
        out += a.words();
    }
    return out;
}

const ServerArg *GeneratorCommand::find(const QString &flag) const
{
    for (const ServerArg &a : m_args) {
        if (a.flag == flag) {
            return &a;
        }
    }
    return nullptr;
}

Status GeneratorCommand::readDockerOptions(const QStringList &words, qsizetype &i)
{
    // docker run [OPTIONS] IMAGE [COMMAND]: options until the first word that is none.
    while (i < words.size() && words.at(i).startsWith(QLatin1Char('-')) && words.at(i) != QLatin1String("-")) {
        const QString w = words.at(i++);
        if (w == QLatin1String("--")) {
            break;
        }
        Result<QList<GivenOption>> given =
            w.startsWith(QLatin1String("--")) ? readLongOption(w, words, i) : readShortOptions(w, words, i);
        if (!given) {
            return given.status();
        }
        for (const GivenOption &g : given.value()) {
            if (g.option->instead == Instead::Env && g.value.contains(QLatin1Char('='))) {
                m_env.append(g.value);
            } else if (g.option->instead == Instead::Env) {
                m_ignored.append({g.name + QLatin1Char(' ') + g.value,
                                  QCoreApplication::translate("Recipe",
                                                              "it takes %1 from your own shell, which Flashdeck does "
                                                              "not read: write %1=VALUE (a Hugging Face token is "
                                                              "passed by Flashdeck when you give it one)")
                                      .arg(g.value)});
            } else {
                m_ignored.append(
                    {g.value.isEmpty() ? g.name : quoted({g.name, g.value}), insteadWords(g.option->instead)});
            }
        }
    }
    return Status::ok();
}

Status GeneratorCommand::readServerArgs(const QStringList &words, qsizetype i)
{
    // The server's arguments: each flag with the values after it, in order.
    for (; i < words.size(); ++i) {
        const QString &w = words.at(i);
        if (isFlag(w)) {
            ServerArg arg;
            const qsizetype eq = w.startsWith(QLatin1String("--")) ? w.indexOf(QLatin1Char('=')) : -1;
            arg.flag = eq < 0 ? w : w.left(eq);
            if (eq >= 0) {
                arg.values.append(w.mid(eq + 1));
                arg.joined = true;
            }
            m_args.append(arg);
            continue;
        }
        if (m_args.isEmpty() || m_args.last().joined) {
            return Status::failure(
                QCoreApplication::translate("Recipe",
                                            "\"%1\" belongs to no server flag: SGLang's server takes its settings as "
                                            "--flag value (word %2 of the command).")
                    .arg(w)
                    .arg(i + 1));
        }
        m_args.last().values.append(w);
    }
    return Status::ok();
}

Result<GeneratorCommand> GeneratorCommand::parse(const QString &text)
{
    const Result<QStringList> split = ShellWords::split(text);
    if (!split) {
        return split.status();
    }
    const QStringList &words = split.value();
    if (words.isEmpty()) {
        return Status::failure(QCoreApplication::translate(
            "Recipe", "The command is empty: paste what SGLang's configuration generator printed."));
    }
    GeneratorCommand cmd;
    qsizetype i = 0;
    if (words.at(i) == QLatin1String("sudo")) {
        ++i; // Flashdeck talks to the host's Docker Engine itself: no sudo to carry over
    }
    while (i < words.size() && isAssignment(words.at(i))) {
        cmd.m_env.append(words.at(i++));
    }
    const auto word = [&](qsizetype k) { return k < words.size() ? words.at(k) : QString(); };
    if (word(i) == QLatin1String("docker") &&
        (word(i + 1) == QLatin1String("run") ||
         (word(i + 1) == QLatin1String("container") && word(i + 2) == QLatin1String("run")))) {
        if (!cmd.m_env.isEmpty()) {
            return Status::failure(
                QCoreApplication::translate("Recipe",
                                            "%1 is set for the docker client, not the server: give it to the container "
                                            "with -e %1.")
                    .arg(cmd.m_env.first()));
        }
        cmd.m_form = Form::DockerRun;
        i += word(i + 1) == QLatin1String("run") ? 2 : 3;
        if (Status read = cmd.readDockerOptions(words, i); !read) {
            return read;
        }
        if (i >= words.size()) {
            return Status::failure(QCoreApplication::translate("Recipe", "The docker run command names no image."));
        }
        cmd.m_image = words.at(i++);
        const auto entry = entrypointAt(words, i);
        if (!entry) {
            return expectedServer(words, i,
                                  QCoreApplication::translate("Recipe", "After the image %1,").arg(cmd.m_image));
        }
        cmd.m_entrypoint = words.mid(i, entry->first).join(QLatin1Char(' '));
        i += entry->first;
    } else {
        const auto entry = entrypointAt(words, i);
        if (!entry) {
            return expectedServer(words, i, QCoreApplication::translate("Recipe", "At the start of the command,"));
        }
        cmd.m_form = entry->second ? Form::SglangServe : Form::LaunchServer;
        cmd.m_entrypoint = words.mid(i, entry->first).join(QLatin1Char(' '));
        i += entry->first;
    }
    if (Status read = cmd.readServerArgs(words, i); !read) {
        return read;
    }
    return cmd;
}

} // namespace flashdeck::recipe
