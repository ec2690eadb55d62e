#pragma once

#include <QHash>
#include <QObject>
#include <QSet>

class QSystemTrayIcon;

namespace flashdeck {
namespace fleet {
class FleetWatcher;
} // namespace fleet
} // namespace flashdeck

namespace flashdeck::ui {

/**
 * Desktop notifications for alerts (issue 7), when the operator turns them on: one message per
 * alert as it begins (not while it lasts), through the system tray where there is one.
 */
class AlertNotifier final : public QObject
{
    Q_OBJECT

public:
    explicit AlertNotifier(fleet::FleetWatcher &watcher, QObject *parent = nullptr);

    void setEnabled(bool on);
    bool isEnabled() const { return m_enabled; }
    /** False where the desktop has no tray to show them (then nothing is shown). */
    static bool available();

Q_SIGNALS:
    /** Emitted for every notification, shown or not (tests, and the status bar). */
    void notified(const QString &title, const QString &message);

private:
    void check(const QString &host);

    fleet::FleetWatcher &m_watcher;
    bool m_enabled = false;
    QSystemTrayIcon *m_tray = nullptr;
    QHash<QString, QSet<QString>> m_seen; // host → alert ids already told
};

} // namespace flashdeck::ui
