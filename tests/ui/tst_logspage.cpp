#include "backend/core/apppaths.h"
#include "backend/docker/dockerclient.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/logs/logfollower.h"
#include "backend/logs/logrules.h"
#include "tests/simhost/simhostfixture.h"
#include "ui/logs/logfiltermodel.h"
#include "ui/logs/logmodel.h"
#include "ui/logs/logpanel.h"
#include "ui/pages/logspage.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QListView>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

#include <nlohmann/json.hpp>

using namespace flashdeck;
using namespace flashdeck::test;
using flashdeck::ui::LogFilterModel;
using flashdeck::ui::LogModel;

namespace {

const QString kImage = QStringLiteral("lmsysorg/sglang:dev-minimax-m31-flash");
const QString kDigest = QStringLiteral("sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500");

/** Pulls the pinned image on the simulated host and starts SGLang as Flashdeck labels it. */
QString launchServer(SimHostFixture &host, const QString &deployment)
{
    QSignalSpy ready(&host.connection(), &ssh::HostConnection::tunnelReady);
    const quint64 tunnel = host.connection().openStdioTunnel("docker system dial-stdio");
    if (!ready.wait(30000)) {
        return QStringLiteral("no docker tunnel");
    }
    docker::DockerClient docker(ready.first().at(1).value<quint16>());
    QNetworkReply *pull = docker.stream("POST",
                                        QStringLiteral("/images/create?fromImage=%1")
                                            .arg(docker::DockerClient::q(kImage + QLatin1Char('@') + kDigest)));
    QSignalSpy pulled(pull, &QNetworkReply::finished);
    if (!pulled.wait(60000)) {
        return QStringLiteral("pull timed out");
    }
    auto call = [&docker](const QByteArray &method, const QString &path, const QByteArray &body) {
        std::optional<docker::DockerResponse> result;
        docker.call(method, path, body, [&result](const docker::DockerResponse &r) { result = r; });
        (void)QTest::qWaitFor([&result] { return result.has_value(); }, 60000);
        return result.value_or(docker::DockerResponse());
    };
    const nlohmann::json body = {
        {"Image", QString(kImage + QLatin1Char('@') + kDigest).toStdString()},
        {"Cmd",
         {"python3", "-m", "sglang.launch_server", "--model-path", "MiniMaxAI/MiniMax-M3.1-Flash", "--tp", "4",
          "--host", "0.0.0.0", "--port", "30000", "--reasoning-parser", "minimax-m3", "--speculative-algorithm",
          "DSPARK", "--api-key", "sk-flashdeck-test-0123456789abcdef"}},
        {"Env", {"FMHA_SM100_ALLOW_JIT=1"}}, // as the recipe sets it (the simulated JIT check fails without)
        {"Labels", {{"io.flashdeck.deployment", deployment.toStdString()}}}};
    const auto created = call("POST", QStringLiteral("/containers/create?name=flashdeck-%1-0").arg(deployment),
                              QByteArray::fromStdString(body.dump()));
    if (created.status != 201) {
        return created.message();
    }
    const QString id = QString::fromStdString(created.json()["Id"].get<std::string>());
    const auto started = call("POST", QStringLiteral("/containers/%1/start").arg(id), {});
    host.connection().closeTunnel(tunnel);
    return started.status == 204 ? QString() : started.message();
}

QList<logs::LogRecord> records(const logs::LogRules &rules, const QList<QByteArray> &lines, qint64 firstSeq)
{
    QList<logs::LogRecord> out;
    for (const QByteArray &l : lines) {
        logs::LogRecord r;
        r.seq = firstSeq++;
        r.timeNs = 1796062692000000000LL + r.seq * 1000000;
        r.text = l;
        r.rule = qint16(rules.classify(l));
        out.append(r);
    }
    return out;
}

} // namespace

/**
 * The Logs page: its model and filter under Qt's model tester while the ring overflows, every
 * control of the panel, and the page following a real (simulated) SGLang start over SSH —
 * the green badges on a good host, the amber one on a host with the qmul4 fallback.
 */
class TestLogsPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void panel_ringFiltersSearchHighlightsCopySave();
    void page_followsADeployment_badgesAndScreenshot();

private:
    std::optional<logs::LogRules> m_rules;
};

void TestLogsPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    auto rules = logs::LogRules::builtIn();
    QVERIFY2(rules, qPrintable(rules.message()));
    m_rules = rules.value();
}

