#include "backend/core/apppaths.h"
#include "backend/core/settings.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/hostentry.h"
#include "backend/fleet/inventory.h"
#include "backend/metrics/timeseries.h"
#include "backend/ssh/runtimeinfo.h"
#include "tests/support/longloadtestreport.h"
#include "ui/charts/timechart.h"
#include "ui/fleet/fleetmodel.h"
#include "ui/focusringstyle.h"
#include "ui/mainwindow.h"
#include "ui/pages/deploypage.h"
#include "ui/pages/fleetpage.h"
#include "ui/pages/logspage.h"
#include "ui/pages/metricspage.h"
#include "ui/pages/playgroundpage.h"
#include "ui/playground/loadtestpanel.h"

#include <QAbstractScrollArea>
#include <QAccessible>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSet>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <tuple>

using flashdeck::ui::MainWindow;

/**
 * Smoke test of the window frame: opens it offscreen, visits every page by clicking the
 * navigation and by keyboard, and saves a screenshot of each page. `make screenshots` runs
 * this with FLASHDECK_SCREENSHOT_DIR=docs/screenshots.
 */
class TestMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void everyPage_opensAndIsCaptured();
    void shortcuts_switchPages();
    void chart_smallRanges_readableAxis_data();
    void chart_smallRanges_readableAxis();
    void closing_remembersPage();
    void emptyInventory_saysSo();
    void simulatedHosts_areLabelled();
    void fleetTable_fitsALaptop_thumbWhereTheViewIs();
    void alertThresholds_applyAndPersist();
    void everyFocusableControl_hasAName();
    void keyboard_tabLeavesTables_wheelNeedsFocus_quitCloses();
    void focusRing_showsWhereTheKeyboardIs();

private:
    QString screenshotDir() const;
    QTemporaryDir m_root;
};

void TestMainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_root.isValid());
}

QString TestMainWindow::screenshotDir() const
{
    const QString dir = qEnvironmentVariable("FLASHDECK_SCREENSHOT_DIR", m_root.path() + QStringLiteral("/shots"));
    QDir().mkpath(dir);
    return dir;
}

void TestMainWindow::everyPage_opensAndIsCaptured()
{
    const flashdeck::AppPaths paths(m_root.path() + QStringLiteral("/a"));
    QVERIFY(paths.ensureExists());
    flashdeck::Settings settings(paths);
    flashdeck::ssh::RuntimeInfo info = flashdeck::ssh::RuntimeInfo::current();
    info.logFile = paths.logDir() + QStringLiteral("/flashdeck.log");
    flashdeck::fleet::Inventory inventory(paths.inventoryFile());
    MainWindow window(paths, settings, inventory, info);
    window.resize(1180, 760);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    auto *navigation = window.findChild<QListWidget *>(QStringLiteral("navigation"));
    auto *pages = window.findChild<QStackedWidget *>(QStringLiteral("pages"));
    QVERIFY(navigation);
    QVERIFY(pages);
    QCOMPARE(navigation->count(), MainWindow::pageCount);
    QCOMPARE(pages->count(), MainWindow::pageCount);
    // It fits a 1366 × 768 screen with a title bar and a panel: no page asks for more.
    QVERIFY2(
        window.minimumSizeHint().width() <= 1366 && window.minimumSizeHint().height() <= 700,
        qPrintable(
            QStringLiteral("%1 × %2").arg(window.minimumSizeHint().width()).arg(window.minimumSizeHint().height())));

    for (int i = 0; i < MainWindow::pageCount; ++i) {
        const auto page = static_cast<MainWindow::Page>(i);
        const QRect rect = navigation->visualItemRect(navigation->item(i));
        QTest::mouseClick(navigation->viewport(), Qt::LeftButton, {}, rect.center());
        QTRY_COMPARE(window.currentPage(), page);
        QCOMPARE(navigation->item(i)->text(), MainWindow::pageTitle(page));
        QVERIFY(pages->currentWidget()->isVisible());

        const QString file =
            QDir(screenshotDir()).filePath(QStringLiteral("page-%1.png").arg(MainWindow::pageTitle(page).toLower()));
        QVERIFY2(window.grab().save(file), qPrintable(file));
        QVERIFY(QFileInfo(file).size() > 1000);
    }

    // The Playground's longest state, a load test the server stopped, with its notes and errors:
    // its sentences once widened the window to 1616 px and pushed the charts and the window's
    // buttons off a laptop's screen, on every page after it.
    window.showPage(MainWindow::Page::Playground);
    auto *load = window.findChild<flashdeck::ui::LoadTestPanel *>();
    QVERIFY(load);
    window.findChild<QTabWidget *>(QStringLiteral("playgroundTabs"))->setCurrentWidget(load);
    const auto report = flashdeck::test::longLoadTestReport();
    load->showReport(report, true);
    QVERIFY2(window.minimumSizeHint().width() <= 1366, qPrintable(QString::number(window.minimumSizeHint().width())));
    QTRY_VERIFY2(window.width() <= 1366, qPrintable(QString::number(window.width())));
    window.showPage(MainWindow::Page::Fleet);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QVERIFY2(window.width() <= 1366, qPrintable(QString::number(window.width())));
}

