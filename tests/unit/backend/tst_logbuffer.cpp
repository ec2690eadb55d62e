#include "backend/core/sharedbytes.h"
#include "backend/docker/logframes.h"
#include "backend/logs/logbuffer.h"
#include "backend/logs/loghighlights.h"
#include "backend/logs/logrecord.h"
#include "tests/support/byteholders.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QTest>

#include <deque>

using namespace flashdeck::logs;
using flashdeck::test::holders;

/** The Logs page's fixed-memory store, Docker's timestamps, the pinned badges. */
class TestLogBuffer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void timestamp_data();
    void timestamp();
    void since_roundTrips();
    void ring_keepsTheNewest_andSaysWhatItDropped();
    void ring_dropOldest_andSetCapacity();
    void ring_agreesWithAQueue_property();
    void ring_givesBackTheChunksOfWhatItDrops();
    void highlights_data();
    void highlights();
    void highlights_notApplicableWhereTheDeploymentSkippedIt();
    void frames_runawayLineIsCutAtOneMiB();
};

namespace {

QList<LogRecord> numbered(qint64 from, qint64 count)
{
    QList<LogRecord> out;
    for (qint64 i = 0; i < count; ++i) {
        LogRecord r;
        r.seq = from + i;
        r.text = QByteArray::number(from + i);
        out.append(r);
    }
    return out;
}

QStringList rulesOf(const char *ids)
{
    return QString::fromLatin1(ids).split(QLatin1Char(' '));
}

} // namespace

void TestLogBuffer::timestamp_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<qsizetype>("used");
    QTest::addColumn<QString>("iso"); // expected instant, as QDateTime reads it (ms), or empty
    QTest::addColumn<qint64>("nanos"); // expected sub-second nanoseconds

    // Docker's RFC3339Nano drops the fraction's trailing zeros.
    QTest::newRow("nanos") << QByteArray("2026-11-30T18:10:38.123456789Z [2026-11-30 18:10:38] hello") << qsizetype(31)
                           << "2026-11-30T18:10:38.123Z" << qint64(123456789);
    QTest::newRow("short fraction") << QByteArray("2026-11-30T18:10:38.5Z x") << qsizetype(23)
                                    << "2026-11-30T18:10:38.500Z" << qint64(500000000);
    QTest::newRow("no fraction") << QByteArray("2024-02-29T00:00:00Z leap day") << qsizetype(21)
                                 << "2024-02-29T00:00:00.000Z" << qint64(0);
    QTest::newRow("offset") << QByteArray("2026-11-30T19:10:38.25+01:00 x") << qsizetype(29)
                            << "2026-11-30T18:10:38.250Z" << qint64(250000000);
    QTest::newRow("line is only the stamp")
        << QByteArray("2026-01-01T00:00:00Z") << qsizetype(20) << "2026-01-01T00:00:00.000Z" << qint64(0);
    QTest::newRow("no stamp") << QByteArray("[2026-11-30 18:10:38] The server is fired up") << qsizetype(0) << ""
                              << qint64(0);
    QTest::newRow("glued to text") << QByteArray("2026-11-30T18:10:38Zx") << qsizetype(0) << "" << qint64(0);
    QTest::newRow("month 13") << QByteArray("2026-13-30T18:10:38Z x") << qsizetype(0) << "" << qint64(0);
    QTest::newRow("empty fraction") << QByteArray("2026-11-30T18:10:38.Z x") << qsizetype(0) << "" << qint64(0);
    QTest::newRow("too short") << QByteArray("2026-11-30T18") << qsizetype(0) << "" << qint64(0);
    QTest::newRow("empty") << QByteArray() << qsizetype(0) << "" << qint64(0);
}

