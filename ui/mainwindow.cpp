#include "ui/mainwindow.h"

#include "backend/applog/logging.h"
#include "backend/core/settings.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/hostsession.h"
#include "backend/fleet/inventory.h"
#include "backend/security/redactor.h"
#include "backend/ssh/runtimeinfo.h"
#include "backend/ssh/sshconfig.h"
#include "backend/ssh/sshtypes.h"
#include "ui/connectioncontroller.h"
#include "ui/fleet/alertnotifier.h"
#include "ui/hostbar.h"
#include "ui/inputpolicy.h"
#include "ui/pages/deploypage.h"
#include "ui/pages/fleetpage.h"
#include "ui/pages/logspage.h"
#include "ui/pages/metricspage.h"
#include "ui/pages/placeholderpage.h"
#include "ui/pages/playgroundpage.h"
#include "ui/pages/settingspage.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QCoreApplication>
#include <QEventLoop>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QShortcut>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <spdlog/logger.h>

namespace flashdeck::ui {

namespace {

QString iconPath(MainWindow::Page page)
{
    switch (page) {
    case MainWindow::Page::Fleet:
        return QStringLiteral(":/icons/fleet.svg");
    case MainWindow::Page::Deploy:
        return QStringLiteral(":/icons/deploy.svg");
    case MainWindow::Page::Logs:
        return QStringLiteral(":/icons/logs.svg");
    case MainWindow::Page::Metrics:
        return QStringLiteral(":/icons/metrics.svg");
    case MainWindow::Page::Playground:
        return QStringLiteral(":/icons/playground.svg");
    case MainWindow::Page::Settings:
        return QStringLiteral(":/icons/settings.svg");
    }
    return {};
}

} // namespace

MainWindow::MainWindow(const AppPaths &paths, Settings &settings, fleet::Inventory &inventory,
                       const ssh::RuntimeInfo &info, fleet::FleetWatcher *fleet, security::Redactor *redactor,
                       QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_inventory(inventory)
    , m_ownFleet(fleet ? nullptr
                       : std::make_unique<fleet::FleetWatcher>(paths, metrics::AlertThresholds::fromSettings(settings),
                                                               nullptr))
    , m_fleet(fleet ? fleet : m_ownFleet.get())
    , m_ownRedactor(redactor ? nullptr : std::make_unique<security::Redactor>())
    , m_redactor(redactor ? redactor : m_ownRedactor.get())
    , m_sshConfigPath(ssh::SshConfig::defaultPath())
    , m_controller(new ConnectionController(this))
{
    connect(m_controller, &ConnectionController::stateChanged, this, &MainWindow::onConnectionState);
    // Before any page exists: every widget is polished under the window's keyboard and wheel manners.
    qApp->installEventFilter(new InputPolicy(this));
    styleWindow();

    auto *central = new QWidget(this);
    auto *rootLayout = new QHBoxLayout(central);
    rootLayout->setContentsMargins(0, 0, 0, 0);
    rootLayout->setSpacing(0);
    rootLayout->addWidget(buildSidebar(central));
    auto *divider = new QFrame(central);
    divider->setFrameShape(QFrame::VLine);
    divider->setFrameShadow(QFrame::Sunken);
    rootLayout->addWidget(divider);
    rootLayout->addWidget(buildMainArea(central, paths, info), 1);
    setCentralWidget(central);

    m_statusText = new QLabel(statusBar());
    m_statusText->setObjectName(QStringLiteral("statusText"));
    m_statusText->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // never widens the window
    statusBar()->addWidget(m_statusText, 1);
    wireNavigation();

    if (!restoreGeometry(m_settings.windowGeometry())) {
        // The first start fills a laptop's screen (1366 × 768: the Fleet's columns fit), and no
        // more than 1440 × 900 of a larger one.
        const QRect room = screen() ? screen()->availableGeometry() : QRect(0, 0, 1366, 768);
        resize(std::min(room.width(), 1440), std::min(room.height(), 900));
    }
    const int last = m_settings.lastPage();
    showPage(static_cast<Page>(last >= 0 && last < pageCount ? last : 0));
    reloadHosts(m_settings.lastHost());
    updateStatus();
    watchInventory();
}

void MainWindow::styleWindow()
{
    setWindowTitle(QStringLiteral("Flashdeck"));
    // Scroll bars whose thumb is the dark part: under Fusion with the default palette the thumb is
    // the light part and the groove the dark one, so a bar at its start looked scrolled to the end
    // (issue 23: "horizontal scroll bars are drawn reversed").
    setStyleSheet(QStringLiteral(
        "QScrollBar:horizontal { height: 14px; background: palette(base); border-top: 1px solid palette(midlight); }"
        "QScrollBar:vertical { width: 14px; background: palette(base); border-left: 1px solid palette(midlight); }"
        "QScrollBar::handle { background: palette(mid); border-radius: 4px; }"
        "QScrollBar::handle:hover, QScrollBar::handle:pressed { background: palette(dark); }"
        "QScrollBar::handle:horizontal { min-width: 32px; margin: 3px 2px; }"
        "QScrollBar::handle:vertical { min-height: 32px; margin: 2px 3px; }"
        "QScrollBar::add-line, QScrollBar::sub-line { width: 0; height: 0; border: none; background: none; }"
        "QScrollBar::add-page, QScrollBar::sub-page { background: none; }"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/flashdeck.svg")));
    setObjectName(QStringLiteral("mainWindow"));
}

QWidget *MainWindow::buildSidebar(QWidget *central)
{
    buildNavigation();
    auto *sidebar = new QWidget(central);
    auto *sidebarLayout = new QVBoxLayout(sidebar);
    sidebarLayout->setContentsMargins(0, 0, 0, 0);
    sidebarLayout->setSpacing(0);
    auto *brand = new QLabel(sidebar);
    brand->setObjectName(QStringLiteral("brand"));
    brand->setText(QStringLiteral("<img src=\":/icons/flashdeck.svg\" width=\"22\" height=\"22\" "
                                  "style=\"vertical-align:middle\">&nbsp;&nbsp;<b>Flashdeck</b>"));
    brand->setContentsMargins(14, 12, 8, 12);
    sidebarLayout->addWidget(brand);
    sidebarLayout->addWidget(m_navigation, 1);
    sidebar->setFixedWidth(m_navigation->width());
    return sidebar;
}

QWidget *MainWindow::buildMainArea(QWidget *central, const AppPaths &paths, const ssh::RuntimeInfo &info)
{
    auto *right = new QWidget(central);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->setSpacing(0);
    rightLayout->addWidget(buildHostBar());
    auto *line = new QFrame(right);
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Sunken);
    rightLayout->addWidget(line);

    m_pages = new QStackedWidget(right);
    m_pages->setObjectName(QStringLiteral("pages"));
    buildPages(paths, info);
    rightLayout->addWidget(m_pages, 1);
    return right;
}

void MainWindow::wireNavigation()
{
    connect(m_navigation, &QListWidget::currentRowChanged, this, [this](int row) {
        ensurePage(static_cast<Page>(row));
        m_pages->setCurrentIndex(row);
    });
    connect(m_navigation, &QListWidget::currentRowChanged, this, [this](int row) {
        if (const QListWidgetItem *item = m_navigation->item(row)) {
            applog::ui().debug("page {}", item->text().toStdString());
        }
    });
    for (int i = 0; i < pageCount; ++i) {
        auto *shortcut = new QShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)), this);
        connect(shortcut, &QShortcut::activated, this, [this, i] { showPage(static_cast<Page>(i)); });
    }
    // The standard keys: Quit (Ctrl+Q; closing mid-run still asks), Refresh (F5: connect the
    // host now if it is down, as the Connect button does; a live connection is kept).
    auto *quit = new QShortcut(this);
    // The platform's Quit keys; a platform that names none (offscreen, some desktops) gets Ctrl+Q.
    const QList<QKeySequence> quitKeys = QKeySequence::keyBindings(QKeySequence::Quit);
    quit->setKeys(quitKeys.isEmpty() ? QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::Key_Q)} : quitKeys);
    connect(quit, &QShortcut::activated, this, &QWidget::close);
    auto *refresh = new QShortcut(QKeySequence::Refresh, this);
    connect(refresh, &QShortcut::activated, this, [this] {
        const QString chosen = m_hostSelector->currentData().toString();
        // As Connect does: the host's prompts need the window's dialogs listening.
        if (fleet::HostSession *session = chosen.isEmpty() ? nullptr : m_fleet->session(chosen)) {
            m_controller->connectTo(*session);
        }
    });
}