void TestMainWindow::shortcuts_switchPages()
{
    const flashdeck::AppPaths paths(m_root.path() + QStringLiteral("/b"));
    QVERIFY(paths.ensureExists());
    flashdeck::Settings settings(paths);
    flashdeck::fleet::Inventory inventory(paths.inventoryFile());
    MainWindow window(paths, settings, inventory, flashdeck::ssh::RuntimeInfo::current());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.activateWindow();
    QTRY_VERIFY(window.isActiveWindow());
    for (int i = MainWindow::pageCount - 1; i >= 0; --i) {
        QTest::keyClick(&window, static_cast<Qt::Key>(Qt::Key_1 + i), Qt::ControlModifier);
        QTRY_COMPARE(static_cast<int>(window.currentPage()), i);
    }
}

void TestMainWindow::closing_remembersPage()
{
    const flashdeck::AppPaths paths(m_root.path() + QStringLiteral("/c"));
    QVERIFY(paths.ensureExists());
    {
        flashdeck::Settings settings(paths);
        flashdeck::fleet::Inventory inventory(paths.inventoryFile());
        MainWindow window(paths, settings, inventory, flashdeck::ssh::RuntimeInfo::current());
        window.show();
        window.showPage(MainWindow::Page::Metrics);
        QVERIFY(window.close());
    }
    flashdeck::Settings settings(paths);
    QCOMPARE(settings.lastPage(), static_cast<int>(MainWindow::Page::Metrics));
    flashdeck::fleet::Inventory inventory(paths.inventoryFile());
    MainWindow reopened(paths, settings, inventory, flashdeck::ssh::RuntimeInfo::current());
    QCOMPARE(reopened.currentPage(), MainWindow::Page::Metrics);
}

void TestMainWindow::alertThresholds_applyAndPersist()
{
    const flashdeck::AppPaths paths(m_root.path() + QStringLiteral("/t"));
    QVERIFY(paths.ensureExists());
    {
        flashdeck::Settings settings(paths);
        flashdeck::fleet::Inventory inventory(paths.inventoryFile());
        MainWindow window(paths, settings, inventory, flashdeck::ssh::RuntimeInfo::current());
        window.showPage(MainWindow::Page::Settings);
        auto *queue = window.findChild<QDoubleSpinBox *>(QStringLiteral("threshold_queue_depth"));
        QVERIFY(queue);
        QCOMPARE(queue->value(), 32.0); // the default
        queue->setValue(7);
        QCOMPARE(window.fleet().thresholds().queueDepth, 7.0); // every host judged with it at once
        auto *notify = window.findChild<QCheckBox *>(QStringLiteral("alertNotifications"));
        QVERIFY(notify && !notify->isChecked());
        notify->setChecked(true);
        auto *keep = window.findChild<QCheckBox *>(QStringLiteral("keepMetricsHistory"));
        QVERIFY(keep && !keep->isChecked()); // off unless asked: nothing written behind the operator's back
        keep->setChecked(true);
        QVERIFY(window.fleet().keepHistory());
        QVERIFY(window.close());
    }
    flashdeck::Settings settings(paths);
    QCOMPARE(settings.alertThreshold(QStringLiteral("queue_depth"), 0), 7.0);
    QVERIFY(settings.alertNotifications());
    QVERIFY(settings.keepMetricsHistory());
    flashdeck::fleet::Inventory inventory(paths.inventoryFile());
    MainWindow reopened(paths, settings, inventory, flashdeck::ssh::RuntimeInfo::current());
    QCOMPARE(reopened.fleet().thresholds().queueDepth, 7.0);
}

