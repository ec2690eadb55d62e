#include "backend/deploy/acknowledgements.h"
#include "backend/recipe/licenseterms.h"
#include "backend/recipe/recipe.h"
#include "tests/support/releasetogether.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

using namespace flashdeck;

/** F40: the licence summary we show, its hash, and the acknowledgements kept per host. */
class TestAcknowledgements : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void builtIn_saysWhatF40Says();
    void badTerms_sayWhy_data();
    void badTerms_sayWhy();
    void hash_coversEveryWordShown();
    void store_recordFindReplace();
    void store_badFileOrDirectory_saysSo();
    void store_concurrentProcesses_keepEveryHost();
};

namespace {

QByteArray termsJson(const QByteArray &summary = R"(["Non-commercial use is granted."])")
{
    return R"({"id":"l","version":"1","name":"A Licence","full_text_url":"https://example.org/l","summary":)" +
        summary + R"(,"uses":[{"id":"noncommercial","label":"Non-commercial"}],"confirmations":["I read it."]})";
}

/** A child process: waits for "go" on stdin (so that all record together), then records one host's. */
int recordOne(const QString &file, const QString &host)
{
    std::string go;
    std::getline(std::cin, go);
    const recipe::LicenseTerms terms = recipe::LicenseTerms::fromJson(termsJson(), QStringLiteral("t")).value();
    const Status s = deploy::Acknowledgements(file).record(
        deploy::Acknowledgements::make(host, terms, QStringLiteral("noncommercial"), QStringLiteral("cli")));
    if (!s) {
        std::cerr << s.message().toStdString() << '\n';
        return 1;
    }
    return 0;
}

} // namespace

void TestAcknowledgements::builtIn_saysWhatF40Says()
{
    const auto terms = recipe::LicenseTerms::builtIn();
    QVERIFY2(terms, qPrintable(terms.message()));
    const QString text = terms.value().shownText();
    for (const char *must :
         {"Non-commercial use is granted", "Built with MiniMax M3.1-Flash", "USD 20 million",
          "prior written authorisation", "one-time notice", "military", "not legal advice", "read the full licence"}) {
        QVERIFY2(text.contains(QLatin1String(must), Qt::CaseInsensitive), must);
    }
    QVERIFY(terms.value().fullTextUrl().startsWith(QLatin1String("https://huggingface.co/MiniMaxAI/")));
    QCOMPARE(terms.value().confirmations().size(), 2);
    // The uses are the CLI's --accept-license values and the recipe's, one for one.
    const auto recipes = recipe::Recipe::builtIn();
    QVERIFY(recipes);
    QStringList ids;
    for (const recipe::LicenseTerms::Use &u : terms.value().uses()) {
        ids.append(u.id);
    }
    QCOMPARE(ids, recipes.value().first().licenseUses);
    QCOMPARE(terms.value().id(), recipes.value().first().licenseId);
    QCOMPARE(terms.value().summaryHash().size(), 64);
}

void TestAcknowledgements::badTerms_sayWhy_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("says");
    QTest::newRow("not json") << QByteArray("{") << "not a JSON object";
    QTest::newRow("no name") << QByteArray(R"({"id":"l","version":"1"})") << "\"name\"";
    QTest::newRow("http link") << QByteArray(termsJson()).replace("https://", "http://") << "https:// link";
    QTest::newRow("empty summary") << termsJson("[]") << "\"summary\"";
    QTest::newRow("summary of numbers") << termsJson("[1]") << "\"summary\"";
    QTest::newRow("use without label") << QByteArray(termsJson()).replace(R"(,"label":"Non-commercial")", "")
                                       << "\"label\"";
    QTest::newRow("no confirmations") << QByteArray(termsJson()).replace(R"(["I read it."])", "[]")
                                      << "\"confirmations\"";
}

void TestAcknowledgements::badTerms_sayWhy()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, says);
    const auto t = recipe::LicenseTerms::fromJson(json, QStringLiteral("terms.json"));
    QVERIFY(!t);
    QVERIFY2(t.message().startsWith(QLatin1String("terms.json: ")), qPrintable(t.message()));
    QVERIFY2(t.message().contains(says), qPrintable(t.message()));
}

void TestAcknowledgements::hash_coversEveryWordShown()
{
    const auto a = recipe::LicenseTerms::fromJson(termsJson(), QStringLiteral("a"));
    const auto b =
        recipe::LicenseTerms::fromJson(termsJson(R"(["Non-commercial use is granted!"])"), QStringLiteral("b"));
    const auto c = recipe::LicenseTerms::fromJson(QByteArray(termsJson()).replace("I read it.", "I read it all."),
                                                  QStringLiteral("c"));
    QVERIFY(a && b && c);
    QCOMPARE(a.value().summaryHash(),
             recipe::LicenseTerms::fromJson(termsJson(), QStringLiteral("again")).value().summaryHash());
    QVERIFY(a.value().summaryHash() != b.value().summaryHash());
    QVERIFY(a.value().summaryHash() != c.value().summaryHash());
}

