#pragma once

#include <QWidget>

namespace flashdeck {
class AppPaths;
class FleetWatcher;
class Settings;
struct RuntimeInfo;
} // namespace flashdeck

namespace flashdeck::ui {

class AlertNotifier;

/** Alert thresholds and notifications; where Flashdeck keeps its files; which versions it runs. */
class SettingsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsPage)

public:
    SettingsPage(const AppPaths &paths, const RuntimeInfo &info, Settings &settings, FleetWatcher &fleet,
                 AlertNotifier &notifier, QWidget *parent = nullptr);

Q_SIGNALS:
    void logLinesChanged(qsizetype lines);
};

} // namespace flashdeck::ui
