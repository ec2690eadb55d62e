#include "backend/recipe/deployment.h"
#include "backend/recipe/profilechoice.h"
#include "backend/recipe/recipe.h"

#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

using flashdeck::recipe::Recipe;

/** The shipped recipe loads and says what the seed says; a broken one names the key. */
class TestRecipe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void builtIn_loadsWithTheSeedsFacts();
    void invalid_namesTheKeyAndWhatWasExpected_data();
    void invalid_namesTheKeyAndWhatWasExpected();
    void profileForGpus_fitsTheHost_data();
    void profileForGpus_fitsTheHost();
    void generatorProfileForGpus_theModelsEntry_data();
    void generatorProfileForGpus_theModelsEntry();
    void nodeLayout_oneServicePerFourGpusBehindTheRouter_data();
    void nodeLayout_oneServicePerFourGpusBehindTheRouter();

private:
    static nlohmann::json shipped();
};

nlohmann::json TestRecipe::shipped()
{
    QFile f(QStringLiteral(":/recipes/minimax-m31-flash.json"));
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QByteArray data = f.readAll();
    return nlohmann::json::parse(data.constData(), data.constData() + data.size());
}

void TestRecipe::builtIn_loadsWithTheSeedsFacts()
{
    const auto recipes = Recipe::builtIn();
    QVERIFY2(recipes, qPrintable(recipes.message()));
    QCOMPARE(recipes.value().size(), 1);
    const Recipe &r = recipes.value().first();
    QCOMPARE(r.modelRepo, QStringLiteral("MiniMaxAI/MiniMax-M3.1-Flash"));
    QCOMPARE(r.weightsBytes, 252000000000LL); // F13
    QCOMPARE(r.imageName + QLatin1Char(':') + r.imageTag,
             QStringLiteral("lmsysorg/sglang:dev-minimax-m31-flash")); // F05
    QCOMPARE(r.cudaRuntime, QStringLiteral("13.4")); // F07
    QCOMPARE(r.temperature, 1.0); // F24
    QCOMPARE(r.topP, 0.95);
    QCOMPARE(r.status, QStringLiteral("experimental"));

    const auto *balanced = r.profile(QStringLiteral("b300x4-balanced"));
    QVERIFY(balanced);
    QVERIFY(balanced->verified());
    QCOMPARE(balanced->tp, 4);
    QCOMPARE(balanced->replicas.size(), 1);
    QCOMPARE(balanced->replicas.first().gpus, (QList<int>{0, 1, 2, 3})); // F13
    QCOMPARE(balanced->replicas.first().port, quint16(30000)); // F16
    QCOMPARE(balanced->kvTokensExpected, 10400000); // F09
    QCOMPARE(balanced->env.value(QStringLiteral("FMHA_SM100_ALLOW_JIT")), QStringLiteral("1")); // F17
    QVERIFY(balanced->serverArgs.contains(QStringLiteral("DSPARK"))); // F18

    const auto *lowLatency = r.profile(QStringLiteral("b300x4-low-latency"));
    QVERIFY(lowLatency);
    QCOMPARE(lowLatency->kvTokensExpected, 6500000); // F10
    QVERIFY(lowLatency->operatorFlagsRequired);

    const auto *amd = r.profile(QStringLiteral("mi355x-x8-two-tp4-router"));
    QVERIFY(amd);
    QCOMPARE(amd->status, QStringLiteral("unverified")); // F12
    QCOMPARE(amd->replicas.size(), 2); // F11
    QCOMPARE(amd->replicas.at(1).port, quint16(30001));
    QCOMPARE(amd->routerPolicy, QStringLiteral("cache_aware")); // F37

    for (const char *id : {"b200", "gb200", "h200"}) {
        const auto *p = r.profile(QString::fromLatin1(id));
        QVERIFY(p);
        QVERIFY(p->generatorOnly()); // F12: never the B300 flags
        QVERIFY(p->note.contains(QLatin1String("configuration generator")));
    }
}

void TestRecipe::invalid_namesTheKeyAndWhatWasExpected_data()
{
    QTest::addColumn<QByteArray>("jsonPointer");
    QTest::addColumn<QByteArray>("value"); // JSON text, or empty to remove the key
    QTest::addColumn<QString>("message");

    QTest::newRow("no model repo") << QByteArray("/model/repo") << QByteArray()
                                   << "x.json: model.repo should be a string (missing).";
    QTest::newRow("weights not a number") << QByteArray("/model/weights_bytes") << QByteArray("\"252 GB\"")
                                          << "x.json: model.weights_bytes should be an integer ≥ 1.";
    QTest::newRow("bad vendor") << QByteArray("/profiles/0/vendor") << QByteArray("\"intel\"")
                                << "x.json: profiles[0].vendor should be nvidia or amd.";
    QTest::newRow("gpus not one per rank") << QByteArray("/profiles/0/replicas/0/gpus") << QByteArray("[0,1]")
                                           << "x.json: profiles[0].replicas[0].gpus should be a list of 4 GPU "
                                              "indexes (one per TP rank).";
    QTest::newRow("gpu out of range") << QByteArray("/profiles/0/replicas/0/gpus") << QByteArray("[0,1,2,7]")
                                      << "x.json: profiles[0].replicas[0].gpus should be GPU indexes from 0 to 3.";
    QTest::newRow("mem fraction") << QByteArray("/profiles/0/mem_fraction_static") << QByteArray("1.5")
                                  << "x.json: profiles[0].mem_fraction_static should be a number from 0.05 to 0.99.";
    QTest::newRow("duplicate id") << QByteArray("/profiles/1/id") << QByteArray("\"b300x4-balanced\"")
                                  << "x.json: profiles[1].id should be an id not used before.";
    QTest::newRow("schema") << QByteArray("/schema") << QByteArray("2")
                            << "x.json: schema should be 1 (this Flashdeck reads schema 1).";
    QTest::newRow("env value") << QByteArray("/profiles/0/env/FMHA_SM100_ALLOW_JIT") << QByteArray("1")
                               << "x.json: profiles[0].env.FMHA_SM100_ALLOW_JIT should be a string.";
}

