#include "backend/core/apppaths.h"
#include "backend/core/heldlock.h"
#include "backend/core/language.h"
#include "backend/core/settings.h"
#include "backend/deploy/acknowledgements.h"
#include "backend/deploy/deployplan.h"
#include "backend/deploy/deployrunner.h"
#include "backend/deploy/deploysession.h"
#include "backend/deploy/journal.h"
#include "backend/docker/dockerendpoint.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/hostsession.h"
#include "backend/fleet/inventory.h"
#include "backend/metrics/hostmonitor.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/licenseterms.h"
#include "backend/recipe/pins.h"
#include "backend/security/redactor.h"
#include "backend/ssh/hostconnection.h"
#include "backend/ssh/runtimeinfo.h"
#include "tests/simhost/simhostfixture.h"
#include "tests/support/buildpaths.h"
#include "tests/support/unansweredhost.h"
#include "ui/deploy/launchcommandbox.h"
#include "ui/deploy/licensepanel.h"
#include "ui/deploy/stepdetail.h"
#include "ui/deploy/upgradedialog.h"
#include "ui/dialogs/hostkeydialog.h"
#include "ui/fleet/fleetmodel.h"
#include "ui/fleet/upgradepanel.h"
#include "ui/logs/logpanel.h"
#include "ui/mainwindow.h"
#include "ui/pages/deploypage.h"
#include "ui/pages/fleetpage.h"
#include "ui/pages/metricspage.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

using namespace flashdeck;
using namespace flashdeck::test;

namespace {

QString shotPath(const QString &fallbackDir, const QString &name)
{
    const QString dir = qEnvironmentVariable("FLASHDECK_SCREENSHOT_DIR", fallbackDir);
    QDir().mkpath(dir);
    return QDir(dir).filePath(name);
}

/**
 * Run on the Deploy page, and acknowledge the licence for `use` when it asks, as an operator would.
 * Returns what went wrong, with the page's notice (empty when the run started).
 */
QString runAcknowledging(ui::DeployPage *page, const QString &use)
{
    const auto notice = [page] { return page->findChild<QLabel *>(QStringLiteral("deployNotice"))->text(); };
    QTest::mouseClick(page->findChild<QPushButton *>(QStringLiteral("deployRun")), Qt::LeftButton);
    if (!page->licensePanel()->isVisible()) {
        return QStringLiteral("no licence asked for: ") + notice();
    }
    page->licensePanel()->choose(use);
    page->licensePanel()->confirmAll(true);
    QTest::mouseClick(page->licensePanel()->findChild<QPushButton *>(QStringLiteral("acknowledgeLicense")),
                      Qt::LeftButton);
    return page->isRunning() ? QString() : QStringLiteral("not running: ") + notice();
}

/** The window at 1366 × 740, shown, on its Deploy page; null when it never appeared. */
ui::DeployPage *showDeployPage(ui::MainWindow &window)
{
    window.resize(1366, 740);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) {
        return nullptr;
    }
    window.showPage(ui::MainWindow::Page::Deploy);
    return window.findChild<ui::DeployPage *>();
}

/** A configuration of its own, its inventory, and a window over it opened on the Deploy page. */
struct WindowFixture
{
    QTemporaryDir root;
    AppPaths paths{root.filePath(QStringLiteral("cfg"))};
    bool made = paths.ensureExists();
    fleet::Inventory inventory{paths.inventoryFile()};
    Settings settings{paths};
    security::Redactor redactor;
    std::unique_ptr<ui::MainWindow> window;

    /** A new window (the old one closed first), at 1366 × 740 on its Deploy page; null if never shown. */
    ui::DeployPage *open()
    {
        window.reset();
        window = std::make_unique<ui::MainWindow>(paths, settings, inventory, ssh::RuntimeInfo::current(), nullptr,
                                                  &redactor);
        return showDeployPage(*window);
    }
};

/**
 * A window deploying "gpu-b300" (a simulated 4 × B300 whose pull takes minutes), the licence
 * acknowledged, waited on until the pull runs: the page, or null with `error` set.
 */
ui::DeployPage *deployUntilPull(WindowFixture &f, SimHostFixture &sim, QString *error)
{
    if (!sim.start(QStringLiteral("b300x4"), error, 1.0)) {
        return nullptr;
    }
    if (!f.inventory.add(sim.hostEntry(QStringLiteral("gpu-b300"))).isOk()) {
        *error = QStringLiteral("the host could not be added");
        return nullptr;
    }
    ui::DeployPage *page = f.open();
    fleet::HostSession *session = page ? f.window->fleet().session(QStringLiteral("gpu-b300")) : nullptr;
    if (!session ||
        !QTest::qWaitFor([session] { return session->state().phase == ssh::ConnectionPhase::Ready; }, 60000)) {
        *error = QStringLiteral("gpu-b300 was never connected");
        return nullptr;
    }
    if (session->operationRunning()) {
        *error = QStringLiteral("an operation ran before Run");
        return nullptr;
    }
    QSignalSpy operations(session, &fleet::HostSession::operationChanged);
    page->setProfile(QStringLiteral("b300x4-balanced"));
    page->run();
    page->licensePanel()->choose(QStringLiteral("noncommercial"));
    page->licensePanel()->confirmAll(true);
    if (!page->licensePanel()->acknowledge() ||
        !QTest::qWaitFor([page] { return page->stepStatus(QStringLiteral("pull")) == recipe::StepStatus::Running; },
                         60000)) {
        *error =
            QStringLiteral("the pull never ran: ") + page->findChild<QLabel *>(QStringLiteral("deployNotice"))->text();
        return nullptr;
    }
    if (operations.size() != 1) { // the session holds the one run the page started
        *error = QStringLiteral("the session's operation changed %1 times").arg(operations.size());
        return nullptr;
    }
    return page;
}

/** A window of its own deploying "gpu-b300", stopped in its pull (deployUntilPull): null page on failure. */
struct PullingRun
{
    WindowFixture f;
    SimHostFixture sim;
    QString error;
    ui::DeployPage *page = deployUntilPull(f, sim, &error);
    ui::MainWindow &window() { return *f.window; }
};

/** One step's record appended to `host`'s journal, as a run (or the command line) writes it. */
recipe::StepRecord journalStep(const AppPaths &paths, const QString &host, const char *step, recipe::StepStatus status,
                               const char *title)
{
    security::Redactor redactor;
    deploy::Journal journal(recipe::Deployment::directory(paths, host) + QStringLiteral("/journal.jsonl"), redactor);
    recipe::StepRecord r;
    r.step = QString::fromLatin1(step);
    r.status = status;
    r.title = QString::fromLatin1(title);
    r.at = QDateTime::currentDateTimeUtc();
    if (!journal.append(r).isOk()) {
        qWarning("could not write the journal of %s", qPrintable(host));
    }
    return r;
}
} // namespace

/**
 * The Deploy page driven as an operator would, against the simulated host over real SSH:
 * pick the host and profile, meet the licence page, acknowledge it, and run to the end on
 * 4 × B300; the same on a host whose runtime falls back from qmul4 (the amber badge and a
 * warning step); and a host with too little disk, which stops at pre-flight with the fix shown.
 */
class TestDeployPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        // English as the app speaks it ("1 host", not "1 host(s)": its plural forms).
        QVERIFY(m_english.install(UiLanguage::English));
    }
    void scenario_data();
    void scenario();
    void mainWindow_newHost_acceptKey_acknowledge_deploy();
    void closingMidRun_asks_stopCleansUp();
    void pageMadeAgain_showsTheSessionsRun_andStopsIt();
    void hostRemovedMidRun_theRunGoesOnToItsEnd();
    void licence_anotherHostStartsUnticked_andTheSummaryWraps();
    void profileCard_hubParameterCount_andEachGpuModelsMemory_data();
    void profileCard_hubParameterCount_andEachGpuModelsMemory();
    void walk_demoDeploy_pagesFollow_amdMismatch();
    void generatorBox_amd_pasteReadDeploy_h200NeedsIt();
    void upgrade_rollsBackABrokenBuild_fleetUpgradesInTurn_andShowsDrift();
    void recordsChangedOutside_pageFollows_commandStaysWithItsHost();
    void keyboardAlone_runThenTheLicence();
    void journal_titlesAreThePlansAndTranslatedWhenShown();

private:
    Language m_english;
};