void TestMainWindow::emptyInventory_saysSo()
{
    const flashdeck::AppPaths paths(m_root.path() + QStringLiteral("/d"));
    QVERIFY(paths.ensureExists());
    flashdeck::Settings settings(paths);
    flashdeck::fleet::Inventory inventory(paths.inventoryFile());
    MainWindow window(paths, settings, inventory, flashdeck::ssh::RuntimeInfo::current());
    auto *selector = window.findChild<QComboBox *>(QStringLiteral("hostSelector"));
    auto *status = window.findChild<QLabel *>(QStringLiteral("statusText"));
    QVERIFY(selector && status);
    QCOMPARE(selector->count(), 0);
    QVERIFY(status->text().contains(QStringLiteral("No hosts")));
}

void TestMainWindow::simulatedHosts_areLabelled()
{
    // What `make run` (flashdeck --demo) shows first: the demo hosts, marked as simulated.
    const flashdeck::AppPaths paths(m_root.path() + QStringLiteral("/demo"));
    QVERIFY(paths.ensureExists());
    flashdeck::Settings settings(paths);
    flashdeck::fleet::Inventory inventory(paths.inventoryFile());
    for (const auto &[name, port, simulated] :
         {std::tuple{QStringLiteral("demo"), 40123, true}, std::tuple{QStringLiteral("demo-amd"), 40124, true},
          std::tuple{QStringLiteral("b300-a"), 22, false}}) {
        flashdeck::fleet::HostEntry h;
        h.name = name;
        h.address = simulated ? QStringLiteral("127.0.0.1") : QStringLiteral("gpu1.example.com");
        h.user = QStringLiteral("ops");
        h.port = quint16(port);
        h.simulated = simulated;
        QVERIFY(inventory.add(h));
    }
    MainWindow window(paths, settings, inventory, flashdeck::ssh::RuntimeInfo::current());
    window.resize(1180, 760);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto *selector = window.findChild<QComboBox *>(QStringLiteral("hostSelector"));
    QVERIFY(selector);
    QCOMPARE(selector->count(), 3);
    QVERIFY(selector->itemText(0).endsWith(QLatin1String("[SIMULATED]")));
    QVERIFY(selector->itemText(1).endsWith(QLatin1String("[SIMULATED]")));
    QVERIFY(!selector->itemText(2).contains(QLatin1String("SIMULATED")));
    const QString file = QDir(screenshotDir()).filePath(QStringLiteral("demo-hosts.png"));
    QVERIFY2(window.grab().save(file), qPrintable(file));
    // The host the bar shows at the first start (no last host yet: the first) is every page's.
    QCOMPARE(selector->currentData().toString(), QStringLiteral("demo"));
    // Pages other than the first are built after the first paint, each from the host chosen then.
    QTRY_VERIFY(window.findChild<flashdeck::ui::MetricsPage *>() &&
                window.findChild<flashdeck::ui::PlaygroundPage *>() && window.findChild<flashdeck::ui::LogsPage *>() &&
                window.findChild<flashdeck::ui::DeployPage *>() &&
                !window.findChild<QWidget *>(QStringLiteral("pageNotBuiltYet")));
    QCOMPARE(window.findChild<flashdeck::ui::MetricsPage *>()->host(), QStringLiteral("demo"));
    QCOMPARE(window.findChild<flashdeck::ui::PlaygroundPage *>()->host(), QStringLiteral("demo"));
    QCOMPARE(window.findChild<flashdeck::ui::LogsPage *>()->host(), QStringLiteral("demo"));
    QCOMPARE(window.findChild<flashdeck::ui::DeployPage *>()->host(), QStringLiteral("demo"));
}

