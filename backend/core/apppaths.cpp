#include "backend/core/apppaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QStandardPaths>

namespace flashdeck {

AppPaths::AppPaths()
    : AppPaths(QString())
{ }

AppPaths::AppPaths(const QString &root)
    : m_root(root.isEmpty() ? QString() : QDir(root).absolutePath())
{
    if (isOverridden()) {
        m_config = m_root;
        m_data = m_root + QStringLiteral("/data");
        m_logs = m_root + QStringLiteral("/logs");
        m_runtime = m_root + QStringLiteral("/run");
        return;
    }
    m_config = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation);
    m_data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    m_logs = m_data + QStringLiteral("/logs");
    m_runtime = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
}

QString AppPaths::settingsFile() const
{
    return m_config + QStringLiteral("/flashdeck.ini");
}

QString AppPaths::inventoryFile() const
{
    return m_config + QStringLiteral("/hosts.json");
}

QString AppPaths::acknowledgementsFile() const
{
    return m_config + QStringLiteral("/acknowledgements.json");
}

QString AppPaths::metricsHistoryFile(const QString &host) const
{
    return m_data + QStringLiteral("/metrics/") + host + QStringLiteral(".fdts");
}

bool AppPaths::ensureExists(QString *error) const
{
    for (const QString &dir : {m_config, m_data, m_logs, m_runtime}) {
        if (dir.isEmpty() || !QDir().mkpath(dir)) {
            if (error) {
                *error = QCoreApplication::translate("Core",
                                                     "Cannot create the folder %1. Check that its parent exists and is "
                                                     "writable, or pass another --config-dir.")
                             .arg(dir);
            }
            return false;
        }
        QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    return true;
}

} // namespace flashdeck
