#include "backend/core/apppaths.h"
#include "backend/core/language.h"
#include "backend/core/settings.h"
#include "backend/fleet/fleetwatcher.h"
#include "backend/fleet/inventory.h"
#include "backend/metrics/hostmonitor.h"
#include "backend/recipe/licenseterms.h"
#include "backend/recipe/pins.h"
#include "backend/ssh/runtimeinfo.h"
#include "tests/simhost/simhostfixture.h"
#include "ui/deploy/licensepanel.h"
#include "ui/deploy/upgradedialog.h"
#include "ui/dialogs/addhostdialog.h"
#include "ui/dialogs/hostkeydialog.h"
#include "ui/mainwindow.h"
#include "ui/pages/deploypage.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QStackedWidget>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QValueAxis>

using namespace flashdeck;
using flashdeck::test::SimHostFixture;

/**
 * The window in other languages. Under the pseudo translation every translated text is
 * bracketed ⟦ ⟧, so any English word left outside the brackets on any page escaped tr(); the
 * Chinese run checks that words fit (nothing narrower than it needs) and saves the screenshots
 * of docs/screenshots/zh_CN/ (`make screenshots`).
 */
class TestTranslation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { m_sim.stop(); }
    void pseudo_noTextEscapesTranslation();
    void pseudo_afterADeployment_noTextEscapes();
    void pseudo_dialogs_noTextEscapes();
    void chinese_everyPageFits_andIsCaptured();

private:
    struct Window
    {
        QTemporaryDir root;
        std::unique_ptr<AppPaths> paths;
        std::unique_ptr<Settings> settings;
        std::unique_ptr<fleet::Inventory> inventory;
        std::unique_ptr<ui::MainWindow> window;
    };
    /** The window over one connected simulated host, its GPUs read. */
    bool openWindow(Window &w, QString *why);
    /** Adds what escaped translation in `root` to `escaped`, each line led by `where`. */
    static void collectEscaped(QWidget *root, const QString &where, QStringList &escaped);
    /** What escaped translation on every page of `window`, one line per text. */
    static QStringList escapedOnEveryPage(ui::MainWindow &window);
    /** Every text a user can read in `root`'s visible widgets, with where it was found. */
    static QList<QPair<QString, QString>> visibleTexts(QWidget *root);

    SimHostFixture m_sim;
};

void TestTranslation::initTestCase()
{
    QString error;
    QVERIFY2(m_sim.start(QStringLiteral("b300x4"), &error), qPrintable(error));
}

bool TestTranslation::openWindow(Window &w, QString *why)
{
    w.paths = std::make_unique<AppPaths>(w.root.filePath(QStringLiteral("cfg")));
    if (!w.paths->ensureExists()) {
        *why = QStringLiteral("no config dir");
        return false;
    }
    w.settings = std::make_unique<Settings>(*w.paths);
    w.inventory = std::make_unique<fleet::Inventory>(w.paths->inventoryFile());
    if (!w.inventory->add(m_sim.hostEntry(QStringLiteral("gpu-b300"))).isOk()) {
        *why = QStringLiteral("cannot add the host");
        return false;
    }
    w.window = std::make_unique<ui::MainWindow>(*w.paths, *w.settings, *w.inventory, ssh::RuntimeInfo::current());
    w.window->resize(1366, 740);
    w.window->show();
    if (!QTest::qWaitForWindowExposed(w.window.get())) {
        *why = QStringLiteral("the window was not shown");
        return false;
    }
    // The host's GPUs are read: its rows, gauges and charts hold words as well as numbers.
    const auto gpusRead = [&w] {
        const auto *monitor = w.window->fleet().monitor(QStringLiteral("gpu-b300"));
        return monitor && monitor->status().gpus.size() == 4;
    };
    if (!QTest::qWaitFor(gpusRead, 30000)) {
        *why = QStringLiteral("the simulated host's GPUs were not read within 30 s");
        return false;
    }
    return true;
}