void TestDeployPage::scenario_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<double>("timeFactor");
    QTest::addColumn<QString>("lastStep");
    QTest::addColumn<int>("lastStatus");
    QTest::addColumn<QString>("qmul4Badge");

    // A pull and a weights download of a few seconds (a slow link to a 4 × B300 host), so the
    // pictures mid-pull and mid-download show moving bars; the rest at the tests' pace (the whole
    // host slowed down to 0.2 took 26 s).
    QTest::newRow("b300x4") << "slow-link" << 0.01 << "verify.image" << int(recipe::StepStatus::Pass)
                            << "qmul4: fast path";
    QTest::newRow("qmul4-fallback") << "qmul4-fallback" << 0.01 << "verify.image" << int(recipe::StepStatus::Pass)
                                    << "qmul4: SLOW fallback — CUDA Toolkit < 13.4";
    QTest::newRow("low-disk") << "low-disk" << 0.01 << "preflight.disk" << int(recipe::StepStatus::Fail) << "";
}

void TestDeployPage::scenario()
{
    QFETCH(QString, scenario);
    QFETCH(double, timeFactor);
    QFETCH(QString, lastStep);
    QFETCH(int, lastStatus);
    QFETCH(QString, qmul4Badge);
    const bool shots = scenario == QLatin1String("slow-link");

    SimHostFixture sim;
    QString error;
    QVERIFY2(sim.start(scenario, &error, timeFactor), qPrintable(error));
    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    security::Redactor redactor;
    fleet::FleetWatcher watcher(paths, metrics::AlertThresholds(), nullptr);
    watcher.setHosts({sim.hostEntry(QStringLiteral("gpu-b300"))});
    ui::DeployPage page(paths, watcher, redactor);
    page.resize(1600, 940);
    page.show();
    page.setHost(QStringLiteral("gpu-b300"));
    page.setProfile(QStringLiteral("b300x4-balanced"));
    QVERIFY(page.findChild<QLabel *>(QStringLiteral("profileCard"))->text().contains(QLatin1String("Experimental")));
    // Every step of the plan has a name a person reads, not its id ("preflight.gpumemory").
    const auto *tree = page.findChild<QTreeWidget *>(QStringLiteral("deploySteps"));
    QVERIFY(tree);
    int stepRows = 0;
    for (int g = 0; g < tree->topLevelItemCount(); ++g) {
        for (int i = 0; i < tree->topLevelItem(g)->childCount(); ++i) {
            const QString title = tree->topLevelItem(g)->child(i)->text(0);
            QVERIFY2(!deploy::DeployPlan::ids().contains(title), qPrintable(title));
            ++stepRows;
        }
    }
    QCOMPARE(stepRows, deploy::DeployPlan::ids().size());
    QTRY_VERIFY_WITH_TIMEOUT(watcher.session(QStringLiteral("gpu-b300"))->state().phase == ssh::ConnectionPhase::Ready,
                             30000);

    // Nothing deployed yet: the log's badges say there is no log, not that a server starts.
    QCOMPARE(page.logPanel()->findChild<QLabel *>(QStringLiteral("readyBadge"))->text(),
             QStringLiteral("Server: no log"));
    QCOMPARE(page.logPanel()->findChild<QLabel *>(QStringLiteral("qmul4Badge"))->text(),
             QStringLiteral("qmul4: no server start-up in the log"));
    // Run meets the licence first: nothing is pinned or pulled until it is acknowledged.
    page.findChild<QPushButton *>(QStringLiteral("deployRun"))->click();
    QVERIFY(page.licensePanel()->isVisible());
    QCOMPARE(page.steps()->currentItem()->toolTip(0), QStringLiteral("license"));
    auto *acknowledge = page.licensePanel()->findChild<QPushButton *>(QStringLiteral("acknowledgeLicense"));
    QVERIFY(!acknowledge->isEnabled());
    page.licensePanel()->choose(QStringLiteral("noncommercial"));
    QVERIFY(!acknowledge->isEnabled()); // both confirmations are required
    page.licensePanel()->confirmAll(true);
    QVERIFY(acknowledge->isEnabled());
    if (shots) {
        QVERIFY(page.grab().save(shotPath(root.path(), QStringLiteral("deploy-licence.png"))));
    }
    if (shots) {
        // A deploy of this host from a terminal holds its lock: this run is refused, saying so.
        HeldLock terminal(
            deploy::DeploySession::lockOf(recipe::Deployment::directory(paths, QStringLiteral("gpu-b300"))));
        QVERIFY(terminal.acquire());
        acknowledge->click();
        QVERIFY(!page.isRunning());
        const QString notice = page.findChild<QLabel *>(QStringLiteral("deployNotice"))->text();
        QVERIFY2(notice.contains(QLatin1String("runs already")), qPrintable(notice));
        terminal.release();
        page.findChild<QPushButton *>(QStringLiteral("deployRun"))->click();
        // While it runs the fleet reads a deployment under way, not an outage.
        QTRY_VERIFY_WITH_TIMEOUT(watcher.status(QStringLiteral("gpu-b300")).deployRunning, 30000);
    } else {
        acknowledge->click();
    }
    QVERIFY(page.isRunning());

    if (shots) {
        // Mid-pull: the bar moves with bytes, rate and time left.
        QTRY_VERIFY_WITH_TIMEOUT(page.stepStatus(QStringLiteral("pull")) != recipe::StepStatus::Pending, 60000);
        page.selectStep(QStringLiteral("pull"));
        auto *bar = page.detail()->findChild<QProgressBar *>(QStringLiteral("stepProgressBar"));
        QTRY_VERIFY_WITH_TIMEOUT((bar->isVisible() && bar->value() > 50 &&
                                  page.detail()
                                      ->findChild<QLabel *>(QStringLiteral("stepProgress"))
                                      ->text()
                                      .contains(QLatin1String("left"))) ||
                                     page.stepStatus(QStringLiteral("pull")) != recipe::StepStatus::Running,
                                 60000);
        QVERIFY2(page.stepStatus(QStringLiteral("pull")) == recipe::StepStatus::Running,
                 "the pull finished before its progress showed");
        auto *layers = page.detail()->findChild<QPushButton *>(QStringLiteral("layersToggle"));
        QVERIFY(layers->isVisible() && layers->text().contains(QLatin1String("layers (")));
        layers->click(); // per-layer detail on demand
        QVERIFY(page.detail()->findChild<QLabel *>(QStringLiteral("layers"))->text().contains(QLatin1String(" / ")) ||
                page.detail()->findChild<QLabel *>(QStringLiteral("layers"))->text().contains(QLatin1String("done")));
        QVERIFY(page.grab().save(shotPath(root.path(), QStringLiteral("deploy-pull.png"))));

        // The first start: the weights arriving in the host's cache, with rate and time left.
        QTRY_VERIFY_WITH_TIMEOUT(page.stepStatus(QStringLiteral("ready")) != recipe::StepStatus::Pending, 120000);
        page.selectStep(QStringLiteral("ready"));
        const auto *progress = page.detail()->findChild<QLabel *>(QStringLiteral("stepProgress"));
        QTRY_VERIFY_WITH_TIMEOUT((progress->text().contains(QLatin1String("Downloading the weights: ")) &&
                                  progress->text().contains(QLatin1String(" left"))) ||
                                     page.stepStatus(QStringLiteral("ready")) != recipe::StepStatus::Running,
                                 60000);
        QVERIFY2(page.stepStatus(QStringLiteral("ready")) == recipe::StepStatus::Running,
                 "the server was ready before its download showed");
        QVERIFY(bar->isVisible() && bar->format().contains(QLatin1String("252")));
        QVERIFY(page.grab().save(shotPath(root.path(), QStringLiteral("deploy-ready.png"))));
    }

    QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 240000);
    QCOMPARE(int(page.stepStatus(lastStep)), lastStatus);
    QVERIFY(!HeldLock::isHeld(
        deploy::DeploySession::lockOf(recipe::Deployment::directory(paths, QStringLiteral("gpu-b300")))));
    QFile acks(paths.acknowledgementsFile());
    QVERIFY(acks.open(QIODevice::ReadOnly));
    const QByteArray ackText = acks.readAll();
    QVERIFY(ackText.contains("\"via\": \"gui\"") && ackText.contains("\"host\": \"gpu-b300\""));

    if (lastStatus == int(recipe::StepStatus::Fail)) {
        // Stopped at pre-flight: the red pane says what to do, and nothing later ran.
        page.selectStep(lastStep);
        const auto *fix = page.detail()->findChild<QLabel *>(QStringLiteral("stepFix"));
        QVERIFY(fix->isVisible());
        QVERIFY(!fix->text().isEmpty());
        QCOMPARE(page.stepStatus(QStringLiteral("pull")), recipe::StepStatus::Pending);
        QVERIFY(page.findChild<QPushButton *>(QStringLiteral("deployRetry"))->isEnabled());
        return;
    }
    QTRY_COMPARE_WITH_TIMEOUT(page.logPanel()->findChild<QLabel *>(QStringLiteral("qmul4Badge"))->text(), qmul4Badge,
                              30000);
    QCOMPARE(page.stepStatus(QStringLiteral("check.qmul4")),
             scenario == QLatin1String("qmul4-fallback") ? recipe::StepStatus::Warn : recipe::StepStatus::Pass);
    QVERIFY(page.findChild<QPushButton *>(QStringLiteral("deployExport"))->isEnabled());
    QString exportError;
    QVERIFY2(page.exportRunbook(root.filePath(QStringLiteral("runbook.sh")), &exportError), qPrintable(exportError));
    if (shots) {
        page.selectStep(QStringLiteral("check.qmul4"));
        QVERIFY(page.grab().save(shotPath(root.path(), QStringLiteral("deploy-finished.png"))));
    }

    if (shots) {
        // Running again starts the badges and the steps over (they were the old container's).
        QTRY_COMPARE_WITH_TIMEOUT(page.logPanel()->findChild<QLabel *>(QStringLiteral("readyBadge"))->text(),
                                  QStringLiteral("Server: ready"), 30000);
        page.findChild<QPushButton *>(QStringLiteral("deployRun"))->click();
        QVERIFY(page.isRunning());
        QCOMPARE(page.logPanel()->findChild<QLabel *>(QStringLiteral("readyBadge"))->text(),
                 QStringLiteral("Server: starting"));
        QCOMPARE(page.logPanel()->findChild<QLabel *>(QStringLiteral("qmul4Badge"))->text(),
                 QStringLiteral("qmul4: waiting for the start-up check"));
        QCOMPARE(page.stepStatus(QStringLiteral("check.qmul4")), recipe::StepStatus::Pending);
        QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 240000); // the rerun reuses the running server
        QCOMPARE(page.stepStatus(QStringLiteral("verify.image")), recipe::StepStatus::Pass);
    }

    // Reopening (a new page on the same data) shows the run again from its journal.
    ui::DeployPage reopened(paths, watcher, redactor);
    reopened.setHost(QStringLiteral("gpu-b300"));
    QCOMPARE(int(reopened.stepStatus(lastStep)), lastStatus);
    QCOMPARE(reopened.stepStatus(QStringLiteral("pull")), recipe::StepStatus::Pass);
}

