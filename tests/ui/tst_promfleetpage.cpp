#include "fakeexporters.h"
#include "fakehttpserver.h"
#include "prometheusfixture.h"

#include "backend/core/apppaths.h"
#include "backend/core/settings.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/hostsession.h"
#include "backend/fleet/inventory.h"
#include "backend/prometheus/promconfig.h"
#include "backend/prometheus/promfleetsource.h"
#include "backend/security/redactor.h"
#include "backend/ssh/hostconnection.h"
#include "backend/ssh/runtimeinfo.h"
#include "ui/charts/timechart.h"
#include "ui/dialogs/addhostdialog.h"
#include "ui/fleet/fleetmodel.h"
#include "ui/fleet/prometheusbox.h"
#include "ui/mainwindow.h"
#include "ui/pages/fleetpage.h"
#include "ui/pages/metricspage.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck;
using flashdeck::testing::FakeHttpServer;
using flashdeck::testing::PrometheusFixture;
using namespace flashdeck::testing::exporters;

namespace {

QString shotPath(const QString &fallbackDir, const QString &name)
{
    const QString dir = qEnvironmentVariable("FLASHDECK_SCREENSHOT_DIR", fallbackDir);
    QDir().mkpath(dir);
    return QDir(dir).filePath(name);
}

} // namespace

/**
 * The window on the operator's Prometheus (Debian's real one, scraping dcgm- and SGLang-shaped
 * exporters): chosen in Settings → Fleet, the Fleet page lists the inventory's host from it and
 * the host only Prometheus knows, without an SSH session to the former; the Metrics page draws
 * its charts from range queries; when Prometheus goes away the page says so and SSH takes over.
 */
class TestPromFleetPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void settingsChoosePrometheus_fleetAndMetricsFollow_sshTakesOverWhenItGoes();
    void window_doubleClickOpensThatHostsMetrics_sayingWhatPrometheusHas();
};

