#include "backend/applog/logging.h"

#include "backend/applog/levelspec.h"
#include "backend/applog/redactingsink.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QtGlobal>

#include <spdlog/sinks/null_sink.h>
#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace flashdeck::applog {

namespace {

constexpr const char *kPattern = "%Y-%m-%dT%H:%M:%S.%e%z %-5l [%n] %v";

spdlog::logger &named(const char *name)
{
    if (const std::shared_ptr<spdlog::logger> logger = spdlog::get(name)) {
        return *logger;
    }
    // Not set up (unit tests, early start-up): discard rather than print unredacted text.
    static spdlog::logger discard("discard", std::make_shared<spdlog::sinks::null_sink_mt>());
    return discard;
}

spdlog::level::level_enum toSpdlog(Level level)
{
    switch (level) {
    case Level::Trace:
        return spdlog::level::trace;
    case Level::Debug:
        return spdlog::level::debug;
    case Level::Info:
        return spdlog::level::info;
    case Level::Warn:
        return spdlog::level::warn;
    case Level::Error:
        return spdlog::level::err;
    case Level::Critical:
        return spdlog::level::critical;
    case Level::Off:
        return spdlog::level::off;
    }
    return spdlog::level::info;
}

QtMessageHandler g_previousHandler = nullptr;

void forwardQtMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const QByteArray category = context.category ? QByteArray(context.category) : QByteArray();
    spdlog::logger *target = &qt();
    if (category.startsWith("flashdeck.")) {
        const QByteArray sub = category.mid(10);
        if (spdlog::get(sub.toStdString())) {
            target = &named(sub.constData());
        }
    }
    const QByteArray text = message.toUtf8();
    const std::string_view view(text.constData(), static_cast<std::size_t>(text.size()));
    switch (type) {
    case QtDebugMsg:
        target->debug("{}", view);
        break;
    case QtInfoMsg:
        target->info("{}", view);
        break;
    case QtWarningMsg:
        target->warn("{}", view);
        break;
    case QtCriticalMsg:
        target->error("{}", view);
        break;
    case QtFatalMsg:
        target->critical("{}", view);
        target->flush();
        break;
    }
}

} // namespace

spdlog::logger &app()
{
    return named("app");
}
spdlog::logger &ssh()
{
    return named("ssh");
}
spdlog::logger &deploy()
{
    return named("deploy");
}
spdlog::logger &docker()
{
    return named("docker");
}
spdlog::logger &metrics()
{
    return named("metrics");
}
spdlog::logger &chat()
{
    return named("chat");
}
spdlog::logger &ui()
{
    return named("ui");
}
spdlog::logger &qt()
{
    return named("qt");
}

Logging::Logging(const security::Redactor &redactor, LogOptions options)
{
    std::vector<spdlog::sink_ptr> sinks = std::move(options.extraSinks);
    if (!options.directory.isEmpty()) {
        if (QDir().mkpath(options.directory)) {
            m_logFile = QDir(options.directory).filePath(QStringLiteral("flashdeck.log"));
            try {
                sinks.push_back(std::make_shared<spdlog::sinks::rotating_file_sink_mt>(
                    QFile::encodeName(m_logFile).toStdString(), options.maxFileBytes, options.maxFiles));
                // Logs describe the operator's hosts: readable by the operator alone.
                QFile::setPermissions(m_logFile, QFile::ReadOwner | QFile::WriteOwner);
            } catch (const spdlog::spdlog_ex &e) {
                m_warning = QCoreApplication::translate(
                                "Logging", "Cannot write the log file %1 (%2); logging to the terminal only.")
                                .arg(m_logFile, QString::fromUtf8(e.what()));
                m_logFile.clear();
                options.toStderr = true;
            }
        } else {
            m_warning =
                QCoreApplication::translate("Logging", "Cannot create the log folder %1; logging to the terminal only.")
                    .arg(options.directory);
            options.toStderr = true;
        }
    }
    if (options.toStderr) {
        sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    }
    m_gate = std::make_shared<RedactingSink>(redactor, std::move(sinks));
    m_gate->set_pattern(kPattern);

    for (const QString &name : subsystems()) {
        const std::string id = name.toStdString();
        spdlog::drop(id);
        auto logger = std::make_shared<spdlog::logger>(id, m_gate);
        logger->flush_on(spdlog::level::warn);
        spdlog::register_logger(logger);
    }
    if (Status status = setLevels(options.levels); !status) {
        m_warning = status.message();
    }
    g_previousHandler = qInstallMessageHandler(forwardQtMessage);
}

Logging::~Logging()
{
    qInstallMessageHandler(g_previousHandler);
    g_previousHandler = nullptr;
    flush();
    for (const QString &name : subsystems()) {
        spdlog::drop(name.toStdString());
    }
}

Status Logging::setLevels(const QString &spec)
{
    Result<LevelSpec> parsed = parseLevelSpec(spec);
    LevelSpec levels = parsed ? parsed.value() : LevelSpec{};
    const Level fallback = levels.defaultLevel.value_or(Level::Info);
    for (const QString &name : subsystems()) {
        const std::string id = name.toStdString();
        const auto it = levels.perSubsystem.find(id);
        if (const std::shared_ptr<spdlog::logger> logger = spdlog::get(id)) {
            logger->set_level(toSpdlog(it == levels.perSubsystem.end() ? fallback : it->second));
        }
    }
    return parsed ? Status::ok() : parsed.status();
}

void Logging::flush()
{
    for (const QString &name : subsystems()) {
        if (const std::shared_ptr<spdlog::logger> logger = spdlog::get(name.toStdString())) {
            logger->flush();
        }
    }
}

} // namespace flashdeck::applog
