#include "ui/pages/settingspage.h"

#include "backend/core/apppaths.h"
#include "backend/core/runtimeinfo.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QVBoxLayout>

namespace flashdeck::ui {

namespace {

QLabel *selectable(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

} // namespace

SettingsPage::SettingsPage(const AppPaths &paths, const RuntimeInfo &info, QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(32, 28, 32, 28);
    layout->setSpacing(16);

    auto *heading = new QLabel(tr("Settings"), this);
    QFont headingFont = heading->font();
    headingFont.setPointSizeF(headingFont.pointSizeF() * 1.5);
    headingFont.setBold(true);
    heading->setFont(headingFont);
    layout->addWidget(heading);

    auto *files = new QGroupBox(tr("Files"), this);
    auto *filesForm = new QFormLayout(files);
    const QString origin = paths.isOverridden() ? tr(" (set by --config-dir)") : QString();
    filesForm->addRow(tr("Configuration:"), selectable(paths.configDir() + origin, files));
    filesForm->addRow(tr("Host inventory:"), selectable(paths.inventoryFile(), files));
    filesForm->addRow(tr("Deployments:"), selectable(paths.dataDir(), files));
    filesForm->addRow(tr("Log file:"), selectable(info.logFile.isEmpty() ? tr("none") : info.logFile, files));
    filesForm->addRow(
        tr("Log levels:"),
        selectable(info.logLevels.isEmpty() ? tr("info (set FLASHDECK_LOG=ssh=debug,… to change)") : info.logLevels,
                   files));
    layout->addWidget(files);

    auto *about = new QGroupBox(tr("About"), this);
    auto *aboutForm = new QFormLayout(about);
    aboutForm->addRow(tr("Flashdeck:"), selectable(info.version, about));
    aboutForm->addRow(tr("Qt:"), selectable(info.qtVersion, about));
    aboutForm->addRow(tr("libssh:"), selectable(info.libsshVersion, about));
    aboutForm->addRow(tr("Secrets:"),
                      selectable(tr("Flashdeck never writes API keys, passwords or passphrases to these files "
                                    "or to its logs; logged text passes through a redactor first."),
                                 about));
    layout->addWidget(about);
    layout->addStretch(1);
}

} // namespace flashdeck::ui
