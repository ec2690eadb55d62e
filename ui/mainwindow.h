#pragma once

#include <QMainWindow>

class QComboBox;
class QLabel;
class QListWidget;
class QStackedWidget;

namespace flashdeck {
class AppPaths;
class Settings;
struct RuntimeInfo;
} // namespace flashdeck

namespace flashdeck::ui {

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

    MainWindow(const AppPaths &paths, Settings &settings, const RuntimeInfo &info, QWidget *parent = nullptr);
    ~MainWindow() override;

    void showPage(Page page);
    Page currentPage() const;
    static QString pageTitle(Page page);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    QWidget *buildHostBar();
    void buildNavigation();
    void buildPages(const AppPaths &paths, const RuntimeInfo &info);
    void updateStatus();

    Settings &m_settings;
    QListWidget *m_navigation = nullptr;
    QStackedWidget *m_pages = nullptr;
    QComboBox *m_hostSelector = nullptr;
    QLabel *m_hostState = nullptr;
    QLabel *m_statusText = nullptr;
};

} // namespace flashdeck::ui
