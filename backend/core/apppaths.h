#pragma once

#include <QString>

namespace flashdeck {

/**
 * Where Flashdeck keeps its files. Built once in main() and passed to whoever needs it.
 *
 * By default the locations come from QStandardPaths (XDG on Linux). `--config-dir DIR`
 * roots everything under DIR for the whole process, so tests and scripts can run
 * isolated instances side by side.
 */
class AppPaths final
{
public:
    /** Standard locations (QStandardPaths). */
    AppPaths();
    /** Everything under `root`; an empty root means the standard locations. */
    explicit AppPaths(const QString &root);

    bool isOverridden() const { return !m_root.isEmpty(); }
    /** Settings and inventory (hosts.json, acknowledgements.json, flashdeck.ini). */
    QString configDir() const { return m_config; }
    /** Deployment manifests and journals. */
    QString dataDir() const { return m_data; }
    /** Rotating log files. */
    QString logDir() const { return m_logs; }
    /** Disposable state: demo hosts, caches. */
    QString runtimeDir() const { return m_runtime; }

    QString settingsFile() const;
    QString inventoryFile() const;
    /** Licence acknowledgements (F40), one per host and licence. */
    QString acknowledgementsFile() const;
    /** A host's chart history (issue 7's on-disk retention), under dataDir()/metrics. */
    QString metricsHistoryFile(const QString &host) const;

    /** Creates every directory (0700: they can hold host inventories and journals). */
    [[nodiscard]] bool ensureExists(QString *error = nullptr) const;

private:
    QString m_root;
    QString m_config;
    QString m_data;
    QString m_logs;
    QString m_runtime;
};

} // namespace flashdeck