MainWindow::~MainWindow() = default;

QString MainWindow::pageTitle(Page page)
{
    switch (page) {
    case Page::Fleet:
        return tr("Fleet");
    case Page::Deploy:
        return tr("Deploy");
    case Page::Logs:
        return tr("Logs");
    case Page::Metrics:
        return tr("Metrics");
    case Page::Playground:
        return tr("Playground");
    case Page::Settings:
        return tr("Settings");
    }
    return {};
}

void MainWindow::buildNavigation()
{
    m_navigation = new QListWidget(this);
    m_navigation->setObjectName(QStringLiteral("navigation"));
    m_navigation->setAccessibleName(tr("Pages"));
    m_navigation->setFrameShape(QFrame::NoFrame);
    m_navigation->setIconSize(QSize(20, 20));
    m_navigation->setSpacing(2);
    m_navigation->setFixedWidth(176);
    m_navigation->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // The window background rather than the base colour sets the sidebar apart in light and
    // dark palettes alike, without custom colours.
    m_navigation->setBackgroundRole(QPalette::Window);
    m_navigation->viewport()->setBackgroundRole(QPalette::Window);
    QFont navFont = m_navigation->font();
    navFont.setPointSizeF(navFont.pointSizeF() * 1.08);
    m_navigation->setFont(navFont);
    for (int i = 0; i < pageCount; ++i) {
        const auto page = static_cast<Page>(i);
        auto *item = new QListWidgetItem(QIcon(iconPath(page)), pageTitle(page), m_navigation);
        item->setSizeHint(QSize(160, 36));
        item->setToolTip(tr("%1 (Ctrl+%2)").arg(pageTitle(page)).arg(i + 1));
    }
}

