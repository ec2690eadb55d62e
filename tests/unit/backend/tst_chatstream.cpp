#include "backend/chat/chatstream.h"
#include "backend/chat/sseparser.h"
#include "backend/chat/thinksplitter.h"
#include "tests/support/buildpaths.h"

#include <QFile>
#include <QTest>

using namespace flashdeck::chat;

/**
 * The playground's stream decoding (issue 8): the SSE parser on the spec's edge cases, the
 * think-tag splitter, and whole recorded streams cut at every byte offset (and fed byte by
 * byte), which must decode exactly as when fed in one piece.
 */
class TestChatStream : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sse_data();
    void sse();
    void sse_longLineOverflows();
    void think_data();
    void think();
    void recorded_splitAtEveryOffset_data() { recorded_data(); }
    void recorded_splitAtEveryOffset();
    void recorded_byteByByte_data() { recorded_data(); }
    void recorded_byteByByte();
    void nonStreamedBody_data();
    void nonStreamedBody();
    void malformedChunk_isSkipped();

private:
    void recorded_data();
};

namespace {

struct Decoded
{
    QString reasoning;
    QString content;
    QString finish;
    QString error;
    qint64 completionTokens = -1;
    qint64 reasoningTokens = -1;
    bool done = false;
    int moves = 0;
};

void apply(Decoded &d, const ChatUpdate &u)
{
    if (u.earlierContentWasReasoning) {
        d.reasoning += d.content;
        d.content.clear();
        ++d.moves;
    }
    d.reasoning += u.reasoning;
    d.content += u.content;
    if (!u.finishReason.isEmpty()) {
        d.finish = u.finishReason;
    }
    if (!u.error.isEmpty()) {
        d.error = u.error;
    }
    if (u.usage) {
        d.completionTokens = u.usage->completionTokens;
        d.reasoningTokens = u.usage->reasoningTokens.value_or(-1);
    }
    d.done = d.done || u.done;
}

QByteArray recorded(const QString &name)
{
    QFile f(flashdeck::test::testData(u"/sse/") + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

Decoded decodeInPieces(const QByteArray &bytes, const QList<qsizetype> &cuts)
{
    ChatStreamDecoder decoder;
    Decoded d;
    qsizetype from = 0;
    for (qsizetype cut : cuts) {
        apply(d, decoder.feed(QByteArrayView(bytes).sliced(from, cut - from)));
        from = cut;
    }
    apply(d, decoder.feed(QByteArrayView(bytes).sliced(from)));
    apply(d, decoder.finish());
    return d;
}

QString describe(const QList<SseEvent> &events)
{
    QStringList out;
    for (const SseEvent &e : events) {
        out.append(QString::fromUtf8(e.event + '|' + e.data + '|' + e.id));
    }
    return out.join(QLatin1Char(';'));
}

} // namespace

void TestChatStream::sse_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QString>("events");
    QTest::newRow("lf") << QByteArray("data: a\n\ndata: b\n\n") << QStringLiteral("message|a|;message|b|");
    QTest::newRow("crlf") << QByteArray("data: a\r\n\r\n") << QStringLiteral("message|a|");
    QTest::newRow("cr only") << QByteArray("data: a\r\rdata: b\r\r") << QStringLiteral("message|a|;message|b|");
    QTest::newRow("no space after colon") << QByteArray("data:a\n\n") << QStringLiteral("message|a|");
    QTest::newRow("only one space is stripped") << QByteArray("data:  a\n\n") << QStringLiteral("message| a|");
    QTest::newRow("multi-line data") << QByteArray("data: a\ndata: b\n\n") << QStringLiteral("message|a\nb|");
    QTest::newRow("comments") << QByteArray(": keep-alive\n\n: ping\ndata: x\n\n") << QStringLiteral("message|x|");
    QTest::newRow("event and id") << QByteArray("event: error\nid: 7\ndata: boom\n\ndata: next\n\n")
                                  << QStringLiteral("error|boom|7;message|next|7");
    QTest::newRow("field without colon") << QByteArray("data\n\n") << QStringLiteral("message||");
    QTest::newRow("empty event is not dispatched") << QByteArray("event: x\n\n") << QString();
    QTest::newRow("unknown fields ignored")
        << QByteArray("retry: 10\nfoo: bar\ndata: y\n\n") << QStringLiteral("message|y|");
    QTest::newRow("BOM") << QByteArray("\xEF\xBB\xBF"
                                       "data: a\n\n")
                         << QStringLiteral("message|a|");
    QTest::newRow("cut stream: no half event") << QByteArray("data: a\n\ndata: b\n") << QStringLiteral("message|a|");
    QTest::newRow("json payload") << QByteArray("data: {\"x\":\"a:b\"}\n\n")
                                  << QStringLiteral("message|{\"x\":\"a:b\"}|");
}

void TestChatStream::sse()
{
    QFETCH(QByteArray, stream);
    QFETCH(QString, events);
    // Whole, then split at every offset into two, then byte by byte: always the same events.
    SseParser whole;
    QCOMPARE(describe(whole.feed(stream)), events);
    for (qsizetype cut = 0; cut <= stream.size(); ++cut) {
        SseParser p;
        QList<SseEvent> got = p.feed(QByteArrayView(stream).first(cut));
        got += p.feed(QByteArrayView(stream).sliced(cut));
        QCOMPARE(describe(got), events);
    }
    SseParser bytewise;
    QList<SseEvent> got;
    for (char c : stream) {
        got += bytewise.feed(QByteArrayView(&c, 1));
    }
    QCOMPARE(describe(got), events);
}

void TestChatStream::sse_longLineOverflows()
{
    SseParser p(64);
    QVERIFY(p.feed(QByteArray(QByteArray("data: ") + QByteArray(100, 'x'))).isEmpty());
    QVERIFY(p.overflowed());
    QVERIFY(p.feed("\n\ndata: y\n\n").isEmpty()); // stays stopped: the caller reports it
}

void TestChatStream::think_data()
{
    QTest::addColumn<QStringList>("deltas");
    QTest::addColumn<QString>("reasoning");
    QTest::addColumn<QString>("content");
    QTest::addColumn<int>("moves");
    QTest::newRow("no tags") << QStringList{QStringLiteral("Hello "), QStringLiteral("world")} << QString()
                             << QStringLiteral("Hello world") << 0;
    QTest::newRow("think") << QStringList{QStringLiteral("<think>why</think>because")} << QStringLiteral("why")
                           << QStringLiteral("because") << 0;
    QTest::newRow("mm:think") << QStringList{QStringLiteral("<mm:think>a</mm:think>b")} << QStringLiteral("a")
                              << QStringLiteral("b") << 0;
    QTest::newRow("tags cut everywhere") << QStringList{QStringLiteral("<mm"),      QStringLiteral(":thi"),
                                                        QStringLiteral("nk>r1 "),   QStringLiteral("r2</"),
                                                        QStringLiteral("mm:think"), QStringLiteral(">c1")}
                                         << QStringLiteral("r1 r2") << QStringLiteral("c1") << 0;
    QTest::newRow("bare close: template opened it")
        << QStringList{QStringLiteral("thinking "), QStringLiteral("more</think>"), QStringLiteral("answer")}
        << QStringLiteral("thinking more") << QStringLiteral("answer") << 1;
    QTest::newRow("less-than that is no tag")
        << QStringList{QStringLiteral("a <"), QStringLiteral(" b and <t"), QStringLiteral("able>")} << QString()
        << QStringLiteral("a < b and <table>") << 0;
    QTest::newRow("held partial at the end")
        << QStringList{QStringLiteral("x <thi")} << QString() << QStringLiteral("x <thi") << 0;
    QTest::newRow("cut inside reasoning")
        << QStringList{QStringLiteral("<think>half")} << QStringLiteral("half") << QString() << 0;
    QTest::newRow("second bare close is text's business")
        << QStringList{QStringLiteral("r</think>c</think>d")} << QStringLiteral("r") << QStringLiteral("cd") << 0;
}

void TestChatStream::think()
{
    QFETCH(QStringList, deltas);
    QFETCH(QString, reasoning);
    QFETCH(QString, content);
    QFETCH(int, moves);
    ThinkSplitter s;
    QString r;
    QString c;
    int m = 0;
    auto take = [&](const ThinkSplitter::Output &o) {
        if (o.earlierContentWasReasoning) {
            r += c;
            c.clear();
            ++m;
        }
        r += o.reasoning;
        c += o.content;
    };
    for (const QString &d : deltas) {
        take(s.feed(d));
    }
    take(s.finish());
    QCOMPARE(r, reasoning);
    QCOMPARE(c, content);
    QCOMPARE(m, moves);
}

void TestChatStream::recorded_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("reasoning");
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("finish");
    QTest::addColumn<QString>("error");
    QTest::addColumn<qint64>("completionTokens");
    QTest::newRow("reasoning-split") << QStringLiteral("reasoning-split.sse")
                                     << QStringLiteral("The user asks about KV cache. Explain briefly.")
                                     << QStringLiteral("The KV cache stores keys and values so décodage skips "
                                                       "recomputation — fast ✓.")
                                     << QStringLiteral("stop") << QString() << qint64(40);
    QTest::newRow("inline-mm-think") << QStringLiteral("inline-mm-think.sse") << QStringLiteral("Check the units.")
                                     << QStringLiteral("It is 42 GB.") << QStringLiteral("length") << QString()
                                     << qint64(-1);
    QTest::newRow("error-midstream") << QStringLiteral("error-midstream.sse") << QString()
                                     << QStringLiteral("Partial answer") << QString()
                                     << QStringLiteral("The server is shutting down") << qint64(-1);
}

