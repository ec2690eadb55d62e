#include "backend/core/apppaths.h"
#include "backend/core/format.h"
#include "backend/core/settings.h"
#include "backend/expose/gatewayrecord.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/hostentry.h"
#include "backend/fleet/inventory.h"
#include "backend/metrics/hostmonitor.h"
#include "backend/metrics/timeseries.h"
#include "backend/recipe/deployment.h"
#include "backend/recipe/pins.h"
#include "backend/ssh/hostconnection.h"
#include "backend/ssh/runtimeinfo.h"
#include "backend/ssh/sshtypes.h"
#include "backend/ssh/transport.h"
#include "tests/simhost/simhostfixture.h"
#include "tests/support/fakehostdata.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/fakesglang.h"
#include "tests/support/faketransport.h"
#include "tests/support/sshtesthelpers.h"
#include "tests/support/unansweredhost.h"
#include "ui/charts/timechart.h"
#include "ui/dialogs/credentialsdialog.h"
#include "ui/fleet/alertnotifier.h"
#include "ui/fleet/fleetmodel.h"
#include "ui/mainwindow.h"
#include "ui/pages/fleetpage.h"
#include "ui/pages/metricspage.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <limits>
#include <memory>

using namespace flashdeck;
using namespace flashdeck::test;
using flashdeck::ui::FleetModel;

namespace {

QString cell(const QAbstractItemModel &m, const QString &host, int column, int role = Qt::DisplayRole)
{
    for (int r = 0; r < m.rowCount(); ++r) {
        if (m.index(r, 0).data(FleetModel::HostRole).toString() == host) {
            return m.index(r, column).data(role).toString();
        }
    }
    return QStringLiteral("(no row)");
}

/** One sweep of `nvidia-smi --query-gpu=… --format=csv,noheader,nounits`: a file of tests/data/fake-host. */
QList<QByteArray> sweep(const char *file)
{
    return testing::fakeHostData(file).trimmed().split('\n');
}

/** N of a command line's `-lms N` (nvidia-smi's loop period), 0 without one. */
int loopMs(const QByteArray &commandLine)
{
    const QList<QByteArray> words = commandLine.split(' ');
    const qsizetype at = words.indexOf("-lms");
    return at >= 0 && at + 1 < words.size() ? words.at(at + 1).toInt() : 0;
}

/**
 * A host of the fleet over a scripted transport, listed as the simulated hosts it stands for were
 * (SimHostFixture::hostEntry): the SIMULATED mark is the inventory's, not the transport's.
 */
fleet::HostEntry fakeEntry(const QString &name)
{
    fleet::HostEntry h;
    h.name = name;
    h.address = QStringLiteral("127.0.0.1");
    h.port = 22;
    h.user = QStringLiteral("root");
    h.simulated = true;
    return h;
}

/**
 * A host's dockerd, as the simulated one answered: its API version, a list of our containers that
 * is empty, and 404 with dockerd's words for any container asked for by name.
 */
void answerAsDockerdWithNoneOfOurs(testing::FakeHttpServer &dockerd)
{
    dockerd.actAsDockerd();
    dockerd.on("GET", "/containers/", [](const testing::FakeHttpServer::Request &r) {
        const QByteArray name = r.target.mid(r.target.indexOf("/containers/") + 12).split('/').constFirst();
        testing::FakeHttpServer::Response none;
        none.status = 404;
        none.body = R"({"message":"No such container: )" + name + R"("})";
        return none;
    });
    testing::FakeHttpServer::Response list;
    list.body = "[]";
    dockerd.on("GET", "/containers/json", list); // added last: it wins over the prefix above
}

} // namespace

/**
 * The Fleet page on a live fleet (scripted hosts since issue 42): a B300 host serving under load,
 * an H200 host idle, and a host that cannot be reached. The model passes QAbstractItemModelTester
 * while it updates; rows, sorting, filtering and alerts read right; and the page is captured.
 * A key with a passphrase is tested over real SSH, on a simulated host.
 */
class TestFleetPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void liveFleet_modelAndPage();
    void passphraseKey_noAgent_asksOnce_everyPageWorks();
    void recordsChangedOutside_pinsColumnFollows(); // and the Team column
    void containerMark_data();
    void containerMark();
};

void TestFleetPage::liveFleet_modelAndPage()
{
    // Every host over a scripted transport (issue 42: SSH is not what is tested here; the key
    // with a passphrase below, and tst_hostmonitor, are over real SSH). Each answers what the
    // simulated host answered when this test ran over SSH (tests/data/fake-host/README.md): a
    // B300 host serving MiniMax-M3.1-Flash by hand (no container of ours), an idle H200 host, and
    // a host whose sshd nobody runs.
    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    // A deployment Flashdeck made on the B300 host: its manifest names the profile (port 30000).
    QDir().mkpath(paths.dataDir() + QStringLiteral("/deployments/gpu-b300"));
    QFile manifest(paths.dataDir() + QStringLiteral("/deployments/gpu-b300/manifest.json"));
    QVERIFY(manifest.open(QIODevice::WriteOnly));
    manifest.write(
        R"({"profile":"b300x4-balanced","image_digest":"sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500","model_sha":"62cbc27f7e9e74309d8ecea398ffe088b6c4e0aa"})");
    manifest.close();

    // The B300 host's server on its port 30000: idle, its KV pool of 10.4 M tokens allocated.
    testing::FakeSglang sglang;
    testing::FakeSglang::Load load;
    load.maxTotalTokens = 10400000;
    load.specAcceptLength = 3.08;
    sglang.setLoad(load);
    // Each host's dockerd lists no container of ours (the server was started by hand).
    testing::FakeHttpServer dockerd[2];
    for (testing::FakeHttpServer &d : dockerd) {
        answerAsDockerdWithNoneOfOurs(d);
    }
    // nvidia-smi's loop on the B300 host: idle until the test gives its GPUs work.
    bool gpusBusy = false;
    const QList<QByteArray> serving = sweep("nvidia-smi-query-b300x4-serving.csv");
    const QList<QByteArray> busy = sweep("nvidia-smi-query-b300x4-busy.csv");
    const QList<QByteArray> h200 = sweep("nvidia-smi-query-h200x2.csv");
    const auto fakeHost = [&](const fleet::HostEntry &entry) -> std::unique_ptr<ssh::Transport> {
        auto host = std::make_unique<testing::FakeTransport>(entry.name);
        if (entry.name == QLatin1String("gpu-lost")) {
            // What the real transport says of 127.0.0.1:1, where nothing listens (libssh's
            // "Connection refused", in SessionSetup::connectError's words).
            host->refuseLogins({ssh::SshErrorCode::Unreachable,
                                QStringLiteral("Cannot reach %1:%2: Connection refused. Check the address and port, "
                                               "and that sshd runs there.")
                                    .arg(entry.address)
                                    .arg(entry.port),
                                QStringLiteral("Connection refused (libssh code 2)")});
            return host;
        }
        const bool isB300 = entry.name == QLatin1String("gpu-b300");
        host->answer("command -v nvidia-smi", testing::FakeTransport::Answer{"nvidia\n", {}, 0, {}, {}, false});
        host->answer("nvidia-smi --query-gpu=", [&, isB300](const ssh::RemoteCommand &c) {
            testing::FakeTransport::Answer a;
            a.repeatMs = loopMs(c.commandLine); // a sweep every -lms N, as nvidia-smi prints them
            a.keepRunning = a.repeatMs > 0; // a query without -lms prints once and ends
            if (isB300) {
                a.repeat = [&] { return gpusBusy ? busy : serving; };
                a.lines = a.repeat();
            } else {
                a.lines = h200;
            }
            return a;
        });
        host->answer("df -B1",
                     testing::FakeTransport::Answer{
                         testing::fakeHostData(isB300 ? "df-b300x4.txt" : "df-h200x2.txt"), {}, 0, {}, {}, false});
        host->route("docker system dial-stdio", dockerd[isB300 ? 0 : 1].port());
        if (isB300) {
            host->route("127.0.0.1:30000", sglang.port());
        }
        return host;
    };

    metrics::AlertThresholds thresholds;
    thresholds.queueDepth = 2;
    fleet::FleetWatcher watcher(paths, thresholds, nullptr);
    watcher.setTransportMaker(fakeHost);
    watcher.setHosts({fakeEntry(QStringLiteral("gpu-b300")), fakeEntry(QStringLiteral("gpu-h200")),
                      unansweredHost(QStringLiteral("gpu-lost"))});

    ui::FleetPage page(watcher);
    ui::AlertNotifier notifier(watcher);
    notifier.setEnabled(true);
    QSignalSpy notified(&notifier, &ui::AlertNotifier::notified);
    QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    page.resize(1700, 560);
    page.show();
    const QAbstractItemModel &view = *page.table()->model();
    QCOMPARE(view.rowCount(), 3);
    QTRY_COMPARE_WITH_TIMEOUT(cell(view, QStringLiteral("gpu-b300"), FleetModel::State), QStringLiteral("up"), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(cell(view, QStringLiteral("gpu-h200"), FleetModel::Gpus),
                              QStringLiteral("2 × NVIDIA H200"), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(cell(view, QStringLiteral("gpu-lost"), FleetModel::State) != QLatin1String("connecting"),
                             30000);
    QTRY_VERIFY_WITH_TIMEOUT(
        cell(view, QStringLiteral("gpu-lost"), FleetModel::Alerts).startsWith(QLatin1String("Host unreachable")),
        30000);
    QTRY_COMPARE_WITH_TIMEOUT(cell(view, QStringLiteral("gpu-b300"), FleetModel::Health), QStringLiteral("ok"), 60000);
    // Its Docker lists none of ours: it reads "no deployment", never a server that is "down".
    QTRY_COMPARE_WITH_TIMEOUT(cell(view, QStringLiteral("gpu-h200"), FleetModel::Health),
                              QStringLiteral("no deployment"), 30000);
    QCOMPARE(cell(view, QStringLiteral("gpu-b300"), FleetModel::Host), QStringLiteral("gpu-b300  · SIMULATED"));

    // Load: GPU use on the B300 host (each GPU its own) and a burst of nine long chats (≈ 300 k
    // tokens of prompt each) that fills the queue: four run (the server's max_running), five wait,
    // and the KV pool fills, as the simulated server reported them (max_running 4).
    gpusBusy = true;
    load.running = 4;
    load.queued = 5;
    load.usedTokens = 1202048;
    load.genThroughput = 1635.11;
    load.requestsTotal = 9;
    sglang.setLoad(load);
    QTRY_VERIFY2_WITH_TIMEOUT(cell(view, QStringLiteral("gpu-b300"), FleetModel::Queue).toInt() >= 2,
                              qPrintable(cell(view, QStringLiteral("gpu-b300"), FleetModel::Queue) + QLatin1Char(' ') +
                                         cell(view, QStringLiteral("gpu-b300"), FleetModel::KvUse) + QLatin1Char(' ') +
                                         cell(view, QStringLiteral("gpu-b300"), FleetModel::Health)),
                              30000);
    // Every active alert is in the cell's tooltip (the cell shows the first).
    QTRY_VERIFY2_WITH_TIMEOUT(
        cell(view, QStringLiteral("gpu-b300"), FleetModel::Alerts, Qt::ToolTipRole).contains(QLatin1String("queued")),
        qPrintable(cell(view, QStringLiteral("gpu-b300"), FleetModel::Alerts, Qt::ToolTipRole)), 10000);
    QVERIFY(cell(view, QStringLiteral("gpu-b300"), FleetModel::KvUse).endsWith(QLatin1String(" %")));
    // One notification as each alert began, not one per update while it lasts.
    int queued = 0;
    int unreachable = 0;
    for (const QList<QVariant> &n : notified) {
        queued += n.at(1).toString().contains(QLatin1String("queued")) ? 1 : 0;
        unreachable += n.at(0).toString() == QLatin1String("gpu-lost: critical") ? 1 : 0;
    }
    QCOMPARE(queued, 1);
    QCOMPARE(unreachable, 1);
    QCOMPARE(cell(view, QStringLiteral("gpu-b300"), FleetModel::Container), QStringLiteral("none"));

    // Sorted by state, unreachable last; filtered to one host.
    page.table()->sortByColumn(FleetModel::State, Qt::AscendingOrder);
    QCOMPARE(view.index(2, 0).data(FleetModel::HostRole).toString(), QStringLiteral("gpu-lost"));
    page.findChild<QLineEdit *>(QStringLiteral("fleetFilter"))->setText(QStringLiteral("h200"));
    QCOMPARE(view.rowCount(), 1);
    page.findChild<QLineEdit *>(QStringLiteral("fleetFilter"))->clear();
    page.table()->sortByColumn(FleetModel::Host, Qt::AscendingOrder);

    page.table()->clearSelection();
    page.table()->setCurrentIndex({});
    // A little history in the sparklines before the picture: wait for the samples themselves.
    const auto samples = [&watcher](const char *series) {
        const metrics::TimeSeries *ts = watcher.monitor(QStringLiteral("gpu-b300"))->series(QLatin1String(series));
        return ts ? ts->points(0, std::numeric_limits<qint64>::max()).size() : 0;
    };
    QTRY_VERIFY_WITH_TIMEOUT(samples("gpu.0.util") >= 6, 30000);
    const QString dir = qEnvironmentVariable("FLASHDECK_SCREENSHOT_DIR", root.path() + QStringLiteral("/shots"));
    QDir().mkpath(dir);
    const QString file = QDir(dir).filePath(QStringLiteral("fleet-dashboard.png"));
    QVERIFY2(page.grab().save(file), qPrintable(file));

    // Four of the chats finish (each about 4 s to its first token) and four more are sent, so
    // four run and five wait still, as the simulated server reported them.
    load.requestsTotal = 13;
    load.ttftSeconds = QList<double>(4, 16.111811 / 4);
    load.e2eSeconds = QList<double>(4, 16.525446 / 4);
    sglang.setLoad(load);

    // The host page under the same load: every chart has its lines and points.
    ui::MetricsPage metricsPage(watcher);
    metricsPage.resize(1500, 980);
    metricsPage.setHost(QStringLiteral("gpu-b300"));
    metricsPage.setWindowMs(60 * 1000);
    QCOMPARE(metricsPage.findChild<QToolButton *>(QStringLiteral("window0"))->text(), QStringLiteral("1 min"));
    QVERIFY(metricsPage.findChild<QToolButton *>(QStringLiteral("window0"))->isChecked());
    metricsPage.show();
    metricsPage.refresh();
    QCOMPARE(metricsPage.charts().size(), 10);
    QCOMPARE(metricsPage.charts().at(0)->lineCount(), 4); // one line per GPU
    // Each check redraws, and a redraw's count can dip by a point as the window's columns shift
    // (two points per column of pixels). QTRY evaluates its condition once more after it held, and
    // failed on such a dip ("120000 ms was too short, 120050 ms would have been sufficient", in a
    // test that ran 36 s): so a condition, once met, stays met.
    const auto drawnOnce = [&metricsPage](int chart, int points) {
        return [&metricsPage, chart, points, met = false]() mutable {
            return met = met || (metricsPage.refresh(), metricsPage.charts().at(chart)->pointsDrawn() >= points);
        };
    };
    auto gpuLines = drawnOnce(0, 5);
    QTRY_VERIFY_WITH_TIMEOUT(gpuLines(), 10000);
    auto requests = drawnOnce(6, 3);
    QTRY_VERIFY_WITH_TIMEOUT(requests(), 10000);
    // More history, so the picture shows lines not dots: wait until the charts have drawn that
    // many points (nvidia-smi's sweeps come every second, the server's figures every two), not
    // for a guessed time.
    auto gpuHistory = drawnOnce(0, 4 * 12);
    auto requestHistory = drawnOnce(6, 6);
    QTRY_VERIFY_WITH_TIMEOUT(gpuHistory() && requestHistory(), 120000); // a bound for a loaded machine
    const QString host = QDir(dir).filePath(QStringLiteral("metrics-host.png"));
    QVERIFY2(metricsPage.grab().save(host), qPrintable(host));
}

void TestFleetPage::passphraseKey_noAgent_asksOnce_everyPageWorks()
{
    // A key with a passphrase and no agent: the window asks once, from the host bar, and the
    // connection it unlocks is the one every page runs on (there used to be a second one, which
    // refused every prompt, so the bar said "connected" while every page failed to log in).
    qunsetenv("SSH_AUTH_SOCK");
    SimHostFixture sim;
    QString error;
    QVERIFY2(sim.start(QStringLiteral("b300x4"), &error), qPrintable(error));
    const QString passphrase = QStringLiteral("correct horse battery");
    fleet::HostEntry host = sim.hostEntry(QStringLiteral("gpu-locked"));
    host.identityFile = sim.sshd().addClientKey(QStringLiteral("id_locked"), passphrase);

    QTemporaryDir root;
    const AppPaths paths(root.filePath(QStringLiteral("cfg")));
    QVERIFY(paths.ensureExists());
    fleet::Inventory inventory(paths.inventoryFile());
    QVERIFY(inventory.add(host).isOk());
    Settings settings(paths);
    ui::MainWindow window(paths, settings, inventory, ssh::RuntimeInfo::current());
    window.resize(1366, 740);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    // In the background nobody is asked: the host waits for the operator, and says why.
    ssh::Transport *connection = window.fleet().connection(QStringLiteral("gpu-locked"));
    QVERIFY(connection);
    QTRY_COMPARE_WITH_TIMEOUT(connection->state().phase, ssh::ConnectionPhase::Failed, 30000);
    QVERIFY(window.findChildren<ui::CredentialsDialog *>().isEmpty());

    int asked = 0;
    QObject::connect(connection, &ssh::Transport::passphraseNeeded, &window, [&asked] { ++asked; });
    QTest::mouseClick(window.findChild<QToolButton *>(QStringLiteral("connectButton")), Qt::LeftButton);
    ui::CredentialsDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = window.findChild<ui::CredentialsDialog *>()) != nullptr, 30000);
    QTRY_VERIFY(dialog->isVisible());
    auto *field = dialog->findChild<QLineEdit *>();
    QVERIFY(field);
    field->setText(passphrase);
    dialog->accept();

    // The same connection, now up: the bar, the Fleet's monitor and every page use it.
    QTRY_COMPARE_WITH_TIMEOUT(connection->state().phase, ssh::ConnectionPhase::Ready, 30000);
    QCOMPARE(window.fleet().connection(QStringLiteral("gpu-locked")), connection);
    auto *state = window.findChild<QLabel *>(QStringLiteral("hostState"));
    QTRY_VERIFY_WITH_TIMEOUT(state->text().startsWith(QStringLiteral("● connected")), 15000);
    const metrics::HostMonitor *monitor = window.fleet().monitor(QStringLiteral("gpu-locked"));
    QVERIFY(monitor);
    QTRY_VERIFY_WITH_TIMEOUT(monitor->status().gpus.size() == 4, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(monitor->status().diskFreeBytes.has_value(), 30000);
    window.showPage(ui::MainWindow::Page::Metrics);
    auto *metricsPage = window.findChild<ui::MetricsPage *>();
    QVERIFY(metricsPage && metricsPage->isVisible());
    QCOMPARE(metricsPage->host(), QStringLiteral("gpu-locked"));
    QCOMPARE(asked, 1);
    QTRY_COMPARE(window.findChildren<ui::CredentialsDialog *>().size(), 0);
}

void TestFleetPage::recordsChangedOutside_pinsColumnFollows()
{
    // What a terminal does to a host's records shows in its Fleet row within two seconds: after
    // `upgrade --image-digest` the row said "as pinned" with the old digest while `status --pins`
    // reported drift. The records are written as the commands write them; no host answers.
    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    const QString before = QStringLiteral("sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500");
    const QString after = QStringLiteral("sha256:5f1d0a6bb2c3e4f5061728394a5b6c7d8e9f00112233445566778899aabbccdd");
    const QString revision = QStringLiteral("62cbc27f7e9e74309d8ecea398ffe088b6c4e0aa");
    const auto deployed = [&](const QString &digest) {
        recipe::Deployment d;
        d.host = QStringLiteral("gpu-a");
        d.profile = QStringLiteral("b300x4-balanced");
        d.imageDigest = digest;
        d.modelSha = revision;
        d.ok = true;
        d.finished = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
        QVERIFY(d.write(paths).isOk());
    };
    metrics::AlertThresholds thresholds;
    recipe::Pins fleetPins; // the fleet's pins file: what gpu-a was deployed with
    fleetPins.imageDigest = before;
    fleetPins.modelRevision = revision;
    fleetPins.profile = QStringLiteral("b300x4-balanced");
    thresholds.pins = fleetPins;
    thresholds.pinsFile = root.filePath(QStringLiteral("fleet.pins.json"));
    fleet::FleetWatcher watcher(paths, thresholds, nullptr);
    watcher.setHosts({unansweredHost(QStringLiteral("gpu-a"))});
    ui::FleetPage page(watcher);
    QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QAbstractItemModel &view = *page.table()->model();
    QCOMPARE(cell(view, QStringLiteral("gpu-a"), FleetModel::Pins), fmt::unknown()); // never deployed

    // `flashdeck deploy gpu-a` in a terminal (its records folder new): the row shows its pins.
    deployed(before);
    QTRY_COMPARE_WITH_TIMEOUT(cell(view, QStringLiteral("gpu-a"), FleetModel::Pins),
                              QStringLiteral("819722d · 62cbc27"), 10000);

    // `flashdeck upgrade gpu-a --image-digest …` in a terminal: the row shows the new digest, drifting.
    deployed(after);
    QTRY_COMPARE_WITH_TIMEOUT(cell(view, QStringLiteral("gpu-a"), FleetModel::Pins),
                              QStringLiteral("5f1d0a6 · 62cbc27 · drift"), 10000);
    QVERIFY(cell(view, QStringLiteral("gpu-a"), FleetModel::Pins, Qt::ToolTipRole).contains(after));

    // `flashdeck expose gpu-a --allow 10.20.0.0/16` in a terminal: the row says it is open, and how.
    QCOMPARE(cell(view, QStringLiteral("gpu-a"), FleetModel::Team), QStringLiteral("loopback"));
    expose::GatewayRecord gateway;
    gateway.host = QStringLiteral("gpu-a");
    gateway.address = QStringLiteral("10.20.0.5");
    gateway.port = 8443;
    gateway.listenAddress = QStringLiteral("0.0.0.0");
    gateway.upstreamPort = 30000;
    gateway.allow = {QStringLiteral("10.20.0.0/16")};
    gateway.publicKeySha256 = QStringLiteral("AnYpq5UF7LhysCPcPI+ykU+agBdTVBt6Xmeij/NMMMQ=");
    gateway.selfSigned = true;
    gateway.image = QStringLiteral("nginx@sha256:eaa7e36decc3421fc04478c586dfea0d931cebe47d5bc0b15d758a32ba51126f");
    gateway.containerName = QStringLiteral("flashdeck-gpu-a-gateway");
    QVERIFY(gateway.write(paths).isOk());
    QTRY_COMPARE_WITH_TIMEOUT(cell(view, QStringLiteral("gpu-a"), FleetModel::Team), QStringLiteral("open :8443"),
                              10000);
    const QString how = cell(view, QStringLiteral("gpu-a"), FleetModel::Team, Qt::ToolTipRole);
    QVERIFY2(how.contains(QLatin1String("https://10.20.0.5:8443")) && how.contains(QLatin1String("10.20.0.0/16")) &&
                 how.contains(gateway.publicKeySha256),
             qPrintable(how));
    // A record this machine cannot read: whether it is exposed is unknown, never "loopback".
    {
        QSaveFile damaged(expose::GatewayRecord::file(paths, QStringLiteral("gpu-a"))); // replaced, as writers do
        QVERIFY(damaged.open(QIODevice::WriteOnly));
        QVERIFY(damaged.write("{\"host\": ") > 0);
        QVERIFY(damaged.commit());
    }
    QTRY_COMPARE_WITH_TIMEOUT(cell(view, QStringLiteral("gpu-a"), FleetModel::Team), fmt::unknown(), 10000);
    // `flashdeck unexpose gpu-a`.
    QVERIFY(expose::GatewayRecord::remove(paths, QStringLiteral("gpu-a")).isOk());
    QTRY_COMPARE_WITH_TIMEOUT(cell(view, QStringLiteral("gpu-a"), FleetModel::Team), QStringLiteral("loopback"), 10000);

    // `flashdeck undeploy gpu-a`: nothing runs, so nothing is pinned or drifts.
    QVERIFY(
        recipe::Deployment::recordUndeployed(paths, QStringLiteral("gpu-a"), QDateTime::currentDateTimeUtc()).isOk());
    QTRY_COMPARE_WITH_TIMEOUT(cell(view, QStringLiteral("gpu-a"), FleetModel::Pins), QStringLiteral("undeployed"),
                              10000);
    QVERIFY(!cell(view, QStringLiteral("gpu-a"), FleetModel::Alerts).contains(QLatin1String("pins")));
}

void TestFleetPage::containerMark_data()
{
    QTest::addColumn<QString>("state"); // dockerd's State; empty: no container listed
    QTest::addColumn<bool>("deployRunning");
    QTest::addColumn<bool>("upgradeRunning");
    QTest::addColumn<int>("mark");
    using Mark = FleetModel::ContainerMark;
    QTest::newRow("none") << QString() << false << false << int(Mark::None);
    QTest::newRow("running") << QStringLiteral("running") << false << false << int(Mark::Up);
    QTest::newRow("running, a deploy runs") << QStringLiteral("running") << true << false << int(Mark::Up);
    // A deploy between create and start: on its way, not the red cross of an outage.
    QTest::newRow("created, a deploy runs") << QStringLiteral("created") << true << false << int(Mark::Underway);
    QTest::newRow("exited, an upgrade replaces it") << QStringLiteral("exited") << false << true << int(Mark::Underway);
    QTest::newRow("created, nothing runs") << QStringLiteral("created") << false << false << int(Mark::Down);
    QTest::newRow("exited, nothing runs") << QStringLiteral("exited") << false << false << int(Mark::Down);
    QTest::newRow("restarting, nothing runs") << QStringLiteral("restarting") << false << false << int(Mark::Down);
}

void TestFleetPage::containerMark()
{
    QFETCH(QString, state);
    QFETCH(bool, deployRunning);
    QFETCH(bool, upgradeRunning);
    QFETCH(int, mark);
    metrics::HostStatus s;
    if (!state.isEmpty()) {
        s.container = metrics::ContainerStatus{QStringLiteral("flashdeck-gpu1-b300x4-balanced-0"), state,
                                               QStringLiteral("Created"), QStringLiteral("gpu1-b300x4-balanced")};
    }
    s.deployRunning = deployRunning;
    s.upgradeRunning = upgradeRunning;
    QCOMPARE(int(FleetModel::containerMark(s)), mark);
}

QTEST_MAIN(TestFleetPage)
#include "tst_fleetpage.moc"
