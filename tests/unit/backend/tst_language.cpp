#include "backend/core/language.h"
#include "backend/deploy/acknowledgements.h"
#include "backend/recipe/licenseterms.h"

#include <QCoreApplication>
#include <QFile>
#include <QLocale>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck;

/**
 * The language Flashdeck speaks: the names --lang and Settings accept, the compiled-in Chinese
 * translation (looked up under the namespaced contexts moc gives at run time), the pseudo
 * translation the window test uses, and the licence summary in each language.
 */
class TestLanguage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanup() { QLocale::setDefault(QLocale::c()); }
    void names_data();
    void names();
    void chinese_translatesEveryLayer_data();
    void chinese_translatesEveryLayer();
    void chinese_uninstalled_speaksEnglishAgain();
    void english_pluralForms();
    void pseudo_bracketsEveryText();
    void licence_inBothLanguages_sameTerms();
    void licence_followsTheLanguageInstalled();
    void acknowledgement_recordsLanguage_countsInEither();
};

void TestLanguage::names_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("expected"); // -1: refused
    QTest::newRow("zh_CN") << "zh_CN" << int(UiLanguage::Chinese);
    QTest::newRow("zh-CN") << "zh-CN" << int(UiLanguage::Chinese);
    QTest::newRow("zh") << "zh" << int(UiLanguage::Chinese);
    QTest::newRow("en") << "en" << int(UiLanguage::English);
    QTest::newRow("EN_us") << "EN_us" << int(UiLanguage::English);
    QTest::newRow("system") << "system" << int(UiLanguage::System);
    QTest::newRow("empty is system") << "" << int(UiLanguage::System);
    QTest::newRow("fr refused") << "fr" << -1;
    QTest::newRow("zh_TW refused") << "zh_TW" << -1;
}

void TestLanguage::names()
{
    QFETCH(QString, name);
    QFETCH(int, expected);
    const std::optional<UiLanguage> got = Language::fromName(name);
    QCOMPARE(got ? int(*got) : -1, expected);
    if (got) {
        QCOMPARE(Language::fromName(Language::name(*got)), got); // round trip through flashdeck.ini
    }
}

void TestLanguage::chinese_translatesEveryLayer_data()
{
    QTest::addColumn<QByteArray>("context");
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QString>("expected");
    // A widget's context at run time is moc's qualified class name; lupdate files it bare.
    QTest::newRow("window page") << QByteArray("flashdeck::ui::MainWindow") << QByteArray("Fleet") << "机群";
    QTest::newRow("deploy step") << QByteArray("Steps") << QByteArray("Start SGLang") << "启动 SGLang";
    QTest::newRow("ssh error") << QByteArray("Ssh") << QByteArray("Not connected to %1.") << "未连接到 %1。";
    QTest::newRow("cli") << QByteArray("Cli") << QByteArray("fix: ") << "修复：";
    // Qt's own words (the buttons of its standard dialogs), from Debian's qt6-translations-l10n.
    QTest::newRow("qt's dialogs") << QByteArray("QPlatformTheme") << QByteArray("Cancel") << "取消";
    QTest::newRow("unknown text stays") << QByteArray("Deploy") << QByteArray("No such text") << "No such text";
}

void TestLanguage::chinese_translatesEveryLayer()
{
    QFETCH(QByteArray, context);
    QFETCH(QByteArray, source);
    QFETCH(QString, expected);
    Language language;
    QVERIFY2(language.install(UiLanguage::Chinese), "the compiled-in translation loads");
    QCOMPARE(language.active(), UiLanguage::Chinese);
    QCOMPARE(language.activeName(), QStringLiteral("zh_CN"));
    QCOMPARE(QCoreApplication::translate(context.constData(), source.constData()), expected);
}

void TestLanguage::chinese_uninstalled_speaksEnglishAgain()
{
    {
        Language language;
        QVERIFY(language.install(UiLanguage::Chinese));
        QCOMPARE(QCoreApplication::translate("Steps", "Start SGLang"), QStringLiteral("启动 SGLang"));
        QVERIFY(language.install(UiLanguage::English)); // a second install replaces the first
        QCOMPARE(QCoreApplication::translate("Steps", "Start SGLang"), QStringLiteral("Start SGLang"));
        QCOMPARE(language.activeName(), QStringLiteral("en"));
        QVERIFY(language.install(UiLanguage::Chinese));
    }
    QCOMPARE(QCoreApplication::translate("Steps", "Start SGLang"), QStringLiteral("Start SGLang"));
}

void TestLanguage::english_pluralForms()
{
    Language language;
    QVERIFY(language.install(UiLanguage::English));
    const char *context = "flashdeck::ui::FleetPage";
    QCOMPARE(QCoreApplication::translate(context, "%n host(s)", nullptr, 1), QStringLiteral("1 host"));
    QCOMPARE(QCoreApplication::translate(context, "%n host(s)", nullptr, 3), QStringLiteral("3 hosts"));
    QCOMPARE(QCoreApplication::translate("Steps", "Start SGLang"), QStringLiteral("Start SGLang"));
}

