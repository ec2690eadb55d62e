// The fleet through Prometheus at scale (`make bench`, the Prometheus source): 500 hosts × 8 GPUs
// and their SGLang servers in one real Prometheus (Debian's 2.42, scraping every 5 s), read by
// Flashdeck's Fleet page (offscreen) refreshing every 5 s — the whole window path: the source's
// handful of queries, the fleet assembled, alerts judged, the table model and its view painted.
// Prints the first full table's time, then Flashdeck's CPU (% of one core) and RSS over the run;
// twice: the 500 hosts not in the inventory (listed from Prometheus alone), and all 500 in the
// inventory (watched by Prometheus, their SSH sessions idle until picked). The exporter runs in
// a child process (this binary with --serve), so its work is not counted as Flashdeck's.
// Nothing asserts; figures go to docs/PERFORMANCE.md beside bench_fleet's SSH-watched 50 hosts.
//
// FLASHDECK_BENCH_PROM_HOSTS (500), FLASHDECK_BENCH_PROM_SECONDS (120).

#include "fakeexporters.h"
#include "fakehttpserver.h"
#include "prometheusfixture.h"

#include "backend/core/apppaths.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/prometheus/promconfig.h"
#include "backend/prometheus/promfleetsource.h"
#include "tests/bench/benchmachine.h"
#include "tests/bench/benchprocess.h"
#include "ui/fleet/fleetmodel.h"
#include "ui/pages/fleetpage.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QLineEdit>
#include <QProcess>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

using namespace flashdeck;
using flashdeck::bench::cpuSeconds;
using flashdeck::bench::envInt;
using flashdeck::bench::procMb;

