#include "ui/pages/settingspage.h"

#include "backend/core/apppaths.h"
#include "backend/core/language.h"
#include "backend/core/settings.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/recipe/pins.h"
#include "backend/ssh/runtimeinfo.h"
#include "ui/fleet/alertnotifier.h"
#include "ui/fleet/prometheusbox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

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

SettingsPage::SettingsPage(const AppPaths &paths, const ssh::RuntimeInfo &info, Settings &settings,
                           fleet::FleetWatcher &fleet, AlertNotifier &notifier, QWidget *parent)
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

    layout->addWidget(buildLanguage(settings));
    layout->addWidget(buildAlerts(settings, fleet, notifier));
    layout->addWidget(buildFleet(settings, fleet));
    layout->addWidget(new PrometheusBox(settings, fleet, this));
    layout->addWidget(buildCharts(paths, settings, fleet));
    layout->addWidget(buildPlayground(settings));
    layout->addWidget(buildLogs(settings));
    layout->addWidget(buildFiles(paths, info));
    layout->addWidget(buildAbout(info));
    layout->addStretch(1);
}

QGroupBox *SettingsPage::buildLanguage(Settings &settings)
{
    // The language: read once at start (app/main.cpp), so a change shows at the next start.
    auto *languageBox = new QGroupBox(tr("Language"), this);
    auto *languageForm = new QFormLayout(languageBox);
    auto *language = new QComboBox(languageBox);
    language->setObjectName(QStringLiteral("languageChoice"));
    // Each language is named in its own words, so that one can find one's way back to it.
    language->addItem(tr("Follow the system"), Language::name(UiLanguage::System));
    language->addItem(QStringLiteral("English"), Language::name(UiLanguage::English));
    language->addItem(QStringLiteral("简体中文"), Language::name(UiLanguage::Chinese));
    const std::optional<UiLanguage> stored = Language::fromName(settings.language());
    language->setCurrentIndex(std::max(0, language->findData(Language::name(stored.value_or(UiLanguage::System)))));
    auto *languageNote = new QLabel(languageBox);
    languageNote->setWordWrap(true);
    languageNote->setObjectName(QStringLiteral("languageNote"));
    // The translation names its own language ("简体中文"); untranslated, the window is English.
    languageNote->setText(tr("Flashdeck speaks %1 now.")
                              .arg(tr("English", "The name of the language of this translation, in that language")));
    connect(language, &QComboBox::currentIndexChanged, this, [&settings, language, languageNote] {
        settings.setLanguage(language->currentData().toString());
        languageNote->setText(tr("Flashdeck speaks the language chosen from its next start. The command line "
                                 "follows it too; --lang overrides it for one run."));
    });
    languageForm->addRow(tr("Language:"), language);
    languageForm->addRow(QString(), languageNote);
    return languageBox;
}