void TestDeployPage::mainWindow_newHost_acceptKey_acknowledge_deploy()
{
    // The operator's first hour in one go: a host whose key nobody trusted yet, the key
    // accepted from the host bar, then Deploy → profile → Run → licence → to the end.
    SimHostFixture sim;
    QString error;
    QVERIFY2(sim.start(QStringLiteral("b300x4"), &error), qPrintable(error));
    QTemporaryDir root;
    const AppPaths paths(root.filePath(QStringLiteral("cfg")));
    QVERIFY(paths.ensureExists());
    fleet::Inventory inventory(paths.inventoryFile());
    fleet::HostEntry host = sim.hostEntry(QStringLiteral("gpu-b300"));
    host.knownHostsFile = root.filePath(QStringLiteral("known_hosts")); // empty: the key is unknown
    QVERIFY(inventory.add(host).isOk());
    Settings settings(paths);
    security::Redactor redactor;
    ui::MainWindow window(paths, settings, inventory, ssh::RuntimeInfo::current(), nullptr, &redactor);
    window.resize(1600, 940);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    QTest::mouseClick(window.findChild<QToolButton *>(QStringLiteral("connectButton")), Qt::LeftButton);
    ui::HostKeyDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = window.findChild<ui::HostKeyDialog *>()) != nullptr, 30000);
    QTRY_VERIFY(dialog->isVisible());
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("acceptButton")), Qt::LeftButton);
    // The pages' own connection follows once the key is trusted.
    QTRY_VERIFY_WITH_TIMEOUT(
        window.fleet().session(QStringLiteral("gpu-b300"))->state().phase == ssh::ConnectionPhase::Ready, 60000);

    window.showPage(ui::MainWindow::Page::Deploy);
    auto *page = window.findChild<ui::DeployPage *>();
    QVERIFY(page && page->isVisible());
    QCOMPARE(page->host(), QStringLiteral("gpu-b300"));
    page->setProfile(QStringLiteral("b300x4-balanced"));
    QTest::mouseClick(page->findChild<QPushButton *>(QStringLiteral("deployRun")), Qt::LeftButton);
    QVERIFY(page->licensePanel()->isVisible());
    page->licensePanel()->choose(QStringLiteral("commercial"));
    page->licensePanel()->confirmAll(true);
    QTest::mouseClick(page->licensePanel()->findChild<QPushButton *>(QStringLiteral("acknowledgeLicense")),
                      Qt::LeftButton);
    QVERIFY(page->isRunning());
    // The window never widens by itself while the plan runs (1366 → 1420 → 2378 px were seen: a
    // long command or container name in the step pane): its minimum stays within a laptop's screen.
    int widest = 0;
    QTimer probe;
    connect(&probe, &QTimer::timeout, [&] { widest = std::max(widest, window.minimumSizeHint().width()); });
    probe.start(20);
    QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), 240000);
    probe.stop();
    QVERIFY2(widest <= 1366, qPrintable(QString::number(widest)));
    for (const char *step : {"preflight.gpus", "license", "pin.image", "pull", "launch", "ready", "check.qmul4",
                             "check.dspark", "check.kvpool", "verify.text", "verify.thinking", "verify.image"}) {
        QVERIFY2(page->stepStatus(QLatin1String(step)) == recipe::StepStatus::Pass, step);
    }
    QVERIFY(page->findChild<QLabel *>(QStringLiteral("deployNotice"))->text().startsWith(QLatin1String("Deployed")));
    // The Fleet and Metrics follow the deployment made here, without a restart: the server's
    // health and its KV pool within a few refreshes.
    const auto *monitor = window.fleet().monitor(QStringLiteral("gpu-b300"));
    QVERIFY(monitor);
    QTRY_VERIFY_WITH_TIMEOUT(metrics::serverHealthName(monitor->status().health) == QLatin1String("ok") &&
                                 monitor->status().server && monitor->status().server->maxTokens.has_value(),
                             30000);
    // The Playground talks to the server deployed here, without a restart (it said "Flashdeck
    // has not deployed to gpu-b300" until the window was restarted).
    window.showPage(ui::MainWindow::Page::Playground);
    auto *target = window.findChild<QLabel *>(QStringLiteral("playgroundTarget"));
    QVERIFY(target);
    QVERIFY2(target->text().contains(QLatin1String("port 30000")), qPrintable(target->text()));
    window.showPage(ui::MainWindow::Page::Deploy);
    // The licence step names who acknowledged which text.
    page->selectStep(QStringLiteral("license"));
    QVERIFY(page->licensePanel()
                ->findChild<QLabel *>(QStringLiteral("licenseState"))
                ->text()
                .contains(QLatin1String("sha256")));
}

void TestDeployPage::closingMidRun_asks_stopCleansUp()
{
    // Closing the window during the pull asks; Cancel keeps it open and running, "Stop the
    // deployment" stops cleanly (the pull step says what is left) and then closes.
    PullingRun run;
    QVERIFY2(run.page, qPrintable(run.error));
    ui::DeployPage *page = run.page;
    ui::MainWindow &window = run.window();

    // Answers the question the window asks, once it is up.
    auto answer = [](const QString &button) {
        QTimer::singleShot(0, [button] {
            QTRY_VERIFY(QApplication::activeModalWidget() != nullptr);
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            QVERIFY(box);
            for (QAbstractButton *b : box->buttons()) {
                if (b->text() == button) {
                    b->click();
                    return;
                }
            }
            QFAIL(qPrintable(QStringLiteral("no button \"%1\"").arg(button)));
        });
    };
    answer(QStringLiteral("Cancel"));
    QVERIFY(!window.close()); // still open, still running
    QVERIFY(window.isVisible());
    QVERIFY(page->isRunning());
    answer(QStringLiteral("Stop the deployment"));
    QVERIFY(window.close());
    QVERIFY(!page->isRunning());
    QCOMPARE(page->stepStatus(QStringLiteral("pull")), recipe::StepStatus::Fail);
    page->selectStep(QStringLiteral("pull"));
    QVERIFY(page->detail()
                ->findChild<QLabel *>(QStringLiteral("stepSeen"))
                ->text()
                .contains(QLatin1String("Left on the host")));
}

