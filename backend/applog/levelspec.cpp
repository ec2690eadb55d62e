#include "backend/applog/levelspec.h"

#include <QCoreApplication>

namespace flashdeck::applog {

namespace {

std::optional<Level> levelFromName(const QString &name)
{
    static const std::map<QString, Level> names{
        {QStringLiteral("trace"), Level::Trace},       {QStringLiteral("debug"), Level::Debug},
        {QStringLiteral("info"), Level::Info},         {QStringLiteral("warn"), Level::Warn},
        {QStringLiteral("warning"), Level::Warn},      {QStringLiteral("error"), Level::Error},
        {QStringLiteral("critical"), Level::Critical}, {QStringLiteral("off"), Level::Off},
    };
    const auto it = names.find(name.toLower());
    if (it == names.end()) {
        return std::nullopt;
    }
    return it->second;
}

const QString kLevelList = QStringLiteral("trace, debug, info, warn, error, critical, off");

} // namespace

QStringList subsystems()
{
    return {QStringLiteral("app"),     QStringLiteral("ssh"),  QStringLiteral("deploy"), QStringLiteral("docker"),
            QStringLiteral("metrics"), QStringLiteral("chat"), QStringLiteral("ui"),     QStringLiteral("qt")};
}

QString levelName(Level level)
{
    switch (level) {
    case Level::Trace:
        return QStringLiteral("trace");
    case Level::Debug:
        return QStringLiteral("debug");
    case Level::Info:
        return QStringLiteral("info");
    case Level::Warn:
        return QStringLiteral("warn");
    case Level::Error:
        return QStringLiteral("error");
    case Level::Critical:
        return QStringLiteral("critical");
    case Level::Off:
        return QStringLiteral("off");
    }
    return QStringLiteral("info");
}

Result<LevelSpec> parseLevelSpec(const QString &spec)
{
    LevelSpec result;
    const QStringList known = subsystems();
    for (const QString &rawPart : spec.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString part = rawPart.trimmed();
        if (part.isEmpty()) {
            continue;
        }
        const qsizetype eq = part.indexOf(QLatin1Char('='));
        const QString levelText = (eq < 0 ? part : part.mid(eq + 1)).trimmed();
        const std::optional<Level> level = levelFromName(levelText);
        if (!level) {
            return Status::failure(
                QCoreApplication::translate("Logging", "Unknown log level \"%1\" in \"%2\". Use one of: %3.")
                    .arg(levelText, spec, kLevelList));
        }
        if (eq < 0) {
            if (result.defaultLevel) {
                return Status::failure(
                    QCoreApplication::translate("Logging",
                                                "The log spec \"%1\" gives more than one default level; keep one.")
                        .arg(spec));
            }
            result.defaultLevel = level;
            continue;
        }
        const QString name = part.left(eq).trimmed().toLower();
        if (!known.contains(name)) {
            return Status::failure(
                QCoreApplication::translate("Logging", "Unknown log subsystem \"%1\" in \"%2\". Known subsystems: %3.")
                    .arg(name, spec, known.join(QStringLiteral(", "))));
        }
        result.perSubsystem[name.toStdString()] = *level;
    }
    return result;
}

} // namespace flashdeck::applog