void TestChatStream::recorded_splitAtEveryOffset()
{
    QFETCH(QString, file);
    QFETCH(QString, reasoning);
    QFETCH(QString, content);
    QFETCH(QString, finish);
    QFETCH(QString, error);
    QFETCH(qint64, completionTokens);
    const QByteArray bytes = recorded(file);
    QVERIFY2(!bytes.isEmpty(), qPrintable(file));
    for (qsizetype cut = 0; cut <= bytes.size(); ++cut) {
        const Decoded d = decodeInPieces(bytes, {cut});
        // Plain comparisons in the loop; QCOMPARE reports the first difference, with the cut.
        if (d.reasoning != reasoning || d.content != content || d.finish != finish || d.error != error ||
            d.completionTokens != completionTokens || !d.done) {
            qWarning("cut at byte %lld", static_cast<long long>(cut));
            QCOMPARE(d.reasoning, reasoning);
            QCOMPARE(d.content, content);
            QCOMPARE(d.finish, finish);
            QCOMPARE(d.error, error);
            QCOMPARE(d.completionTokens, completionTokens);
            QVERIFY(d.done);
        }
    }
}

void TestChatStream::recorded_byteByByte()
{
    QFETCH(QString, file);
    QFETCH(QString, reasoning);
    QFETCH(QString, content);
    const QByteArray bytes = recorded(file);
    QList<qsizetype> cuts;
    for (qsizetype i = 1; i < bytes.size(); ++i) {
        cuts.append(i);
    }
    const Decoded d = decodeInPieces(bytes, cuts);
    QCOMPARE(d.reasoning, reasoning);
    QCOMPARE(d.content, content);
    const Decoded r = decodeInPieces(bytes, {});
    QCOMPARE(r.reasoning, reasoning);
}