void TestDeployPage::pageMadeAgain_showsTheSessionsRun_andStopsIt()
{
    // The host's session keeps the run, not the page: a Deploy page made again while it runs shows
    // its steps as far as they got, keeps its host, and its Stop stops the one run.
    PullingRun run;
    QVERIFY2(run.page, qPrintable(run.error));
    ui::DeployPage *page = run.page;
    ui::MainWindow &window = run.window();
    const AppPaths &paths = run.f.paths;
    security::Redactor &redactor = run.f.redactor;
    fleet::HostSession *session = window.fleet().session(QStringLiteral("gpu-b300"));
    QVERIFY(session);
    QVERIFY(session->deploy());
    QVERIFY(session->operationRunning());
    QVERIFY(!session->upgrade());

    auto again = std::make_unique<ui::DeployPage>(paths, window.fleet(), redactor);
    QCOMPARE(again->host(), QStringLiteral("gpu-b300"));
    QVERIFY(again->isRunning());
    QCOMPARE(again->profile(), QStringLiteral("b300x4-balanced"));
    const QStringList seen{QStringLiteral("preflight.gpus"), QStringLiteral("pin.image"), QStringLiteral("pull")};
    for (const QString &step : seen) {
        QCOMPARE(again->stepStatus(step), page->stepStatus(step));
    }
    QCOMPARE(again->stepStatus(QStringLiteral("pull")), recipe::StepStatus::Running);
    QCOMPARE(again->stepStatus(QStringLiteral("preflight.gpus")), recipe::StepStatus::Pass);

    QSignalSpy ended(again.get(), &ui::DeployPage::runningChanged);
    again->stop();
    QTRY_VERIFY_WITH_TIMEOUT(!session->operationRunning(), 60000);
    QTRY_VERIFY(!ended.isEmpty());
    QCOMPARE(ended.last().at(0).toBool(), false);
    QVERIFY(!page->isRunning());
    QVERIFY(!again->isRunning());
    QCOMPARE(again->stepStatus(QStringLiteral("pull")), recipe::StepStatus::Fail);
    QCOMPARE(page->stepStatus(QStringLiteral("pull")), recipe::StepStatus::Fail);
    again.reset();
    QVERIFY(session->deploy()); // the session still holds the last run, its page gone
    QVERIFY(window.close());
}

void TestDeployPage::hostRemovedMidRun_theRunGoesOnToItsEnd()
{
    // The host leaves the inventory (a terminal's `hosts remove`) while the window deploys it: the
    // run is not dropped under its steps; its session goes once the run has ended.
    PullingRun run;
    QVERIFY2(run.page, qPrintable(run.error));
    ui::MainWindow &window = run.window();
    const AppPaths &paths = run.f.paths;
    QPointer<fleet::HostSession> session = window.fleet().session(QStringLiteral("gpu-b300"));
    QVERIFY(session);

    fleet::Inventory terminal(paths.inventoryFile()); // another process's view of the same file
    QVERIFY(terminal.load().isOk());
    QVERIFY(terminal.remove(QStringLiteral("gpu-b300")).isOk());
    QTRY_VERIFY_WITH_TIMEOUT(!window.fleet().session(QStringLiteral("gpu-b300")), 20000);
    QVERIFY(session); // kept: its run goes on
    QVERIFY(session->operationRunning());
    session->deploy()->cancel();
    QTRY_VERIFY_WITH_TIMEOUT(session.isNull(), 60000); // gone with its run's end
    QVERIFY(window.close());
}

void TestDeployPage::licence_anotherHostStartsUnticked_andTheSummaryWraps()
{
    QTemporaryDir root;
    const auto terms = recipe::LicenseTerms::builtIn();
    QVERIFY(terms);
    deploy::Acknowledgements acks(root.filePath(QStringLiteral("acknowledgements.json")));
    QVERIFY(acks.record(deploy::Acknowledgements::make(QStringLiteral("first"), terms.value(),
                                                       QStringLiteral("noncommercial"), QStringLiteral("gui"))));
    ui::LicensePanel panel(terms.value(), acks);
    panel.resize(520, 700); // narrower than its longest line: it wraps, it does not widen
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const auto boxes = panel.findChildren<QCheckBox *>();
    QVERIFY(!boxes.isEmpty());
    panel.setHost(QStringLiteral("first"));
    for (const QCheckBox *b : boxes) {
        QVERIFY(b->isChecked());
    }
    // A host never acknowledged: nothing ticked, no use chosen, nothing to press.
    panel.setHost(QStringLiteral("second"));
    for (const QCheckBox *b : boxes) {
        QVERIFY2(!b->isChecked(), qPrintable(b->objectName()));
    }
    for (const QRadioButton *r : panel.findChildren<QRadioButton *>()) {
        QVERIFY(!r->isChecked());
    }
    QVERIFY(!panel.findChild<QPushButton *>(QStringLiteral("acknowledgeLicense"))->isEnabled());
    QVERIFY2(panel.minimumSizeHint().width() <= 520, qPrintable(QString::number(panel.minimumSizeHint().width())));
    // A click on a choice's words chooses it, as on the button.
    const auto labels = panel.findChildren<QLabel *>();
    for (QLabel *l : labels) {
        if (l->property("clicks").value<QObject *>() ==
            panel.findChild<QRadioButton *>(QStringLiteral("use_commercial"))) {
            QTest::mouseClick(l, Qt::LeftButton);
        }
    }
    QVERIFY(panel.findChild<QRadioButton *>(QStringLiteral("use_commercial"))->isChecked());
}

void TestDeployPage::profileCard_hubParameterCount_andEachGpuModelsMemory_data()
{
    QTest::addColumn<QString>("profile");
    QTest::newRow("balanced") << "b300x4-balanced";
    QTest::newRow("low-latency") << "b300x4-low-latency";
    QTest::newRow("amd") << "mi355x-x8-two-tp4-router";
    QTest::newRow("b200, generator only") << "b200";
    QTest::newRow("gb200, generator only") << "gb200";
}

void TestDeployPage::profileCard_hubParameterCount_andEachGpuModelsMemory()
{
    // Issue 41: why the Hub shows about 220B parameters, and the page's per-GPU memory of each
    // GPU model, on every profile's card.
    QFETCH(QString, profile);
    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    security::Redactor redactor;
    fleet::FleetWatcher watcher(paths, metrics::AlertThresholds(), nullptr);
    ui::DeployPage page(paths, watcher, redactor);
    page.setProfile(profile);
    QCOMPARE(page.profile(), profile);
    const QString card = page.findChild<QLabel *>(QStringLiteral("profileCard"))->text();
    for (const char *part :
         {"about 220B parameters", "packed FP4, two values in each byte",
          "GPU memory per GPU: B300 288 GB, B200 192 GB, GB200 186 GB", "outside this recipe's verified scope"}) {
        QVERIFY2(card.contains(QLatin1String(part)), qPrintable(card));
    }
}

