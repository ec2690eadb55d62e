#include "backend/deploy/weightsfolder.h"
#include "tests/support/buildpaths.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck;

namespace {

const QString kRepo = QStringLiteral("MiniMaxAI/MiniMax-M3.1-Flash");
const QString kSha = QStringLiteral("62cbc27f7e9e74309d8ecea398ffe088b6c4e0aa"); // tests/simhost/registry.json

/** The simulated `hf download` / `modelscope download` of the registry's revision. */
bool writeModel(const QString &dir, const QString &layout)
{
    QProcess p;
    p.start(flashdeck::test::simDaemon(),
            {QStringLiteral("--registry"), flashdeck::test::simRegistry(), QStringLiteral("--write-model"), kRepo, dir,
             layout});
    return p.waitForFinished(60000) && p.exitCode() == 0;
}

/** Runs the listing command with the machine's own sh and coreutils, as the host would. */
QByteArray list(const QString &dir, bool checksums = false)
{
    QProcess p;
    p.start(QStringLiteral("/bin/sh"),
            {QStringLiteral("-c"), QString::fromUtf8(deploy::WeightsFolder::listingCommand(dir, checksums))});
    p.waitForFinished(60000);
    return p.readAllStandardOutput();
}

bool truncateFile(const QString &path, qint64 size)
{
    QFile f(path);
    return f.open(QIODevice::ReadWrite) && f.resize(size);
}

bool appendTo(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::Append) && f.write(bytes) == bytes.size();
}

} // namespace

/**
 * The offline-folder verification (F27, F28, F29): the real listing script run by /bin/sh on
 * folders the simulated download wrote, then damaged the ways downloads and copies go wrong.
 */
class TestWeightsFolder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void verify_data();
    void verify();
    void checksumsAndTree();
    void checksums_againstHfMetadata();
    void fileNamesWithSpaces();
    void cutShortListing_isAnError();
    void offlineCommands_quoteAndPin();
};

void TestWeightsFolder::verify_data()
{
    QTest::addColumn<QString>("damage");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("problem");
    QTest::addColumn<QString>("revision");

    QTest::newRow("complete") << "" << true << "" << kSha;
    QTest::newRow("shard cut short") << "truncate model-00031-of-00048.safetensors 1000" << false
                                     << "model-00031-of-00048.safetensors is truncated: 1000 of " << kSha;
    QTest::newRow("shard cut in its header")
        << "truncate model-00002-of-00048.safetensors 20" << false
        << "model-00002-of-00048.safetensors is truncated inside its header" << kSha;
    QTest::newRow("shard missing") << "remove model-00047-of-00048.safetensors" << false
                                   << "1 of the 48 shards the index names are missing: model-00047-of-00048" << kSha;
    QTest::newRow("shard with extra bytes") << "append model-00005-of-00048.safetensors" << false
                                            << "model-00005-of-00048.safetensors has 3 bytes more" << kSha;
    QTest::newRow("no dspark") << "remove dspark/model.safetensors dspark/config.json" << false
                               << "no DSpark draft: the dspark subfolder is missing" << kSha;
    QTest::newRow("draft bundled, no dspark/ (sglang-facts §10)")
        << "remove dspark/model.safetensors dspark/config.json; bundle" << true << "" << kSha;
    QTest::newRow("draft cut short") << "truncate dspark/model.safetensors 500" << false
                                     << "dspark/model.safetensors is truncated" << kSha;
    QTest::newRow("no index") << "remove model.safetensors.index.json" << false
                              << "neither model.safetensors.index.json nor model.safetensors" << kSha;
    QTest::newRow("no config") << "remove config.json" << false << "config.json is missing" << kSha;
    QTest::newRow("two revisions") << "metadata config.json 0123456789012345678901234567890123456789" << false
                                   << "the files come from 2 different revisions"
                                   << "";
    QTest::newRow("no metadata (ModelScope layout)") << "nometa" << true << ""
                                                     << "";
    QTest::newRow("no folder") << "nodir" << false << "there is no folder there"
                               << "";
}