QGroupBox *SettingsPage::buildAlerts(Settings &settings, fleet::FleetWatcher &fleet, AlertNotifier &notifier)
{
    // F34's alerts: thresholds apply to every host at once and are kept in flashdeck.ini.
    auto *alerts = new QGroupBox(tr("Alerts"), this);
    alerts->setObjectName(QStringLiteral("alertSettings"));
    auto *alertsForm = new QFormLayout(alerts);
    struct Spec
    {
        const char *key;
        QString label;
        QString suffix;
        double max;
        double metrics::AlertThresholds::*field;
    };
    const QList<Spec> specs{
        {"gpu_memory_pct", tr("GPU memory above:"), QStringLiteral(" %"), 100, &metrics::AlertThresholds::gpuMemoryPct},
        {"queue_depth", tr("Queued requests above:"), QString(), 100000, &metrics::AlertThresholds::queueDepth},
        {"ttft_p95_s", tr("Time to first token p95 above:"), QStringLiteral(" s"), 3600,
         &metrics::AlertThresholds::ttftP95Seconds},
        {"error_rate_pct", tr("Aborted requests above:"), QStringLiteral(" %"), 100,
         &metrics::AlertThresholds::errorRatePct},
        {"disk_free_gb", tr("Free disk below:"), QStringLiteral(" GB"), 100000, &metrics::AlertThresholds::diskFreeGb}};
    for (const Spec &spec : specs) {
        auto *box = new QDoubleSpinBox(alerts);
        box->setObjectName(QStringLiteral("threshold_") + QLatin1String(spec.key));
        box->setRange(0, spec.max);
        box->setDecimals(spec.max <= 100 ? 1 : 0);
        box->setSuffix(spec.suffix);
        box->setValue(fleet.thresholds().*spec.field);
        box->setMaximumWidth(160);
        connect(box, &QDoubleSpinBox::valueChanged, this, [&settings, &fleet, spec](double v) {
            metrics::AlertThresholds t = fleet.thresholds();
            t.*spec.field = v;
            fleet.setThresholds(t);
            settings.setAlertThreshold(QLatin1String(spec.key), v);
        });
        alertsForm->addRow(spec.label, box);
    }
    auto *notify = new QCheckBox(tr("Show a desktop notification when an alert begins"), alerts);
    notify->setObjectName(QStringLiteral("alertNotifications"));
    notify->setChecked(settings.alertNotifications());
    if (!AlertNotifier::available()) {
        notify->setToolTip(tr("This desktop has no system tray: alerts show on the Fleet page only."));
    }
    connect(notify, &QCheckBox::toggled, this, [&settings, &notifier](bool on) {
        settings.setAlertNotifications(on);
        notifier.setEnabled(on);
    });
    alertsForm->addRow(QString(), notify);
    return alerts;
}

QGroupBox *SettingsPage::buildFleet(Settings &settings, fleet::FleetWatcher &fleet)
{
    // The fleet's pins: a host whose deployment runs others is flagged (Pins column, pins-drift).
    auto *fleetBox = new QGroupBox(tr("Fleet"), this);
    auto *fleetForm = new QFormLayout(fleetBox);
    auto *pinsRow = new QHBoxLayout;
    auto *pinsPath = new QLineEdit(settings.fleetPinsFile(), fleetBox);
    pinsPath->setObjectName(QStringLiteral("fleetPinsFile"));
    pinsPath->setPlaceholderText(tr("none: pins are shown, not compared"));
    pinsPath->setToolTip(tr("A pins file written by 'flashdeck pins lock HOST --output FILE': every host whose "
                            "deployment runs another image digest, model revision or profile is flagged."));
    auto *choosePins = new QPushButton(tr("Choose…"), fleetBox);
    pinsRow->addWidget(pinsPath, 1);
    pinsRow->addWidget(choosePins);
    auto *pinsState = new QLabel(fleetBox);
    pinsState->setObjectName(QStringLiteral("fleetPinsState"));
    pinsState->setWordWrap(true);
    const auto applyPins = [&settings, &fleet, pinsPath, pinsState] {
        metrics::AlertThresholds t = fleet.thresholds();
        t.usePinsFile(pinsPath->text().trimmed());
        settings.setFleetPinsFile(pinsPath->text().trimmed());
        fleet.setThresholds(t);
        pinsState->setText(!t.pinsError.isEmpty() ? t.pinsError
                               : t.pins ? tr("Hosts are compared with image %1, model revision %2, profile %3.")
                                              .arg(recipe::Pins::shortDigest(t.pins->imageDigest),
                                                   recipe::Pins::shortRevision(t.pins->modelRevision), t.pins->profile)
                                        : tr("No pins file: the Pins column shows what each host runs."));
    };
    connect(pinsPath, &QLineEdit::editingFinished, this, applyPins);
    connect(choosePins, &QPushButton::clicked, this, [this, pinsPath, applyPins] {
        const QString file = QFileDialog::getOpenFileName(this, tr("The fleet's pins file"), pinsPath->text(),
                                                          tr("Pins files (*.json);;All files (*)"));
        if (!file.isEmpty()) {
            pinsPath->setText(file);
            applyPins();
        }
    });
    applyPins();
    fleetForm->addRow(tr("Pins file:"), pinsRow);
    fleetForm->addRow(QString(), pinsState);
    return fleetBox;
}

