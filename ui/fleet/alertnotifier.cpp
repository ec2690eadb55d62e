#include "ui/fleet/alertnotifier.h"

#include "backend/fleet/fleetwatcher.h"
#include "backend/metrics/alertseverity.h"
#include "backend/metrics/hostmonitor.h"

#include <QIcon>
#include <QSystemTrayIcon>

namespace flashdeck::ui {

AlertNotifier::AlertNotifier(fleet::FleetWatcher &watcher, QObject *parent)
    : QObject(parent)
    , m_watcher(watcher)
{
    connect(&m_watcher, &fleet::FleetWatcher::statusChanged, this, &AlertNotifier::check);
}

bool AlertNotifier::available()
{
    return QSystemTrayIcon::isSystemTrayAvailable();
}

void AlertNotifier::setEnabled(bool on)
{
    m_enabled = on;
    if (on && available() && !m_tray) {
        m_tray = new QSystemTrayIcon(QIcon(QStringLiteral(":/icons/flashdeck.svg")), this);
        m_tray->setToolTip(QStringLiteral("Flashdeck"));
        m_tray->show();
    }
    if (m_tray) {
        m_tray->setVisible(on);
    }
}

void AlertNotifier::check(const QString &host)
{
    if (!m_watcher.monitor(host) && !m_watcher.watchedByPrometheus(host)) {
        return;
    }
    QSet<QString> now;
    QSet<QString> &seen = m_seen[host];
    for (const metrics::Alert &a : m_watcher.status(host).alerts) {
        now.insert(a.id);
        if (seen.contains(a.id) || !m_enabled) {
            continue;
        }
        const QString title = QStringLiteral("%1: %2").arg(host, metrics::severityWord(a.severity));
        Q_EMIT notified(title, a.message);
        if (m_tray && a.severity != QLatin1String("info")) { // an upgrade the operator started: no pop-up
            m_tray->showMessage(title, a.message,
                                a.severity == QLatin1String("critical") ? QSystemTrayIcon::Critical
                                                                        : QSystemTrayIcon::Warning);
        }
    }
    seen = now; // an alert that ends and begins again is told again
}

} // namespace flashdeck::ui