QWidget *MainWindow::buildHostBar()
{
    m_hostBar = new HostBar(this);
    m_hostSelector = m_hostBar->selector();
    connect(m_hostBar, &HostBar::connectRequested, this, &MainWindow::connectSelectedHost);
    connect(m_hostBar, &HostBar::addHostRequested, this, [this] { addHost(); });
    connect(m_hostBar, &HostBar::settingsRequested, this, [this] { showPage(Page::Settings); });
    connect(m_hostSelector, &QComboBox::currentIndexChanged, this, [this] {
        m_settings.setLastHost(m_hostSelector->currentData().toString());
        showSelectedHostState();
        updateStatus();
    });
    return m_hostBar;
}

void MainWindow::buildPages(const AppPaths &paths, const ssh::RuntimeInfo &info)
{
    m_notifier = new AlertNotifier(*m_fleet, this);
    m_notifier->setEnabled(m_settings.alertNotifications());
    connect(m_notifier, &AlertNotifier::notified, this, [this](const QString &title, const QString &message) {
        statusBar()->showMessage(QStringLiteral("%1 — %2").arg(title, message), 15000);
    });
    // A page is built when it is first shown, or after the window's first paint: start-up builds
    // only the page it opens on (issue 27: the Metrics page's charts and the Deploy page's
    // recipes, licence and log rules took half the time to the first paint).
    m_builders.resize(pageCount);
    // `paths` outlives the window (the pages keep a reference to it, as before); `info` is copied,
    // since the caller may pass a temporary.
    const AppPaths *at = &paths;
    m_builders[int(Page::Fleet)] = [this, at] { return buildFleetPage(*at); };
    m_builders[int(Page::Deploy)] = [this, at] {
        m_deployPage = new DeployPage(*at, *m_fleet, *m_redactor, m_pages);
        m_deployPage->setHost(hostForNewPage());
        connect(m_deployPage, &DeployPage::addHostRequested, this, [this] { addHost(); });
        // One host selector: a host picked on the Deploy page is the window's (every page follows).
        connect(m_deployPage, &DeployPage::hostChosen, this, [this](const QString &chosen) {
            if (const int i = m_hostSelector->findData(chosen); i >= 0) {
                m_hostSelector->setCurrentIndex(i);
            }
        });
        connect(m_hostSelector, &QComboBox::currentIndexChanged, m_deployPage,
                [this] { m_deployPage->setHost(m_hostSelector->currentData().toString()); });
        return m_deployPage;
    };
    m_builders[int(Page::Logs)] = [this] {
        auto *logsPage = new LogsPage(*m_fleet, m_pages);
        logsPage->setCapacity(m_settings.logLines());
        logsPage->setHost(hostForNewPage());
        connect(m_hostSelector, &QComboBox::currentIndexChanged, logsPage,
                [this, logsPage] { logsPage->setHost(m_hostSelector->currentData().toString()); });
        return logsPage;
    };
    m_builders[int(Page::Metrics)] = [this] {
        auto *metricsPage = new MetricsPage(*m_fleet, m_pages);
        metricsPage->setHost(hostForNewPage());
        connect(m_hostSelector, &QComboBox::currentIndexChanged, metricsPage,
                [this, metricsPage] { metricsPage->setHost(m_hostSelector->currentData().toString()); });
        return metricsPage;
    };
    m_builders[int(Page::Playground)] = [this, at] {
        auto *playground = new PlaygroundPage(*at, *m_fleet, m_settings, m_pages);
        playground->setHost(hostForNewPage());
        connect(m_hostSelector, &QComboBox::currentIndexChanged, playground,
                [this, playground] { playground->setHost(m_hostSelector->currentData().toString()); });
        return playground;
    };
    m_builders[int(Page::Settings)] = [this, at, info] { return buildSettingsPage(*at, info); };
    for (int i = 0; i < pageCount; ++i) {
        auto *placeholder = new QWidget(m_pages);
        placeholder->setObjectName(QStringLiteral("pageNotBuiltYet"));
        m_pages->addWidget(placeholder);
    }
    // The first paint of this window starts the rest (eventFilter).
    QCoreApplication::instance()->installEventFilter(this);
}

