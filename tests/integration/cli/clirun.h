#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QString>
#include <QStringList>

/** What one run of the flashdeck binary gave back. */
struct CliRun
{
    int exitCode = -1; // -1: it crashed or had to be killed
    QByteArray out;
    QByteArray err;
};

/** Runs `flashdeck ARGS --config-dir CONFIG` to the end (killed after `timeoutMs`). */
inline CliRun runFlashdeck(const QString &config, QStringList args, int timeoutMs = 180000)
{
    args << QStringLiteral("--config-dir") << config;
    QProcess p;
    p.start(QStringLiteral(FLASHDECK_BINARY), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
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
