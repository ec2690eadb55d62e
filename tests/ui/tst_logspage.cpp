#include "backend/core/apppaths.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/hostentry.h"
#include "backend/logs/logfollower.h"
#include "backend/logs/logrules.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/faketransport.h"
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
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

using namespace flashdeck;
using flashdeck::ui::LogFilterModel;
using flashdeck::ui::LogModel;

namespace {

/**
 * What SGLang prints while it starts MiniMax-M3.1-Flash on 4 × B300, as dockerd serves a container's
 * log (`timestamps=1`, stdout and stderr framed): the simulated server's start, line for line
 * (tests/simhost/sglang/sglangsim.cpp `startupLog` and the ready sequence, themselves SGLang's
 * strings from the reference excerpts in tests/data/sglang-logs), with the kernel's backend given:
 * `qmul4`, or `fp16_fallback` for an image whose CUDA Toolkit is older than 13.4.
 */
QByteArray startLogFrames(const QByteArray &kernelBackend)
{
    QByteArray out;
    int second = 0;
    const auto line = [&out, &second](const QByteArray &text, bool tp0 = true, quint8 stream = 1) {
        const QByteArray at = "2026-12-07T10:" + QByteArray::number(second / 60).rightJustified(2, '0') + ':' +
            QByteArray::number(second % 60).rightJustified(2, '0');
        const QByteArray sglangStamp = "[2026-12-07 10:" + at.mid(14, 5) + (tp0 ? " TP0] " : "] ");
        out += testing::FakeHttpServer::dockerFrame(
            at + ".000000001Z " + (stream == 1 ? sglangStamp : QByteArray()) + text + '\n', stream);
        ++second;
    };
    line(
        "server_args=ServerArgs(model_path='MiniMaxAI/MiniMax-M3.1-Flash', revision='62cbc27f7e9e74309d8ecea398ffe088b6"
        "c4e0aa', tp_size=4, host='0.0.0.0', port=30000, mem_fraction_static=0.85, "
        "api_key='sk-flashdeck-test-0123456789abcdef', "
        "speculative_algorithm='DSPARK', reasoning_parser='minimax-m3', enable_metrics=True)",
        false);
    line("DSpark draft weights are bundled in the target checkpoint; defaulting --speculative-draft-model-path to "
         "--model-path (MiniMaxAI/MiniMax-M3.1-Flash).",
         false);
    line("Init torch distributed ends. elapsed=1.33 s, mem usage=0.61 GB");
    line("Load weight begin. avail mem=299.95 GB");
    for (int shard = 4; shard <= 48; shard += 4) {
        line("Loading safetensors checkpoint shards: " + QByteArray::number(shard * 100 / 48).rightJustified(3, ' ') +
                 "% Completed | " + QByteArray::number(shard) +
                 "/48 [00:" + QByteArray::number(shard / 2).rightJustified(2, '0') +
                 "<00:" + QByteArray::number((48 - shard) / 2).rightJustified(2, '0') + ", 2.40it/s]",
             false, 2);
    }
    line("Load weight end. elapsed=20.41 s, type=MiniMaxM3ForCausalLM, quant=modelopt_fp4, avail mem=203.24 GB, mem "
         "usage=101.62 GB.");
    line("Draft checkpoint bundles a DSpark head; loading draft arch MiniMaxM3DSparkForCausalLM.");
    line("Compiled inference.dequant.nvfp4_to_fp8 backend=" + kernelBackend + " in 12.3s");
    line("KV Cache is allocated. #tokens: 10400000, K size: 61.20 GB, V size: 61.20 GB");
    line("Initialized DSpark draft runner. attention_backend=trtllm_mha, model=MiniMaxAI/MiniMax-M3.1-Flash, gamma=5, "
         "verify_num_draft_tokens=6");
    line("max_total_num_tokens=10400000, chunked_prefill_size=8192, max_prefill_tokens=16384, "
         "max_running_requests=256, context_len=1048576, available_gpu_mem=46.18 GB");
    line("INFO:     Started server process [1]", false);
    line("INFO:     Waiting for application startup.", false);
    line("INFO:     Application startup complete.", false);
    line("INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)", false);
    line("INFO:     127.0.0.1:0 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK", false);
    line("The server is fired up and ready to roll!", false);
    return out;
}

/** A host's dockerd: Flashdeck's server container, running, whose log is `frames` and then live. */
void serveDeployment(testing::FakeHttpServer &dockerd, const QByteArray &deployment, const QByteArray &frames)
{
    dockerd.actAsDockerd();
    testing::FakeHttpServer::Response list;
    list.body = R"([{"Id":"c0","Names":["/flashdeck-)" + deployment +
        R"(-0"],"State":"running","Status":"Up 2 minutes",)"
        R"("Labels":{"io.flashdeck.deployment":")" +
        deployment + R"("}}])";
    dockerd.on("GET", "/containers/json", list);
    testing::FakeHttpServer::Response logs;
    logs.contentType = "application/vnd.docker.multiplexed-stream";
    logs.holdOpen = true; // a server that keeps running
    logs.body = frames;
    dockerd.on("GET", "/containers/c0/logs", logs);
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
 * control of the panel, and the page following an SGLang start through its host's session (a scripted
 * transport and dockerd since issue 42; tst_logfollower follows the simulated host over SSH) —
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
    // Two hosts over scripted transports (SSH is not what is tested here: tst_logfollower follows
    // a container's log over SSH to the simulated host), each with a dockerd serving its server's log.
    testing::FakeHttpServer goodDockerd;
    testing::FakeHttpServer slowDockerd;
    serveDeployment(goodDockerd, "gpu-b300-b300x4-balanced", startLogFrames("qmul4"));
    serveDeployment(slowDockerd, "gpu-slow-b300x4-balanced", startLogFrames("fp16_fallback"));
    const auto fakeHost = [&](const fleet::HostEntry &entry) -> std::unique_ptr<ssh::Transport> {
        auto transport = std::make_unique<testing::FakeTransport>(entry.name);
        const bool slow = entry.name == QLatin1String("gpu-slow");
        transport->route("docker system dial-stdio", (slow ? slowDockerd : goodDockerd).port());
        return transport;
    };
    const auto entry = [](const QString &name) {
        fleet::HostEntry e;
        e.name = name;
        e.address = name + QStringLiteral(".example");
        return e;
    };

    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    fleet::FleetWatcher watcher(paths, metrics::AlertThresholds(), nullptr);
    watcher.setTransportMaker(fakeHost);
    watcher.setHosts({entry(QStringLiteral("gpu-b300")), entry(QStringLiteral("gpu-slow"))});

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
    QTRY_VERIFY2_WITH_TIMEOUT(badge("readyBadge") == QLatin1String("Server: ready"), qPrintable(describe()), 30000);
    QCOMPARE(badge("qmul4Badge"), QStringLiteral("qmul4: SLOW fallback — CUDA Toolkit < 13.4"));
    QVERIFY(page.findChild<QLabel *>(QStringLiteral("logStatus"))
                ->text()
                .startsWith(QLatin1String("Following flashdeck-gpu-slow")));

    page.setHost(QStringLiteral("gpu-b300"));
    QCOMPARE(page.panel()->model()->rowCount(), 0); // another host: another log
    QTRY_VERIFY2_WITH_TIMEOUT(badge("readyBadge") == QLatin1String("Server: ready"), qPrintable(describe()), 30000);
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