void TestAcknowledgements::store_recordFindReplace()
{
    QTemporaryDir dir;
    deploy::Acknowledgements store(dir.filePath(QStringLiteral("config/acknowledgements.json")));
    const recipe::LicenseTerms terms = recipe::LicenseTerms::fromJson(termsJson(), QStringLiteral("t")).value();
    auto found = store.find(QStringLiteral("b300-a"), terms);
    QVERIFY(found);
    QVERIFY(!found.value()); // no file yet: nothing acknowledged

    const deploy::Acknowledgement ack = deploy::Acknowledgements::make(
        QStringLiteral("b300-a"), terms, QStringLiteral("noncommercial"), QStringLiteral("gui"));
    QCOMPARE(ack.user, deploy::Acknowledgements::currentUser());
    QVERIFY(!ack.user.isEmpty());
    QCOMPARE(ack.summarySha256, terms.summaryHash());
    QVERIFY(store.record(ack));
    found = store.find(QStringLiteral("b300-a"), terms);
    QVERIFY(found && found.value());
    QCOMPARE(found.value()->use, QStringLiteral("noncommercial"));
    QCOMPARE(found.value()->via, QStringLiteral("gui"));
    QCOMPARE(found.value()->at, ack.at);
    QVERIFY(!store.find(QStringLiteral("b300-b"), terms).value()); // per host

    // Another host, then the same host again: one record per host, the newest.
    QVERIFY(store.record(deploy::Acknowledgements::make(QStringLiteral("b300-b"), terms,
                                                        QStringLiteral("noncommercial"), QStringLiteral("cli"))));
    deploy::Acknowledgement again = ack;
    again.via = QStringLiteral("cli");
    QVERIFY(store.record(again));
    QFile f(store.fileName());
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll().count("\"host\""), 2);
    QCOMPARE(store.find(QStringLiteral("b300-a"), terms).value()->via, QStringLiteral("cli"));

    // The text shown changes: the old acknowledgement no longer counts.
    const recipe::LicenseTerms changed =
        recipe::LicenseTerms::fromJson(termsJson(R"(["Changed."])"), QStringLiteral("t2")).value();
    QVERIFY(!store.find(QStringLiteral("b300-a"), changed).value());
}

void TestAcknowledgements::store_badFileOrDirectory_saysSo()
{
    QTemporaryDir dir;
    const recipe::LicenseTerms terms = recipe::LicenseTerms::fromJson(termsJson(), QStringLiteral("t")).value();
    QFile bad(dir.filePath(QStringLiteral("acknowledgements.json")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("[1, 2]");
    bad.close();
    deploy::Acknowledgements store(bad.fileName());
    const auto found = store.find(QStringLiteral("h"), terms);
    QVERIFY(!found);
    QVERIFY2(found.message().contains(QLatin1String("Move it aside")), qPrintable(found.message()));
    const Status s = store.record(
        deploy::Acknowledgements::make(QStringLiteral("h"), terms, QStringLiteral("noncommercial"), QString()));
    QVERIFY(!s); // never overwrites what it cannot read
    QFile kept(bad.fileName());
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), QByteArray("[1, 2]"));
    // …and keeps a copy of it aside, which the message names.
    const QStringList copies = QDir(dir.path()).entryList({QStringLiteral("acknowledgements.json.corrupt-*")});
    QCOMPARE(copies.size(), 1);
    QVERIFY2(s.message().contains(dir.filePath(copies.first())), qPrintable(s.message()));

    deploy::Acknowledgements nowhere(QStringLiteral("/proc/flashdeck-cannot-write/acknowledgements.json"));
    const Status w = nowhere.record(
        deploy::Acknowledgements::make(QStringLiteral("h"), terms, QStringLiteral("noncommercial"), QString()));
    QVERIFY(!w);
    QVERIFY2(w.message().contains(QLatin1String("Cannot record the licence acknowledgement")), qPrintable(w.message()));
}

void TestAcknowledgements::store_concurrentProcesses_keepEveryHost()
{
    // Issue 40: each record read the list, then wrote it back whole; two processes recording at
    // once kept one host's acknowledgement. Sixteen processes, one host each, all at once.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("acknowledgements.json"));
    std::vector<std::unique_ptr<QProcess>> children;
    for (int i = 0; i < 16; ++i) {
        auto p = std::make_unique<QProcess>();
        p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p->start(QCoreApplication::applicationFilePath(),
                 {QStringLiteral("--record"), file, QStringLiteral("gpu%1").arg(i)});
        QVERIFY2(p->waitForStarted(), qPrintable(p->errorString()));
        children.push_back(std::move(p));
    }
    const QString released = flashdeck::test::releaseTogether(children);
    QVERIFY2(released.isEmpty(), qPrintable(released));
    const recipe::LicenseTerms terms = recipe::LicenseTerms::fromJson(termsJson(), QStringLiteral("t")).value();
    const deploy::Acknowledgements store(file);
    for (int i = 0; i < 16; ++i) {
        const auto found = store.find(QStringLiteral("gpu%1").arg(i), terms);
        QVERIFY2(found && found.value(), qPrintable(QStringLiteral("gpu%1").arg(i)));
    }
}

int main(int argc, char **argv)
{
    if (argc == 4 && qstrcmp(argv[1], "--record") == 0) {
        return recordOne(QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[3]));
    }
    QCoreApplication app(argc, argv);
    TestAcknowledgements test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_acknowledgements.moc"
