#pragma once

#include <QWidget>

namespace flashdeck {
class AppPaths;
struct RuntimeInfo;
} // namespace flashdeck

namespace flashdeck::ui {

/** Where Flashdeck keeps its files and which versions it runs with. */
class SettingsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsPage)

public:
    SettingsPage(const AppPaths &paths, const RuntimeInfo &info, QWidget *parent = nullptr);
};

} // namespace flashdeck::ui