void TestLogsPage::panel_ringFiltersSearchHighlightsCopySave()
{
    ui::LogPanel panel(*m_rules);
    panel.model()->setCapacity(50);
    QAbstractItemModelTester modelTester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester filterTester(panel.filter(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.resize(1200, 500);
    panel.show();

    const QList<QByteArray> startup{
        "[2026-11-30 08:31:02 TP0] Load weight begin. avail mem=262.31 GB",
        "[2026-11-30 08:31:40] server_args=ServerArgs(api_key='sk-flashdeck-test-0123456789abcdef', tp_size=4)",
        "[2026-11-30 08:31:55 TP0] Compiled nvfp4_to_fp8 backend=qmul4",
        "plain line",
        "[2026-11-30 08:32:10] The server is fired up and ready to roll!",
    };
    QList<QByteArray> many;
    for (int i = 0; i < 40; ++i) {
        many.append("filler " + QByteArray::number(i));
    }
    // No line yet: "no log", unless a start is under way (a deployment, here or in a terminal).
    const auto ready = [&panel] { return panel.findChild<QLabel *>(QStringLiteral("readyBadge"))->text(); };
    QCOMPARE(ready(), QStringLiteral("Server: no log"));
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("qmul4Badge"))->text(),
             QStringLiteral("qmul4: no server start-up in the log"));
    panel.setStartExpected(true);
    QCOMPARE(ready(), QStringLiteral("Server: starting"));
    panel.setStartExpected(false);
    QCOMPARE(ready(), QStringLiteral("Server: no log"));
    {
        // An idle server's log may be its health polls alone, folded: that is a log.
        ui::LogPanel idle(*m_rules);
        idle.appendRecords(records(*m_rules, {R"(INFO:     127.0.0.1:45678 - "GET /health HTTP/1.1" 200 OK)"}, 1));
        QCOMPARE(idle.model()->foldedPolls(), 1);
        QCOMPARE(idle.findChild<QLabel *>(QStringLiteral("readyBadge"))->text(), QStringLiteral("Server: starting"));
    }
    panel.appendRecords(records(*m_rules, startup, 1));
    QCOMPARE(panel.model()->rowCount(), 5);
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("qmul4Badge"))->text(), QStringLiteral("qmul4: fast path"));
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("readyBadge"))->text(), QStringLiteral("Server: ready"));

    // Over capacity: the oldest leave from the top, and the total says so.
    panel.appendRecords(records(*m_rules, many, 6));
    panel.appendRecords(records(*m_rules, many, 46));
    QCOMPARE(panel.model()->rowCount(), 50);
    QCOMPARE(panel.model()->total(), 85);
    QCOMPARE(panel.model()->index(0).data(LogModel::SeqRole).toLongLong(), 36);
    QVERIFY(panel.findChild<QLabel *>(QStringLiteral("logCounts"))->text().contains(QLatin1String("of 85 kept")));
    QVERIFY(panel.follow());
    QCOMPARE(panel.view()->verticalScrollBar()->value(), panel.view()->verticalScrollBar()->maximum());

    // Pause holds new lines; resume shows them, in order.
    panel.clear();
    panel.appendRecords(records(*m_rules, startup, 1));
    panel.setPaused(true);
    panel.appendRecords(records(*m_rules, many.mid(0, 3), 6));
    QCOMPARE(panel.model()->rowCount(), 5);
    QVERIFY(panel.findChild<QLabel *>(QStringLiteral("logCounts"))->text().contains(QLatin1String("paused, 3 new")));
    panel.setPaused(false);
    QCOMPARE(panel.model()->rowCount(), 8);
    QCOMPARE(panel.model()->index(7).data(LogModel::TextRole).toString(), QStringLiteral("filler 2"));

    // Chips: errors only shows nothing here; milestones shows qmul4 and ready.
    auto chip = [&panel](int i) { return panel.findChild<QToolButton *>(QStringLiteral("logChip%1").arg(i)); };
    chip(1)->click(); // Errors
    QCOMPARE(panel.view()->model()->rowCount(), 0);
    QVERIFY(!chip(0)->isChecked());
    chip(3)->click(); // + Milestones
    QCOMPARE(panel.view()->model()->rowCount(), 2);
    chip(0)->click(); // All again
    QVERIFY(!chip(1)->isChecked() && !chip(3)->isChecked());
    QCOMPARE(panel.view()->model()->rowCount(), 8);

    // Highlights: from the top, the qmul4 line, then ready, then nothing more.
    panel.view()->setCurrentIndex({});
    QVERIFY(panel.nextHighlight());
    QCOMPARE(panel.view()->currentIndex().data(LogModel::RuleIdRole).toString(), QStringLiteral("qmul4-ok"));
    QVERIFY(!panel.follow()); // reading: the view stays put
    // The whole line, each of its tokens, however narrow the panel.
    const auto *details = panel.findChild<QTextBrowser *>(QStringLiteral("logDetails"));
    QVERIFY(details->toPlainText().contains(QLatin1String("qmul4")));
    QCOMPARE(details->wordWrapMode(), QTextOption::WrapAtWordBoundaryOrAnywhere);
    QVERIFY(panel.nextHighlight());
    QCOMPARE(panel.view()->currentIndex().data(LogModel::RuleIdRole).toString(), QStringLiteral("ready"));
    QVERIFY(!panel.nextHighlight());
    QVERIFY(panel.nextHighlight(false));
    QCOMPARE(panel.view()->currentIndex().data(LogModel::RuleIdRole).toString(), QStringLiteral("qmul4-ok"));

    // Search: next wraps around; "only matching" hides the rest.
    panel.setSearch(QStringLiteral("FILLER"));
    QVERIFY(panel.findNext());
    QCOMPARE(panel.view()->currentIndex().data(LogModel::TextRole).toString(), QStringLiteral("filler 0"));
    QVERIFY(panel.findNext());
    QVERIFY(panel.findNext());
    QVERIFY(panel.findNext()); // wrapped to the first match
    QCOMPARE(panel.view()->currentIndex().data(LogModel::TextRole).toString(), QStringLiteral("filler 0"));
    panel.setSearch(QStringLiteral("filler"), true);
    QCOMPARE(panel.view()->model()->rowCount(), 3);
    panel.setSearch(QString(), false);
    QCOMPARE(panel.view()->model()->rowCount(), 8);
    panel.setSearch(QStringLiteral("no such text"));
    QVERIFY(!panel.findNext());

    // Copy and save never carry the key; times are kept.
    panel.view()->selectAll();
    const QString copied = panel.selectedText();
    QCOMPARE(copied.count(QLatin1Char('\n')), 7);
    QVERIFY(!copied.contains(QLatin1String("0123456789abcdef")));
    QVERIFY(copied.contains(QLatin1String("[REDACTED]")));
    QVERIFY(copied.startsWith(QLatin1String("2026-")));
    QTemporaryDir dir;
    QString error;
    QVERIFY2(panel.saveTo(dir.filePath(QStringLiteral("saved.log")), &error), qPrintable(error));
    QFile saved(dir.filePath(QStringLiteral("saved.log")));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    const QByteArray bytes = saved.readAll();
    QCOMPARE(bytes.count('\n'), 8);
    QVERIFY(!bytes.contains("0123456789abcdef"));
    QVERIFY(!panel.saveTo(QStringLiteral("/nonexistent-dir/saved.log"), &error));
    QVERIFY(error.contains(QLatin1String("/nonexistent-dir/saved.log")));

    // Timestamps on: the view shows the time first; the display is redacted too.
    panel.findChild<QCheckBox *>(QStringLiteral("logTimestamps"))->setChecked(true);
    QVERIFY(panel.model()
                ->index(0)
                .data(Qt::DisplayRole)
                .toString()
                .contains(QRegularExpression(QStringLiteral("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3}"))));
    QVERIFY(!panel.model()->index(1).data(Qt::DisplayRole).toString().contains(QLatin1String("0123456789abcdef")));

    // Health and metrics polls (SGLang logs every request; the monitor asks every few seconds)
    // fold: counted, not shown, until the Polls switch shows them.
    const QList<QByteArray> polls{
        R"([2026-11-30 08:33:00] INFO:     127.0.0.1:41234 - "GET /health HTTP/1.1" 200 OK)",
        R"([2026-11-30 08:33:00] INFO:     127.0.0.1:41236 - "GET /metrics HTTP/1.1" 200 OK)",
    };
    panel.clear();
    panel.appendRecords(records(*m_rules, startup, 1));
    const int rows = panel.model()->rowCount();
    panel.appendRecords(records(*m_rules, polls, 100));
    QCOMPARE(panel.model()->rowCount(), rows);
    QVERIFY2(panel.findChild<QLabel *>(QStringLiteral("logCounts"))->text().contains(QLatin1String("2 polls folded")),
             qPrintable(panel.findChild<QLabel *>(QStringLiteral("logCounts"))->text()));
    auto *showPolls = panel.findChild<QToolButton *>(QStringLiteral("logShowPolls"));
    QVERIFY(showPolls && !showPolls->isChecked());
    showPolls->click();
    panel.appendRecords(records(*m_rules, polls, 102));
    QCOMPARE(panel.model()->rowCount(), rows + 2);
    QVERIFY(panel.model()->index(rows).data(LogModel::TextRole).toString().contains(QLatin1String("GET /health")));
}

