#include "backend/core/apppaths.h"
#include "backend/core/settings.h"
#include "backend/fleet/inventory.h"
#include "backend/ssh/runtimeinfo.h"
#include "tests/support/buildpaths.h"
#include "ui/dialogs/addhostdialog.h"
#include "ui/fleet/fleetmodel.h"
#include "ui/mainwindow.h"
#include "ui/pages/fleetpage.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QProcess>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

using flashdeck::ui::MainWindow;

/**
 * The window and `flashdeck hosts add` change hosts.json at the same time (issue 40: with the
 * window open, hosts added from the command line were deleted the moment the window's Add host
 * saved the list it held). The window shows hosts added elsewhere, and its own Add host keeps
 * them all.
 */
class TestSharedInventory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cliHosts_appearInTheWindow_andItsAddHostKeepsThem();

private:
    /** `flashdeck hosts add` for each name, all at once; every one must succeed. */
    void addFromCommandLine(const QStringList &names);
    QStringList namesInFile() const;

    QTemporaryDir m_root;
    QString m_config;
};

void TestSharedInventory::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_root.isValid());
    m_config = m_root.path() + QStringLiteral("/config");
}

void TestSharedInventory::addFromCommandLine(const QStringList &names)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), m_root.path());
    std::vector<std::unique_ptr<QProcess>> processes;
    for (const QString &name : names) {
        auto p = std::make_unique<QProcess>();
        p->setProcessEnvironment(env);
        // Port 1 on the loopback: nothing listens, the row shows the host unreachable at once.
        p->start(flashdeck::test::flashdeckBinary(),
                 {QStringLiteral("--config-dir"), m_config, QStringLiteral("hosts"), QStringLiteral("add"), name,
                  QStringLiteral("--ssh"), QStringLiteral("127.0.0.1:1")});
        processes.push_back(std::move(p));
    }
    for (auto &p : processes) {
        QVERIFY(p->waitForFinished(120000));
        QVERIFY2(p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0, p->readAllStandardError().constData());
    }
}

QStringList TestSharedInventory::namesInFile() const
{
    QFile f(m_config + QStringLiteral("/hosts.json"));
    QStringList names;
    if (f.open(QIODevice::ReadOnly)) {
        for (const QJsonValue &h :
             QJsonDocument::fromJson(f.readAll()).object().value(QLatin1String("hosts")).toArray()) {
            names.append(h.toObject().value(QLatin1String("name")).toString());
        }
    }
    names.sort();
    return names;
}

namespace {
QStringList rowsOf(const flashdeck::ui::FleetModel &model)
{
    QStringList names;
    for (int row = 0; row < model.rowCount(); ++row) {
        names.append(model.hostAt(row));
    }
    names.sort();
    return names;
}
} // namespace

void TestSharedInventory::cliHosts_appearInTheWindow_andItsAddHostKeepsThem()
{
    // As main() builds it: the paths, settings and inventory the window is given.
    const flashdeck::AppPaths paths(m_config);
    QVERIFY(paths.ensureExists());
    QCOMPARE(paths.inventoryFile(), m_config + QStringLiteral("/hosts.json"));
    flashdeck::Settings settings(paths);
    flashdeck::fleet::Inventory inventory(paths.inventoryFile());
    flashdeck::fleet::HostEntry first;
    first.name = QStringLiteral("selected");
    first.address = QStringLiteral("127.0.0.1");
    first.port = 1;
    QVERIFY(inventory.add(first));
    MainWindow window(paths, settings, inventory, flashdeck::ssh::RuntimeInfo::current());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.showPage(MainWindow::Page::Fleet);
    auto *page = window.findChild<flashdeck::ui::FleetPage *>();
    QVERIFY(page);
    QAbstractItemModelTester tester(page->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto *table = window.findChild<QTableView *>(QStringLiteral("fleetTable"));
    QVERIFY(table);
    QTRY_COMPARE(page->model()->rowCount(), 1);
    table->selectRow(0);
    QCOMPARE(page->selectedHosts(), QStringList{QStringLiteral("selected")});

    // Four hosts added from the command line show in the window: the operator's selection stays.
    QStringList expected{QStringLiteral("selected")};
    QStringList fromCli;
    for (int i = 0; i < 4; ++i) {
        fromCli.append(QStringLiteral("cli%1").arg(i));
    }
    expected += fromCli;
    expected.sort();
    addFromCommandLine(fromCli);
    QElapsedTimer seen;
    seen.start();
    QTRY_COMPARE(rowsOf(*page->model()), expected);
    qInfo("the window showed the command line's hosts %lld ms after the last one was written", seen.elapsed());
    QCOMPARE(page->selectedHosts(), QStringList{QStringLiteral("selected")});

    // Four more from the command line, and at once (before the window has looked at the file
    // again) the window's own Add host: it adds to the file as it is, not to the list it held.
    QStringList more;
    for (int i = 4; i < 8; ++i) {
        more.append(QStringLiteral("cli%1").arg(i));
    }
    addFromCommandLine(more);
    window.addHost();
    auto *dialog = window.findChild<flashdeck::ui::AddHostDialog *>();
    QVERIFY(dialog);
    dialog->findChild<QLineEdit *>(QStringLiteral("name"))->setText(QStringLiteral("fromwindow"));
    dialog->findChild<QLineEdit *>(QStringLiteral("address"))->setText(QStringLiteral("127.0.0.1"));
    dialog->findChild<QSpinBox *>(QStringLiteral("port"))->setValue(1);
    dialog->accept();
    expected += more;
    expected.append(QStringLiteral("fromwindow"));
    expected.sort();
    QCOMPARE(namesInFile(), expected);
    QTRY_COMPARE(rowsOf(*page->model()), expected);

    // One removed from the command line goes from the window too.
    QProcess remove;
    remove.start(flashdeck::test::flashdeckBinary(),
                 {QStringLiteral("--config-dir"), m_config, QStringLiteral("hosts"), QStringLiteral("remove"),
                  QStringLiteral("cli0")});
    QVERIFY(remove.waitForFinished(120000));
    QCOMPARE(remove.exitCode(), 0);
    expected.removeOne(QStringLiteral("cli0"));
    QTRY_COMPARE(rowsOf(*page->model()), expected);
    QCOMPARE(page->selectedHosts(), QStringList{QStringLiteral("selected")});
}

QTEST_MAIN(TestSharedInventory)
#include "tst_sharedinventory.moc"
