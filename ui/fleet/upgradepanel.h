#pragma once

#include "backend/deploy/upgradesetup.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace flashdeck {
class AppPaths;
namespace fleet {
class FleetWatcher;
class RollingUpgrade;
} // namespace fleet
namespace recipe {
class LicenseTerms;
} // namespace recipe
namespace security {
class Redactor;
class SecretStore;
} // namespace security
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
    UpgradePanel(fleet::FleetWatcher &watcher, const AppPaths &paths, security::Redactor &redactor,
                 QWidget *parent = nullptr);
    ~UpgradePanel() override;

    /** Prepares every host first (nothing starts when one cannot); false with `error` in words. */
    bool start(const QStringList &hosts, const deploy::UpgradeTarget &target, int maxUnavailable, QString *error);
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
    void connectRolling(fleet::RollingUpgrade *r);

    fleet::FleetWatcher &m_watcher;
    const AppPaths &m_paths;
    security::Redactor &m_redactor;
    std::unique_ptr<QList<recipe::Recipe>> m_recipes;
    std::unique_ptr<recipe::LicenseTerms> m_terms;
    std::unique_ptr<fleet::RollingUpgrade> m_rolling;
    QLabel *m_title;
    QTreeWidget *m_rows;
    QPushButton *m_stop;
};

} // namespace flashdeck::ui
