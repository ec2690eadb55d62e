#pragma once

#include <QMainWindow>

#include <functional>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QListWidget;
class QStackedWidget;

namespace flashdeck {
class AppPaths;
class Settings;
namespace fleet {
class FleetWatcher;
class Inventory;
} // namespace fleet
namespace security {
class Redactor;
} // namespace security
namespace ssh {
struct RuntimeInfo;
struct ConnectionState;
} // namespace ssh
} // namespace flashdeck

namespace flashdeck::ui {

class AlertNotifier;
class ConnectionController;
class DeployPage;
class HostBar;

/**
 * The frame every feature lives in: navigation on the left, a host selector on top, the
 * current page, and a status bar that says what the selected host is doing.
 */
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    enum class Page { Fleet, Deploy, Logs, Metrics, Playground, Settings };
    static constexpr int pageCount = 6;

    /** `fleet` watches the inventory's hosts for the Fleet page; null: the window makes its own. */
    /** `redactor`: the process's, which the log sinks use (deployments register their keys in it). */
    MainWindow(const AppPaths &paths, Settings &settings, fleet::Inventory &inventory, const ssh::RuntimeInfo &info,
               fleet::FleetWatcher *fleet = nullptr, security::Redactor *redactor = nullptr, QWidget *parent = nullptr);
    ~MainWindow() override;

    void showPage(Page page);
    /**
     * Opens the Add host dialog (also reachable from the host bar); `known`: a host Prometheus
     * knows, its name and address filled in.
     */
    void addHost(const QString &known = {});
    void connectSelectedHost();
    Page currentPage() const;
    static QString pageTitle(Page page);
    /** What "Try the demo host" does (main() starts the simulated hosts); unset: the button says how. */
    void setDemoHandler(std::function<void()> handler) { m_demoHandler = std::move(handler); }
    /** The inventory changed outside the window (the demo started): show it. */
    void inventoryChanged();
    fleet::FleetWatcher &fleet() const { return *m_fleet; }

    /** The page, built now if it was not yet (pages other than the first are built after the first paint). */
    QWidget *ensurePage(Page page);

protected:
    void closeEvent(QCloseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // The constructor's parts, called in this order: the order widgets are made in is their tab order.
    void styleWindow();
    /** The navigation, under the brand. */
    QWidget *buildSidebar(QWidget *central);
    void buildNavigation();
    /** The host bar, then the pages. */
    QWidget *buildMainArea(QWidget *central, const AppPaths &paths, const ssh::RuntimeInfo &info);
    QWidget *buildHostBar();
    void buildPages(const AppPaths &paths, const ssh::RuntimeInfo &info);
    /** The navigation list and the keys: Ctrl+1…6, Quit, Refresh. */
    void wireNavigation();
    /** The host a page starts from when it is built. */
    QString hostForNewPage() const;
    QWidget *buildFleetPage(const AppPaths &paths);
    /** The Settings page, in the scroll area that keeps it within a small screen. */
    QWidget *buildSettingsPage(const AppPaths &paths, const ssh::RuntimeInfo &info);
    /** After the first paint: the pages not built yet, one per turn of the event loop. */
    void buildRemainingPages();
    void updateStatus();
    void reloadHosts(const QString &select = {});
    /** Reloads the inventory when another process changes hosts.json. */
    void watchInventory();
    void showSelectedHostState();
    void onConnectionState(const QString &hostName, const ssh::ConnectionState &state);

    Settings &m_settings;
    fleet::Inventory &m_inventory;
    std::unique_ptr<fleet::FleetWatcher> m_ownFleet;
    fleet::FleetWatcher *m_fleet = nullptr;
    std::unique_ptr<security::Redactor> m_ownRedactor;
    security::Redactor *m_redactor = nullptr;
    DeployPage *m_deployPage = nullptr;
    std::function<void()> m_demoHandler;
    AlertNotifier *m_notifier = nullptr;
    /** Each page's builder until it is built (start-up builds the first page only). */
    std::vector<std::function<QWidget *()>> m_builders;
    bool m_firstPaintSeen = false;
    QString m_sshConfigPath;
    ConnectionController *m_controller = nullptr;
    QMetaObject::Connection m_stateWatch; // the chosen host's connection → the host bar
    HostBar *m_hostBar = nullptr;
    QListWidget *m_navigation = nullptr;
    QStackedWidget *m_pages = nullptr;
    QComboBox *m_hostSelector = nullptr; // the host bar's
    QLabel *m_statusText = nullptr;
};

} // namespace flashdeck::ui