void TestRecipe::invalid_namesTheKeyAndWhatWasExpected()
{
    QFETCH(QByteArray, jsonPointer);
    QFETCH(QByteArray, value);
    QFETCH(QString, message);
    nlohmann::json j = shipped();
    const nlohmann::json::json_pointer ptr(jsonPointer.toStdString());
    if (value.isEmpty()) {
        j[ptr.parent_pointer()].erase(ptr.back());
    } else {
        j[ptr] = nlohmann::json::parse(value.toStdString());
    }
    const auto r = Recipe::fromJson(QByteArray::fromStdString(j.dump()), QStringLiteral("x.json"));
    QVERIFY(!r);
    QCOMPARE(r.message(), message);
    QVERIFY(!Recipe::fromJson("{not json", QStringLiteral("y.json")));
}

void TestRecipe::profileForGpus_fitsTheHost_data()
{
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QString>("profile"); // empty: none fits
    const auto times = [](int n, const char *name) { return QStringList(n, QString::fromLatin1(name)); };
    QTest::newRow("4 × B300") << times(4, "NVIDIA B300 SXM6 AC") << QStringLiteral("b300x4-balanced");
    QTest::newRow("8 × B300: the 4-GPU profile on 4 of them")
        << times(8, "NVIDIA B300 SXM6 AC") << QStringLiteral("b300x4-balanced");
    QTest::newRow("8 × MI355X") << times(8, "AMD Instinct MI355X") << QStringLiteral("mi355x-x8-two-tp4-router");
    QTest::newRow("4 × MI355X: too few for its profile") << times(4, "AMD Instinct MI355X") << QString();
    QTest::newRow("2 × B300: too few") << times(2, "NVIDIA B300 SXM6 AC") << QString();
    QTest::newRow("2 × H200: the page only generates its flags") << times(2, "NVIDIA H200") << QString();
    QTest::newRow("no GPUs") << QStringList{} << QString();
}

void TestRecipe::generatorProfileForGpus_theModelsEntry_data()
{
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QString>("profile"); // empty: none
    QTest::newRow("8 × H200") << QStringList(8, QStringLiteral("NVIDIA H200")) << QStringLiteral("h200");
    QTest::newRow("2 × H200 NVL") << QStringList(2, QStringLiteral("NVIDIA H200 NVL")) << QStringLiteral("h200");
    QTest::newRow("B200") << QStringList(8, QStringLiteral("NVIDIA B200")) << QStringLiteral("b200");
    QTest::newRow("GB200, not B200") << QStringList(4, QStringLiteral("NVIDIA GB200")) << QStringLiteral("gb200");
    QTest::newRow("B300: it has a profile, no generator entry")
        << QStringList(4, QStringLiteral("NVIDIA B300 SXM6 AC")) << QString();
    QTest::newRow("H100: a model the page does not name")
        << QStringList(8, QStringLiteral("NVIDIA H100 80GB HBM3")) << QString();
    QTest::newRow("no GPUs") << QStringList{} << QString();
}

void TestRecipe::generatorProfileForGpus_theModelsEntry()
{
    QFETCH(QStringList, names);
    QFETCH(QString, profile);
    const auto recipes = Recipe::builtIn();
    QVERIFY2(recipes, qPrintable(recipes.message()));
    const flashdeck::recipe::RecipeProfile *p =
        flashdeck::recipe::ProfileChoice::generatorEntryForGpus(recipes.value().first(), names);
    QCOMPARE(p ? p->id : QString(), profile);
    if (p) { // SGLang's default port until the command says otherwise (the window showed 1)
        QCOMPARE(flashdeck::recipe::ProfileChoice::servedPort(*p), quint16(30000));
    }
}

void TestRecipe::profileForGpus_fitsTheHost()
{
    QFETCH(QStringList, names);
    QFETCH(QString, profile);
    const auto recipes = Recipe::builtIn();
    QVERIFY2(recipes, qPrintable(recipes.message()));
    const flashdeck::recipe::RecipeProfile *p = recipes.value().first().profileForGpus(names);
    QCOMPARE(p ? p->id : QString(), profile);
}