void TestWeightsFolder::verify()
{
    QFETCH(QString, damage);
    QFETCH(bool, ok);
    QFETCH(QString, problem);
    QFETCH(QString, revision);

    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("MiniMax M3.1 Flash")); // a space, as people name folders
    QVERIFY(writeModel(dir, QStringLiteral("hf")));
    QString rest = damage;
    if (damage.endsWith(QLatin1String("; bundle"))) { // config.json announces a bundled draft
        rest.chop(8);
        QFile config(dir + QStringLiteral("/config.json"));
        QVERIFY(config.open(QIODevice::ReadWrite));
        QByteArray text = config.readAll();
        text.insert(text.indexOf('{') + 1, "\n  \"dspark_block_size\": 7,\n  \"dspark_noise_token_id\": 200034,");
        QVERIFY(config.resize(0) && config.write(text) == text.size());
    }
    const QStringList words = rest.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (!words.isEmpty()) {
        const QString verb = words[0];
        if (verb == QLatin1String("truncate")) {
            QVERIFY(truncateFile(dir + QLatin1Char('/') + words[1], words[2].toLongLong()));
        } else if (verb == QLatin1String("remove")) {
            for (const QString &f : words.mid(1)) {
                QVERIFY(QFile::remove(dir + QLatin1Char('/') + f));
            }
        } else if (verb == QLatin1String("append")) {
            QVERIFY(appendTo(dir + QLatin1Char('/') + words[1], "xyz"));
        } else if (verb == QLatin1String("metadata")) {
            QFile m(dir + QStringLiteral("/.cache/huggingface/download/") + words[1] + QStringLiteral(".metadata"));
            QVERIFY(m.open(QIODevice::WriteOnly | QIODevice::Truncate));
            m.write(words[2].toUtf8() + "\nabc\n1764504000.0\n");
        } else if (verb == QLatin1String("nometa")) {
            QVERIFY(QDir(dir + QStringLiteral("/.cache")).removeRecursively());
        } else if (verb == QLatin1String("nodir")) {
            QVERIFY(QDir(dir).removeRecursively());
        }
    }

    deploy::WeightsFolder folder;
    QString error;
    QVERIFY2(folder.parse(list(dir), &error), qPrintable(error));
    const deploy::WeightsFolder::Verdict v = folder.verify(QStringLiteral("dspark"));
    QCOMPARE(v.ok(), ok);
    if (!ok) {
        QVERIFY2(v.problems.join(QLatin1Char('\n')).contains(problem), qPrintable(v.problems.join(QLatin1Char('\n'))));
    } else {
        QCOMPARE(v.shards, 48);
        QVERIFY(v.bytes > 48 * 4096);
    }
    QCOMPARE(v.revision, revision);
    if (damage == QLatin1String("nometa")) {
        QVERIFY(v.notes.join(QLatin1Char(' ')).contains(QLatin1String("does not say which revision")));
    }
}

void TestWeightsFolder::checksumsAndTree()
{
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("ms"));
    QVERIFY(writeModel(dir, QStringLiteral("modelscope")));
    deploy::WeightsFolder folder;
    QString error;
    QVERIFY2(folder.parse(list(dir, true), &error), qPrintable(error));
    QCOMPARE(folder.sha256().size(), 49); // 48 shards and the draft

    // A tree as the Hub returns it, built from the folder's own sizes and hashes: it matches.
    auto treeOf = [&](const QHash<QString, qint64> &sizes, const QHash<QString, QString> &hashes) {
        QByteArray t = "[{\"type\":\"directory\",\"oid\":\"x\",\"size\":0,\"path\":\"dspark\"},"
                       "{\"type\":\"file\",\"oid\":\"y\",\"size\":1519,\"path\":\".gitattributes\"}";
        for (auto it = sizes.cbegin(); it != sizes.cend(); ++it) {
            if (it.key() == QLatin1String("configuration.json")) {
                continue; // ModelScope's own file
            }
            t += ",{\"type\":\"file\",\"oid\":\"o\",\"size\":" + QByteArray::number(it.value()) + ",\"path\":\"" +
                it.key().toUtf8() + "\"";
            if (hashes.contains(it.key())) {
                t += ",\"lfs\":{\"oid\":\"" + hashes.value(it.key()).toUtf8() +
                    "\",\"size\":" + QByteArray::number(it.value()) + ",\"pointerSize\":135}";
            }
            t += '}';
        }
        return QByteArray(t + ']');
    };
    deploy::WeightsFolder::Verdict same = folder.verify(QStringLiteral("dspark"));
    folder.compareWithTree(treeOf(folder.sizes(), folder.sha256()), &same);
    QVERIFY2(same.ok(), qPrintable(same.problems.join(QLatin1Char('\n'))));
    QVERIFY(same.notes.join(QLatin1Char('\n'))
                .contains(QLatin1String("match the pinned revision by name, size and sha256")));
    QVERIFY(same.notes.join(QLatin1Char('\n')).contains(QLatin1String("configuration.json")));

    // One shard with other content of the same size, one file the mirror lacks, one resized.
    QHash<QString, QString> hashes = folder.sha256();
    hashes[QStringLiteral("model-00010-of-00048.safetensors")] = QString(64, QLatin1Char('0'));
    QHash<QString, qint64> sizes = folder.sizes();
    sizes.insert(QStringLiteral("merges.txt"), 12);
    sizes[QStringLiteral("tokenizer.json")] += 1;
    deploy::WeightsFolder::Verdict diff = folder.verify(QStringLiteral("dspark"));
    folder.compareWithTree(treeOf(sizes, hashes), &diff);
    const QString all = diff.problems.join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QLatin1String("1 files of the pinned revision are missing: merges.txt")), qPrintable(all));
    QVERIFY2(all.contains(QLatin1String("differ in size from the pinned revision: tokenizer.json")), qPrintable(all));
    QVERIFY2(all.contains(QLatin1String("differ in content (sha256) from the pinned revision: model-00010-of-00048")),
             qPrintable(all));

    deploy::WeightsFolder::Verdict bad = folder.verify(QStringLiteral("dspark"));
    folder.compareWithTree("{\"error\":\"Invalid rev id: x\"}", &bad);
    QVERIFY(!bad.ok());
}