void TestLogBuffer::timestamp()
{
    QFETCH(QByteArray, line);
    QFETCH(qsizetype, used);
    QFETCH(QString, iso);
    QFETCH(qint64, nanos);
    qint64 t = -1;
    QCOMPARE(splitDockerTimestamp(line, t), used);
    if (iso.isEmpty()) {
        QCOMPARE(t, -1); // untouched
        return;
    }
    const qint64 ms = QDateTime::fromString(iso, Qt::ISODateWithMs).toMSecsSinceEpoch();
    QCOMPARE(t / 1000000, ms);
    QCOMPARE(t % 1000000000, nanos);
}

void TestLogBuffer::since_roundTrips()
{
    QCOMPARE(dockerSince(1764526238123456789LL), QByteArray("1764526238.123456789"));
    QCOMPARE(dockerSince(1764526238000000007LL), QByteArray("1764526238.000000007"));
}

void TestLogBuffer::ring_keepsTheNewest_andSaysWhatItDropped()
{
    LogBuffer b(5);
    QVERIFY(b.isEmpty());
    QCOMPARE(b.append(numbered(1, 3)), 0);
    QCOMPARE(b.size(), 3);
    QCOMPARE(b.append(numbered(4, 4)), 2); // 7 lines into 5
    QCOMPARE(b.size(), 5);
    QCOMPARE(b.total(), 7);
    for (qsizetype i = 0; i < 5; ++i) {
        QCOMPARE(b.at(i).seq, 3 + i);
    }
    QCOMPARE(b.textBytes(), 5); // "3".."7"
    QCOMPARE(b.append(numbered(8, 12)), 12); // more than fits at once: the last 5 stay
    QCOMPARE(b.at(0).seq, 15);
    QCOMPARE(b.at(4).seq, 19);
    QCOMPARE(b.textBytes(), 10);
}

void TestLogBuffer::ring_dropOldest_andSetCapacity()
{
    LogBuffer b(4);
    QCOMPARE(b.append(numbered(1, 4)), 0);
    b.dropOldest(3);
    QCOMPARE(b.size(), 1);
    QCOMPARE(b.at(0).seq, 4);
    QCOMPARE(b.append(numbered(5, 3)), 0);
    QCOMPARE(b.at(3).seq, 7);
    QCOMPARE(b.setCapacity(2), 2); // keeps 6 and 7
    QCOMPARE(b.capacity(), 2);
    QCOMPARE(b.at(0).seq, 6);
    QCOMPARE(b.at(1).seq, 7);
    QCOMPARE(b.textBytes(), 2);
    QCOMPARE(b.setCapacity(10), 0);
    QCOMPARE(b.append(numbered(8, 2)), 0);
    QCOMPARE(b.size(), 4);
    QCOMPARE(b.at(3).seq, 9);
    b.clear();
    QVERIFY(b.isEmpty());
    QCOMPARE(b.textBytes(), 0);
    QCOMPARE(b.append(numbered(1, 1)), 0);
    QCOMPARE(b.at(0).seq, 1);
}

namespace {

/** `count` records whose text shares `chunk`, as the log pipeline's do. */
QList<LogRecord> sharing(const QByteArray &chunk, int count)
{
    QList<LogRecord> out;
    flashdeck::bytes::BlockSlicer slicer(chunk);
    for (int i = 0; i < count; ++i) {
        LogRecord r;
        r.seq = i;
        r.text = slicer.slice(i % chunk.size(), 1);
        out.append(std::move(r));
    }
    return out;
}
} // namespace