void TestPromFleetPage::settingsChoosePrometheus_fleetAndMetricsFollow_sshTakesOverWhenItGoes()
{
    FakeHttpServer dcgm1;
    FakeHttpServer sglang1;
    FakeHttpServer dcgm3;
    int scrapes = 0;
    dcgm1.on("GET", "/metrics", exposition(dcgmText(QStringLiteral("gpu1"), 8, 200000)));
    sglang1.on("GET", "/metrics",
               [&scrapes](const FakeHttpServer::Request &) { return exposition(sglangText(++scrapes)); });
    dcgm3.on("GET", "/metrics", exposition(dcgmText(QStringLiteral("gpu3"), 4, 1000)));
    PrometheusFixture prometheus;
    QString error;
    const auto job = [](const char *name, quint16 port, const char *host) {
        return QStringLiteral("  - job_name: %1\n    static_configs:\n      - targets: [\"127.0.0.1:%2\"]\n"
                              "        labels: {host: %3}\n")
            .arg(QLatin1String(name))
            .arg(port)
            .arg(QLatin1String(host));
    };
    QVERIFY2(prometheus.start(job("dcgm", dcgm1.port(), "gpu1") + job("sglang", sglang1.port(), "gpu1") +
                                  job("dcgm3", dcgm3.port(), "gpu3"),
                              &error),
             qPrintable(error));
    QVERIFY2(prometheus.waitForSeries(QStringLiteral("rate(sglang:num_requests_total[5m]) > 0"), 1, 60000, &error),
             qPrintable(error));
    // Some history for the charts: two points 5 s apart at least.
    QVERIFY2(
        prometheus.waitForSeries(QStringLiteral("count_over_time(DCGM_FI_DEV_GPU_UTIL[1m]) > 10"), 8, 60000, &error),
        qPrintable(error));

    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    Settings settings(paths);
    fleet::FleetWatcher fleet(paths, metrics::AlertThresholds{}, nullptr);
    fleet::HostEntry gpu1;
    gpu1.name = QStringLiteral("gpu1");
    gpu1.address = QStringLiteral("127.0.0.1");
    {
        QTcpServer closed; // a port nothing listens on once this scope ends
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        gpu1.port = closed.serverPort();
    }
    gpu1.user = QStringLiteral("ops");

    // Prometheus chosen before the hosts are listed, as at start-up: gpu1 is not connected.
    ui::PrometheusBox box(settings, fleet);
    box.findChild<QComboBox *>(QStringLiteral("prometheusSource"))->setCurrentIndex(1);
    box.findChild<QLineEdit *>(QStringLiteral("prometheusUrl"))->setText(prometheus.url().toString());
    box.findChild<QLineEdit *>(QStringLiteral("prometheusHostLabel"))->setText(QStringLiteral("host"));
    box.apply();
    QCOMPARE(prom::PromConfig::fromSettings(settings).source, prom::FleetSource::Prometheus);
    QCOMPARE(prom::PromConfig::fromSettings(settings).hostLabel, QStringLiteral("host"));
    fleet.setHosts({gpu1});

    ui::FleetPage page(fleet);
    QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    page.resize(1366, 740);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 2, 30000);
    QCOMPARE(page.model()->hostAt(0), QStringLiteral("gpu1"));
    QCOMPARE(page.model()->hostAt(1), QStringLiteral("gpu3"));
    const QModelIndex gpus = page.model()->index(0, ui::FleetModel::Gpus);
    QTRY_COMPARE_WITH_TIMEOUT(gpus.data().toString(), QStringLiteral("8 × NVIDIA B300"), 30000);
    QVERIFY(
        page.model()->index(1, ui::FleetModel::Host).data().toString().contains(QLatin1String("not in the inventory")));
    auto *source = page.findChild<QLabel *>(QStringLiteral("fleetSource"));
    QVERIFY2(source->isVisible() &&
                 source->text().contains(
                     QStringLiteral("Figures from Prometheus at %1 for 2 host(s)").arg(prometheus.url().toString())),
             qPrintable(source->text()));
    QVERIFY(box.findChild<QLabel *>(QStringLiteral("prometheusState"))->text().contains(QLatin1String("2 host")));
    // Prometheus watches it: no SSH session was opened.
    QCOMPARE(fleet.session(QStringLiteral("gpu1"))->state().phase, ssh::ConnectionPhase::Disconnected);
    QVERIFY(page.grab().save(shotPath(root.path(), QStringLiteral("fleet-prometheus.png"))));

    // The host only Prometheus knows joins the inventory from its row.
    auto *addKnown = page.findChild<QPushButton *>(QStringLiteral("fleetAddKnownHost"));
    QVERIFY(addKnown->isHidden());
    page.table()->selectRow(1);
    QVERIFY(addKnown->isVisible());
    QSignalSpy addAsked(&page, &ui::FleetPage::addKnownHostRequested);
    addKnown->click();
    QCOMPARE(addAsked.size(), 1);
    QCOMPARE(addAsked.first().first().toString(), QStringLiteral("gpu3"));
    ui::AddHostDialog add({QStringLiteral("gpu1")}, QString());
    add.prefill(QStringLiteral("gpu3"), QStringLiteral("gpu3"));
    QCOMPARE(add.host().name, QStringLiteral("gpu3"));
    QCOMPARE(add.host().address, QStringLiteral("gpu3"));
    page.table()->selectRow(0);
    QVERIFY(addKnown->isHidden()); // an inventory host is there already
    // A double-click opens the host clicked, the one only Prometheus knows too (the window's host
    // bar has no row for it: the window hands the name to the Metrics page itself).
    QSignalSpy opened(&page, &ui::FleetPage::openHost);
    const QAbstractItemModel *shown = page.table()->model();
    QModelIndex gpu3Index;
    for (int row = 0; row < shown->rowCount(); ++row) {
        const QModelIndex i = shown->index(row, ui::FleetModel::Host);
        if (i.data(ui::FleetModel::HostRole).toString() == QLatin1String("gpu3")) {
            gpu3Index = i;
        }
    }
    QVERIFY(gpu3Index.isValid());
    const QRect gpu3Row = page.table()->visualRect(gpu3Index);
    // As a mouse sends it: a click, then the double-click (an item view checks the press's row).
    QTest::mouseClick(page.table()->viewport(), Qt::LeftButton, {}, gpu3Row.center());
    QTest::mouseDClick(page.table()->viewport(), Qt::LeftButton, {}, gpu3Row.center());
    QCOMPARE(opened.size(), 1);
    QCOMPARE(opened.first().first().toString(), QStringLiteral("gpu3"));

    // The Metrics page: its charts from range queries, per GPU and for the server.
    ui::MetricsPage metrics(fleet);
    metrics.resize(1366, 740);
    metrics.show();
    QVERIFY(QTest::qWaitForWindowExposed(&metrics));
    metrics.setHost(QStringLiteral("gpu1"));
    QTRY_VERIFY_WITH_TIMEOUT(
        metrics.charts().first()->lineCount() == 8 && metrics.charts().first()->pointsDrawn() >= 16, 30000);
    // The page says what Prometheus has (ten blank charts with no word were seen).
    auto *summary = metrics.findChild<QLabel *>(QStringLiteral("metricsSummary"));
    QTRY_VERIFY2_WITH_TIMEOUT(summary->text().contains(QLatin1String("charts from Prometheus (")),
                              qPrintable(summary->text()), 30000);
    QVERIFY(metrics.grab().save(shotPath(root.path(), QStringLiteral("metrics-prometheus.png"))));

    // Prometheus goes away: said on the page, and gpu1 is watched over SSH (where nothing answers).
    prometheus.stop();
    QTRY_VERIFY2_WITH_TIMEOUT(source->text().contains(QLatin1String("did not answer")) &&
                                  source->text().contains(QLatin1String("watched over SSH")),
                              qPrintable(source->text()), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(fleet.session(QStringLiteral("gpu1"))->state().phase != ssh::ConnectionPhase::Disconnected,
                             30000);
    QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 1, 30000);
    QCOMPARE(fleet.status(QStringLiteral("gpu1")).source, QStringLiteral("ssh"));

    // Back to SSH in Settings: the Prometheus header leaves the Fleet page (it stayed on screen)
    // and the Metrics page no longer speaks of Prometheus.
    QVERIFY(source->isVisible());
    box.findChild<QComboBox *>(QStringLiteral("prometheusSource"))->setCurrentIndex(0);
    box.apply();
    QCOMPARE(prom::PromConfig::fromSettings(settings).source, prom::FleetSource::Ssh);
    QTRY_VERIFY(!source->isVisible());
    QVERIFY(addKnown->isHidden());
    QTRY_VERIFY2(!summary->text().contains(QLatin1String("Prometheus")), qPrintable(summary->text()));
}

