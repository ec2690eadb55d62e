#include "backend/core/sharedbytes.h"
#include "backend/logs/linesplitter.h"
#include "backend/logs/literalscanner.h"
#include "backend/logs/loghighlights.h"
#include "backend/logs/logrules.h"
#include "tests/support/buildpaths.h"
#include "tests/support/byteholders.h"

#include <QFile>
#include <QTest>

using namespace flashdeck::logs;
using flashdeck::test::holders;

Q_DECLARE_METATYPE(QList<QByteArray>)

namespace {

QString joined(const QList<SplitLine> &lines)
{
    QStringList parts;
    for (const SplitLine &l : lines) {
        parts.append(QString::fromLatin1(l.text) + (l.progress ? QStringLiteral("[p]") : QString()) +
                     (l.cut ? QStringLiteral("[cut]") : QString()));
    }
    return parts.join(QLatin1Char('|'));
}

} // namespace

/**
 * The log pipeline's first stages (issue 6): the classifier of host contract §6 on real SGLang
 * lines (tests/data/sglang-logs, from sglang-facts §3, §11, §12), and the line splitter on the
 * ways bytes arrive: chunk boundaries anywhere, CRLF, tqdm's lone '\r', invalid UTF-8, 1 MiB lines.
 */
class TestLogPipeline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void classify_data();
    void classify();
    void classify_oneScanAgreesWithASearchPerSubstring();
    void classify_everyPlaceInEveryLength();
    void rules_badFilesSayWhere_data();
    void rules_badFilesSayWhere();
    void split_data();
    void split();
    void split_byteByByte_sameAsWhole();
    void split_longLineIsCut_andTheNextKept();
    void split_linesShareTheChunk_andStandAlone();
    void split_sharedLinesAreCountedExactly();
    void bytes_narrowKeepsItsOneReference();
    void bytes_releaserGivesBackEveryReference();
    void highlights_sayWhatTheLogShows_data();
    void highlights_sayWhatTheLogShows();
};