void TestDeployPage::walk_demoDeploy_pagesFollow_amdMismatch()
{
    // The newcomer's path in one window at 1366 × 768: the B300 host's profile follows its GPUs,
    // a deployment from the window, the Fleet, Metrics and Playground on the live server without
    // a restart, then a second (AMD) host whose licence starts unticked, whose profile follows its
    // GPUs, and on which the B300 profile fails pre-flight with what the host has.
    SimHostFixture b300;
    SimHostFixture amd;
    QString error;
    QVERIFY2(b300.start(QStringLiteral("b300x4"), &error), qPrintable(error));
    QVERIFY2(amd.start(QStringLiteral("mi355x-x8"), &error), qPrintable(error));
    QTemporaryDir root;
    const AppPaths paths(root.filePath(QStringLiteral("cfg")));
    QVERIFY(paths.ensureExists());
    fleet::Inventory inventory(paths.inventoryFile());
    QVERIFY(inventory.add(b300.hostEntry(QStringLiteral("demo"))).isOk());
    QVERIFY(inventory.add(amd.hostEntry(QStringLiteral("demo-amd"))).isOk());
    Settings settings(paths);
    security::Redactor redactor;
    ui::MainWindow window(paths, settings, inventory, ssh::RuntimeInfo::current(), nullptr, &redactor);
    window.resize(1366, 740);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const auto shoot = [&](const char *name) {
        // The layout as the next turn of the event loop leaves it (a box just folded is not
        // yet shrunk otherwise): what a user sees.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QVERIFY(window.grab().save(shotPath(root.path(), QString::fromLatin1(name))));
    };

    window.showPage(ui::MainWindow::Page::Deploy);
    auto *page = window.findChild<ui::DeployPage *>();
    QVERIFY(page && page->isVisible());
    QCOMPARE(page->host(), QStringLiteral("demo"));
    QTRY_VERIFY_WITH_TIMEOUT(window.fleet().monitor(QStringLiteral("demo"))->status().gpus.size() == 4, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(page->profile(), QStringLiteral("b300x4-balanced"), 30000);
    {
        const QString problem = runAcknowledging(page, QStringLiteral("noncommercial"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
    QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), 240000);
    QCOMPARE(page->stepStatus(QStringLiteral("verify.image")), recipe::StepStatus::Pass);
    // The profile card gives the pinned image's size as the host's Docker measured it.
    const QString card = page->findChild<QLabel *>(QStringLiteral("profileCard"))->text();
    QVERIFY2(card.contains(QLatin1String("the pinned image ")) && card.contains(QLatin1String(" unpacked")),
             qPrintable(card));
    // Beside it the pull says what it moved: the compressed download, named so (a 14.2 GB pull
    // beside a 32.0 GB image, with no word of which is which, was read as a wrong figure).
    page->selectStep(QStringLiteral("pull"));
    const QString pulled = page->detail()->findChild<QLabel *>(QStringLiteral("stepSeen"))->text();
    QVERIFY2(pulled.contains(QLatin1String(" GB downloaded, compressed")), qPrintable(pulled));
    shoot("walk-deployed.png");

    // The Fleet and Metrics: the live server, within a few refreshes.
    const auto *monitor = window.fleet().monitor(QStringLiteral("demo"));
    QVERIFY(monitor);
    QTRY_VERIFY_WITH_TIMEOUT(metrics::serverHealthName(monitor->status().health) == QLatin1String("ok") &&
                                 monitor->status().server && monitor->status().server->maxTokens.has_value(),
                             30000);
    window.showPage(ui::MainWindow::Page::Fleet);
    shoot("walk-fleet.png");
    window.showPage(ui::MainWindow::Page::Metrics);
    QCOMPARE(window.findChild<ui::MetricsPage *>()->host(), QStringLiteral("demo"));
    shoot("walk-metrics.png");
    window.showPage(ui::MainWindow::Page::Playground);
    auto *target = window.findChild<QLabel *>(QStringLiteral("playgroundTarget"));
    QVERIFY2(target->text().contains(QLatin1String("port 30000")), qPrintable(target->text()));
    shoot("walk-playground.png");
    // The host's one Docker endpoint: with the monitor, the pages' log and the Playground's key
    // at work on the deployed host, the host runs one dial-stdio for every Engine API call of the
    // window and one for the log's follow, and follows the log once (the simulated dockerd counts).
    window.showPage(ui::MainWindow::Page::Logs);
    QTRY_COMPARE_WITH_TIMEOUT(b300.engineCount("log_follows"), 1, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(b300.engineCount("connections"), 2, 30000);
    QVERIFY(window.fleet().session(QStringLiteral("demo"))->docker().isOpen());

    // The second host: chosen in the bar, every page follows; its licence starts unticked.
    auto *selector = window.findChild<QComboBox *>(QStringLiteral("hostSelector"));
    selector->setCurrentIndex(selector->findData(QStringLiteral("demo-amd")));
    window.showPage(ui::MainWindow::Page::Deploy);
    QCOMPARE(page->host(), QStringLiteral("demo-amd"));
    QTRY_COMPARE_WITH_TIMEOUT(page->profile(), QStringLiteral("mi355x-x8-two-tp4-router"), 30000);
    for (const QCheckBox *b : page->licensePanel()->findChildren<QCheckBox *>()) {
        QVERIFY2(!b->isChecked(), qPrintable(b->objectName()));
    }
    // The operator insists on the B300 profile: pre-flight says what the host has.
    page->setProfile(QStringLiteral("b300x4-balanced"));
    {
        const QString problem = runAcknowledging(page, QStringLiteral("noncommercial"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
    QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), 120000);
    QCOMPARE(page->stepStatus(QStringLiteral("preflight.gpus")), recipe::StepStatus::Fail);
    page->selectStep(QStringLiteral("preflight.gpus"));
    const QString seen = page->findChild<QLabel *>(QStringLiteral("stepSeen"))->text();
    QVERIFY2(seen.contains(QStringLiteral("the profile needs 4 × B300; the host has 8 × AMD Instinct MI355X")),
             qPrintable(seen));
    QVERIFY(!seen.contains(QLatin1String("driver")));
    shoot("walk-amd-mismatch.png");
    QVERIFY2(window.minimumSizeHint().width() <= 1366, qPrintable(QString::number(window.minimumSizeHint().width())));
}

void TestDeployPage::generatorBox_amd_pasteReadDeploy_h200NeedsIt()
{
    // An AMD host: the page has no verified command for it, so the window asks for the generator's,
    // shows what will run (or why not, with the numbers) before anything is pulled, and deploys it.
    SimHostFixture amd;
    QString error;
    QVERIFY2(amd.start(QStringLiteral("mi355x-x8"), &error), qPrintable(error));
    WindowFixture f;
    QVERIFY(f.made && f.inventory.add(amd.hostEntry(QStringLiteral("demo-amd"))).isOk());
    ui::DeployPage *page = f.open();
    QVERIFY(page);
    ui::MainWindow &window = *f.window;
    const AppPaths &paths = f.paths;
    const QTemporaryDir &root = f.root;
    QTRY_COMPARE_WITH_TIMEOUT(page->profile(), QStringLiteral("mi355x-x8-two-tp4-router"), 30000);
    auto *box = page->findChild<ui::LaunchCommandBox *>(QStringLiteral("launchCommandBox"));
    auto *edit = box->findChild<QPlainTextEdit *>(QStringLiteral("launchCommand"));
    const auto *preview = box->findChild<QPlainTextEdit *>(QStringLiteral("launchCommandPreview"));
    const auto notice = [page] { return page->findChild<QLabel *>(QStringLiteral("deployNotice"))->text(); };
    const auto paste = [edit](const char16_t *file) {
        QFile pasted(test::testData(file));
        QVERIFY(pasted.open(QIODevice::ReadOnly));
        edit->setFocus();
        edit->setPlainText(QString::fromUtf8(pasted.readAll()));
    };
    QVERIFY(box->isVisible() && box->required() && edit->isVisible() && !box->isFlat());

    // Run without a command: the page's words, nothing started.
    QTest::mouseClick(page->findChild<QPushButton *>(QStringLiteral("deployRun")), Qt::LeftButton);
    QVERIFY(!page->isRunning());
    QVERIFY2(notice().contains(QLatin1String("SGLang's configuration generator")), qPrintable(notice()));
    // TP 8 on ROCm: refused in the preview with the numbers, and Run says it again.
    paste(u"/generator/mi355x-tp8.sh");
    QVERIFY2(preview->toPlainText().contains(QLatin1String("TP 8")) && !box->problem().isEmpty(),
             qPrintable(preview->toPlainText()));
    QTest::mouseClick(page->findChild<QPushButton *>(QStringLiteral("deployRun")), Qt::LeftButton);
    QVERIFY(!page->isRunning());
    QVERIFY2(notice().contains(QLatin1String("TP 8")), qPrintable(notice()));
    // TP 4: what runs, what Flashdeck sets and why.
    paste(u"/generator/mi355x-tp4.sh");
    QVERIFY2(box->problem().isEmpty(), qPrintable(box->problem()));
    QVERIFY2(notice().isEmpty(), qPrintable(notice())); // the refusal Run said is gone with the command
    QVERIFY2(preview->toPlainText().contains(QLatin1String("What Flashdeck sets:")) &&
                 preview->toPlainText().contains(QLatin1String("--quantization mxfp8")),
             qPrintable(preview->toPlainText()));
    page->findChild<QPushButton *>(QStringLiteral("deployUseSuggestedImage"))->click();
    QVERIFY(window.grab().save(shotPath(root.path(), QStringLiteral("deploy-generator-preview.png"))));
    {
        const QString problem = runAcknowledging(page, QStringLiteral("noncommercial"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
    QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), 240000);
    QCOMPARE(page->stepStatus(QStringLiteral("verify.text")), recipe::StepStatus::Pass);
    // Every step ended well: nothing to resume (Run checks it all again).
    QVERIFY(!page->findChild<QPushButton *>(QStringLiteral("deployResume"))->isEnabled());
    const Result<recipe::Deployment> d = recipe::Deployment::read(paths, QStringLiteral("demo-amd"));
    QVERIFY2(d, qPrintable(d.message()));
    QVERIFY(d.value().launchCommand.contains(QLatin1String("--quantization mxfp8")));
    // qmul4 is a Blackwell CUDA kernel: on ROCm the badge says it does not apply, not a guess.
    QTRY_COMPARE(page->logPanel()->findChild<QLabel *>(QStringLiteral("qmul4Badge"))->text(),
                 QStringLiteral("qmul4: does not apply to these GPUs"));
    QVERIFY(window.grab().save(shotPath(root.path(), QStringLiteral("deploy-generator-deployed.png"))));
    // A long preview scrolls in its box: the window stays within the screen's height.
    QVERIFY2(window.height() <= 768, qPrintable(QString::number(window.height())));

    // H200: nothing to run until the generator's command is given (the box still held the AMD
    // one, which its own port 30000 now matches; before, the page's port read 1 and refused it).
    page->setProfile(QStringLiteral("h200"));
    edit->clear();
    auto *run = page->findChild<QPushButton *>(QStringLiteral("deployRun"));
    QVERIFY(box->isVisible() && box->required());
    QVERIFY(!run->isEnabled());
    paste(u"/generator/h200x8-docker.sh");
    QVERIFY2(box->launch().has_value(), qPrintable(box->problem()));
    QVERIFY(run->isEnabled());
    // SGLang's default port, as the command publishes it: never the Port box's minimum, 1.
    QVERIFY2(preview->toPlainText().contains(QLatin1String("--port 30000")), qPrintable(preview->toPlainText()));
}

void TestDeployPage::recordsChangedOutside_pageFollows_commandStaysWithItsHost()
{
    // What a terminal does to a host's records (undeploy, deploy) shows on the open page within
    // two seconds, and the generator's command pasted for one host never follows to another. The
    // records are written as the commands write them; no host needs to answer for it.
    WindowFixture f;
    QVERIFY(f.made);
    const AppPaths &paths = f.paths;
    for (const char *name : {"gpu-a", "gpu-b"}) {
        QVERIFY(f.inventory.add(unansweredHost(QString::fromLatin1(name))).isOk());
    }
    const auto record = [&paths](const QString &host, recipe::StepStatus status) {
        const recipe::StepRecord r = journalStep(paths, host, "preflight.ssh", status, "SSH connection");
        recipe::Deployment d;
        d.host = host;
        d.profile = QStringLiteral("b300x4-balanced");
        d.ok = status == recipe::StepStatus::Pass;
        d.finished = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
        d.steps.insert(r.step, r);
        d.launchCommand = host == QLatin1String("gpu-b") ? QStringLiteral("sglang serve --tp 8") : QString();
        QVERIFY(d.write(paths).isOk());
    };
    record(QStringLiteral("gpu-a"), recipe::StepStatus::Pass);
    record(QStringLiteral("gpu-b"), recipe::StepStatus::Pass);
    ui::DeployPage *page = f.open();
    QVERIFY(page);
    ui::MainWindow &window = *f.window;
    page->setHost(QStringLiteral("gpu-a"));
    const auto notice = [page] { return page->findChild<QLabel *>(QStringLiteral("deployNotice"))->text(); };
    auto *resume = page->findChild<QPushButton *>(QStringLiteral("deployResume"));
    QCOMPARE(page->stepStatus(QStringLiteral("preflight.ssh")), recipe::StepStatus::Pass);
    QVERIFY2(notice().contains(QLatin1String("from its journal")), qPrintable(notice()));

    // `flashdeck undeploy gpu-a` in a terminal.
    QVERIFY(
        recipe::Deployment::recordUndeployed(paths, QStringLiteral("gpu-a"), QDateTime::currentDateTimeUtc()).isOk());
    QTRY_VERIFY2_WITH_TIMEOUT(notice().startsWith(QLatin1String("Undeployed on")), qPrintable(notice()), 10000);
    QCOMPARE(page->stepStatus(QStringLiteral("preflight.ssh")), recipe::StepStatus::Pending);
    QVERIFY(!resume->isEnabled()); // nothing to resume or upgrade: the containers are gone
    QVERIFY(!page->findChild<QPushButton *>(QStringLiteral("deployUpgrade"))->isEnabled());
    QVERIFY(window.grab().save(shotPath(f.root.path(), QStringLiteral("walk-terminal-undeployed.png"))));
    // `flashdeck deploy gpu-a` in a terminal, stopped at its first step.
    record(QStringLiteral("gpu-a"), recipe::StepStatus::Fail);
    QTRY_COMPARE_WITH_TIMEOUT(page->stepStatus(QStringLiteral("preflight.ssh")), recipe::StepStatus::Fail, 10000);
    QVERIFY2(notice().contains(QLatin1String("from its journal")), qPrintable(notice()));

    // The command in the box belongs to its host: gpu-b gets its deployment's, gpu-a its own back.
    auto *box = page->findChild<ui::LaunchCommandBox *>(QStringLiteral("launchCommandBox"));
    // Switched on with nothing pasted: no empty preview box taking the steps' room.
    const auto *preview = box->findChild<QPlainTextEdit *>(QStringLiteral("launchCommandPreview"));
    box->setChecked(false);
    QVERIFY(box->isFlat()); // switched off: its checkbox alone, no empty frame under it
    box->setText(QString());
    QVERIFY(box->isChecked());
    QVERIFY(!box->isFlat());
    QVERIFY(!preview->isVisibleTo(box));
    box->setText(QStringLiteral("python3 -m sglang.launch_server --tp 4 --quantization mxfp8"));
    QVERIFY(preview->isVisibleTo(box));
    page->setHost(QStringLiteral("gpu-b"));
    QCOMPARE(box->text(), QStringLiteral("sglang serve --tp 8"));
    page->setHost(QStringLiteral("gpu-a"));
    QCOMPARE(box->text(), QStringLiteral("python3 -m sglang.launch_server --tp 4 --quantization mxfp8"));

    // One host selector: a host picked in the page's own box is the window's.
    auto *hostBar = window.findChild<QComboBox *>(QStringLiteral("hostSelector"));
    auto *pageHosts = page->findChild<QComboBox *>(QStringLiteral("deployHost"));
    QCOMPARE(pageHosts->currentData().toString(), QStringLiteral("gpu-a"));
    pageHosts->setFocus();
    QTest::keyClick(pageHosts, Qt::Key_Down);
    QCOMPARE(page->host(), QStringLiteral("gpu-b"));
    QCOMPARE(hostBar->currentData().toString(), QStringLiteral("gpu-b"));
    hostBar->setCurrentIndex(hostBar->findData(QStringLiteral("gpu-a")));
    QCOMPARE(page->host(), QStringLiteral("gpu-a"));
}

void TestDeployPage::keyboardAlone_runThenTheLicence()
{
    // Run by the keyboard, then the licence: focus goes into its panel, and Tab goes as it reads
    // (the use, each confirmation, Acknowledge), not through the log toolbar and the host bar.
    SimHostFixture sim;
    QString error;
    QVERIFY2(sim.start(QStringLiteral("b300x4"), &error), qPrintable(error));
    WindowFixture f;
    QVERIFY(f.made && f.inventory.add(sim.hostEntry(QStringLiteral("gpu-a"))).isOk());
    ui::DeployPage *page = f.open();
    QVERIFY(page);
    ui::MainWindow &window = *f.window;
    window.activateWindow();
    QTRY_VERIFY(window.isActiveWindow());
    QTRY_VERIFY_WITH_TIMEOUT(
        window.fleet().session(QStringLiteral("gpu-a"))->state().phase == ssh::ConnectionPhase::Ready, 60000);
    auto *run = page->findChild<QPushButton *>(QStringLiteral("deployRun"));
    // The buttons' Tab order is the row's: … Retry step → Upgrade… → Export runbook….
    const QStringList row{QStringLiteral("deployRun"),     QStringLiteral("deployStop"),
                          QStringLiteral("deployResume"),  QStringLiteral("deployRetry"),
                          QStringLiteral("deployUpgrade"), QStringLiteral("deployExport")};
    for (qsizetype i = 0; i + 1 < row.size(); ++i) {
        QCOMPARE(page->findChild<QPushButton *>(row.at(i))->nextInFocusChain()->objectName(), row.at(i + 1));
    }
    run->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(run->hasFocus());
    QTest::keyClick(run, Qt::Key_Space);
    auto *panel = page->findChild<ui::LicensePanel *>();
    QTRY_VERIFY(panel->isVisible());
    {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        auto *ack = panel->findChild<QPushButton *>(QStringLiteral("acknowledgeLicense"));
        auto *scroll = panel->findChild<QScrollArea *>();
        auto *cardScroll = page->findChild<QScrollArea *>(QStringLiteral("profileCardScroll"));
        auto *card = page->findChild<QLabel *>(QStringLiteral("profileCard"));
        // Acknowledge is in sight without scrolling (it was below the fold of the summary's pane),
        // and the profile card reads twelve lines or all it has, not a 115 px box, at 1366 × 740.
        QCOMPARE(ack->visibleRegion().boundingRect(), ack->rect());
        const int cardText = card->heightForWidth(cardScroll->viewport()->width());
        QVERIFY2(cardScroll->viewport()->height() >= std::min(cardText, 12 * card->fontMetrics().lineSpacing()),
                 qPrintable(QStringLiteral("%1 of %2").arg(cardScroll->viewport()->height()).arg(cardText)));
        QVERIFY(!scroll->isAncestorOf(ack));
    }
    const auto focused = [] { return QApplication::focusWidget(); };
    QTRY_VERIFY(qobject_cast<QRadioButton *>(focused()) && panel->isAncestorOf(focused()));
    QTest::keyClick(focused(), Qt::Key_Space); // the first use
    for (const char *name : {"confirm0", "confirm1"}) {
        QTest::keyClick(focused(), Qt::Key_Tab);
        QCOMPARE(focused()->objectName(), QString::fromLatin1(name));
        QTest::keyClick(focused(), Qt::Key_Space);
    }
    QTest::keyClick(focused(), Qt::Key_Tab);
    QCOMPARE(focused()->objectName(), QStringLiteral("acknowledgeLicense"));
    // The picture the README shows: the focus ring on Acknowledge, in sight below the summary.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QVERIFY(window.grab().save(shotPath(f.root.path(), QStringLiteral("walk-keyboard-licence.png"))));
    QTest::keyClick(focused(), Qt::Key_Space);
    QTRY_VERIFY(!panel->acknowledgedUse().isEmpty());
    // The run goes on by itself; Stop (by the keyboard too) ends it before anything is pulled.
    QTRY_VERIFY_WITH_TIMEOUT(page->stepStatus(QStringLiteral("preflight.ssh")) != recipe::StepStatus::Pending, 30000);
    auto *stop = page->findChild<QPushButton *>(QStringLiteral("deployStop"));
    if (page->isRunning()) {
        stop->setFocus(Qt::TabFocusReason);
        QTest::keyClick(stop, Qt::Key_Space);
    }
    QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), 60000);
}

void TestDeployPage::upgrade_rollsBackABrokenBuild_fleetUpgradesInTurn_andShowsDrift()
{
    // tests/simhost/registry.json: the tag's current build, an earlier one and a broken nightly.
    const QString current = QStringLiteral("sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500");
    const QString earlier = QStringLiteral("sha256:f2980cb6934c079e09e1da073703389ba9cdc94781c5ba26b7db32d9ceb4820b");
    const QString broken = QStringLiteral("sha256:9a78aa361832cfa3e538dcb349269f08bd26b8e0c895d47e7c1f9bc67d8148c1");
    SimHostFixture one;
    SimHostFixture two;
    QString error;
    QVERIFY2(one.start(QStringLiteral("b300x4"), &error), qPrintable(error));
    QVERIFY2(two.start(QStringLiteral("b300x4"), &error), qPrintable(error));
    QTemporaryDir root;
    const AppPaths paths(root.filePath(QStringLiteral("cfg")));
    QVERIFY(paths.ensureExists());
    fleet::Inventory inventory(paths.inventoryFile());
    QVERIFY(inventory.add(one.hostEntry(QStringLiteral("gpu1"))).isOk());
    QVERIFY(inventory.add(two.hostEntry(QStringLiteral("gpu2"))).isOk());
    Settings settings(paths);
    security::Redactor redactor;
    ui::MainWindow window(paths, settings, inventory, ssh::RuntimeInfo::current(), nullptr, &redactor);
    window.resize(1366, 740);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const auto shoot = [&](QWidget *w, const char *name) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest); // as a user sees it
        QVERIFY(w->grab().save(shotPath(root.path(), QString::fromLatin1(name))));
    };
    window.showPage(ui::MainWindow::Page::Deploy);
    auto *page = window.findChild<ui::DeployPage *>();
    auto *selector = window.findChild<QComboBox *>(QStringLiteral("hostSelector"));
    for (const QString &host : {QStringLiteral("gpu1"), QStringLiteral("gpu2")}) {
        selector->setCurrentIndex(selector->findData(host));
        // Connected, as the host bar shows it, before Run: the profile alone can be the default.
        QTRY_VERIFY_WITH_TIMEOUT(window.fleet().monitor(host)->status().gpus.size() == 4, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(page->profile(), QStringLiteral("b300x4-balanced"), 30000);
        {
            const QString problem = runAcknowledging(page, QStringLiteral("noncommercial"));
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), 240000);
        QCOMPARE(page->stepStatus(QStringLiteral("verify.image")), recipe::StepStatus::Pass);
    }
    auto *upgradeButton = page->findChild<QPushButton *>(QStringLiteral("deployUpgrade"));
    QVERIFY(upgradeButton->isEnabled());

    // The dialog: it starts from what runs, refuses a short digest and the same pins.
    recipe::Pins running;
    running.host = QStringLiteral("gpu2");
    running.profile = QStringLiteral("b300x4-balanced");
    running.imageDigest = current;
    running.modelRevision = QStringLiteral("62cbc27f7e9e74309d8ecea398ffe088b6c4e0aa");
    ui::UpgradeDialog dialog(QStringLiteral("gpu2"), running, std::nullopt, &window);
    QVERIFY(!dialog.startButton()->isEnabled());
    dialog.digestField()->setText(QStringLiteral("sha256:9a78aa36"));
    QVERIFY(!dialog.startButton()->isEnabled());
    dialog.digestField()->setText(broken);
    QVERIFY(dialog.startButton()->isEnabled());
    QCOMPARE(dialog.target().imageDigest, broken);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    shoot(&dialog, "dialog-upgrade.png");
    dialog.hide();

    // The broken nightly from the window: its server dies, the old pins run again, verified.
    page->upgrade(dialog.target());
    QVERIFY(page->isRunning());
    {
        // A page made again while it runs says an upgrade runs, and to what (not "Running on").
        ui::DeployPage again(paths, window.fleet(), redactor);
        again.setHost(page->host());
        QVERIFY(again.isRunning());
        const QString said = again.findChild<QLabel *>(QStringLiteral("deployNotice"))->text();
        QVERIFY2(said.startsWith(QStringLiteral("Upgrading %1: ").arg(page->host())) ||
                     said.startsWith(QLatin1String("The upgrade failed at ")),
                 qPrintable(said));
    }
    QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), 240000);
    const QString notice = page->findChild<QLabel *>(QStringLiteral("deployNotice"))->text();
    QVERIFY2(notice.contains(QLatin1String("The upgrade failed at ready (ImportError: cannot import name")) &&
                 notice.contains(QLatin1String("back on its old pins sha256:819722d1da25")),
             qPrintable(notice));
    QCOMPARE(page->stepStatus(QStringLiteral("verify.image")), recipe::StepStatus::Pass);
    // Both plans, in the order they ran: the failed upgrade on top, its failed step there to read,
    // then the rollback's steps.
    {
        auto *tree = page->findChild<QTreeWidget *>(QStringLiteral("deploySteps"));
        const QTreeWidgetItem *failedPlan = tree->topLevelItem(0);
        QVERIFY2(failedPlan->text(0).startsWith(QLatin1String("Upgrade to sha256:")) &&
                     failedPlan->text(0).endsWith(QLatin1String("failed at Ready: weights loaded, health OK")),
                 qPrintable(failedPlan->text(0)));
        QStringList failedThere;
        for (QTreeWidgetItemIterator it(const_cast<QTreeWidgetItem *>(failedPlan));
             *it && (*it == failedPlan || (*it)->parent()); ++it) {
            if ((*it)->toolTip(0).contains(QLatin1String("ImportError"))) {
                failedThere << (*it)->text(0);
            }
        }
        QCOMPARE(failedThere, QStringList{QStringLiteral("Ready: weights loaded, health OK")});
        QVERIFY(tree->topLevelItemCount() > 1); // the rollback's groups below it
    }
    page->selectStep(QStringLiteral("launch"));
    shoot(&window, "deploy-upgrade-rolled-back.png");

    // The fleet's pins file, chosen in Settings: both hosts as pinned.
    const Result<recipe::Pins> locked =
        recipe::Pins::of(recipe::Deployment::read(paths, QStringLiteral("gpu1")).value());
    QVERIFY(locked);
    const QString lockFile = root.filePath(QStringLiteral("fleet.pins.json"));
    QVERIFY(locked.value().writeTo(lockFile));
    window.showPage(ui::MainWindow::Page::Settings);
    auto *pinsField = window.findChild<QLineEdit *>(QStringLiteral("fleetPinsFile"));
    pinsField->setText(lockFile);
    Q_EMIT pinsField->editingFinished();
    QVERIFY2(window.findChild<QLabel *>(QStringLiteral("fleetPinsState"))->text().contains(QLatin1String("compared")),
             qPrintable(window.findChild<QLabel *>(QStringLiteral("fleetPinsState"))->text()));
    QCOMPARE(settings.fleetPinsFile(), lockFile);

    // The Fleet page: both selected, the broken build in turn: the first rolls back, the second
    // is not touched.
    window.showPage(ui::MainWindow::Page::Fleet);
    auto *fleet = window.findChild<ui::FleetPage *>();
    const auto pinsCell = [fleet](const QString &host) {
        for (int r = 0; r < fleet->model()->rowCount(); ++r) {
            const QModelIndex i = fleet->model()->index(r, ui::FleetModel::Pins);
            if (i.data(ui::FleetModel::HostRole).toString() == host) {
                return i.data().toString();
            }
        }
        return QString();
    };
    QTRY_VERIFY2_WITH_TIMEOUT(pinsCell(QStringLiteral("gpu2")).startsWith(QStringLiteral("819722d · 62cbc27")),
                              qPrintable(pinsCell(QStringLiteral("gpu2"))), 30000);
    QVERIFY(!pinsCell(QStringLiteral("gpu2")).contains(QLatin1String("drift")));
    fleet->table()->selectAll();
    QCOMPARE(fleet->selectedHosts().size(), 2);
    QVERIFY(fleet->findChild<QPushButton *>(QStringLiteral("fleetUpgrade"))->isEnabled());
    deploy::UpgradeTarget toBroken;
    toBroken.imageDigest = broken;
    QVERIFY2(fleet->upgradePanel()->start({QStringLiteral("gpu1"), QStringLiteral("gpu2")}, toBroken, 1, &error),
             qPrintable(error));
    QSignalSpy done(fleet->upgradePanel(), &ui::UpgradePanel::finished);
    QVERIFY(done.wait(240000));
    QCOMPARE(done.first().first().toBool(), false);
    QTreeWidget *rows = fleet->upgradePanel()->rows();
    QVERIFY2(rows->topLevelItem(0)->text(3).startsWith(QLatin1String("rolled-back: ready failed")),
             qPrintable(rows->topLevelItem(0)->text(3)));
    QCOMPARE(rows->topLevelItem(1)->text(3), QStringLiteral("not started"));
    shoot(&window, "fleet-upgrade-rolled-back.png");

    // One host to the earlier build: flagged against the pins file, the other not.
    deploy::UpgradeTarget toEarlier;
    toEarlier.imageDigest = earlier;
    QVERIFY2(fleet->upgradePanel()->start({QStringLiteral("gpu2")}, toEarlier, 1, &error), qPrintable(error));
    done.clear();
    QVERIFY(done.wait(240000));
    QCOMPARE(done.first().first().toBool(), true);
    QTRY_VERIFY_WITH_TIMEOUT(pinsCell(QStringLiteral("gpu2")).contains(QStringLiteral("f2980cb · 62cbc27 · drift")),
                             30000);
    QVERIFY(!pinsCell(QStringLiteral("gpu1")).contains(QLatin1String("drift")));
    fleet->table()->clearSelection();
    // The alerts below list the drift once the new server answers (the replaced one did not, briefly).
    auto *alerts = fleet->findChild<QTreeWidget *>(QStringLiteral("fleetAlerts"));
    const auto activeAlerts = [alerts] {
        QStringList active;
        for (int i = 0; i < alerts->topLevelItemCount(); ++i) {
            if (!alerts->topLevelItem(i)->text(0).contains(QLatin1String("ended"))) {
                active.append(alerts->topLevelItem(i)->text(2));
            }
        }
        return active;
    };
    QTRY_VERIFY2_WITH_TIMEOUT(
        activeAlerts().size() == 1 &&
            activeAlerts().first().startsWith(QLatin1String("Runs other pins than fleet.pins.json")),
        qPrintable(activeAlerts().join(QLatin1Char('\n'))), 30000);
    shoot(&window, "fleet-pins-drift.png");
}