QString MainWindow::hostForNewPage() const
{
    // Every page follows the host bar from the moment it exists; one built later starts from the
    // host chosen then.
    return m_hostSelector->count() > 0 ? m_hostSelector->currentData().toString() : m_settings.lastHost();
}

QWidget *MainWindow::buildFleetPage(const AppPaths &paths)
{
    auto *fleet = new FleetPage(*m_fleet, m_pages);
    fleet->setHiddenColumns(m_settings.fleetHiddenColumns());
    fleet->enableUpgrades(paths, *m_redactor);
    connect(fleet, &FleetPage::hiddenColumnsChanged, this,
            [this](const QStringList &keys) { m_settings.setFleetHiddenColumns(keys); });
    connect(fleet, &FleetPage::addHostRequested, this, [this] { addHost(); });
    connect(fleet, &FleetPage::addKnownHostRequested, this, [this](const QString &known) { addHost(known); });
    connect(fleet, &FleetPage::demoRequested, this, [this] {
        if (m_demoHandler) {
            m_demoHandler();
        } else {
            QMessageBox::information(this, tr("Demo host"),
                                     tr("Start Flashdeck with --demo (or run 'flashdeck demo start') to add the "
                                        "simulated hosts."));
        }
    });
    connect(fleet, &FleetPage::openHost, this, [this](const QString &chosen) {
        const int i = m_hostSelector->findData(chosen);
        if (i >= 0) {
            m_hostSelector->setCurrentIndex(i);
        }
        showPage(Page::Metrics);
        // A host only Prometheus knows is not in the host bar: the page is told it directly
        // (it showed the bar's host, another one, before).
        if (auto *metrics = qobject_cast<MetricsPage *>(ensurePage(Page::Metrics))) {
            metrics->setHost(chosen);
        }
    });
    return fleet;
}

