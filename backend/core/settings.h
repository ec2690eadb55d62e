#pragma once

#include <QMap>
#include <QString>
#include <QStringList>
#include <QVariantMap>

#include <memory>

class QSettings;

namespace flashdeck {

class AppPaths;

/**
 * Typed access to the user's preferences, stored as an INI file in AppPaths::configDir().
 * Never holds secrets: those belong to the keyring (see security/).
 */
class Settings final
{
public:
    explicit Settings(const AppPaths &paths);
    ~Settings();
    Settings(const Settings &) = delete;
    Settings &operator=(const Settings &) = delete;

    QString fileName() const;

    /** Log level spec in FLASHDECK_LOG's syntax, e.g. "ssh=debug,info". */
    QString logLevels() const;
    void setLogLevels(const QString &spec);

    /** Name of the host selected when the window last closed. */
    QString lastHost() const;
    void setLastHost(const QString &name);

    /** Index of the page shown when the window last closed. */
    int lastPage() const;
    void setLastPage(int index);

    /**
     * An alert threshold (section [alerts]: gpu_memory_pct, queue_depth, ttft_p95_s,
     * error_rate_pct, disk_free_gb), or `fallback` when unset or not a number.
     */
    double alertThreshold(const QString &key, double fallback) const;
    void setAlertThreshold(const QString &key, double value);

    /** Desktop notifications for new alerts (off by default). */
    bool alertNotifications() const;
    void setAlertNotifications(bool on);

    /** Chart history kept on disk between runs ([metrics] keep_history; off by default). */
    bool keepMetricsHistory() const;
    void setKeepMetricsHistory(bool on);

    /** Hosts the playground may fetch image URLs from ([playground] allowed_image_hosts; none by default, F33). */
    /** The Fleet table's columns the operator hid (stable keys); by default "updated". */
    QStringList fleetHiddenColumns() const;
    void setFleetHiddenColumns(const QStringList &keys);
    /** The fleet's pins file ([fleet] pins_file): a host that runs other pins is flagged. Empty: none. */
    QString fleetPinsFile() const;
    void setFleetPinsFile(const QString &path);
    /**
     * The keys of one section of flashdeck.ini (`[prometheus]`, `[prometheus_hosts]`) as text, for
     * the reader that owns them (PromConfig); an empty value removes its key.
     */
    QMap<QString, QString> section(const QString &name) const;
    void setSection(const QString &name, const QMap<QString, QString> &values);
    QStringList allowedImageHosts() const;
    void setAllowedImageHosts(const QStringList &hosts);

    /** The playground's parameters last used with `host` ([playground] <host>\\…); empty when none. */
    QVariantMap playgroundPreset(const QString &host) const;
    void setPlaygroundPreset(const QString &host, const QVariantMap &preset);

    /** Lines of a log kept in memory per followed host ([logs] lines; 200 000 by default, 1 000–5 000 000). */
    qsizetype logLines() const;
    void setLogLines(qsizetype lines);

    /** The language chosen in Settings → Language ([window] language: "system", "en", "zh_CN"); "system" by default. */
    QString language() const;
    void setLanguage(const QString &name);

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &geometry);

    /** Writes pending changes; false (with a reason) when the file cannot be written. */
    [[nodiscard]] bool sync(QString *error = nullptr);

private:
    std::unique_ptr<QSettings> m_settings;
};

} // namespace flashdeck
