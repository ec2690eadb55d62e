#include "backend/chat/chatsession.h"
#include "backend/core/apppaths.h"
#include "backend/core/format.h"
#include "backend/core/settings.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/hostentry.h"
#include "backend/fleet/hostsession.h"
#include "tests/support/buildpaths.h"
#include "tests/support/fakesglang.h"
#include "tests/support/faketransport.h"
#include "tests/support/longloadtestreport.h"
#include "ui/pages/playgroundpage.h"
#include "ui/playground/loadtestpanel.h"

#include <QCheckBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace flashdeck;
using namespace flashdeck::test;

/**
 * The Playground offscreen against an SGLang server over its host's session (issue 8; a scripted
 * transport and a fake server since issue 42, SSH is not what is tested here): a
 * prompt fills the reasoning and answer panes as they stream, Stop mid-answer keeps the
 * partial answer, thinking off leaves no reasoning, parameters are kept per host, and the
 * picture of an answer mid-stream for the README.
 */
class TestPlaygroundPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void chat_streams_stops_thinkingOff_andScreenshot();
    void noDeployment_saysHowToPointAtAServer();
    void loadTest_lowLatencyProfile_warnedOnTheForm_data();
    void loadTest_lowLatencyProfile_warnedOnTheForm();
    void loadTest_longWordsWrap_thePanelKeepsItsWidth();
};