void TestLogBuffer::ring_givesBackTheChunksOfWhatItDrops()
{
    // The ring gives back a dropped line's reference on its chunk with the rest of the chunk's
    // run (bytes::BlockReleaser): each chunk ends held by itself and the lines kept, no more and
    // no fewer, whichever way the lines came in or went out.
    QByteArray first(4096, 'a');
    QByteArray second(4096, 'b');
    QByteArray third(4096, 'c');
    LogBuffer b(100);
    QCOMPARE(b.append(sharing(first, 70)), 0);
    QCOMPARE(holders(first), 1 + 70);
    QList<LogRecord> moved = sharing(second, 50);
    QCOMPARE(b.append(std::move(moved)), 20);
    QCOMPARE(holders(first), 1 + 50);
    QCOMPARE(holders(second), 1 + 50);
    for (const LogRecord &r : moved) {
        QVERIFY(r.text.isNull()); // the sender's list keeps nothing of the dropped lines
    }
    const QList<LogRecord> lent = sharing(third, 80); // copied from: the sender keeps its own
    QCOMPARE(b.append(lent), 80);
    QCOMPARE(holders(first), 1);
    QCOMPARE(holders(second), 1 + 20);
    QCOMPARE(holders(third), 1 + 80 + 80);
    first.clear(); // nothing else holds it now
    second.clear(); // its last 20 lines hold it
    b.dropOldest(30);
    QCOMPARE(holders(third), 1 + 80 + 70);
    QCOMPARE(b.size(), 70);
    QCOMPARE(b.at(0).text, QByteArray("c"));
    QCOMPARE(b.textBytes(), 70);
}

void TestLogBuffer::ring_agreesWithAQueue_property()
{
    // Every wrap of head and tail (appends of any size, drops, new capacities) against the
    // obvious model: a queue that forgets its oldest beyond the capacity.
    QRandomGenerator rng(20261202);
    for (int round = 0; round < 200; ++round) {
        qsizetype capacity = 1 + rng.bounded(9);
        LogBuffer b(capacity);
        std::deque<qint64> model;
        qint64 next = 1;
        qint64 bytes = 0;
        for (int step = 0; step < 40; ++step) {
            const int op = rng.bounded(10);
            if (op < 7) {
                const qint64 n = rng.bounded(2 * int(capacity) + 1);
                qsizetype expectDropped = 0;
                for (qint64 i = 0; i < n; ++i) {
                    model.push_back(next + i);
                    if (qsizetype(model.size()) > capacity) {
                        model.pop_front();
                        ++expectDropped;
                    }
                }
                // The list moved in and not held elsewhere (its records are taken), held by its
                // sender as well (copied from: the sender's records stay whole), or lent.
                const QList<LogRecord> sent = numbered(next, n);
                QList<LogRecord> held = sent;
                switch (rng.bounded(3)) {
                case 0:
                    QCOMPARE(b.append(numbered(next, n)), expectDropped);
                    break;
                case 1:
                    QCOMPARE(b.append(std::move(held)), expectDropped);
                    break;
                default:
                    QCOMPARE(b.append(sent), expectDropped);
                }
                for (qint64 i = 0; i < n; ++i) {
                    QCOMPARE(sent.at(i).text, QByteArray::number(next + i));
                }
                next += n;
            } else if (op < 9) {
                const qsizetype n = rng.bounded(int(capacity) + 1);
                b.dropOldest(n);
                for (qsizetype i = 0; i < n && !model.empty(); ++i) {
                    model.pop_front();
                }
            } else {
                capacity = 1 + rng.bounded(9);
                (void)b.setCapacity(capacity);
                while (qsizetype(model.size()) > capacity) {
                    model.pop_front();
                }
            }
            QCOMPARE(b.size(), qsizetype(model.size()));
            bytes = 0;
            for (qsizetype i = 0; i < b.size(); ++i) {
                QCOMPARE(b.at(i).seq, model[size_t(i)]);
                QCOMPARE(b.at(i).text, QByteArray::number(model[size_t(i)]));
                bytes += b.at(i).text.size();
            }
            QCOMPARE(b.textBytes(), bytes);
        }
    }
}