void TestPromFleetPage::window_doubleClickOpensThatHostsMetrics_sayingWhatPrometheusHas()
{
    // gpu3's DCGM exporter (a host only Prometheus knows), and the inventory's gpu4 whose only
    // target exports nothing Flashdeck charts.
    FakeHttpServer dcgm3;
    FakeHttpServer other4;
    dcgm3.on("GET", "/metrics", exposition(dcgmText(QStringLiteral("gpu3"), 4, 1000)));
    other4.on("GET", "/metrics", exposition(QByteArrayLiteral("# TYPE node_load1 gauge\nnode_load1 0.5\n")));
    PrometheusFixture prometheus;
    QString error;
    QVERIFY2(prometheus.start(
                 QStringLiteral("  - job_name: dcgm3\n    static_configs:\n      - targets: [\"127.0.0.1:%1\"]\n"
                                "        labels: {host: gpu3}\n"
                                "  - job_name: other4\n    static_configs:\n      - targets: [\"127.0.0.1:%2\"]\n"
                                "        labels: {host: gpu4}\n")
                     .arg(dcgm3.port())
                     .arg(other4.port()),
                 &error),
             qPrintable(error));
    // History enough for a chart: range queries step 5 s at least, so samples of the last few
    // seconds alone may fall after the last step (seen in CI: an empty first load, charts only at
    // the reload a minute later).
    QVERIFY2(
        prometheus.waitForSeries(QStringLiteral("count_over_time(DCGM_FI_DEV_GPU_UTIL[1m]) > 10"), 4, 60000, &error),
        qPrintable(error));
    QVERIFY2(prometheus.waitForSeries(QStringLiteral("up{host=\"gpu4\"} == 1"), 1, 60000, &error), qPrintable(error));

    // The window as the app starts it with Prometheus chosen in Settings (the fleet told before
    // the window opens): the host bar lists gpu4 only.
    QTemporaryDir root;
    const AppPaths paths(root.filePath(QStringLiteral("cfg")));
    QVERIFY(paths.ensureExists());
    Settings settings(paths);
    prom::PromConfig config;
    config.source = prom::FleetSource::Prometheus;
    config.url = prometheus.url();
    config.hostLabel = QStringLiteral("host");
    config.writeTo(settings);
    fleet::FleetWatcher watcher(paths, metrics::AlertThresholds{}, nullptr);
    watcher.usePrometheus(config, QString());
    fleet::Inventory inventory(paths.inventoryFile());
    fleet::HostEntry gpu4;
    gpu4.name = QStringLiteral("gpu4");
    gpu4.address = QStringLiteral("127.0.0.1");
    gpu4.port = 1; // Prometheus watches it: never connected
    gpu4.user = QStringLiteral("ops");
    QVERIFY(inventory.add(gpu4).isOk());
    security::Redactor redactor;
    ui::MainWindow window(paths, settings, inventory, ssh::RuntimeInfo::current(), &watcher, &redactor);
    window.resize(1366, 768);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.showPage(ui::MainWindow::Page::Fleet);
    auto *fleet = window.findChild<ui::FleetPage *>();
    QVERIFY(fleet);
    QTRY_COMPARE_WITH_TIMEOUT(fleet->model()->rowCount(), 2, 30000);
    const auto doubleClick = [fleet](const QString &host) {
        const QAbstractItemModel *shown = fleet->table()->model();
        for (int row = 0; row < shown->rowCount(); ++row) {
            const QModelIndex i = shown->index(row, ui::FleetModel::Host);
            if (i.data(ui::FleetModel::HostRole).toString() == host) {
                const QPoint at = fleet->table()->visualRect(i).center();
                QTest::mouseClick(fleet->table()->viewport(), Qt::LeftButton, {}, at);
                QTest::mouseDClick(fleet->table()->viewport(), Qt::LeftButton, {}, at);
                return true;
            }
        }
        return false;
    };

    // gpu4: its Metrics page says Prometheus has nothing to chart (ten blank charts said nothing).
    QVERIFY(doubleClick(QStringLiteral("gpu4")));
    QCOMPARE(window.currentPage(), ui::MainWindow::Page::Metrics);
    auto *metrics = window.findChild<ui::MetricsPage *>();
    QVERIFY(metrics && metrics->isVisible());
    QCOMPARE(metrics->host(), QStringLiteral("gpu4"));
    auto *summary = metrics->findChild<QLabel *>(QStringLiteral("metricsSummary"));
    QTRY_VERIFY2_WITH_TIMEOUT(summary->text().contains(QLatin1String("Prometheus has no series for gpu4")),
                              qPrintable(summary->text()), 30000);

    // Back to the Fleet page, gpu3: its own charts, from Prometheus, not the host bar's gpu4's.
    window.showPage(ui::MainWindow::Page::Fleet);
    QVERIFY(doubleClick(QStringLiteral("gpu3")));
    QCOMPARE(window.currentPage(), ui::MainWindow::Page::Metrics);
    QCOMPARE(metrics->host(), QStringLiteral("gpu3"));
    QTRY_VERIFY2_WITH_TIMEOUT(summary->text().contains(QLatin1String("charts from Prometheus (")),
                              qPrintable(summary->text()), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(metrics->charts().first()->lineCount() == 4, 30000);
}

QTEST_MAIN(TestPromFleetPage)
#include "tst_promfleetpage.moc"
