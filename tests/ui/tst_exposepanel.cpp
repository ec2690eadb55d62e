#include "backend/core/apppaths.h"
#include "backend/core/language.h"
#include "backend/expose/gatewayoperation.h"
#include "backend/expose/gatewayrecord.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/hostsession.h"
#include "backend/fleet/inventory.h"
#include "backend/security/redactor.h"
#include "tests/integration/cli/clirun.h"
#include "tests/simhost/simhostfixture.h"
#include "tests/support/buildpaths.h"
#include "tests/support/sshtesthelpers.h"
#include "ui/expose/exposepanel.h"
#include "ui/pages/deploypage.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>
#include <sys/types.h>

using namespace flashdeck;
using namespace flashdeck::test;

namespace {

QString shotPath(const QString &name)
{
    const QString dir = qEnvironmentVariable("FLASHDECK_SCREENSHOT_DIR", QDir::tempPath());
    const QString path = QDir(dir).filePath(name);
    QDir().mkpath(QFileInfo(path).path());
    return path;
}

} // namespace

/**
 * The Deploy page's "Open to the team" panel driven as an operator would, against the simulated
 * host over real SSH (its dockerd runs the gateway with the machine's nginx in the host's network
 * namespace): fill, preview, expose, the check's steps green; unexpose; a refusal that changes
 * nothing; Cancel while placing removes what was placed; the panel following what a terminal's
 * `flashdeck expose` and `unexpose` write.
 */
class TestExposePanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void notACidr_refusedInWords_changesNothing();
    void expose_checkGreen_copy_thenUnexpose();
    void cancelWhilePlacing_removesWhatWasPlaced();
    void terminalExposeAndUnexpose_panelFollows();
    /** The command line's half of cancelling (the same placement): Ctrl+C undoes what was placed. */
    void terminalCtrlC_undoesWhatWasPlaced();
    /** In Chinese the panel's words still fit a 1366 × 768 screen (docs/screenshots/zh_CN/). */
    void chinese_panelFits_andIsCaptured();
    void cleanup();
    void cleanupTestCase();

private:
    /** `flashdeck ARGS` as the operator's terminal runs it, while this window keeps serving its loop. */
    CliRun flashdeck(QStringList args);
    QProcessEnvironment terminalEnvironment() const;
    /** The host's gateway containers' names (dockerd, relayed). */
    QStringList gatewayContainers() const;
    /** Whether the gateway's folder is on the host. */
    bool gatewayFolder();
    bool recordFile() const { return QFile::exists(expose::GatewayRecord::file(*m_paths, QStringLiteral("gpu"))); }
    ui::ExposePanel *panel() const { return m_panel; }
    template<typename T>
    T *child(const char *name) const
    {
        return m_panel->findChild<T *>(QLatin1String(name));
    }

    Language m_english;
    std::unique_ptr<SimHostFixture> m_host;
    QTemporaryDir m_config;
    std::unique_ptr<AppPaths> m_paths;
    std::unique_ptr<security::Redactor> m_redactor;
    std::unique_ptr<fleet::FleetWatcher> m_watcher;
    std::unique_ptr<ui::DeployPage> m_page;
    QPointer<ui::ExposePanel> m_panel;
    quint16 m_relay = 0;
};

QProcessEnvironment TestExposePanel::terminalEnvironment() const
{
    return headlessTerminal(m_host->clientHome());
}