QList<QPair<QString, QString>> TestTranslation::visibleTexts(QWidget *root)
{
    QList<QPair<QString, QString>> out;
    auto add = [&out](QObject *o, const QString &what, const QString &text) {
        if (!text.trimmed().isEmpty()) {
            out.append({QStringLiteral("%1 %2 (%3)")
                            .arg(QString::fromLatin1(o->metaObject()->className()), o->objectName(), what),
                        text});
        }
    };
    auto plain = [](const QString &text) {
        if (!Qt::mightBeRichText(text)) {
            return text;
        }
        QTextDocument doc;
        doc.setHtml(text);
        return doc.toPlainText();
    };
    add(root, QStringLiteral("title"), root->windowTitle());
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (!w->isVisibleTo(root)) {
            continue;
        }
        if (w->objectName() == QLatin1String("stepCommand")) {
            continue; // the command a step runs on the host, verbatim
        }
        add(w, QStringLiteral("tooltip"), plain(w->toolTip()));
        if (auto *l = qobject_cast<QLabel *>(w)) {
            add(w, QStringLiteral("text"), plain(l->text()));
        } else if (auto *b = qobject_cast<QAbstractButton *>(w)) {
            add(w, QStringLiteral("text"), b->text());
        } else if (auto *g = qobject_cast<QGroupBox *>(w)) {
            add(w, QStringLiteral("title"), g->title());
        } else if (auto *e = qobject_cast<QLineEdit *>(w)) {
            add(w, QStringLiteral("placeholder"), e->placeholderText());
        } else if (auto *p = qobject_cast<QPlainTextEdit *>(w)) {
            add(w, QStringLiteral("placeholder"), p->placeholderText());
        } else if (auto *c = qobject_cast<QComboBox *>(w)) {
            for (int i = 0; i < c->count(); ++i) {
                add(w, QStringLiteral("item"), c->itemText(i));
            }
        } else if (auto *t = qobject_cast<QTabBar *>(w)) {
            for (int i = 0; i < t->count(); ++i) {
                add(w, QStringLiteral("tab"), t->tabText(i));
            }
        } else if (auto *v = qobject_cast<QAbstractItemView *>(w); v && v->model()) {
            const QAbstractItemModel *m = v->model();
            for (int col = 0; col < m->columnCount(); ++col) {
                add(w, QStringLiteral("header"), m->headerData(col, Qt::Horizontal).toString());
            }
            for (int row = 0; row < std::min(m->rowCount(), 30); ++row) {
                for (int col = 0; col < m->columnCount(); ++col) {
                    if (w->objectName() != QLatin1String("logView")) { // a log's lines are the server's words
                        add(w, QStringLiteral("cell"), m->index(row, col).data().toString());
                    }
                    add(w, QStringLiteral("cell tooltip"), plain(m->index(row, col).data(Qt::ToolTipRole).toString()));
                }
            }
        } else if (auto *chart = qobject_cast<QChartView *>(w)) {
            add(w, QStringLiteral("chart title"), chart->chart()->title());
            for (QAbstractAxis *a : chart->chart()->axes()) {
                add(w, QStringLiteral("axis"), a->titleText());
            }
            for (QAbstractSeries *s : chart->chart()->series()) {
                add(w, QStringLiteral("series"), s->name());
            }
        }
        for (QAction *a : w->actions()) {
            add(a, QStringLiteral("action"), a->text());
        }
    }
    return out;
}

namespace {

/** What a failing check says: every text that escaped, one a line. */
QString verdict(const QStringList &escaped)
{
    return QStringLiteral("untranslated text:\n") + escaped.join(QLatin1Char('\n'));
}

/** `text` with every bracketed ⟦…⟧ span (nested ones too) taken out. */
QString outsideBrackets(const QString &text)
{
    QString out;
    int depth = 0;
    for (const QChar c : text) {
        if (c == QChar(0x27E6)) {
            ++depth;
        } else if (c == QChar(0x27E7)) {
            depth = std::max(0, depth - 1);
        } else if (depth == 0) {
            out.append(c);
        }
    }
    return out;
}

/**
 * English words left in `text`: runs of two or more letters ("up", "ok"), apart from names that are the
 * same in every language (products, vendors, units) and data (host names, paths, versions:
 * anything with a digit, '/', '.', '_', '-', '@' or ':').
 */
QStringList englishWords(const QString &text)
{
    // A server's log line quoted as what a step saw ("[2026-12-02 08:53:04 TP0] Compiled …").
    static const QRegularExpression logLine(QStringLiteral("^\\[\\d{4}-\\d\\d-\\d\\d "));
    if (logLine.match(text).hasMatch()) {
        return {};
    }
    // The licence summary comes in its own translations (resources/license/, tst_language);
    // the pseudo-locale has none, so it shows the English one.
    static const QStringList licence =
        recipe::LicenseTerms::builtIn(QStringLiteral("en")).value().shownText().split(QLatin1Char('\n'));
    if (licence.contains(text)) {
        return {};
    }
    static const QSet<QString> names = {
        QStringLiteral("Flashdeck"), QStringLiteral("MiniMax"),    QStringLiteral("SGLang"),  QStringLiteral("NVIDIA"),
        QStringLiteral("AMD"),       QStringLiteral("Prometheus"), QStringLiteral("English"), QStringLiteral("libssh"),
        QStringLiteral("Ctrl"),      QStringLiteral("Shift"),      QStringLiteral("Enter"),   QStringLiteral("Flash"),
        QStringLiteral("KV"),        QStringLiteral("GPU"),        QStringLiteral("GB"),      QStringLiteral("MB"),
        QStringLiteral("AC"), // of the GPU's product name, as nvidia-smi reads it: "NVIDIA B300 SXM6 AC"
        QStringLiteral("GiB"),       QStringLiteral("MiB"),        QStringLiteral("CUDA"),
    };
    QStringList words;
    for (const QString &token : text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
        if (token.contains(QRegularExpression(QStringLiteral("[0-9/._@:\\-]")))) {
            continue; // data
        }
        const QRegularExpression word(QStringLiteral("[A-Za-z]{2,}"));
        for (auto it = word.globalMatch(token); it.hasNext();) {
            const QString w = it.next().captured();
            if (!names.contains(w)) {
                words.append(w);
            }
        }
    }
    return words;
}

} // namespace