void TestLogsPage::page_followsADeployment_badgesAndScreenshot()
{
    SimHostFixture good;
    SimHostFixture slow;
    QString error;
    QVERIFY2(good.start(QStringLiteral("b300x4"), &error), qPrintable(error));
    QVERIFY2(slow.start(QStringLiteral("qmul4-fallback"), &error), qPrintable(error));
    error = launchServer(good, QStringLiteral("gpu-b300-b300x4-balanced"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    error = launchServer(slow, QStringLiteral("gpu-slow-b300x4-balanced"));
    QVERIFY2(error.isEmpty(), qPrintable(error));

    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    fleet::FleetWatcher watcher(paths, metrics::AlertThresholds(), nullptr);
    watcher.setHosts({good.hostEntry(QStringLiteral("gpu-b300")), slow.hostEntry(QStringLiteral("gpu-slow"))});

    ui::LogsPage page(watcher);
    QAbstractItemModelTester tester(page.panel()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    page.resize(1500, 720);
    page.show();
    page.setHost(QStringLiteral("gpu-slow"));
    auto badge = [&page](const char *name) { return page.findChild<QLabel *>(QLatin1String(name))->text(); };
    auto describe = [&page] {
        QString d = page.findChild<QLabel *>(QStringLiteral("logStatus"))->text();
        const auto *m = page.panel()->model();
        for (int r = std::max(0, m->rowCount() - 8); r < m->rowCount(); ++r) {
            d += QLatin1Char('\n') + m->index(r).data(LogModel::TextRole).toString();
        }
        return d;
    };
    QTRY_VERIFY2_WITH_TIMEOUT(badge("readyBadge") == QLatin1String("Server: ready"), qPrintable(describe()), 90000);
    QCOMPARE(badge("qmul4Badge"), QStringLiteral("qmul4: SLOW fallback — CUDA Toolkit < 13.4"));
    QVERIFY(page.findChild<QLabel *>(QStringLiteral("logStatus"))
                ->text()
                .startsWith(QLatin1String("Following flashdeck-gpu-slow")));

    page.setHost(QStringLiteral("gpu-b300"));
    QCOMPARE(page.panel()->model()->rowCount(), 0); // another host: another log
    QTRY_VERIFY2_WITH_TIMEOUT(badge("readyBadge") == QLatin1String("Server: ready"), qPrintable(describe()), 90000);
    QCOMPARE(badge("qmul4Badge"), QStringLiteral("qmul4: fast path"));
    QCOMPARE(badge("dsparkBadge"), QStringLiteral("DSpark: draft loaded"));
    QCOMPARE(badge("kvBadge"), QStringLiteral("KV pool: 10.4 M tokens")); // the B300 profile's pool (F09)
    for (int r = 0; r < page.panel()->model()->rowCount(); ++r) {
        QVERIFY(!page.panel()->model()->index(r).data().toString().contains(QLatin1String("0123456789abcdef")));
    }

    // The picture: the qmul4 line selected, its meaning beside it.
    page.panel()->view()->setCurrentIndex({});
    QVERIFY(page.panel()->nextHighlight());
    while (page.panel()->view()->currentIndex().data(LogModel::RuleIdRole).toString() != QLatin1String("qmul4-ok")) {
        QVERIFY(page.panel()->nextHighlight());
    }
    page.panel()->findChild<QCheckBox *>(QStringLiteral("logTimestamps"))->setChecked(true);
    const QString dir = qEnvironmentVariable("FLASHDECK_SCREENSHOT_DIR", root.path() + QStringLiteral("/shots"));
    QDir().mkpath(dir);
    const QString file = QDir(dir).filePath(QStringLiteral("logs-highlights.png"));
    QVERIFY2(page.grab().save(file), qPrintable(file));
}

QTEST_MAIN(TestLogsPage)
#include "tst_logspage.moc"