void TestLogBuffer::highlights_data()
{
    QTest::addColumn<QStringList>("rules");
    QTest::addColumn<QString>("qmul4");
    QTest::addColumn<int>("tone");
    QTest::addColumn<QString>("dspark");

    const int good = int(LogHighlights::Tone::Good);
    const int warn = int(LogHighlights::Tone::Warning);
    const int neutral = int(LogHighlights::Tone::Neutral);
    QTest::newRow("nothing yet") << rulesOf("weights kv-pool")
                                 << QStringLiteral("qmul4: waiting for the start-up check") << neutral
                                 << QStringLiteral("");
    QTest::newRow("fast path") << rulesOf("dspark-ok qmul4-ok ready") << QStringLiteral("qmul4: fast path") << good
                               << QStringLiteral("DSpark: draft loaded");
    QTest::newRow("fallback") << rulesOf("qmul4-fallback ready")
                              << QStringLiteral("qmul4: SLOW fallback — CUDA Toolkit < 13.4") << warn
                              << QStringLiteral("");
    QTest::newRow("fallback on one rank wins")
        << rulesOf("qmul4-ok qmul4-fallback qmul4-ok") << QStringLiteral("qmul4: SLOW fallback — CUDA Toolkit < 13.4")
        << warn << QStringLiteral("");
    QTest::newRow("ready, never said") << rulesOf("dspark-ok ready")
                                       << QStringLiteral("qmul4: not printed by this start") << warn
                                       << QStringLiteral("DSpark: draft loaded");
}

void TestLogBuffer::highlights_notApplicableWhereTheDeploymentSkippedIt()
{
    // ROCm and Hopper: the deployment skipped check.qmul4; the badge says so, whatever the log.
    LogHighlights h;
    h.setRecorded(LogHighlights::Qmul4::NotApplicable);
    h.note(QStringLiteral("ready"));
    QCOMPARE(h.qmul4Text(), QStringLiteral("qmul4: does not apply to these GPUs"));
    QCOMPARE(h.qmul4Tone(), LogHighlights::Tone::Neutral);
    h.note(QStringLiteral("qmul4-fallback")); // a line the server does print still wins
    QCOMPARE(h.qmul4(), LogHighlights::Qmul4::Fallback);
}

void TestLogBuffer::highlights()
{
    QFETCH(QStringList, rules);
    LogHighlights h;
    for (const QString &r : rules) {
        h.note(r);
    }
    QTEST(h.qmul4Text(), "qmul4");
    QTEST(int(h.qmul4Tone()), "tone");
    QTEST(h.dsparkText(), "dspark");
    h.noteKvPool("[2026-11-30 08:31:56 TP0] KV Cache is allocated. #tokens: 10400000, K size: 61.20 GB");
    QCOMPARE(h.kvTokens(), 10400000);
    h.noteKvPool("max_total_num_tokens=5200000, chunked_prefill_size=8192");
    QCOMPARE(h.kvTokens(), 5200000);
    h.noteKvPool("#tokens: none");
    QCOMPARE(h.kvTokens(), 5200000); // no number: the last one stays
    h.reset();
    QCOMPARE(h.qmul4(), LogHighlights::Qmul4::Unknown);
    QCOMPARE(h.kvTokens(), 0);
}

void TestLogBuffer::frames_runawayLineIsCutAtOneMiB()
{
    using flashdeck::docker::LogFrameDecoder;
    LogFrameDecoder d(false);
    QList<flashdeck::docker::LogLine> lines;
    const QByteArray chunk(256 * 1024, 'x');
    for (int i = 0; i < 12; ++i) { // 3 MiB without a newline, in pieces
        lines += d.feed(chunk);
    }
    lines += d.feed("tail of the long line\nnext\r\nlast");
    lines += d.finish();
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0].text.size(), LogFrameDecoder::kMaxLine);
    QVERIFY(lines[0].cut);
    QCOMPARE(lines[1].text, QByteArray("next"));
    QVERIFY(!lines[1].cut);
    QCOMPARE(lines[2].text, QByteArray("last"));
}

QTEST_GUILESS_MAIN(TestLogBuffer)
#include "tst_logbuffer.moc"