void TestPlaygroundPage::chat_streams_stops_thinkingOff_andScreenshot()
{
    // The host over a scripted transport: its tunnel to the server's port leads to a fake SGLang
    // that streams as the real one does (one delta every 20 ms). What SSH and the simulated
    // server do is tested elsewhere (tst_deploycli's chat and loadtest over real SSH); the
    // monitor's own commands (nvidia-smi, docker) find nothing here, as on a bare host.
    testing::FakeSglang sglang;
    constexpr quint16 port = 30000; // the server's port on the host: a name for the tunnel, never bound
    const auto fakeHost = [&sglang](const fleet::HostEntry &entry) -> std::unique_ptr<ssh::Transport> {
        auto transport = std::make_unique<testing::FakeTransport>(entry.name);
        transport->route("127.0.0.1:" + QByteArray::number(port), sglang.port());
        return transport;
    };
    fleet::HostEntry entry;
    entry.name = QStringLiteral("gpu-b300");
    entry.address = QStringLiteral("gpu-b300.example");

    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    Settings settings(paths);
    fleet::FleetWatcher watcher(paths, metrics::AlertThresholds(), nullptr);
    watcher.setTransportMaker(fakeHost);
    watcher.setHosts({entry});
    QTRY_VERIFY(watcher.session(QStringLiteral("gpu-b300")) &&
                watcher.session(QStringLiteral("gpu-b300"))->state().phase == ssh::ConnectionPhase::Ready);

    ui::PlaygroundPage page(paths, watcher, settings);
    page.resize(1400, 820);
    page.show();
    page.setHost(QStringLiteral("gpu-b300"));
    page.setManualPort(port);
    auto *prompt = page.findChild<QPlainTextEdit *>(QStringLiteral("prompt"));
    auto *send = page.findChild<QPushButton *>(QStringLiteral("send"));
    auto *stop = page.findChild<QPushButton *>(QStringLiteral("stop"));
    QVERIFY(prompt && send && stop);
    QVERIFY(!stop->isEnabled());
    page.findChild<QDoubleSpinBox *>(QStringLiteral("temperature"))->setValue(0.7);

    // 1. A whole reply: reasoning first, then the answer, then its figures.
    prompt->setPlainText(QStringLiteral("How large is the KV pool on this host?"));
    QTest::mouseClick(send, Qt::LeftButton);
    QVERIFY(stop->isEnabled());
    chat::ChatSession &session = page.session();
    QTRY_VERIFY_WITH_TIMEOUT(!session.exchanges().isEmpty() && !session.exchanges()[0].reasoning.isEmpty(), 30000);
    auto *reasoning = page.findChild<QPlainTextEdit *>(QStringLiteral("reasoningPane"));
    QVERIFY(reasoning);
    QTRY_VERIFY(reasoning->isVisible() && !reasoning->toPlainText().isEmpty()); // open while it streams
    QTRY_VERIFY_WITH_TIMEOUT(!session.busy(), 60000);
    const chat::ChatExchange &first = session.exchanges()[0];
    QVERIFY2(first.result && first.result->outcome == chat::ChatResult::Outcome::Completed,
             qPrintable(first.result ? first.result->error : QString()));
    QVERIFY(first.reasoning.startsWith(QLatin1String(testing::FakeSglang::kReasoningStart)));
    auto *answer = page.findChild<QLabel *>(QStringLiteral("answerPane"));
    QCOMPARE(answer->text(), first.answer);
    QVERIFY(!answer->text().isEmpty());
    QVERIFY(!reasoning->isVisible()); // folded away once answered
    // Its title counts what the server counted: "Reasoning (175 words)" beside 76 reasoning
    // tokens in the figures was read as two traces.
    QVERIFY(first.result->stats.reasoningTokens > 0);
    QCOMPARE(page.findChild<QToolButton *>(QStringLiteral("reasoningToggle"))->text(),
             QStringLiteral("Reasoning (%1 tokens)").arg(fmt::grouped(first.result->stats.reasoningTokens)));
    QVERIFY(page.findChild<QLabel *>(QStringLiteral("replyStats"))->text().contains(QStringLiteral("first token")));
    QVERIFY(page.findChild<QLabel *>(QStringLiteral("lastReply"))->text().contains(QStringLiteral("First token:")));
    QVERIFY(prompt->toPlainText().isEmpty());

    // 2. Mid-answer: the picture, then Stop keeps what came (the server goes quiet after four
    // answer tokens, so the picture and Stop meet the reply mid-answer however slow the machine).
    sglang.holdNextAfter(4);
    prompt->setPlainText(QStringLiteral("And with thinking, what does a request cost in KV?"));
    QTest::mouseClick(send, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(session.exchanges().size() == 2 && session.exchanges()[1].answer.size() > 24, 30000);
    QVERIFY(session.busy());
    const QString dir = qEnvironmentVariable("FLASHDECK_SCREENSHOT_DIR", root.path() + QStringLiteral("/shots"));
    QDir().mkpath(dir);
    const QString file = QDir(dir).filePath(QStringLiteral("playground-answer.png"));
    QVERIFY2(page.grab().save(file), qPrintable(file));
    QTest::mouseClick(stop, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!session.busy(), 10000);
    const chat::ChatExchange &stopped = session.exchanges()[1];
    QCOMPARE(stopped.result->outcome, chat::ChatResult::Outcome::Stopped);
    QVERIFY(stopped.answer.size() > 24);
    QVERIFY(session.exchanges()[1].answer.size() < 24 * 13); // it did not run to the end
    const auto stats = page.findChildren<QLabel *>(QStringLiteral("replyStats"));
    QVERIFY(stats.last()->text().contains(QStringLiteral("stopped — the partial answer is kept")));

    // 3. Thinking off: no reasoning at all; the request carried the switch.
    page.findChild<QCheckBox *>(QStringLiteral("thinking"))->setChecked(false);
    prompt->setPlainText(QStringLiteral("Just the number, please."));
    QVERIFY(page.curlForPrompt().contains(QStringLiteral("\"thinking_mode\":\"disabled\"")));
    QVERIFY(page.curlForPrompt().contains(QStringLiteral("$SGLANG_API_KEY")));
    QTest::mouseClick(send, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(session.exchanges().size() == 3 && !session.busy(), 60000);
    QVERIFY(session.exchanges()[2].reasoning.isEmpty());
    QVERIFY(!session.exchanges()[2].answer.isEmpty());
    QVERIFY(!session.exchanges()[2].result->thinkingIgnored);

    // 4. Edit the first message and send again: what came after it is dropped.
    QVERIFY(session.editAndResend(0, QStringLiteral("How large is the KV pool, in tokens?")));
    QCOMPARE(session.exchanges().size(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!session.busy(), 60000);
    QVERIFY(session.exportMarkdown().contains(session.exchanges()[0].answer));

    // 5. The load test tab: four in flight for two seconds, the figures and the picture.
    auto *tabs = page.findChild<QTabWidget *>(QStringLiteral("playgroundTabs"));
    tabs->setCurrentIndex(1);
    ui::LoadTestPanel *load = page.loadTest();
    load->setValues(4, 64, 8, 2);
    QSignalSpy loadDone(load, &ui::LoadTestPanel::finished);
    load->start();
    QVERIFY(load->running());
    QVERIFY(loadDone.wait(60000));
    const QString figures = page.findChild<QLabel *>(QStringLiteral("loadTestFigures"))->text();
    QVERIFY2(figures.contains(QStringLiteral("Failed</td><td align='right'><b>0<")), qPrintable(figures));
    QVERIFY2(!figures.contains(QStringLiteral("TTFT p50 / p95</td><td align='right'><b>—")), qPrintable(figures));
    QVERIFY2(QRegularExpression(QStringLiteral("Completed</td><td align='right'><b>([4-9]|\\d\\d+) "))
                 .match(figures)
                 .hasMatch(),
             qPrintable(figures));
    QVERIFY2(page.grab().save(QDir(dir).filePath(QStringLiteral("playground-loadtest.png"))), qPrintable(dir));

    // The parameters are kept for this host.
    QCOMPARE(settings.playgroundPreset(QStringLiteral("gpu-b300")).value(QStringLiteral("temperature")).toDouble(),
             0.7);
    QVERIFY(sglang.chatRequests() >= 8); // every reply came over the host's tunnel
}

void TestPlaygroundPage::loadTest_lowLatencyProfile_warnedOnTheForm_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<bool>("warned");
    QTest::newRow("low-latency") << "b300x4-low-latency" << true;
    QTest::newRow("balanced") << "b300x4-balanced" << false;
    QTest::newRow("no deployment") << "" << false;
}

void TestPlaygroundPage::loadTest_lowLatencyProfile_warnedOnTheForm()
{
    // Issue 41: MonoKernel serves batch-size-1 steps only; published figures are upstream references.
    QFETCH(QString, profile);
    QFETCH(bool, warned);
    ui::LoadTestPanel panel;
    panel.setProfile(profile);
    const auto *warning = panel.findChild<QLabel *>(QStringLiteral("loadTestProfileWarning"));
    QVERIFY(warning);
    QCOMPARE(!warning->isHidden(), warned);
    if (warned) {
        QVERIFY2(warning->text().contains(QLatin1String("batch-size-1 steps only")), qPrintable(warning->text()));
    }
    const QString note = panel.findChild<QLabel *>(QStringLiteral("loadTestNote"))->text();
    QVERIFY2(note.contains(QLatin1String("upstream references, not a MiniMax guarantee")), qPrintable(note));
    panel.setTarget(nullptr, nullptr, 0, QString(), QString(), QStringLiteral("no server"));
    QVERIFY(warning->isHidden()); // no target, no profile
}

void TestPlaygroundPage::loadTest_longWordsWrap_thePanelKeepsItsWidth()
{
    // The longest state of the tab: a run stopped by the server, its notes and its errors. The
    // words wrap: the panel asks for no more width than it did empty (a laptop's screen).
    ui::LoadTestPanel panel;
    panel.setProfile(QStringLiteral("b300x4-low-latency"));
    panel.resize(1100, 640);
    panel.show();
    const int empty = panel.minimumSizeHint().width();
    const auto report = flashdeck::test::longLoadTestReport();
    panel.showReport(report, true);
    const auto *figures = panel.findChild<QLabel *>(QStringLiteral("loadTestFigures"));
    QVERIFY(figures->text().contains(QLatin1String("refused the API key 64 times")));
    QVERIFY2(panel.minimumSizeHint().width() <= empty,
             qPrintable(QStringLiteral("%1 px, %2 px empty").arg(panel.minimumSizeHint().width()).arg(empty)));
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest); // laid out, as shown
    QVERIFY(figures->width() <= panel.width());
}

void TestPlaygroundPage::noDeployment_saysHowToPointAtAServer()
{
    QTemporaryDir root;
    const AppPaths paths(root.path());
    QVERIFY(paths.ensureExists());
    Settings settings(paths);
    fleet::FleetWatcher watcher(paths, metrics::AlertThresholds(), nullptr);
    ui::PlaygroundPage page(paths, watcher, settings);
    page.setHost(QStringLiteral("nowhere"));
    QVERIFY(
        page.findChild<QLabel *>(QStringLiteral("playgroundTarget"))->text().contains(QStringLiteral("Deploy first")));
    page.findChild<QPlainTextEdit *>(QStringLiteral("prompt"))->setPlainText(QStringLiteral("hi"));
    page.sendPrompt();
    QCOMPARE(page.session().exchanges().size(), 1);
    QVERIFY(page.session().exchanges()[0].result->error.contains(QStringLiteral("Deploy first")));
    // A bad file is refused by content, with the reason.
    QTemporaryDir dir;
    QFile fake(dir.path() + QStringLiteral("/x.png"));
    QVERIFY(fake.open(QIODevice::WriteOnly) && fake.write("GIF89a....") > 0);
    fake.close();
    const Status s = page.attachImage(fake.fileName());
    QVERIFY(!s.isOk());
    QVERIFY(s.message().contains(QStringLiteral("not a PNG")));
    QVERIFY(page.attachImage(flashdeck::test::testData(u"/images/small-square.png")).isOk());
    QCOMPARE(page.findChildren<QToolButton *>(QStringLiteral("attachment")).size(), 1);
    // An image URL with no allowed host: refused by the policy, never fetched, and said.
    QSignalSpy urlDone(&page, &ui::PlaygroundPage::imageUrlDone);
    page.attachUrl(QStringLiteral("https://images.example.org/cat.png"));
    QVERIFY(urlDone.wait(5000));
    QVERIFY2(urlDone.first().first().toString().contains(QStringLiteral("No image host is allowed yet")),
             qPrintable(urlDone.first().first().toString()));
    settings.setAllowedImageHosts({QStringLiteral("images.example.org")});
    page.attachUrl(QStringLiteral("https://169.254.169.254/latest/meta-data/"));
    QVERIFY(urlDone.wait(5000));
    QVERIFY(urlDone.last().first().toString().contains(QStringLiteral("instead of a host name")));
    QCOMPARE(page.findChildren<QToolButton *>(QStringLiteral("attachment")).size(), 1);
}

QTEST_MAIN(TestPlaygroundPage)
#include "tst_playgroundpage.moc"