QGroupBox *SettingsPage::buildCharts(const AppPaths &paths, Settings &settings, fleet::FleetWatcher &fleet)
{
    auto *charts = new QGroupBox(tr("Charts"), this);
    auto *chartsForm = new QFormLayout(charts);
    auto *keep = new QCheckBox(tr("Keep chart history on disk between runs"), charts);
    keep->setObjectName(QStringLiteral("keepMetricsHistory"));
    keep->setChecked(fleet.keepHistory());
    keep->setToolTip(tr("Each host's last 24 hours of GPU and server charts are written to %1 every ten minutes "
                        "and when Flashdeck closes (numbers only, up to about 15 MB per host). Turning this off "
                        "leaves the files there.")
                         .arg(QDir::toNativeSeparators(paths.dataDir() + QStringLiteral("/metrics"))));
    connect(keep, &QCheckBox::toggled, this, [&settings, &fleet](bool on) {
        settings.setKeepMetricsHistory(on);
        fleet.setKeepHistory(on);
    });
    chartsForm->addRow(QString(), keep);
    return charts;
}

QGroupBox *SettingsPage::buildPlayground(Settings &settings)
{
    auto *playground = new QGroupBox(tr("Playground"), this);
    auto *playgroundForm = new QFormLayout(playground);
    auto *imageHosts = new QLineEdit(settings.allowedImageHosts().join(QStringLiteral(", ")), playground);
    imageHosts->setObjectName(QStringLiteral("allowedImageHosts"));
    imageHosts->setPlaceholderText(tr("none: only attached files"));
    imageHosts->setToolTip(tr("Exact host names, or *.example.org for its subdomains, separated by commas. Flashdeck "
                              "fetches an image URL itself (https only, public addresses only, no redirects, size and "
                              "time capped) and sends the bytes; the GPU host never fetches a URL."));
    connect(imageHosts, &QLineEdit::editingFinished, this, [&settings, imageHosts] {
        QStringList hosts;
        for (const QString &h : imageHosts->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (!h.trimmed().isEmpty()) {
                hosts.append(h.trimmed());
            }
        }
        settings.setAllowedImageHosts(hosts);
    });
    playgroundForm->addRow(tr("Allowed image hosts:"), imageHosts);
    return playground;
}

QGroupBox *SettingsPage::buildLogs(Settings &settings)
{
    auto *logsBox = new QGroupBox(tr("Logs"), this);
    auto *logsForm = new QFormLayout(logsBox);
    auto *lines = new QSpinBox(logsBox);
    lines->setObjectName(QStringLiteral("logLines"));
    lines->setRange(1000, 5000000);
    lines->setSingleStep(50000);
    lines->setGroupSeparatorShown(true);
    lines->setValue(int(settings.logLines()));
    lines->setMaximumWidth(160);
    lines->setToolTip(tr("The Logs page keeps this many of the newest lines in memory (about 200 bytes each)."));
    connect(lines, &QSpinBox::valueChanged, this, [this, &settings](int v) {
        settings.setLogLines(v);
        Q_EMIT logLinesChanged(v);
    });
    logsForm->addRow(tr("Lines kept per host:"), lines);
    return logsBox;
}

QGroupBox *SettingsPage::buildFiles(const AppPaths &paths, const ssh::RuntimeInfo &info)
{
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
    return files;
}

QGroupBox *SettingsPage::buildAbout(const ssh::RuntimeInfo &info)
{
    auto *about = new QGroupBox(tr("About"), this);
    auto *aboutForm = new QFormLayout(about);
    aboutForm->addRow(tr("Flashdeck:"), selectable(info.version, about));
    aboutForm->addRow(tr("Qt:"), selectable(info.qtVersion, about));
    aboutForm->addRow(tr("libssh:"), selectable(info.libsshVersion, about));
    aboutForm->addRow(tr("Secrets:"),
                      selectable(tr("Flashdeck never writes API keys, passwords or passphrases to these files "
                                    "or to its logs; logged text passes through a redactor first."),
                                 about));
    return about;
}

} // namespace flashdeck::ui