void TestTranslation::collectEscaped(QWidget *root, const QString &where, QStringList &escaped)
{
    for (const auto &[what, text] : visibleTexts(root)) {
        if (const QStringList words = englishWords(outsideBrackets(text)); !words.isEmpty()) {
            const QString line = QStringLiteral("%1: %2: \"%3\"").arg(where, what, text.left(160));
            if (!escaped.contains(line)) {
                escaped.append(line);
                qInfo().noquote() << "untranslated:" << line; // QVERIFY2 cuts its message short
            }
        }
    }
}

QStringList TestTranslation::escapedOnEveryPage(ui::MainWindow &window)
{
    QStringList escaped;
    for (int i = 0; i < ui::MainWindow::pageCount; ++i) {
        window.showPage(static_cast<ui::MainWindow::Page>(i));
        collectEscaped(&window, QStringLiteral("page %1").arg(i), escaped);
    }
    return escaped;
}

void TestTranslation::pseudo_noTextEscapesTranslation()
{
    Language language;
    QVERIFY(language.install(UiLanguage::Pseudo));
    Window w;
    QString why;
    QVERIFY2(openWindow(w, &why), qPrintable(why));
    ui::MainWindow &window = *w.window;
    const QStringList escaped = escapedOnEveryPage(window);
    QVERIFY2(escaped.isEmpty(), qPrintable(verdict(escaped)));
}

void TestTranslation::pseudo_afterADeployment_noTextEscapes()
{
    // A whole deployment: the licence page, every step's why, expected, seen and fix, the log's
    // badges, the live server's figures: the words backend layers write too.
    Language language;
    QVERIFY(language.install(UiLanguage::Pseudo));
    Window w;
    QString why;
    QVERIFY2(openWindow(w, &why), qPrintable(why));
    ui::MainWindow &window = *w.window;
    window.showPage(ui::MainWindow::Page::Deploy);
    auto *page = window.findChild<ui::DeployPage *>();
    QVERIFY(page);
    QTest::mouseClick(page->findChild<QPushButton *>(QStringLiteral("deployRun")), Qt::LeftButton);
    QTRY_VERIFY(page->licensePanel()->isVisible());
    QStringList escaped = escapedOnEveryPage(window); // the licence page, shown
    window.showPage(ui::MainWindow::Page::Deploy);
    page->licensePanel()->choose(QStringLiteral("noncommercial"));
    page->licensePanel()->confirmAll(true);
    QTest::mouseClick(page->licensePanel()->findChild<QPushButton *>(QStringLiteral("acknowledgeLicense")),
                      Qt::LeftButton);
    QVERIFY(page->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), 240000);
    QCOMPARE(page->stepStatus(QStringLiteral("verify.image")), recipe::StepStatus::Pass);
    const auto *monitor = window.fleet().monitor(QStringLiteral("gpu-b300"));
    // Every figure of the running deployment is in, the container's too: the pages show words
    // about each (not a timing: the test waits for them).
    QTRY_VERIFY_WITH_TIMEOUT(monitor->status().server && monitor->status().server->maxTokens.has_value() &&
                                 monitor->status().container.has_value(),
                             30000);
    escaped += escapedOnEveryPage(window);
    // Every step's detail: why, what runs, expected, seen, what to do.
    window.showPage(ui::MainWindow::Page::Deploy);
    auto *steps = page->findChild<QTreeWidget *>(QStringLiteral("deploySteps"));
    QVERIFY(steps);
    auto *detail = page->findChild<QWidget *>(QStringLiteral("stepDetail"));
    QVERIFY(detail);
    for (QTreeWidgetItemIterator it(steps); *it; ++it) {
        steps->setCurrentItem(*it);
        collectEscaped(detail, QStringLiteral("step ") + (*it)->text(0), escaped);
    }
    QVERIFY2(escaped.isEmpty(), qPrintable(verdict(escaped)));
}