void TestRecipe::nodeLayout_oneServicePerFourGpusBehindTheRouter_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QString>("gpus");
    QTest::addColumn<int>("port");
    QTest::addColumn<QString>("layout"); // "GPUS@PORT;…>ROUTER", or "error: words"
    const QString balanced = QStringLiteral("b300x4-balanced");
    QTest::newRow("8 GPUs: two TP 4 services behind the Router")
        << balanced << QStringLiteral("0,1,2,3,4,5,6,7") << 0
        << QStringLiteral("0,1,2,3@30000;4,5,6,7@30001>30080 cache_aware");
    QTest::newRow("--gpus 0,1,2,3: one service, no Router")
        << balanced << QStringLiteral("0,1,2,3") << 0 << QStringLiteral("0,1,2,3@30000>0 ");
    QTest::newRow("--gpus 4,5,6,7 --port 31000: one service on the operator's port")
        << balanced << QStringLiteral("4,5,6,7") << 31000 << QStringLiteral("4,5,6,7@31000>0 ");
    QTest::newRow("8 GPUs and --port 31000: the entry point is the Router's")
        << balanced << QStringLiteral("0,1,2,3,4,5,6,7") << 31000
        << QStringLiteral("0,1,2,3@30000;4,5,6,7@30001>31000 cache_aware");
    QTest::newRow("8 GPUs and --port 30001: no service takes the Router's port")
        << balanced << QStringLiteral("4,5,6,7,0,1,2,3") << 30001
        << QStringLiteral("4,5,6,7@30000;0,1,2,3@30003>30001 cache_aware");
    QTest::newRow("12 GPUs: three services") << balanced << QStringLiteral("0,1,2,3,4,5,6,7,8,9,10,11") << 0
                                             << QStringLiteral("0,1,2,3@30000;4,5,6,7@30001;8,9,10,11@30002>30080 "
                                                               "cache_aware");
    QTest::newRow("6 GPUs: not a multiple of TP 4")
        << balanced << QStringLiteral("0,1,2,3,4,5") << 0 << QStringLiteral("error: or a multiple of 4");
    QTest::newRow("Low-Latency has no node layout: 8 GPUs refused")
        << QStringLiteral("b300x4-low-latency") << QStringLiteral("0,1,2,3,4,5,6,7") << 0
        << QStringLiteral("error: needs 4 GPUs (one per TP rank), not 8");
}

void TestRecipe::nodeLayout_oneServicePerFourGpusBehindTheRouter()
{
    QFETCH(QString, profile);
    QFETCH(QString, gpus);
    QFETCH(int, port);
    QFETCH(QString, layout);
    const auto recipes = Recipe::builtIn();
    QVERIFY2(recipes, qPrintable(recipes.message()));
    const Recipe &recipe = recipes.value().first();
    const flashdeck::recipe::RecipeProfile *listed = recipe.profile(profile);
    QVERIFY(listed);
    const auto chosen = flashdeck::recipe::ProfileChoice{{}, gpus, quint16(port)}.apply(recipe, *listed);
    if (layout.startsWith(QLatin1String("error: "))) {
        QVERIFY(!chosen);
        QVERIFY2(chosen.message().contains(layout.mid(7)), qPrintable(chosen.message()));
        return;
    }
    QVERIFY2(chosen, qPrintable(chosen.message()));
    const auto describe = [](const flashdeck::recipe::RecipeProfile &p) -> QString {
        QStringList services;
        for (const flashdeck::recipe::RecipeReplica &r : p.replicas) {
            QStringList ids;
            for (const int g : r.gpus) {
                ids.append(QString::number(g));
            }
            services.append(ids.join(QLatin1Char(',')) + QLatin1Char('@') + QString::number(r.port));
        }
        return services.join(QLatin1Char(';')) + QLatin1Char('>') + QString::number(p.routerPort) + QLatin1Char(' ') +
            p.routerPolicy;
    };
    QCOMPARE(describe(chosen.value()), layout);
    // What the manifest records (the GPUs in order, the entry point) lays it out the same again.
    flashdeck::recipe::Deployment d;
    d.profile = profile;
    d.gpus = flashdeck::recipe::ProfileChoice::gpuList(chosen.value());
    d.port = flashdeck::recipe::ProfileChoice::servedPort(chosen.value());
    const auto again = flashdeck::recipe::ProfileChoice::asDeployed(recipe, d);
    QVERIFY2(again, qPrintable(again.message()));
    QCOMPARE(describe(again.value()), layout);
    // The host's count decides when the operator gives no list: services of the profile's TP.
    QCOMPARE(flashdeck::recipe::ProfileChoice::servicesOn(*listed, 8),
             profile == QLatin1String("b300x4-balanced") ? 2 : 1);
    QCOMPARE(flashdeck::recipe::ProfileChoice::servicesOn(*listed, 4), 1);
}

QTEST_GUILESS_MAIN(TestRecipe)
#include "tst_recipe.moc"