namespace {

/** The middle (0…1) of the dark part of a horizontal scroll bar's picture: where its thumb is drawn. */
double thumbAt(QScrollBar *bar)
{
    const QImage image = bar->grab().toImage();
    const int y = image.height() / 2;
    int lo = 255;
    int hi = 0;
    for (int x = 0; x < image.width(); ++x) {
        lo = std::min(lo, qGray(image.pixel(x, y)));
        hi = std::max(hi, qGray(image.pixel(x, y)));
    }
    double sum = 0;
    int n = 0;
    for (int x = 0; x < image.width(); ++x) {
        if (qGray(image.pixel(x, y)) < (lo + hi) / 2) {
            sum += x;
            ++n;
        }
    }
    return n == 0 ? -1 : sum / n / std::max(1, image.width() - 1);
}

} // namespace

void TestMainWindow::fleetTable_fitsALaptop_thumbWhereTheViewIs()
{
    // At 1366 × 768 the Fleet shows what matters without sideways scrolling ("Updated" is hidden
    // unless the operator shows it), and a scroll bar's thumb is drawn where the view is: it was
    // drawn at the far end (Fusion's light thumb on a dark groove).
    const flashdeck::AppPaths paths(m_root.path() + QStringLiteral("/fleetfit"));
    QVERIFY(paths.ensureExists());
    flashdeck::Settings settings(paths);
    flashdeck::fleet::Inventory inventory(paths.inventoryFile());
    flashdeck::fleet::HostEntry h;
    h.name = QStringLiteral("gpu-b300-a");
    h.address = QStringLiteral("127.0.0.1");
    h.port = 1; // nothing listens: the row shows the host unreachable, which is all this needs
    QVERIFY(inventory.add(h));
    MainWindow window(paths, settings, inventory, flashdeck::ssh::RuntimeInfo::current());
    window.resize(1366, 740);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.showPage(MainWindow::Page::Fleet);
    auto *table = window.findChild<QTableView *>(QStringLiteral("fleetTable"));
    QVERIFY(table);
    QTRY_VERIFY(table->isVisible());
    QVERIFY(table->isColumnHidden(flashdeck::ui::FleetModel::Updated));
    QVERIFY(!table->isColumnHidden(flashdeck::ui::FleetModel::Health));
    QTRY_COMPARE(table->horizontalScrollBar()->maximum(), 0);

    // Narrower: the table scrolls, and the thumb follows the view.
    window.resize(900, 700);
    QScrollBar *bar = table->horizontalScrollBar();
    QTRY_VERIFY(bar->maximum() > 0);
    bar->setValue(0);
    QVERIFY2(thumbAt(bar) < 0.5, qPrintable(QString::number(thumbAt(bar))));
    bar->setValue(bar->maximum());
    QVERIFY2(thumbAt(bar) > 0.5, qPrintable(QString::number(thumbAt(bar))));
    QVERIFY(bar->grab().save(QDir(screenshotDir()).filePath(QStringLiteral("fleet-scrollbar.png"))));

    // The operator's choice of columns is kept.
    auto *page = window.findChild<flashdeck::ui::FleetPage *>();
    QVERIFY(page);
    page->setHiddenColumns({QStringLiteral("disk")});
    QVERIFY(table->isColumnHidden(flashdeck::ui::FleetModel::Disk));
    QVERIFY(!table->isColumnHidden(flashdeck::ui::FleetModel::Updated));
    settings.setFleetHiddenColumns(page->hiddenColumns());
    QCOMPARE(settings.fleetHiddenColumns(), QStringList{QStringLiteral("disk")});
}