CliRun TestExposePanel::flashdeck(QStringList args)
{
    args << QStringLiteral("--config-dir") << m_config.path();
    QProcess p;
    p.setProcessEnvironment(terminalEnvironment());
    p.start(flashdeckBinary(), args);
    QSignalSpy finished(&p, &QProcess::finished);
    if (!finished.wait(240000)) {
        p.kill();
        p.waitForFinished();
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

QStringList TestExposePanel::gatewayContainers() const
{
    QProcess curl;
    curl.start(QStringLiteral("curl"),
               {QStringLiteral("-sS"), QStringLiteral("-g"),
                QStringLiteral("http://127.0.0.1:%1/containers/json?all=1&filters={%22label%22:[%22io.flashdeck."
                               "gateway%22]}")
                    .arg(m_host->dockerPort())});
    curl.waitForFinished(30000);
    QStringList names;
    for (const QJsonValue &c : QJsonDocument::fromJson(curl.readAllStandardOutput()).array()) {
        names << c.toObject()[QLatin1String("Names")].toArray().first().toString();
    }
    return names;
}

bool TestExposePanel::gatewayFolder()
{
    return runAndWait(m_host->connection(), "test -e ~/.flashdeck/gateway && echo yes", 30000).stdoutData.trimmed() ==
        "yes";
}

void TestExposePanel::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_english.install(UiLanguage::English));
    QVERIFY(m_config.isValid());
    m_host = std::make_unique<SimHostFixture>();
    QString error;
    QVERIFY2(m_host->start(QStringLiteral("b300x4"), &error), qPrintable(error));
    m_paths = std::make_unique<AppPaths>(m_config.path());
    QVERIFY(m_paths->ensureExists());
    fleet::Inventory inventory(m_paths->inventoryFile());
    QVERIFY(inventory.add(m_host->hostEntry(QStringLiteral("gpu"))).isOk());
    QVERIFY(inventory.save().isOk());
    // Deployed from a terminal, as an operator may have: the window reads its manifest.
    const CliRun deployed =
        flashdeck({QStringLiteral("deploy"), QStringLiteral("gpu"), QStringLiteral("--accept-license"),
                   QStringLiteral("noncommercial"), QStringLiteral("--ready-timeout"), QStringLiteral("120")});
    QVERIFY2(deployed.exitCode == 0, deployed.out.right(3000).constData());
    // The gateway listens inside the host's namespace: the check reaches it through a relay, as
    // through a NAT (its "Check at" field).
    m_relay = m_host->relay(8443);
    QVERIFY(m_relay != 0);

    m_redactor = std::make_unique<security::Redactor>();
    m_watcher = std::make_unique<fleet::FleetWatcher>(*m_paths, metrics::AlertThresholds(), nullptr);
    m_watcher->setHosts({m_host->hostEntry(QStringLiteral("gpu"))});
    m_page = std::make_unique<ui::DeployPage>(*m_paths, *m_watcher, *m_redactor);
    m_page->resize(1366, 740);
    m_page->show();
    m_page->setHost(QStringLiteral("gpu"));
    QTRY_VERIFY_WITH_TIMEOUT(m_watcher->session(QStringLiteral("gpu"))->state().phase == ssh::ConnectionPhase::Ready,
                             30000);
    auto *open = m_page->findChild<QPushButton *>(QStringLiteral("deployOpenToTeam"));
    QTRY_VERIFY(open->isEnabled()); // a deployed host
    m_page->grab().save(shotPath(QStringLiteral("expose-deploy-page.png")));
    QTest::mouseClick(open, Qt::LeftButton);
    m_panel = m_page->openToTeam();
    QVERIFY(m_panel && m_panel->isVisible());
    QVERIFY(QTest::qWaitForWindowExposed(m_panel));
    QVERIFY(!m_panel->record());
    // At 1366 × 768 the panel fits on the screen whole.
    QVERIFY2(m_panel->width() <= 1366 && m_panel->height() <= 740,
             qPrintable(QStringLiteral("%1 × %2").arg(m_panel->width()).arg(m_panel->height())));
}

void TestExposePanel::notACidr_refusedInWords_changesNothing()
{
    // Nothing typed yet: the words say why the networks are required, and Expose waits for them.
    auto *expose = child<QPushButton>("exposeRun");
    QVERIFY(!expose->isEnabled());
    QVERIFY2(child<QLabel>("exposeProblem")->text().contains(QLatin1String("Name the networks")),
             qPrintable(child<QLabel>("exposeProblem")->text()));
    child<QLineEdit>("exposeAllow")->setFocus();
    QTest::keyClicks(child<QLineEdit>("exposeAllow"), QStringLiteral("10.0.0.0/33"));
    // In the field's name, not the command line's option.
    QVERIFY2(child<QLabel>("exposeProblem")
                 ->text()
                 .startsWith(QLatin1String("Allowed network 10.0.0.0/33: the prefix length must be a number from 0 to "
                                           "32")),
             qPrintable(child<QLabel>("exposeProblem")->text()));
    QVERIFY(!expose->isEnabled());
    QTest::keyClick(child<QLineEdit>("exposeAllow"), Qt::Key_Return); // Enter: the default button, disabled
    panel()->exposeNow();
    QVERIFY(!panel()->isRunning());
    QVERIFY(!recordFile());
    QVERIFY(gatewayContainers().isEmpty());
    QVERIFY(!gatewayFolder());
}

