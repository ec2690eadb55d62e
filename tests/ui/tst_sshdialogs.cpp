#include "backend/core/apppaths.h"
#include "backend/core/settings.h"
#include "backend/fleet/inventory.h"
#include "backend/ssh/runtimeinfo.h"
#include "backend/ssh/sshtypes.h"
#include "tests/support/sshdfixture.h"
#include "tests/support/sshtesthelpers.h"
#include "ui/dialogs/addhostdialog.h"
#include "ui/dialogs/credentialsdialog.h"
#include "ui/dialogs/hostkeydialog.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace flashdeck;
using namespace flashdeck::ui;

/** The SSH dialogs, alone and wired into the main window against a real sshd. */
class TestSshDialogs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void hostKeyDialog_showsFingerprint_rejectIsDefault();
    void credentialsDialog_allPromptsTogether_masksSecrets();
    void addHostDialog_importsFromSshConfig_andValidates();
    void mainWindow_connect_asksHostKey_thenShowsConnected();

private:
    void shoot(QWidget *w, const QString &name);
    QTemporaryDir m_dir;
};

void TestSshDialogs::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    test::isolateSshEnvironment(m_dir.path());
}

void TestSshDialogs::shoot(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("FLASHDECK_SCREENSHOT_DIR", m_dir.path() + QStringLiteral("/shots"));
    QDir().mkpath(dir);
    QVERIFY(w->grab().save(QDir(dir).filePath(name + QStringLiteral(".png"))));
}

void TestSshDialogs::hostKeyDialog_showsFingerprint_rejectIsDefault()
{
    ssh::HostKeyInfo info;
    info.host = QStringLiteral("[127.0.0.1]:2222");
    info.keyType = QStringLiteral("ssh-ed25519");
    info.fingerprint = QStringLiteral("SHA256:8zY9yiT63dRmLWdoQ/QHIhGbK4IJ4Q3osybpKj3oZYM");
    info.knownHostsFile = QStringLiteral("/home/ops/.ssh/known_hosts");
    HostKeyDialog dialog(QStringLiteral("b300-a"), info);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *fp = dialog.findChild<QLabel *>(QStringLiteral("fingerprint"));
    QVERIFY(fp);
    QCOMPARE(fp->text(), info.fingerprint);
    auto *reject = dialog.findChild<QPushButton *>(QStringLiteral("rejectButton"));
    QVERIFY(reject && reject->isDefault());
    shoot(&dialog, QStringLiteral("dialog-host-key"));
    QTest::keyClick(&dialog, Qt::Key_Return); // Enter must not trust the key
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
}

void TestSshDialogs::credentialsDialog_allPromptsTogether_masksSecrets()
{
    CredentialsDialog dialog(QStringLiteral("Sign in to b300-a"), QStringLiteral("Two-factor login"), QString(),
                             {{QStringLiteral("Password:"), false}, {QStringLiteral("Verification code:"), true}});
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    const QList<QLineEdit *> fields = dialog.findChildren<QLineEdit *>();
    QCOMPARE(fields.size(), 2);
    QCOMPARE(fields.at(0)->echoMode(), QLineEdit::Password);
    QCOMPARE(fields.at(1)->echoMode(), QLineEdit::Normal);
    QTest::keyClicks(fields.at(0), QStringLiteral("s3cret"));
    QTest::keyClicks(fields.at(1), QStringLiteral("123456"));
    shoot(&dialog, QStringLiteral("dialog-keyboard-interactive"));
    QCOMPARE(dialog.takeAnswers(), (QStringList{QStringLiteral("s3cret"), QStringLiteral("123456")}));
    QVERIFY(fields.at(0)->text().isEmpty()); // handed over once, then gone
}

void TestSshDialogs::addHostDialog_importsFromSshConfig_andValidates()
{
    const QString config = m_dir.path() + QStringLiteral("/ssh_config");
    QFile f(config);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("Host b300-a\n  HostName gpu1.example\n  User ops\n  Port 2222\n  IdentityFile /keys/fleet\n");
    f.close();
    AddHostDialog dialog({QStringLiteral("taken")}, config);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *import = dialog.findChild<QComboBox *>(QStringLiteral("importCombo"));
    QVERIFY(import);
    QCOMPARE(import->count(), 2);
    import->setCurrentIndex(1);
    const fleet::HostEntry h = dialog.host();
    QCOMPARE(h.name, QStringLiteral("b300-a"));
    QCOMPARE(h.address, QStringLiteral("b300-a")); // the alias: libssh applies HostName itself
    QCOMPARE(h.user, QStringLiteral("ops"));
    QCOMPARE(h.port, quint16(2222));
    QCOMPARE(h.identityFile, QStringLiteral("/keys/fleet"));
    shoot(&dialog, QStringLiteral("dialog-add-host"));
    auto *name = dialog.findChild<QLineEdit *>(QStringLiteral("name"));
    name->setText(QStringLiteral("taken"));
    auto *problem = dialog.findChild<QLabel *>(QStringLiteral("problem"));
    QVERIFY2(problem->text().contains(QStringLiteral("already exists")), qPrintable(problem->text()));
    name->setText(QStringLiteral("bad name"));
    QVERIFY(problem->text().contains(QStringLiteral("not a valid")));
}

void TestSshDialogs::mainWindow_connect_asksHostKey_thenShowsConnected()
{
    test::SshdFixture sshd;
    QString error;
    QVERIFY2(sshd.start(&error), qPrintable(error));
    const QString key = sshd.addClientKey(QStringLiteral("id_ui"));

    const AppPaths paths(m_dir.path() + QStringLiteral("/cfg"));
    QVERIFY(paths.ensureExists());
    fleet::Inventory inventory(paths.inventoryFile());
    fleet::HostEntry h;
    h.name = QStringLiteral("lab");
    h.address = QStringLiteral("127.0.0.1");
    h.port = sshd.port();
    h.user = test::SshdFixture::currentUser();
    h.identityFile = key;
    h.knownHostsFile = m_dir.path() + QStringLiteral("/known_hosts");
    QVERIFY(inventory.add(h).isOk());
    Settings settings(paths);
    MainWindow window(paths, settings, inventory, ssh::RuntimeInfo::current());
    window.resize(1180, 760);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    auto *connectButton = window.findChild<QToolButton *>(QStringLiteral("connectButton"));
    QVERIFY(connectButton && connectButton->isEnabled());
    QTest::mouseClick(connectButton, Qt::LeftButton);
    HostKeyDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = window.findChild<HostKeyDialog *>()) != nullptr, 15000);
    QTRY_VERIFY(dialog->isVisible());
    shoot(&window, QStringLiteral("window-host-key-prompt"));
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("acceptButton")), Qt::LeftButton);
    auto *state = window.findChild<QLabel *>(QStringLiteral("hostState"));
    QTRY_VERIFY_WITH_TIMEOUT(state->text().contains(QStringLiteral("connected")), 15000);
    QVERIFY2(state->text().startsWith(QStringLiteral("●")), qPrintable(state->text()));
    shoot(&window, QStringLiteral("window-connected"));
}

QTEST_MAIN(TestSshDialogs)
#include "tst_sshdialogs.moc"
