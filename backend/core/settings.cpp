#include "backend/core/settings.h"

#include "backend/core/apppaths.h"
#include "backend/core/lockedfile.h"

#include <QCoreApplication>
#include <QSettings>

namespace flashdeck {

namespace {
const QString kLogLevels = QStringLiteral("logging/levels");
const QString kLastHost = QStringLiteral("window/lastHost");
const QString kLanguage = QStringLiteral("window/language");
const QString kLastPage = QStringLiteral("window/lastPage");
const QString kGeometry = QStringLiteral("window/geometry");
} // namespace

namespace {
/**
 * QSettings reads the file when it is made without taking its own lock, and stats it apart from
 * reading it: a writer's rename between the two left it holding old contents stamped as new, so
 * its next sync did not re-read and dropped the other process's keys (twelve writers under load
 * lost one). Reads and syncs here hold a flock of ours; not QSettings' `<file>.lock`, which its
 * QLockFile creates and deletes.
 */
LockedFile settingsLock(const QString &file)
{
    return LockedFile(file + QStringLiteral(".sync"));
}
} // namespace

Settings::Settings(const AppPaths &paths)
{
    const Status locked = settingsLock(paths.settingsFile()).whileLocked([&] {
        m_settings = std::make_unique<QSettings>(paths.settingsFile(), QSettings::IniFormat);
    });
    Q_UNUSED(locked) // read even so: a missing lock must not cost the operator their preferences
}

Settings::~Settings()
{
    const Status locked = settingsLock(m_settings->fileName()).whileLocked([this] { m_settings.reset(); });
    Q_UNUSED(locked)
}

QString Settings::fileName() const
{
    return m_settings->fileName();
}

QString Settings::logLevels() const
{
    return m_settings->value(kLogLevels).toString();
}

void Settings::setLogLevels(const QString &spec)
{
    m_settings->setValue(kLogLevels, spec);
}

QString Settings::language() const
{
    return m_settings->value(kLanguage, QStringLiteral("system")).toString();
}

void Settings::setLanguage(const QString &name)
{
    m_settings->setValue(kLanguage, name);
}

QString Settings::lastHost() const
{
    return m_settings->value(kLastHost).toString();
}

void Settings::setLastHost(const QString &name)
{
    m_settings->setValue(kLastHost, name);
}

double Settings::alertThreshold(const QString &key, double fallback) const
{
    bool ok = false;
    const double v = m_settings->value(QStringLiteral("alerts/") + key).toDouble(&ok);
    return ok ? v : fallback;
}

void Settings::setAlertThreshold(const QString &key, double value)
{
    m_settings->setValue(QStringLiteral("alerts/") + key, value);
}

bool Settings::alertNotifications() const
{
    return m_settings->value(QStringLiteral("alerts/notifications"), false).toBool();
}

void Settings::setAlertNotifications(bool on)
{
    m_settings->setValue(QStringLiteral("alerts/notifications"), on);
}

bool Settings::keepMetricsHistory() const
{
    return m_settings->value(QStringLiteral("metrics/keep_history"), false).toBool();
}

void Settings::setKeepMetricsHistory(bool on)
{
    m_settings->setValue(QStringLiteral("metrics/keep_history"), on);
}

QString Settings::fleetPinsFile() const
{
    return m_settings->value(QStringLiteral("fleet/pins_file")).toString();
}

void Settings::setFleetPinsFile(const QString &path)
{
    if (path.isEmpty()) {
        m_settings->remove(QStringLiteral("fleet/pins_file"));
    } else {
        m_settings->setValue(QStringLiteral("fleet/pins_file"), path);
    }
}

QMap<QString, QString> Settings::section(const QString &name) const
{
    QMap<QString, QString> out;
    m_settings->beginGroup(name);
    for (const QString &key : m_settings->childKeys()) {
        out.insert(key, m_settings->value(key).toString());
    }
    m_settings->endGroup();
    return out;
}

void Settings::setSection(const QString &name, const QMap<QString, QString> &values)
{
    m_settings->beginGroup(name);
    m_settings->remove(QString()); // the whole group: keys no longer given go
    for (auto it = values.cbegin(); it != values.cend(); ++it) {
        if (!it.value().isEmpty()) {
            m_settings->setValue(it.key(), it.value());
        }
    }
    m_settings->endGroup();
}

QStringList Settings::fleetHiddenColumns() const
{
    const QString key = QStringLiteral("window/fleet_hidden_columns");
    // An empty list the operator chose is kept as one: "none hidden" is not "never chosen".
    return m_settings->contains(key) ? m_settings->value(key).toString().split(QLatin1Char(','), Qt::SkipEmptyParts)
                                     : QStringList{QStringLiteral("updated")};
}

void Settings::setFleetHiddenColumns(const QStringList &keys)
{
    m_settings->setValue(QStringLiteral("window/fleet_hidden_columns"), keys.join(QLatin1Char(',')));
}

QStringList Settings::allowedImageHosts() const
{
    return m_settings->value(QStringLiteral("playground/allowed_image_hosts")).toStringList();
}

void Settings::setAllowedImageHosts(const QStringList &hosts)
{
    m_settings->setValue(QStringLiteral("playground/allowed_image_hosts"), hosts);
}

QVariantMap Settings::playgroundPreset(const QString &host) const
{
    return m_settings->value(QStringLiteral("playground/") + QString::fromLatin1(host.toUtf8().toHex())).toMap();
}

void Settings::setPlaygroundPreset(const QString &host, const QVariantMap &preset)
{
    // The host name hex-encoded: any name is a valid key, and none can reach into another section.
    m_settings->setValue(QStringLiteral("playground/") + QString::fromLatin1(host.toUtf8().toHex()), preset);
}

qsizetype Settings::logLines() const
{
    bool ok = false;
    const qlonglong v = m_settings->value(QStringLiteral("logs/lines")).toLongLong(&ok);
    return ok ? qsizetype(qBound(qlonglong(1000), v, qlonglong(5000000))) : 200000;
}

void Settings::setLogLines(qsizetype lines)
{
    m_settings->setValue(QStringLiteral("logs/lines"), qlonglong(lines));
}

int Settings::lastPage() const
{
    return m_settings->value(kLastPage, 0).toInt();
}

void Settings::setLastPage(int index)
{
    m_settings->setValue(kLastPage, index);
}

QByteArray Settings::windowGeometry() const
{
    return m_settings->value(kGeometry).toByteArray();
}

void Settings::setWindowGeometry(const QByteArray &geometry)
{
    m_settings->setValue(kGeometry, geometry);
}

bool Settings::sync(QString *error)
{
    const Status locked = settingsLock(m_settings->fileName()).whileLocked([this] { m_settings->sync(); });
    Q_UNUSED(locked)
    if (m_settings->status() == QSettings::NoError) {
        return true;
    }
    if (error) {
        *error =
            QCoreApplication::translate("Core",
                                        "Could not save settings to %1: the file is not writable or not valid INI. "
                                        "Check the folder's permissions and free space.")
                .arg(m_settings->fileName());
    }
    return false;
}

} // namespace flashdeck