QWidget *MainWindow::buildSettingsPage(const AppPaths &paths, const ssh::RuntimeInfo &info)
{
    auto *settingsPage = new SettingsPage(paths, info, m_settings, *m_fleet, *m_notifier, m_pages);
    connect(settingsPage, &SettingsPage::logLinesChanged, this, [this](qsizetype lines) {
        if (!m_builders[int(Page::Logs)]) { // built: a later one reads the setting itself
            qobject_cast<LogsPage *>(m_pages->widget(int(Page::Logs)))->setCapacity(lines);
        }
    });
    // Settings is taller than a 1366 × 768 screen leaves a window: it scrolls, and the window
    // keeps to the screen (a page's minimum height is the window's).
    auto *settingsScroll = new QScrollArea(m_pages);
    settingsScroll->setObjectName(QStringLiteral("settingsScroll"));
    settingsScroll->setAccessibleName(tr("Settings"));
    settingsScroll->setWidget(settingsPage);
    settingsScroll->setWidgetResizable(true);
    settingsScroll->setFrameShape(QFrame::NoFrame);
    return settingsScroll;
}

QWidget *MainWindow::ensurePage(Page page)
{
    const int i = int(page);
    if (i < 0 || i >= pageCount) {
        return nullptr;
    }
    if (!m_builders[i]) {
        return m_pages->widget(i);
    }
    const std::function<QWidget *()> build = std::exchange(m_builders[i], {});
    QWidget *built = build();
    QWidget *placeholder = m_pages->widget(i);
    const bool current = m_pages->currentIndex() == i;
    m_pages->insertWidget(i, built);
    m_pages->removeWidget(placeholder);
    placeholder->deleteLater();
    if (current) {
        m_pages->setCurrentIndex(i);
    }
    return built;
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (!m_firstPaintSeen && event->type() == QEvent::Paint && watched->isWidgetType() &&
        static_cast<QWidget *>(watched)->window() == this) {
        m_firstPaintSeen = true;
        QCoreApplication::instance()->removeEventFilter(this);
        QTimer::singleShot(0, this, &MainWindow::buildRemainingPages);
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::buildRemainingPages()
{
    for (int i = 0; i < pageCount; ++i) {
        if (m_builders[i]) {
            ensurePage(static_cast<Page>(i));
            QTimer::singleShot(0, this, &MainWindow::buildRemainingPages); // one page per turn
            return;
        }
    }
}

void MainWindow::showPage(Page page)
{
    ensurePage(page);
    m_navigation->setCurrentRow(static_cast<int>(page));
}

MainWindow::Page MainWindow::currentPage() const
{
    return static_cast<Page>(m_pages->currentIndex());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_deployPage && m_deployPage->exposeRunning()) {
        // A gateway half placed would stay on the host without a record: its undo runs first.
        m_deployPage->cancelExposes(30000);
    }
    if (m_deployPage && m_deployPage->isRunning()) {
        // Issue 6: closing mid-run asks whether to stop, or to leave the deployment on the host.
        QMessageBox ask(QMessageBox::Question, tr("A deployment is running"),
                        tr("Flashdeck is deploying to %1.").arg(m_deployPage->host()), QMessageBox::NoButton, this);
        ask.setInformativeText(
            tr("Stop it cleanly (what runs is cancelled and what is left on the host is recorded), or close and "
               "leave the host as it is: a running server keeps running; an image pull in progress stops with the "
               "connection and Resume continues it from the layers already there."));
        QPushButton *stop = ask.addButton(tr("Stop the deployment"), QMessageBox::DestructiveRole);
        QPushButton *leave = ask.addButton(tr("Leave it on the host"), QMessageBox::AcceptRole);
        ask.addButton(QMessageBox::Cancel);
        ask.exec();
        if (ask.clickedButton() == stop) {
            m_deployPage->stop();
            QEventLoop wait;
            connect(m_deployPage, &DeployPage::runningChanged, &wait, &QEventLoop::quit);
            QTimer::singleShot(30000, &wait, &QEventLoop::quit); // never hang the close on a dead host
            if (m_deployPage->isRunning()) {
                wait.exec();
            }
        } else if (ask.clickedButton() != leave) {
            event->ignore();
            return;
        }
    }
    m_settings.setWindowGeometry(saveGeometry());
    m_settings.setLastPage(static_cast<int>(currentPage()));
    QString error;
    if (!m_settings.sync(&error)) {
        statusBar()->showMessage(error);
    }
    event->accept();
}

} // namespace flashdeck::ui