void TestLogPipeline::classify_data()
{
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QByteArray>("line");
    QFile f(flashdeck::test::testData(u"/sglang-logs/classified.tsv"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    int n = 0;
    while (!f.atEnd()) {
        const QByteArray row = f.readLine().chopped(1);
        const qsizetype tab = row.indexOf('\t');
        QVERIFY(tab > 0);
        QTest::addRow("%d %s", ++n, row.left(tab).constData())
            << QString::fromLatin1(row.left(tab)) << row.mid(tab + 1);
    }
    QVERIFY(n >= 30);
}

void TestLogPipeline::classify()
{
    QFETCH(QString, rule);
    QFETCH(QByteArray, line);
    const auto rules = LogRules::builtIn();
    QVERIFY2(rules, qPrintable(rules.message()));
    const int i = rules.value().classify(line);
    QCOMPARE(i < 0 ? QStringLiteral("-") : rules.value().rules().at(i).id, rule);
    QCOMPARE(rules.value().withoutVectorScan().classify(line), i); // the portable matcher agrees
    if (i >= 0) {
        const LogRule &r = rules.value().rules().at(i);
        QVERIFY(!r.meaning.isEmpty());
        QCOMPARE(r.fix.isEmpty(),
                 r.severity == QLatin1String("ok") || r.severity == QLatin1String("info") ||
                     r.severity == QLatin1String("plain"));
    }
}

namespace {

/** The first rule with a substring in `line`: the definition both matchers must agree with. */
QString checkAgainstNaive(const LogRules &rules, int *matched)
{
    QList<QByteArray> pieces;
    for (const LogRule &r : rules.rules()) {
        for (const QByteArray &m : r.match) {
            pieces << m << m.left(m.size() / 2) << m.mid(m.size() / 3) << m.left(m.size() - 1);
        }
    }
    pieces << "x"
           << " "
           << "\xff\xfe"
           << "backend="
           << "qmul" << QByteArray(1, '\0');
    auto naive = [&rules](const QByteArray &line) {
        for (int i = 0; i < rules.rules().size(); ++i) {
            for (const QByteArray &m : rules.rules()[i].match) {
                if (line.contains(m)) {
                    return i;
                }
            }
        }
        return -1;
    };
    quint32 seed = 20261130;
    auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
    *matched = 0;
    for (int n = 0; n < 20000; ++n) {
        QByteArray line;
        for (int k = int(next() % 6); k >= 0; --k) {
            line += pieces.at(int(next() % quint32(pieces.size())));
        }
        const int expected = naive(line);
        if (rules.classify(line) != expected) {
            return QStringLiteral("%1 instead of %2 for \"%3\"")
                .arg(rules.classify(line))
                .arg(expected)
                .arg(QString::fromLatin1(line.toPercentEncoding(" []=:")));
        }
        *matched += expected >= 0 ? 1 : 0;
    }
    return rules.classify(QByteArray()) == -1 ? QString() : QStringLiteral("the empty line matched");
}

} // namespace

void TestLogPipeline::classify_oneScanAgreesWithASearchPerSubstring()
{
    // The vector filter (where the CPU has AVX2), the skipping matcher (built-in rules: every
    // substring ≥ 12 bytes) and the automaton (rules with a 2-byte substring) against the
    // obvious definition, on lines stitched from pieces of the patterns, overlapping prefixes and
    // noise. Each rule set runs on both paths: with the vector filter and without it.
    const auto builtIn = LogRules::builtIn();
    QVERIFY(builtIn);
    QCOMPARE(builtIn.value().usesVectorScan(), LiteralScanner::cpuSupported());
    QVERIFY(!builtIn.value().withoutVectorScan().usesVectorScan());
    const auto shortOnes = LogRules::fromJson(
        R"({"rules":[{"id":"oom","severity":"error","match":["OOM","out of memory"]},
                     {"id":"ready","severity":"ok","match":["ready to roll","fired up"]},
                     {"id":"q","severity":"warn","match":["qmul","mul4","backend=fp"]}]})",
        QStringLiteral("short.json"));
    QVERIFY2(shortOnes, qPrintable(shortOnes.message()));
    QCOMPARE(shortOnes.value().usesVectorScan(), LiteralScanner::cpuSupported()); // 3 bytes suffice
    const auto twoBytes = LogRules::fromJson(
        R"({"rules":[{"id":"a","severity":"warn","match":["OK","fired up"]},
                     {"id":"b","severity":"info","match":["ready","up an"]}]})",
        QStringLiteral("two.json"));
    QVERIFY2(twoBytes, qPrintable(twoBytes.message()));
    QVERIFY(!twoBytes.value().usesVectorScan()); // the filter reads three bytes of each substring
    // Many substrings alike: each of the filter's 8 buckets holds several, sharing prefixes.
    QByteArray many = R"({"rules":[)";
    for (int i = 0; i < 40; ++i) {
        many += QStringLiteral(R"(%1{"id":"r%2","severity":"info","match":["%3 step %2","%3%2x"]})")
                    .arg(i ? QStringLiteral(",") : QString())
                    .arg(i)
                    .arg(QLatin1String(i % 3 ? "Decode" : "Deco"))
                    .toUtf8();
    }
    many += "]}";
    const auto manyAlike = LogRules::fromJson(many, QStringLiteral("many.json"));
    QVERIFY2(manyAlike, qPrintable(manyAlike.message()));
    for (const LogRules *rules : {&builtIn.value(), &shortOnes.value(), &twoBytes.value(), &manyAlike.value()}) {
        for (const LogRules &path : {*rules, rules->withoutVectorScan()}) {
            int matched = 0;
            const QString problem = checkAgainstNaive(path, &matched);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            QVERIFY(matched > 1000); // the generator does reach the rules
        }
    }
}

void TestLogPipeline::classify_everyPlaceInEveryLength()
{
    // The vector filter reads 32 positions a step, pads lines shorter than a step and ends with a
    // step that overlaps the one before: every substring at every position of lines of every
    // length up to 100 bytes, whole (found) and without its last byte (not found).
    const auto rules = LogRules::builtIn();
    QVERIFY(rules);
    const LogRules portable = rules.value().withoutVectorScan();
    for (int i = 0; i < rules.value().rules().size(); ++i) {
        for (const QByteArray &m : rules.value().rules().at(i).match) {
            for (const QByteArray &piece : {m, m.chopped(1)}) {
                for (qsizetype length = piece.size(); length <= 100; ++length) {
                    for (qsizetype at = 0; at + piece.size() <= length; ++at) {
                        QByteArray line(length, '.');
                        line.replace(at, piece.size(), piece);
                        const int expected = portable.classify(line);
                        if (piece == m) {
                            QVERIFY(expected >= 0 && expected <= i); // the whole one is found
                        }
                        QCOMPARE(rules.value().classify(line), expected);
                    }
                }
            }
        }
    }
}

