#pragma once

#include "backend/deploy/upgradesetup.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace flashdeck {
class AppPaths;
class FleetWatcher;
class LicenseTerms;
class Redactor;
class RollingUpgrade;
class SecretStore;
} // namespace flashdeck

namespace flashdeck::ui {

/**
 * The Fleet page's rolling upgrade: the selected hosts in turn (RollingUpgrade on the watcher's
 * connections), one row each — host, from, to, and the step it is at, then its result — and a
 * Stop button. Hidden until an upgrade starts.
 */
class UpgradePanel final : public QWidget
{
    Q_OBJECT

public:
    UpgradePanel(FleetWatcher &watcher, const AppPaths &paths, Redactor &redactor, QWidget *parent = nullptr);
    ~UpgradePanel() override;

    /** Prepares every host first (nothing starts when one cannot); false with `error` in words. */
    bool start(const QStringList &hosts, const UpgradeTarget &target, int maxUnavailable, QString *error);
    bool running() const;
    QTreeWidget *rows() const { return m_rows; }

Q_SIGNALS:
    void finished(bool allUpgraded);

private:
    void setNow(const QString &host, const QString &text);
    /** The watcher's secret store, or (tests without one) the panel's own. */
    /** A row per host of the rolling upgrade: its pins from and to, and where it is. */
    void showRows();
    /** Each host's progress in its row; the panel's end when the whole upgrade ends. */
    void connectRolling(RollingUpgrade *r);

    FleetWatcher &m_watcher;
    const AppPaths &m_paths;
    Redactor &m_redactor;
    std::unique_ptr<QList<Recipe>> m_recipes;
    std::unique_ptr<LicenseTerms> m_terms;
    std::unique_ptr<RollingUpgrade> m_rolling;
    QLabel *m_title;
    QTreeWidget *m_rows;
    QPushButton *m_stop;
};

} // namespace flashdeck::ui