void TestTranslation::pseudo_dialogs_noTextEscapes()
{
    // The dialogs the pages open: adding a host, trusting its key, upgrading it.
    Language language;
    QVERIFY(language.install(UiLanguage::Pseudo));
    QTemporaryDir dir;
    ui::AddHostDialog add({QStringLiteral("gpu-a")}, dir.filePath(QStringLiteral("ssh_config")));
    ssh::HostKeyInfo key;
    key.host = QStringLiteral("gpu-a.example");
    key.keyType = QStringLiteral("ssh-ed25519");
    key.fingerprint = QStringLiteral("SHA256:4a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3");
    key.knownHostsFile = dir.filePath(QStringLiteral("known_hosts"));
    ui::HostKeyDialog trust(QStringLiteral("gpu-a"), key);
    recipe::Pins pins;
    pins.host = QStringLiteral("gpu-a");
    pins.image = QStringLiteral("lmsysorg/sglang:dev-minimax-m31-flash");
    pins.imageDigest = QStringLiteral("sha256:819722d1da25901de745cb0552516123684f7c0cddd010b0352609743770c500");
    pins.modelRevision = QStringLiteral("62cbc27f7e9e74309d8ecea398ffe088a0bd1e7f");
    pins.profile = QStringLiteral("b300x4-balanced");
    ui::UpgradeDialog upgrade(QStringLiteral("gpu-a"), pins, std::nullopt);
    ui::UpgradeDialog fleetUpgrade(QStringList{QStringLiteral("gpu-a"), QStringLiteral("gpu-b")}, pins);
    QStringList escaped;
    for (QDialog *d : std::initializer_list<QDialog *>{&add, &trust, &upgrade, &fleetUpgrade}) {
        d->show();
        QVERIFY(QTest::qWaitForWindowExposed(d));
        collectEscaped(d, QString::fromLatin1(d->metaObject()->className()), escaped);
        d->hide();
    }
    QVERIFY2(escaped.isEmpty(), qPrintable(verdict(escaped)));
}

void TestTranslation::chinese_everyPageFits_andIsCaptured()
{
    Language language;
    QVERIFY(language.install(UiLanguage::Chinese));
    Window w;
    QString why;
    QVERIFY2(openWindow(w, &why), qPrintable(why));
    ui::MainWindow &window = *w.window;
    // A laptop: the window with its Chinese words still fits 1366 × 768.
    QVERIFY2(
        window.minimumSizeHint().width() <= 1366 && window.minimumSizeHint().height() <= 700,
        qPrintable(
            QStringLiteral("%1 × %2").arg(window.minimumSizeHint().width()).arg(window.minimumSizeHint().height())));
    const QString dir = qEnvironmentVariable("FLASHDECK_SCREENSHOT_DIR", w.root.filePath(QStringLiteral("shots"))) +
        QStringLiteral("/zh_CN");
    QVERIFY(QDir().mkpath(dir));
    static const char *const names[] = {"fleet", "deploy", "logs", "metrics", "playground", "settings"};
    QStringList cut;
    for (int i = 0; i < ui::MainWindow::pageCount; ++i) {
        window.showPage(static_cast<ui::MainWindow::Page>(i));
        QTRY_COMPARE(static_cast<int>(window.currentPage()), i);
        if (i == int(ui::MainWindow::Page::Fleet)) {
            // The summary follows the table within a quarter second (coalesced): the picture
            // shows it caught up with the GPUs read.
            auto *summary = window.findChild<QLabel *>(QStringLiteral("fleetSummary"));
            QVERIFY(summary);
            QTRY_VERIFY2(summary->text().contains(QStringLiteral("4 块 GPU")), qPrintable(summary->text()));
        }
        // Nothing cut off: every visible label and button got at least the width its words
        // need (a layout gives that unless the window is too small for it).
        for (QWidget *wd : window.findChildren<QWidget *>()) {
            if (!wd->isVisibleTo(&window) || !(qobject_cast<QAbstractButton *>(wd) || qobject_cast<QLabel *>(wd))) {
                continue;
            }
            if (auto *l = qobject_cast<QLabel *>(wd); l && (l->wordWrap() || l->text().isEmpty())) {
                continue;
            }
            if (wd->width() + 1 < wd->minimumSizeHint().width()) {
                cut.append(QStringLiteral("page %1: %2 \"%3\": %4 px of %5")
                               .arg(i)
                               .arg(wd->objectName(),
                                    qobject_cast<QLabel *>(wd) ? qobject_cast<QLabel *>(wd)->text()
                                                               : qobject_cast<QAbstractButton *>(wd)->text())
                               .arg(wd->width())
                               .arg(wd->minimumSizeHint().width()));
            }
        }
        const QString file = QDir(dir).filePath(QStringLiteral("page-%1.png").arg(QLatin1String(names[i])));
        QVERIFY2(window.grab().save(file), qPrintable(file));
    }
    QVERIFY2(cut.isEmpty(), qPrintable(QStringLiteral("cut off:\n") + cut.join(QLatin1Char('\n'))));
}

QTEST_MAIN(TestTranslation)
#include "tst_translation.moc"