void TestMainWindow::chart_smallRanges_readableAxis_data()
{
    QTest::addColumn<QList<double>>("values");
    QTest::newRow("one request") << QList<double>{0, 1, 1, 0, 1};
    QTest::newRow("a quarter") << QList<double>{0.25, 0.25, 0.2};
    QTest::newRow("a few") << QList<double>{1, 2, 3, 2};
    QTest::newRow("hundredths") << QList<double>{0.01, 0.02, 0.015};
    QTest::newRow("hundreds") << QList<double>{250, 260, 255};
    QTest::newRow("nothing yet") << QList<double>{};
}

void TestMainWindow::chart_smallRanges_readableAxis()
{
    QFETCH(QList<double>, values);
    flashdeck::metrics::TimeSeries series;
    const qint64 now = 10000000;
    for (int i = 0; i < values.size(); ++i) {
        series.append(now - (values.size() - i) * 1000, values.at(i));
    }
    flashdeck::ui::TimeChart chart(QStringLiteral("requests"), QStringLiteral("req"));
    chart.resize(400, 220);
    chart.addLine(QStringLiteral("running"), Qt::blue, [&series] { return &series; });
    chart.show();
    const QStringList empty = chart.yLabels(); // before any data too
    QVERIFY2(QSet<QString>(empty.begin(), empty.end()).size() == empty.size(),
             qPrintable(empty.join(QStringLiteral(", "))));
    chart.refresh(now, 60000);
    const QStringList labels = chart.yLabels();
    QVERIFY(labels.size() >= 2);
    // No two ticks read alike ("0, 0, 1, 1, 1" was), and none with more digits than it needs.
    QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), labels.size());
    for (const QString &l : labels) {
        QVERIFY2(l.section(QLatin1Char('.'), 1).size() <= 3, qPrintable(labels.join(QStringLiteral(", "))));
    }
}

namespace {
/** One host nobody answers for: the pages show their host-bound controls without a server. */
flashdeck::fleet::HostEntry quietHost()
{
    flashdeck::fleet::HostEntry h;
    h.name = QStringLiteral("gpu1");
    h.address = QStringLiteral("127.0.0.1");
    h.port = 1;
    h.user = QStringLiteral("root");
    return h;
}

/** The window at 1366 × 740 over one quiet host, in its own config folder. */
struct QuietWindow
{
    explicit QuietWindow(const QString &dir)
        : paths(dir)
        , created(paths.ensureExists())
        , settings(paths)
        , inventory(paths.inventoryFile())
        , added(inventory.add(quietHost()).isOk())
        , window(paths, settings, inventory, flashdeck::ssh::RuntimeInfo::current())
    {
        window.resize(1366, 740);
        window.show();
    }
    bool ready() { return created && added && QTest::qWaitForWindowExposed(&window); }

    const flashdeck::AppPaths paths;
    const bool created;
    flashdeck::Settings settings;
    flashdeck::fleet::Inventory inventory;
    const bool added;
    MainWindow window;
};
} // namespace

void TestMainWindow::everyFocusableControl_hasAName()
{
    // A screen reader says what a control is from its accessible name (WCAG 2.1, 4.1.2): every
    // control Tab reaches on every page has one, its own or its label's (a buddy).
    QuietWindow quiet(m_root.path() + QStringLiteral("/names"));
    QVERIFY(quiet.ready());
    MainWindow &window = quiet.window;
    QStringList nameless;
    for (int i = 0; i < MainWindow::pageCount; ++i) {
        window.showPage(static_cast<MainWindow::Page>(i));
        QTRY_COMPARE(static_cast<int>(window.currentPage()), i);
        for (QWidget *w : window.findChildren<QWidget *>()) {
            if (!w->isVisible() || !(w->focusPolicy() & Qt::TabFocus) || w->focusProxy()) {
                continue;
            }
            if (qobject_cast<QAbstractScrollArea *>(w->parentWidget()) &&
                static_cast<QAbstractScrollArea *>(w->parentWidget())->viewport() == w) {
                continue; // a view's viewport: the view carries the name
            }
            QAccessibleInterface *a = QAccessible::queryAccessibleInterface(w);
            if (!a || a->text(QAccessible::Name).trimmed().isEmpty()) {
                const QString id = QStringLiteral("%1 (%2) on %3")
                                       .arg(w->objectName(), QString::fromLatin1(w->metaObject()->className()),
                                            MainWindow::pageTitle(static_cast<MainWindow::Page>(i)));
                if (!nameless.contains(id)) {
                    nameless << id;
                }
            }
        }
    }
    QVERIFY2(nameless.isEmpty(), qPrintable(nameless.join(QLatin1String("\n"))));
}