void TestLanguage::pseudo_bracketsEveryText()
{
    Language language;
    QVERIFY(language.install(UiLanguage::Pseudo));
    QCOMPARE(QCoreApplication::translate("Anything", "Hosts: %1").arg(3), QStringLiteral("⟦Hosts: 3⟧"));
    QCOMPARE(QCoreApplication::translate("Anything", "%n host(s)", nullptr, 2), QStringLiteral("⟦2 host(s)⟧"));
}

void TestLanguage::licence_inBothLanguages_sameTerms()
{
    const auto en = recipe::LicenseTerms::builtIn(QStringLiteral("en"));
    const auto zh = recipe::LicenseTerms::builtIn(QStringLiteral("zh_CN"));
    QVERIFY2(en && zh, qPrintable(en.message() + zh.message()));
    QCOMPARE(en.value().language(), QStringLiteral("en"));
    QCOMPARE(zh.value().language(), QStringLiteral("zh_CN"));
    // The same licence and version, the same choices (the CLI's --accept-license values).
    QCOMPARE(zh.value().id(), en.value().id());
    QCOMPARE(zh.value().version(), en.value().version());
    QCOMPARE(zh.value().summary().size(), en.value().summary().size());
    QCOMPARE(zh.value().confirmations().size(), en.value().confirmations().size());
    QCOMPARE(zh.value().uses().size(), en.value().uses().size());
    for (qsizetype i = 0; i < en.value().uses().size(); ++i) {
        QCOMPARE(zh.value().uses().at(i).id, en.value().uses().at(i).id);
    }
    // What the Chinese summary must say as the English one does: the display string stays
    // verbatim (it is what a product shows), the threshold, the prohibited uses, not advice.
    const QString text = zh.value().shownText();
    for (const char *must : {"Built with MiniMax M3.1-Flash", "2000 万美元", "书面授权", "一次性通知", "军事",
                             "不构成法律意见", "非商业使用"}) {
        QVERIFY2(text.contains(QString::fromUtf8(must)), must);
    }
    QVERIFY(en.value().summaryHash() != zh.value().summaryHash());
    QVERIFY(en.value().equivalentHashes().contains(zh.value().summaryHash()));
    QVERIFY(zh.value().equivalentHashes().contains(en.value().summaryHash()));
    QCOMPARE(recipe::LicenseTerms::builtIn(QStringLiteral("fr")).value().language(), QStringLiteral("en"));
}

void TestLanguage::licence_followsTheLanguageInstalled()
{
    QCOMPARE(recipe::LicenseTerms::builtIn().value().language(), QStringLiteral("en"));
    Language language;
    QVERIFY(language.install(UiLanguage::Chinese));
    QCOMPARE(recipe::LicenseTerms::builtIn().value().language(), QStringLiteral("zh_CN"));
    QVERIFY(language.install(UiLanguage::Pseudo)); // no such summary: English, never a broken text
    QCOMPARE(recipe::LicenseTerms::builtIn().value().language(), QStringLiteral("en"));
}

void TestLanguage::acknowledgement_recordsLanguage_countsInEither()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    deploy::Acknowledgements store(dir.filePath(QStringLiteral("acknowledgements.json")));
    const recipe::LicenseTerms zh = recipe::LicenseTerms::builtIn(QStringLiteral("zh_CN")).value();
    const recipe::LicenseTerms en = recipe::LicenseTerms::builtIn(QStringLiteral("en")).value();
    const deploy::Acknowledgement ack =
        deploy::Acknowledgements::make(QStringLiteral("gpu1"), zh, QStringLiteral("commercial"), QStringLiteral("gui"));
    QCOMPARE(ack.language, QStringLiteral("zh_CN"));
    QCOMPARE(ack.summarySha256, zh.summaryHash());
    QVERIFY(store.record(ack));
    const auto inChinese = store.find(QStringLiteral("gpu1"), zh);
    QVERIFY(inChinese && inChinese.value());
    QCOMPARE(inChinese.value()->language, QStringLiteral("zh_CN")); // written and read back
    // The same terms read in English: still acknowledged.
    const auto inEnglish = store.find(QStringLiteral("gpu1"), en);
    QVERIFY(inEnglish && inEnglish.value());
    // A changed text asks again, whatever the language.
    QFile f(QStringLiteral(":/license/minimax-community-license.zh_CN.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray changed = f.readAll().replace("允许非商业使用。", "允许任何使用。");
    const auto edited = recipe::LicenseTerms::fromJson(changed, QStringLiteral("edited"));
    QVERIFY(edited);
    const auto again = store.find(QStringLiteral("gpu1"), edited.value());
    QVERIFY(again && !again.value());
}

QTEST_GUILESS_MAIN(TestLanguage)
#include "tst_language.moc"