void TestLogPipeline::rules_badFilesSayWhere_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("message");
    QTest::newRow("not rules") << QByteArray("[]") << "rules.json: expected an object with a \"rules\" array";
    QTest::newRow("severity") << QByteArray(R"({"rules":[{"id":"x","severity":"bad","match":["a"]}]})")
                              << "rules.json: rule 1: \"severity\" of x must be ok, info, warn, error or plain";
    QTest::newRow("empty match") << QByteArray(R"({"rules":[{"id":"x","severity":"ok","match":[]}]})")
                                 << "rules.json: rule 1: \"match\" of x must be a non-empty array of strings";
    QTest::newRow("twice") << QByteArray(R"({"rules":[{"id":"x","severity":"ok","match":["a"]},)"
                                         R"({"id":"x","severity":"ok","match":["b"]}]})")
                           << "rules.json: rule 2: the id x is used twice";
}

void TestLogPipeline::rules_badFilesSayWhere()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, message);
    const auto r = LogRules::fromJson(json, QStringLiteral("rules.json"));
    QVERIFY(!r);
    QCOMPARE(r.message(), message);
}

void TestLogPipeline::split_data()
{
    QTest::addColumn<QList<QByteArray>>("chunks");
    QTest::addColumn<QString>("lines");
    QTest::newRow("lines") << QList<QByteArray>{"a\nb\n"} << "a|b";
    QTest::newRow("partial across chunks")
        << QList<QByteArray>{"Load wei", "ght begin\nnex", "t\n"} << "Load weight begin|next";
    QTest::newRow("CRLF") << QList<QByteArray>{"a\r\nb\r\n"} << "a|b";
    QTest::newRow("CRLF split between chunks") << QList<QByteArray>{"a\r", "\nb\n"} << "a|b";
    QTest::newRow("tqdm redraws") << QList<QByteArray>{"shards:  0% 0/48\rshards: 50% 24/48\rshards: 100% 48/48\n"}
                                  << "shards:  0% 0/48[p]|shards: 50% 24/48[p]|shards: 100% 48/48";
    QTest::newRow("a redraw ending a chunk") << QList<QByteArray>{"bar 10%\r", "bar 20%\n"} << "bar 10%[p]|bar 20%";
    QTest::newRow("no final newline") << QList<QByteArray>{"last words"} << "last words";
    QTest::newRow("empty lines kept") << QList<QByteArray>{"a\n\nb\n"} << "a||b";
}

void TestLogPipeline::split()
{
    QFETCH(QList<QByteArray>, chunks);
    QFETCH(QString, lines);
    LineSplitter s;
    QList<SplitLine> out;
    for (const QByteArray &c : chunks) {
        out += s.feed(c);
    }
    out += s.finish();
    QCOMPARE(joined(out), lines);
}

void TestLogPipeline::split_byteByByte_sameAsWhole()
{
    // Invalid UTF-8 (a lone 0xff, a cut multibyte sequence) stays as bytes: shown later with
    // replacement characters, never lost here.
    const QByteArray stream = "[TP0] Load weight begin\r\nshards: 1%\rshards: 2%\r\n\xff\xfe bad \xe2\x82\nok\n";
    LineSplitter whole;
    QList<SplitLine> a = whole.feed(stream);
    a += whole.finish();
    LineSplitter bytes;
    QList<SplitLine> b;
    for (char c : stream) {
        b += bytes.feed(QByteArray(1, c));
    }
    b += bytes.finish();
    QCOMPARE(joined(b), joined(a));
    QCOMPARE(a.size(), 5);
    QCOMPARE(a.at(3).text, QByteArray("\xff\xfe bad \xe2\x82"));
    QVERIFY(a.at(1).progress);
    QVERIFY(!a.at(2).progress);
}

void TestLogPipeline::split_longLineIsCut_andTheNextKept()
{
    LineSplitter s(1024);
    QList<SplitLine> out = s.feed(QByteArray(3000, 'x'));
    out += s.feed(QByteArray(500, 'y') + "\nnext line\n");
    QCOMPARE(out.size(), 2);
    QCOMPARE(out.at(0).text.size(), 1024);
    QVERIFY(out.at(0).cut);
    QCOMPARE(out.at(1).text, QByteArray("next line"));
    QVERIFY(!out.at(1).cut);
    LineSplitter mib; // the default limit keeps a full 1 MiB line whole
    const QList<SplitLine> one = mib.feed(QByteArray(1024 * 1024, 'z') + '\n');
    QCOMPARE(one.size(), 1);
    QVERIFY(!one.at(0).cut);
}

