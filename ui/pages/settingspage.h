#pragma once

#include <QWidget>

class QGroupBox;

namespace flashdeck {
class AppPaths;
class Settings;
namespace fleet {
class FleetWatcher;
} // namespace fleet
namespace ssh {
struct RuntimeInfo;
} // namespace ssh
} // namespace flashdeck

namespace flashdeck::ui {

class AlertNotifier;

/** Alert thresholds and notifications; where Flashdeck keeps its files; which versions it runs. */
class SettingsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsPage)

public:
    SettingsPage(const AppPaths &paths, const ssh::RuntimeInfo &info, Settings &settings, fleet::FleetWatcher &fleet,
                 AlertNotifier &notifier, QWidget *parent = nullptr);

Q_SIGNALS:
    void logLinesChanged(qsizetype lines);

private:
    // Each group of the page, top to bottom (the constructor lays them out in this order).
    QGroupBox *buildLanguage(Settings &settings);
    QGroupBox *buildAlerts(Settings &settings, fleet::FleetWatcher &fleet, AlertNotifier &notifier);
    QGroupBox *buildFleet(Settings &settings, fleet::FleetWatcher &fleet);
    QGroupBox *buildCharts(const AppPaths &paths, Settings &settings, fleet::FleetWatcher &fleet);
    QGroupBox *buildPlayground(Settings &settings);
    QGroupBox *buildLogs(Settings &settings);
    QGroupBox *buildFiles(const AppPaths &paths, const ssh::RuntimeInfo &info);
    QGroupBox *buildAbout(const ssh::RuntimeInfo &info);
};

} // namespace flashdeck::ui