void TestChatStream::nonStreamedBody_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("reasoning");
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("error");
    QTest::newRow("split by the server")
        << QByteArray(R"({"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant",)"
                      R"("content":"42","reasoning_content":"sum it"},"finish_reason":"stop"}],)"
                      R"("usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}})")
        << QStringLiteral("sum it") << QStringLiteral("42") << QString();
    QTest::newRow("inline tags")
        << QByteArray(R"({"choices":[{"index":0,"message":{"content":"<think>hm</think>ok","reasoning_content":null},)"
                      R"("finish_reason":"stop"}]})")
        << QStringLiteral("hm") << QStringLiteral("ok") << QString();
    QTest::newRow("error object") << QByteArray(R"({"object":"error","message":"bad top_p","type":"BadRequestError",)"
                                                R"("param":null,"code":400})")
                                  << QString() << QString() << QStringLiteral("bad top_p");
    QTest::newRow("401") << QByteArray(R"({"error":"Unauthorized"})") << QString() << QString()
                         << QStringLiteral("Unauthorized");
}

void TestChatStream::nonStreamedBody()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, reasoning);
    QFETCH(QString, content);
    QFETCH(QString, error);
    for (qsizetype cut = 0; cut <= body.size(); cut += 7) {
        const Decoded d = decodeInPieces(body, {cut});
        QCOMPARE(d.reasoning, reasoning);
        QCOMPARE(d.content, content);
        QCOMPARE(d.error, error);
    }
}

void TestChatStream::malformedChunk_isSkipped()
{
    ChatStreamDecoder decoder;
    Decoded d;
    apply(d,
          decoder.feed("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n"
                       "data: {not json\n\n"
                       "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"b\"}}]}\n\n"));
    apply(d, decoder.finish());
    QCOMPARE(d.content, QStringLiteral("ab"));
    QCOMPARE(decoder.malformedChunks(), 1);
    QVERIFY(!d.done); // no [DONE]: the caller says the stream ended early
    QVERIFY(!decoder.sawDone());
}

QTEST_GUILESS_MAIN(TestChatStream)
#include "tst_chatstream.moc"