void TestLogPipeline::split_linesShareTheChunk_andStandAlone()
{
    // The ring keeps every line: a line wholly inside a chunk shares the chunk's memory (no
    // allocation each). It must read as its own bytes after the chunk is gone and change alone.
    QByteArray chunk = "alpha\nbeta\r\nbar 10%\rgam";
    QList<SplitLine> out;
    {
        LineSplitter s;
        out = s.feed(chunk);
        const auto inside = [&](const QByteArray &t) {
            return t.constData() >= chunk.constData() && t.constData() < chunk.constData() + chunk.size();
        };
        QCOMPARE(out.size(), 3);
        QVERIFY(inside(out.at(0).text)); // ended by '\n': SGLang's lines, nearly all of them
        out += s.feed("ma\n");
        QVERIFY(!inside(out.at(3).text)); // assembled across chunks: a copy
    }
    chunk.fill('#');
    chunk.clear();
    QCOMPARE(joined(out), QStringLiteral("alpha|beta|bar 10%[p]|gamma"));
    out[0].text.append("!");
    out[1].text[0] = 'B';
    QCOMPARE(joined(out), QStringLiteral("alpha!|Beta|bar 10%[p]|gamma"));

    // A short read in a large buffer is copied: its lines must not keep the buffer alive.
    QByteArray sparse;
    sparse.reserve(64 * 1024);
    sparse.append("slow line\n");
    LineSplitter s;
    const QList<SplitLine> one = s.feed(sparse);
    QCOMPARE(one.size(), 1);
    QCOMPARE(one.at(0).text, QByteArray("slow line"));
    QVERIFY(one.at(0).text.constData() < sparse.constData() ||
            one.at(0).text.constData() >= sparse.constData() + sparse.size());
}

void TestLogPipeline::split_sharedLinesAreCountedExactly()
{
    // The slicer takes references 256 at a time and gives back the unused ones: after a feed the
    // chunk is held by itself and by each of its lines, no more (a leak) and no fewer (freed
    // under a line). Lines let go in any order; the sanitizers' build sees a miscount either way.
    QByteArray chunk;
    for (int i = 0; i < 1000; ++i) {
        chunk += "line " + QByteArray::number(i) + '\n';
    }
    chunk.squeeze(); // dense, as a read is: a block mostly empty room is copied from instead
    LineSplitter s;
    QList<SplitLine> out = s.feed(chunk);
    QCOMPARE(out.size(), 1000);
    QCOMPARE(holders(chunk), 1 + 1000);
    for (int i = 999; i >= 0; i -= 2) {
        out.removeAt(i); // every other line, from the end
    }
    QCOMPARE(holders(chunk), 1 + 500);
    chunk.clear(); // the chunk itself goes before its last lines
    QCOMPARE(holders(out.at(0).text), 500);
    for (int i = 0; i < out.size(); ++i) {
        QCOMPARE(out.at(i).text, "line " + QByteArray::number(2 * i));
    }
    // Fewer lines than a batch of references, and none at all.
    QByteArray few = "a\nb\n";
    QCOMPARE(s.feed(few).size(), 2);
    QCOMPARE(holders(few), 1);
    QByteArray none = "no end yet";
    QCOMPARE(s.feed(none).size(), 0);
    QCOMPARE(holders(none), 1);
}

void TestLogPipeline::bytes_narrowKeepsItsOneReference()
{
    // What the log follower does with each line: the record takes the line's text past Docker's
    // timestamp without copying it or touching the count.
    QByteArray block = "2026-11-30T18:10:38.123Z Decode batch. #running-req: 1\n";
    QByteArray line = block;
    QCOMPARE(holders(block), 2);
    flashdeck::bytes::narrow(line, 25, 12);
    QCOMPARE(line, QByteArray("Decode batch"));
    QCOMPARE(line.constData(), block.constData() + 25);
    QCOMPARE(holders(block), 2);
    line.append('!'); // writing detaches it, as any shared QByteArray
    QCOMPARE(line, QByteArray("Decode batch!"));
    QCOMPARE(holders(block), 1);
    QVERIFY(block.startsWith("2026-11-30T18:10:38.123Z Decode batch. #"));
}