void TestWeightsFolder::checksums_againstHfMetadata()
{
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("m"));
    QVERIFY(writeModel(dir, QStringLiteral("hf")));
    deploy::WeightsFolder folder;
    QString error;
    QVERIFY2(folder.parse(list(dir, true), &error), qPrintable(error));
    deploy::WeightsFolder::Verdict v = folder.verify(QStringLiteral("dspark"));
    QVERIFY2(v.ok(), qPrintable(v.problems.join(QLatin1Char('\n'))));
    QVERIFY(v.notes.join(QLatin1Char('\n')).contains(QLatin1String("49 safetensors files match the sha256")));

    // Bit rot: same size, one byte changed near the end of the data. Only checksums see it.
    QFile f(dir + QStringLiteral("/model-00020-of-00048.safetensors"));
    QVERIFY(f.open(QIODevice::ReadWrite));
    QVERIFY(f.seek(f.size() - 10));
    const char c = f.peek(1).at(0);
    QVERIFY(f.write(QByteArray(1, char(c ^ 0x55))) == 1);
    f.close();
    QVERIFY(folder.parse(list(dir, false), &error));
    QVERIFY(folder.verify(QStringLiteral("dspark")).ok());
    QVERIFY(folder.parse(list(dir, true), &error));
    v = folder.verify(QStringLiteral("dspark"));
    QVERIFY(!v.ok());
    QVERIFY2(v.problems.join(QLatin1Char('\n'))
                 .contains(QLatin1String("1 files differ in content (sha256) from what hf download recorded: "
                                         "model-00020-of-00048.safetensors")),
             qPrintable(v.problems.join(QLatin1Char('\n'))));
}

void TestWeightsFolder::fileNamesWithSpaces()
{
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("it's here"));
    QVERIFY(writeModel(dir, QStringLiteral("hf")));
    QVERIFY(QFile::copy(dir + QStringLiteral("/config.json"), dir + QStringLiteral("/notes and more.txt")));
    deploy::WeightsFolder folder;
    QString error;
    QVERIFY2(folder.parse(list(dir), &error), qPrintable(error));
    QVERIFY(folder.exists());
    QVERIFY(folder.resolvedPath().endsWith(QLatin1String("it's here")));
    QVERIFY(folder.sizes().contains(QStringLiteral("notes and more.txt")));
    QVERIFY(folder.verify(QStringLiteral("dspark")).ok());
}

void TestWeightsFolder::cutShortListing_isAnError()
{
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("m"));
    QVERIFY(writeModel(dir, QStringLiteral("hf")));
    const QByteArray full = list(dir);
    deploy::WeightsFolder folder;
    QString error;
    QVERIFY(folder.parse(full, &error));
    QVERIFY(!folder.parse(full.left(full.size() / 2), &error));
    QVERIFY2(error.contains(QLatin1String("cut short")) || error.contains(QLatin1String("ended early")),
             qPrintable(error));
    QVERIFY(!folder.parse("F twelve config.json\nEND\n", &error));
    QVERIFY(error.contains(QLatin1String("unexpected size")));
}

void TestWeightsFolder::offlineCommands_quoteAndPin()
{
    const QStringList c = deploy::WeightsFolder::offlineCommands(
        kRepo, kSha, QStringLiteral("/srv/models/MiniMax M3.1"), QStringLiteral("ops@gpu1"));
    QCOMPARE(c.size(), 3);
    QCOMPARE(c[1],
             QStringLiteral("hf download MiniMaxAI/MiniMax-M3.1-Flash --revision ") + kSha +
                 QStringLiteral(" --local-dir ./MiniMax-M3.1-Flash"));
    QCOMPARE(c[2],
             QStringLiteral(
                 "rsync -a --partial --info=progress2 ./MiniMax-M3.1-Flash/ 'ops@gpu1:/srv/models/MiniMax M3.1/'"));
    QCOMPARE(deploy::WeightsFolder::modelscopeCommand(QStringLiteral("MiniMax/MiniMax-M3.1-Flash"),
                                                      QStringLiteral("/srv/ms")),
             QStringLiteral("modelscope download --model MiniMax/MiniMax-M3.1-Flash --local_dir /srv/ms"));
}

QTEST_GUILESS_MAIN(TestWeightsFolder)
#include "tst_weightsfolder.moc"