void TestDeployPage::journal_titlesAreThePlansAndTranslatedWhenShown()
{
    // A journal written by an English run (or by the command line) keeps its run's titles, some
    // worded otherwise than the plan's ("Pull by digest"): the page shows each step's one title,
    // in the language spoken now — the same before, during and after a run.
    WindowFixture f;
    const fleet::HostEntry h = unansweredHost(QStringLiteral("gpu-a")); // a journal is read without the host
    QVERIFY(f.made && f.inventory.add(h).isOk());
    for (const auto &[step, title] : {std::pair{"preflight.ssh", "SSH connection"}, {"pull", "Pull by digest"}}) {
        QCOMPARE(journalStep(f.paths, h.name, step, recipe::StepStatus::Pass, title).title, QString::fromLatin1(title));
    }
    const auto itemText = [](ui::DeployPage *page, const QString &step) {
        auto *tree = page->findChild<QTreeWidget *>(QStringLiteral("deploySteps"));
        for (QTreeWidgetItemIterator it(tree); *it; ++it) {
            if ((*it)->toolTip(0) == step) {
                return (*it)->text(0);
            }
        }
        return QString();
    };
    const auto detailTitle = [](ui::DeployPage *page) {
        QStringList texts;
        for (const QLabel *l : page->findChild<ui::StepDetail *>()->findChildren<QLabel *>()) {
            texts << l->text();
        }
        return texts;
    };
    {
        ui::DeployPage *page = f.open();
        QVERIFY(page);
        page->setHost(h.name);
        QCOMPARE(page->stepStatus(QStringLiteral("pull")), recipe::StepStatus::Pass);
        QCOMPARE(itemText(page, QStringLiteral("pull")), QStringLiteral("Pull the pinned image"));
        page->selectStep(QStringLiteral("pull"));
        QVERIFY2(detailTitle(page).contains(QStringLiteral("Pull the pinned image")),
                 qPrintable(detailTitle(page).join(QLatin1Char('|'))));
    }
    Language language;
    QVERIFY(language.install(UiLanguage::Chinese));
    ui::DeployPage *page = f.open();
    QVERIFY(page);
    page->setHost(h.name);
    QCOMPARE(itemText(page, QStringLiteral("preflight.ssh")), QStringLiteral("SSH 连接"));
    QCOMPARE(itemText(page, QStringLiteral("pull")), QStringLiteral("拉取固定的镜像"));
    page->selectStep(QStringLiteral("pull"));
    QVERIFY2(detailTitle(page).contains(QStringLiteral("拉取固定的镜像")),
             qPrintable(detailTitle(page).join(QLatin1Char('|'))));
}

QTEST_MAIN(TestDeployPage)
#include "tst_deploypage.moc"