void TestLogPipeline::bytes_releaserGivesBackEveryReference()
{
    // What the log ring does with the lines it drops: runs of lines of one chunk give their
    // references back at once. Lines of two chunks interleaved, a copy of its own, an unshared
    // one and raw data among them; each chunk ends held by itself alone, and a chunk cleared
    // before its last lines go is freed by the releaser (the sanitizers' build sees a
    // miscount, a leak or a double free).
    QByteArray a;
    QByteArray b;
    for (int i = 0; i < 600; ++i) {
        a += "a" + QByteArray::number(i) + '\n';
        b += "b" + QByteArray::number(i) + '\n';
    }
    a.squeeze();
    b.squeeze();
    LineSplitter s;
    QList<SplitLine> fromA = s.feed(a);
    QList<SplitLine> fromB = s.feed(b);
    QCOMPARE(holders(a), 1 + 600);
    QList<QByteArray> lines;
    for (int i = 0; i < 600; ++i) {
        lines.append(std::move(i < 300 || i % 3 ? fromA[i] : fromB[i]).text);
    }
    lines.append(QByteArray("a copy of its own"));
    lines.append(QByteArray::fromRawData("raw", 3));
    lines.append(fromB[0].text); // shared twice: by the list and here
    fromA.clear();
    QCOMPARE(holders(a), 1 + 300 + 200);
    {
        flashdeck::bytes::BlockReleaser released;
        for (qsizetype i = 0; i < 450; ++i) {
            released.release(lines[i]);
            QVERIFY(lines.at(i).isEmpty());
        }
        QVERIFY(holders(a) > 1); // held until flushed, never given back early
        released.flush();
        QCOMPARE(holders(a), 1 + 100);
        QCOMPARE(holders(b), 1 + 500 + 50 + 1); // the list, the 50 lines not given back, the copy
        a.clear(); // the chunk goes before its last lines: the releaser frees it
        for (qsizetype i = 450; i < lines.size(); ++i) {
            released.release(lines[i]);
        }
    }
    QCOMPARE(holders(b), 1 + 500);
    for (const QByteArray &l : lines) {
        QVERIFY(l.isNull());
    }
    QCOMPARE(fromB.at(0).text, QByteArray("b0"));
}

QTEST_GUILESS_MAIN(TestLogPipeline)
void TestLogPipeline::highlights_sayWhatTheLogShows_data()
{
    using Q = LogHighlights::Qmul4;
    QTest::addColumn<QByteArrayList>("lines");
    QTest::addColumn<bool>("ended");
    QTest::addColumn<int>("recorded"); // LogHighlights::Qmul4
    QTest::addColumn<QString>("text");
    const QByteArray fast = "[TP0] nvfp4_to_fp8 backend=qmul4";
    const QByteArray decode = "[TP0] Decode batch, #running-req: 3, #token: 9000, token usage: 0.01, gen "
                              "throughput (token/s): 210.5, #queue-req: 0";
    QTest::newRow("live, before the start-up check") << QByteArrayList{"Load weight begin."} << false << int(Q::Unknown)
                                                     << QStringLiteral("qmul4: waiting for the start-up check");
    QTest::newRow("the line itself") << QByteArrayList{fast, decode} << true << int(Q::Unknown)
                                     << QStringLiteral("qmul4: fast path");
    QTest::newRow("a tail without the start-up, passed at deploy")
        << QByteArrayList{decode, decode} << false << int(Q::FastPath)
        << QStringLiteral("qmul4: fast path (checked at deploy)");
    QTest::newRow("a tail without the start-up, fallback at deploy")
        << QByteArrayList{decode} << true << int(Q::Fallback)
        << QStringLiteral("qmul4: SLOW fallback — CUDA Toolkit < 13.4 (checked at deploy)");
    QTest::newRow("a whole SGLang log without the start-up")
        << QByteArrayList{decode, decode} << true << int(Q::Unknown)
        << QStringLiteral("qmul4: the server's start-up is not in this log");
    QTest::newRow("not an SGLang log") << QByteArrayList{"Dec 01 sshd[1]: Accepted publickey", "kernel: eth0 up"}
                                       << true << int(Q::Unknown) << QStringLiteral("qmul4: not an SGLang server log");
    QTest::newRow("what the log says beats the record")
        << QByteArrayList{"[TP0] nvfp4_to_fp8 backend=fp16_fallback"} << true << int(Q::FastPath)
        << QStringLiteral("qmul4: SLOW fallback — CUDA Toolkit < 13.4");
}

void TestLogPipeline::highlights_sayWhatTheLogShows()
{
    QFETCH(QByteArrayList, lines);
    QFETCH(bool, ended);
    QFETCH(int, recorded);
    QFETCH(QString, text);
    const auto rules = LogRules::builtIn();
    QVERIFY2(rules, qPrintable(rules.message()));
    LogHighlights h;
    h.setRecorded(static_cast<LogHighlights::Qmul4>(recorded));
    for (const QByteArray &l : lines) {
        const int i = rules.value().classify(l);
        h.note(i < 0 ? QString() : rules.value().rules().at(i).id);
    }
    h.setEnded(ended);
    QCOMPARE(h.qmul4Text(), text);
}

#include "tst_logpipeline.moc"
