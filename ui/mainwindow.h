#pragma once

#include <QMainWindow>

class QComboBox;
class QLabel;
class QListWidget;
class QStackedWidget;
class QToolButton;

namespace flashdeck {
class AppPaths;
class Inventory;
class Settings;
struct RuntimeInfo;
namespace ssh {
struct ConnectionState;
}
} // namespace flashdeck

namespace flashdeck::ui {

class ConnectionController;

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

    MainWindow(const AppPaths &paths, Settings &settings, Inventory &inventory, const RuntimeInfo &info,
               QWidget *parent = nullptr);
    ~MainWindow() override;

    void showPage(Page page);
    /** Opens the Add host dialog (also reachable from the host bar). */
    void addHost();
    void connectSelectedHost();
    Page currentPage() const;
    static QString pageTitle(Page page);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    QWidget *buildHostBar();
    void buildNavigation();
    void buildPages(const AppPaths &paths, const RuntimeInfo &info);
    void updateStatus();
    void reloadHosts(const QString &select = {});
    void onConnectionState(const QString &hostName, const ssh::ConnectionState &state);

    Settings &m_settings;
    Inventory &m_inventory;
    QString m_sshConfigPath;
    ConnectionController *m_controller = nullptr;
    QToolButton *m_connectButton = nullptr;
    QListWidget *m_navigation = nullptr;
    QStackedWidget *m_pages = nullptr;
    QComboBox *m_hostSelector = nullptr;
    QLabel *m_hostState = nullptr;
    QLabel *m_statusText = nullptr;
};

} // namespace flashdeck::ui
