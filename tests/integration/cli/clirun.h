#pragma once

#include "tests/support/buildpaths.h"

#include <QByteArray>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTimer>

/** What one run of the flashdeck binary gave back. */
struct CliRun
{
    int exitCode = -1; // -1: it crashed or had to be killed
    QByteArray out;
    QByteArray err;
};

/** How a test runs the binary: as the shell it was started from, or as on a headless machine. */
enum class Session { Inherited, Headless };

/**
 * How the test waits for the run: blocked (nothing else on its thread runs), or serving its
 * event loop, so that servers the test runs on its own thread (fake exporters Prometheus scrapes,
 * a fake SGLang) keep answering while the binary runs.
 */
enum class Wait { Blocked, Serving };

/**
 * A terminal on a headless machine whose home is `home` (its known_hosts and keys): no session
 * bus, no display (no keyring can answer), no key in the environment, messages in C.UTF-8.
 */
inline QProcessEnvironment headlessTerminal(const QString &home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("LANGUAGE"), QString());
    for (const char *name : {"DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "SGLANG_API_KEY"}) {
        env.remove(QString::fromLatin1(name));
    }
    return env;
}

/** Runs `flashdeck ARGS` in the environment `env` to the end, blocked (killed after `timeoutMs`). */
inline CliRun runFlashdeckIn(const QProcessEnvironment &env, const QStringList &args, int timeoutMs)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(flashdeck::test::flashdeckBinary(), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

/**
 * Runs `flashdeck ARGS --config-dir CONFIG` to the end (killed after `timeoutMs`). Headless: no
 * session bus and no display, as over SSH or on a server: no keyring can answer.
 */
inline CliRun runFlashdeck(const QString &config, QStringList args, int timeoutMs = 180000,
                           Session session = Session::Inherited, Wait wait = Wait::Blocked)
{
    args << QStringLiteral("--config-dir") << config;
    QProcess p;
    if (session == Session::Headless) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "SGLANG_API_KEY"}) {
            env.remove(QString::fromLatin1(name));
        }
        p.setProcessEnvironment(env);
    }
    p.start(flashdeck::test::flashdeckBinary(), args);
    bool finished = false;
    if (wait == Wait::Serving) {
        QEventLoop loop;
        QObject::connect(&p, &QProcess::finished, &loop, &QEventLoop::quit);
        QObject::connect(&p, &QProcess::errorOccurred, &loop, &QEventLoop::quit);
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        if (p.state() != QProcess::NotRunning) {
            loop.exec();
        }
        finished = p.state() == QProcess::NotRunning;
    } else {
        finished = p.waitForFinished(timeoutMs);
    }
    if (!finished) {
        p.kill();
        p.waitForFinished();
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

/** `flashdeck status --json` output: each host's object, by host name. */
/** The last JSON object of a stream of lines (a command's --json output); empty when none. */
inline QJsonObject lastJsonObject(const QByteArray &jsonLines)
{
    QJsonObject last;
    for (const QByteArray &line : jsonLines.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        last = o.isEmpty() ? last : o;
    }
    return last;
}

inline QMap<QString, QJsonObject> statusByHost(const QByteArray &jsonLines)
{
    QMap<QString, QJsonObject> out;
    for (const QByteArray &line : jsonLines.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.contains(QLatin1String("host"))) {
            out[o[QLatin1String("host")].toString()] = o;
        }
    }
    return out;
}

/** `flashdeck deploy --json` output: the last record of each step, by step id. */
inline QMap<QString, QJsonObject> deploySteps(const QByteArray &jsonLines)
{
    QMap<QString, QJsonObject> out;
    for (const QByteArray &line : jsonLines.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.contains(QLatin1String("step"))) {
            out[o[QLatin1String("step")].toString()] = o;
        }
    }
    return out;
}

/** `flashdeck deploy demo --resume --ready-timeout 120 --json`: picks up a deployment after a fault. */
inline CliRun resumeDemoDeploy(const QString &config)
{
    return runFlashdeck(config,
                        {QStringLiteral("deploy"), QStringLiteral("demo"), QStringLiteral("--resume"),
                         QStringLiteral("--ready-timeout"), QStringLiteral("120"), QStringLiteral("--json")});
}

/** `flashdeck undeploy demo --json`; tests run it whatever they saw, so no container outlives them. */
inline CliRun undeployDemo(const QString &config)
{
    return runFlashdeck(config, {QStringLiteral("undeploy"), QStringLiteral("demo"), QStringLiteral("--json")});
}

/** What `undeploy demo --json` prints when exactly one server container existed. */
inline QByteArray oneDemoServerRemoved()
{
    return R"({"host":"demo","ok":true,"removed":["flashdeck-demo-b300x4-balanced-0"]})";
}

/**
 * The pid whose network namespace is the demo host `name`'s (from the demo's state under
 * `config`), 0 when none runs. A test that acts on the host's processes from this machine
 * (`pkill --ns PID --nslist net`) touches that host's alone, never another demo's.
 */
inline qint64 demoNamespacePid(const QString &config, const QString &name = QStringLiteral("demo"))
{
    QFile f(config + QStringLiteral("/data/demo/state.json"));
    if (!f.open(QIODevice::ReadOnly)) {
        return 0;
    }
    const QJsonArray hosts = QJsonDocument::fromJson(f.readAll()).object().value(QLatin1String("hosts")).toArray();
    for (const QJsonValue &h : hosts) {
        if (h.toObject().value(QLatin1String("name")).toString() == name) {
            return h.toObject().value(QLatin1String("namespace_pid")).toInteger();
        }
    }
    return 0;
}

/**
 * The demo host's SGLang server dies (an OOM kill, a segfault): SIGKILL, from this machine, the
 * process serving the host's port 30000 ("[3]0000" matches its "--port 30000", not pkill's own
 * command line), in that host's network namespace only, so no other demo's or test's server is
 * touched. pkill's exit code: 0 when it found the server.
 */
inline int killDemoServer(const QString &config)
{
    const qint64 ns = demoNamespacePid(config);
    if (ns <= 0) {
        return -1;
    }
    QProcess kill;
    kill.start(QStringLiteral("pkill"),
               {QStringLiteral("-KILL"), QStringLiteral("--ns"), QString::number(ns), QStringLiteral("--nslist"),
                QStringLiteral("net"), QStringLiteral("-f"), QStringLiteral("sglang-sim .*--port [3]0000 ")});
    return kill.waitForFinished(10000) && kill.exitStatus() == QProcess::NormalExit ? kill.exitCode() : -1;
}