void TestExposePanel::expose_checkGreen_copy_thenUnexpose()
{
    auto *allow = child<QLineEdit>("exposeAllow");
    allow->clear();
    QTest::keyClicks(allow, QStringLiteral("127.0.0.0/8"));
    QTest::keyClicks(child<QLineEdit>("exposeCheckAt"), QStringLiteral("127.0.0.1:%1").arg(m_relay));
    const QString preview = child<QPlainTextEdit>("exposePreview")->toPlainText();
    QVERIFY2(preview.contains(QLatin1String("127.0.0.0/8")) && preview.contains(QLatin1String("https://0.0.0.0:8443")),
             qPrintable(preview));
    QVERIFY(child<QLabel>("exposeProblem")->text().isEmpty());
    panel()->grab().save(shotPath(QStringLiteral("expose-preview.png")));

    // Enter in a field presses Expose, the panel's default button.
    QTest::keyClick(allow, Qt::Key_Return);
    QVERIFY(panel()->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(panel()->record().has_value(), 120000);
    QVERIFY(recordFile());
    QCOMPARE(gatewayContainers(), QStringList{QStringLiteral("/flashdeck-gpu-gateway")});
    const expose::GatewayRecord record = *panel()->record();
    QCOMPARE(record.url(), QStringLiteral("https://127.0.0.1:8443"));
    QCOMPARE(child<QLineEdit>("exposePin")->text(), QStringLiteral("sha256//") + record.publicKeySha256);
    QVERIFY(child<QLineEdit>("exposeCurl")
                ->text()
                .contains(QStringLiteral("--pinnedpubkey 'sha256//") + record.publicKeySha256));

    // The check runs from this machine: each step green (the server's port is judged only on the host's network).
    QTRY_VERIFY_WITH_TIMEOUT(!panel()->isRunning(), 120000);
    for (const char *id : {"expose.tls", "expose.nokey", "expose.key", "expose.media", "expose.rate"}) {
        QVERIFY2(panel()->stepStatus(QLatin1String(id)) == recipe::StepStatus::Pass,
                 qPrintable(QLatin1String(id) + QStringLiteral(": ") + child<QLabel>("exposeStatus")->text() +
                            child<QLabel>("exposeProblem")->text()));
    }
    QCOMPARE(panel()->stepStatus(QStringLiteral("expose.serverport")), recipe::StepStatus::Skipped);
    QVERIFY(child<QLabel>("exposeStatus")->text().contains(QLatin1String("Every check passed")));
    panel()->grab().save(shotPath(QStringLiteral("expose-checked.png")));

    QTest::mouseClick(child<QPushButton>("exposeCopy"), Qt::LeftButton);
    QCOMPARE(QApplication::clipboard()->text(), record.curlLine());

    QTest::mouseClick(child<QPushButton>("exposeUnexpose"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!panel()->isRunning(), 60000);
    QVERIFY2(!panel()->record(), qPrintable(child<QLabel>("exposeProblem")->text()));
    QVERIFY(child<QLabel>("exposeStatus")->text().contains(QLatin1String("the server was not touched")));
    QVERIFY(!recordFile());
    QVERIFY(gatewayContainers().isEmpty());
    QVERIFY(!gatewayFolder());
    QVERIFY(child<QPushButton>("exposeRun")->isEnabled()); // the fields are the operator's again
}

void TestExposePanel::cancelWhilePlacing_removesWhatWasPlaced()
{
    auto *allow = child<QLineEdit>("exposeAllow");
    allow->setText(QStringLiteral("127.0.0.0/8"));
    QTest::mouseClick(child<QPushButton>("exposeRun"), Qt::LeftButton);
    QVERIFY(panel()->isRunning());
    auto *operation = m_watcher->session(QStringLiteral("gpu"))->findChild<expose::GatewayOperation *>();
    QVERIFY(operation);
    // Escape once the folder is being written: the placement stops and removes it again.
    bool cancelled = false;
    connect(operation, &expose::GatewayOperation::progress, panel(), [&](const QString &words) {
        if (!cancelled && words.contains(QLatin1String("Writing the configuration"))) {
            cancelled = true;
            QTest::keyClick(panel(), Qt::Key_Escape);
        }
    });
    QTRY_VERIFY_WITH_TIMEOUT(!panel()->isRunning(), 120000);
    QVERIFY(cancelled);
    QVERIFY(panel()->isVisible()); // Escape cancelled; it did not close the panel
    const QString said = child<QLabel>("exposeProblem")->text();
    QVERIFY2(said.startsWith(QLatin1String("Cancelled.")) &&
                 said.contains(QLatin1String("container and folder were removed again")),
             qPrintable(said));
    QVERIFY(!panel()->record());
    QVERIFY(!recordFile());
    QVERIFY(gatewayContainers().isEmpty());
    QVERIFY(!gatewayFolder());
}

void TestExposePanel::terminalExposeAndUnexpose_panelFollows()
{
    const CliRun exposed = flashdeck({QStringLiteral("expose"), QStringLiteral("gpu"), QStringLiteral("--allow"),
                                      QStringLiteral("127.0.0.0/8"), QStringLiteral("--port"), QStringLiteral("9443"),
                                      QStringLiteral("--rate"), QStringLiteral("5/s")});
    QVERIFY2(exposed.exitCode == 0, QByteArray(exposed.out + exposed.err).constData());
    // Within two seconds of the terminal's write, the panel shows it, with the terminal's options.
    QTRY_VERIFY_WITH_TIMEOUT(panel()->record().has_value(), 2000);
    QCOMPARE(panel()->record()->port, 9443);
    QCOMPARE(child<QLineEdit>("exposeRate")->text(), QStringLiteral("5/s"));
    QVERIFY(child<QLabel>("exposeStatus")->text().contains(QLatin1String("written elsewhere")));
    QVERIFY(!child<QPushButton>("exposeRun")->isEnabled());
    QVERIFY(child<QPushButton>("exposeUnexpose")->isEnabled());
    const CliRun unexposed = flashdeck({QStringLiteral("unexpose"), QStringLiteral("gpu")});
    QVERIFY2(unexposed.exitCode == 0, unexposed.err.constData());
    QTRY_VERIFY_WITH_TIMEOUT(!panel()->record().has_value(), 2000);
    QVERIFY(child<QPushButton>("exposeRun")->isEnabled());
}

void TestExposePanel::terminalCtrlC_undoesWhatWasPlaced()
{
    QProcess p;
    p.setProcessEnvironment(terminalEnvironment());
    QByteArray out;
    bool interrupted = false;
    connect(&p, &QProcess::readyReadStandardOutput, &p, [&] {
        out += p.readAllStandardOutput();
        if (!interrupted && out.contains("Writing the configuration")) {
            interrupted = true;
            ::kill(pid_t(p.processId()), SIGINT); // the operator's Ctrl+C
        }
    });
    QSignalSpy finished(&p, &QProcess::finished);
    p.start(flashdeckBinary(),
            {QStringLiteral("expose"), QStringLiteral("gpu"), QStringLiteral("--allow"), QStringLiteral("127.0.0.0/8"),
             QStringLiteral("--config-dir"), m_config.path()});
    QVERIFY(finished.wait(240000));
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(interrupted, out.constData());
    QCOMPARE(p.exitCode(), 1);
    QVERIFY2(err.contains(QLatin1String("Cancelling: removing what was placed")) &&
                 err.contains(QLatin1String("Cancelled.")) &&
                 err.contains(QLatin1String("container and folder were removed again")),
             qPrintable(err));
    QVERIFY(!recordFile());
    QVERIFY(gatewayContainers().isEmpty());
    QVERIFY(!gatewayFolder());
    QVERIFY(!panel()->record());
}

void TestExposePanel::chinese_panelFits_andIsCaptured()
{
    Language chinese;
    QVERIFY(chinese.install(UiLanguage::Chinese));
    ui::ExposePanel zh(*m_paths, *m_watcher, QStringLiteral("gpu"));
    zh.findChild<QLineEdit *>(QStringLiteral("exposeAllow"))->setText(QStringLiteral("10.20.0.0/16"));
    zh.show();
    QVERIFY(QTest::qWaitForWindowExposed(&zh));
    QVERIFY(zh.windowTitle().contains(QStringLiteral("向团队开放")));
    QVERIFY2(
        zh.minimumSizeHint().width() <= 1366 && zh.minimumSizeHint().height() <= 740,
        qPrintable(QStringLiteral("%1 × %2").arg(zh.minimumSizeHint().width()).arg(zh.minimumSizeHint().height())));
    QVERIFY(zh.width() <= 1366 && zh.height() <= 740);
    zh.grab().save(shotPath(QStringLiteral("zh_CN/expose-preview.png")));
}

void TestExposePanel::cleanup()
{
    if (recordFile() || !gatewayContainers().isEmpty()) {
        flashdeck({QStringLiteral("unexpose"), QStringLiteral("gpu")});
    }
}

void TestExposePanel::cleanupTestCase()
{
    m_page.reset();
    m_watcher.reset();
}

QTEST_MAIN(TestExposePanel)
#include "tst_exposepanel.moc"