void TestMainWindow::keyboard_tabLeavesTables_wheelNeedsFocus_quitCloses()
{
    QuietWindow quiet(m_root.path() + QStringLiteral("/keys"));
    QVERIFY(quiet.ready());
    MainWindow &window = quiet.window;
    window.activateWindow();
    QTRY_VERIFY(window.isActiveWindow());

    // Tab leaves the Fleet table (it used to move the current cell, trapping the keyboard).
    window.showPage(MainWindow::Page::Fleet);
    auto *table = window.findChild<flashdeck::ui::FleetPage *>()->findChild<QTableView *>();
    QVERIFY(table);
    table->setFocus();
    QTRY_VERIFY(table->hasFocus());
    QTest::keyClick(table, Qt::Key_Tab);
    QTRY_VERIFY(!table->hasFocus());

    // Tab leaves the Playground's message box (it used to type a tab character there).
    window.showPage(MainWindow::Page::Playground);
    auto *message = window.findChild<QPlainTextEdit *>(QStringLiteral("prompt"));
    QVERIFY(message && message->isVisible());
    message->setFocus();
    QTRY_VERIFY(message->hasFocus());
    QTest::keyClick(message, Qt::Key_Tab);
    QTRY_VERIFY(!message->hasFocus());
    QVERIFY(message->toPlainText().isEmpty());

    // The wheel over Settings scrolls the page; it switches no combo box it passes over.
    window.showPage(MainWindow::Page::Settings);
    auto *source = window.findChild<QComboBox *>(QStringLiteral("prometheusSource"));
    QVERIFY(source && source->isVisible());
    QVERIFY(!source->hasFocus());
    const int before = source->currentIndex();
    const QPoint at = source->rect().center();
    QWheelEvent down(at, source->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                     Qt::NoScrollPhase, false);
    QApplication::sendEvent(source, &down);
    QWheelEvent up(at, source->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                   Qt::NoScrollPhase, false);
    QApplication::sendEvent(source, &up);
    QCOMPARE(source->currentIndex(), before);
    QCOMPARE(source->focusPolicy(), Qt::StrongFocus);

    // Ctrl+Q closes the window (nothing runs: nothing to ask).
    QTest::keyClick(&window, Qt::Key_Q, Qt::ControlModifier);
    QTRY_VERIFY(!window.isVisible());
}

void TestMainWindow::focusRing_showsWhereTheKeyboardIs()
{
    // Fusion draws no focus on a push button: Run and Acknowledge showed none. The window's style
    // (app/main.cpp) draws a ring in the highlight colour when the focus came by the keyboard.
    flashdeck::ui::FocusRingStyle ring(QApplication::style()->name());
    QWidget box;
    auto *first = new QPushButton(QStringLiteral("Before"), &box);
    auto *run = new QPushButton(QStringLiteral("Run"), &box);
    run->move(0, 50);
    for (QPushButton *b : {first, run}) {
        b->setStyle(&ring);
        b->resize(120, 36);
    }
    box.resize(200, 120);
    box.show();
    QVERIFY(QTest::qWaitForWindowExposed(&box));
    const QColor highlight = run->palette().color(QPalette::Highlight);
    const auto ringPixels = [run, highlight] {
        const QImage image = run->grab().toImage();
        int n = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                n += image.pixelColor(x, y) == highlight ? 1 : 0;
            }
        }
        return n;
    };
    QCOMPARE(ringPixels(), 0);
    box.activateWindow();
    first->setFocus();
    QTRY_VERIFY(first->hasFocus());
    QTest::keyClick(first, Qt::Key_Tab); // the keyboard moves the focus to Run
    QTRY_VERIFY(run->hasFocus());
    QTRY_VERIFY2(ringPixels() > 100, qPrintable(QString::number(ringPixels())));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