namespace {

QString hostName(int i)
{
    return QStringLiteral("gpu-%1").arg(i, 3, 10, QLatin1Char('0'));
}

/** The child: every host's dcgm-exporter and SGLang series on one port (Prometheus honours their labels). */
int serve(int hosts)
{
    testing::FakeHttpServer server;
    int scrapes = 0;
    server.on("GET", "/metrics", [hosts, &scrapes](const testing::FakeHttpServer::Request &) {
        ++scrapes;
        QByteArray body;
        for (int i = 0; i < hosts; ++i) {
            const QByteArray name = hostName(i).toUtf8();
            body += testing::exporters::dcgmText(hostName(i), 8, 180000 + i, "instance=\"" + name + ":9400\"");
            body += testing::exporters::sglangText(scrapes, "instance=\"" + name + ":30000\"");
        }
        testing::FakeHttpServer::Response r;
        r.body = body;
        r.contentType = "text/plain; version=0.0.4";
        return r;
    });
    std::printf("%u\n", unsigned(server.port()));
    std::fflush(stdout);
    return QCoreApplication::exec();
}

/** One run: the Fleet page on the source for `seconds`; prints its line of the table. */
void measure(const char *title, const QUrl &prometheus, int hosts, bool inInventory, int seconds)
{
    QTemporaryDir root;
    const AppPaths paths(root.path());
    if (!paths.ensureExists()) {
        return;
    }
    fleet::FleetWatcher fleet(paths, metrics::AlertThresholds{}, nullptr);
    QList<fleet::HostEntry> entries;
    if (inInventory) {
        for (int i = 0; i < hosts; ++i) {
            fleet::HostEntry h;
            h.name = hostName(i);
            h.address = hostName(i);
            h.user = QStringLiteral("ops");
            entries.append(h);
        }
    }
    prom::PromConfig config;
    config.source = prom::FleetSource::Prometheus;
    config.url = prometheus;
    QElapsedTimer clock;
    clock.start();
    fleet.usePrometheus(config, {}, 5000);
    fleet.setHosts(entries);
    ui::FleetPage page(fleet);
    page.resize(1366, 740);
    page.show();
    QEventLoop first;
    qint64 firstTableMs = -1;
    QObject::connect(&fleet, &fleet::FleetWatcher::prometheusRefreshed, &first, [&] {
        if (firstTableMs < 0 && page.model()->rowCount() >= hosts) {
            page.repaint(); // the table as the operator sees it, painted
            firstTableMs = clock.elapsed();
            first.quit();
        }
    });
    QTimer::singleShot(60000, &first, &QEventLoop::quit);
    first.exec();
    // Sorting and filtering the 500 rows, as the operator does, timed once each; pictures of the
    // table when FLASHDECK_SCREENSHOT_DIR is set.
    const QString shots = qEnvironmentVariable("FLASHDECK_SCREENSHOT_DIR");
    if (!shots.isEmpty() && !inInventory) {
        (void)page.grab().save(shots + QStringLiteral("/fleet-500-prometheus.png"));
    }
    QElapsedTimer op;
    op.start();
    page.table()->sortByColumn(ui::FleetModel::KvUse, Qt::DescendingOrder);
    page.repaint();
    const qint64 sortMs = op.restart();
    page.findChild<QLineEdit *>(QStringLiteral("fleetFilter"))->setText(QStringLiteral("gpu-42"));
    page.repaint();
    const qint64 filterMs = op.elapsed();
    if (!shots.isEmpty() && !inInventory) {
        (void)page.grab().save(shots + QStringLiteral("/fleet-500-filtered.png"));
    }
    page.findChild<QLineEdit *>(QStringLiteral("fleetFilter"))->clear();
    // Steady state: the page refreshing every 5 s, as long as asked.
    const double cpu1 = cpuSeconds();
    QElapsedTimer steady;
    steady.start();
    QEventLoop run;
    QTimer::singleShot(seconds * 1000, &run, &QEventLoop::quit);
    QTimer paint;
    QObject::connect(&paint, &QTimer::timeout, &page, [&page] { page.repaint(); });
    paint.start(5000);
    run.exec();
    const double cpuPct = 100.0 * (cpuSeconds() - cpu1) / (double(steady.elapsed()) / 1000.0);
    std::printf("| %s | %d | %lld ms | %.2f %% | %.0f MB | %.0f MB | %lld ms | %lld ms | %lld ms |\n", title, hosts,
                firstTableMs, cpuPct, procMb("VmRSS:"), procMb("VmHWM:"), fleet.prometheus()->lastRefreshMs(), sortMs,
                filterMs);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc > 2 && qstrcmp(argv[1], "--serve") == 0) {
        QCoreApplication app(argc, argv);
        return serve(QByteArray(argv[2]).toInt());
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const int hosts = envInt("FLASHDECK_BENCH_PROM_HOSTS", 500);
    const int seconds = envInt("FLASHDECK_BENCH_PROM_SECONDS", 120);

    QProcess exporter;
    exporter.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--serve"), QString::number(hosts)});
    if (!exporter.waitForReadyRead(30000)) {
        std::fprintf(stderr, "the exporter did not start\n");
        return 1;
    }
    const int port = exporter.readLine().trimmed().toInt();
    testing::PrometheusFixture prometheus;
    QString error;
    if (!prometheus.start(QStringLiteral("  - job_name: fleet\n    honor_labels: true\n    scrape_interval: 5s\n"
                                         "    scrape_timeout: 5s\n    static_configs:\n"
                                         "      - targets: [\"127.0.0.1:%1\"]\n")
                              .arg(port),
                          &error) ||
        !prometheus.waitForSeries(QStringLiteral("DCGM_FI_DEV_GPU_UTIL"), hosts * 8, 120000, &error) ||
        !prometheus.waitForSeries(QStringLiteral("rate(sglang:num_requests_total[5m]) > 0"), hosts, 120000, &error)) {
        std::fprintf(stderr, "prometheus: %s\n", qPrintable(error));
        return 1;
    }
    bench::printMachine();
    std::printf("The Fleet page on Prometheus (%d hosts × 8 GPUs, scraped every 5 s; the page refreshing every "
                "5 s for %d s):\n\n",
                hosts, seconds);
    std::printf("| hosts | count | first full table | CPU (one core) | RSS | peak RSS | a refresh | sort | filter |\n");
    std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    measure("not in the inventory", prometheus.url(), hosts, false, seconds);
    measure("all in the inventory", prometheus.url(), hosts, true, seconds);
    exporter.kill();
    exporter.waitForFinished();
    return 0;
}
