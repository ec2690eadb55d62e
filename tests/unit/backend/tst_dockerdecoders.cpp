#include "backend/docker/imageref.h"
#include "backend/docker/logframes.h"
#include "backend/docker/pullprogress.h"

#include <QTest>

using namespace flashdeck::docker;

namespace {
QByteArray frame(char stream, const QByteArray &payload)
{
    QByteArray h(8, '\0');
    h[0] = stream;
    const auto n = quint32(payload.size());
    h[4] = char(n >> 24);
    h[5] = char(n >> 16);
    h[6] = char(n >> 8);
    h[7] = char(n);
    return h + payload;
}
} // namespace

/** Pull progress and log frames, fed in every possible cut. */
class TestDockerDecoders : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pull_countsDownloadedBytesOnce();
    void pull_reportsTheDaemonsError();
    void pull_layersNotSizedYet_areEstimated();
    void pull_retriedLayerResumes_neverGoesBack();
    void pull_survivesAMalformedLine();
    void frames_anyCutGivesTheSameLines();
    void frames_rawWhenTty();
    void frames_garbageStops();
    void frames_linesShareTheBody_andStandAlone();
    void imageRef_splitsAsDockerDoes_data();
    void imageRef_splitsAsDockerDoes();
    void imageRef_refusesWhatDockerRefuses_data();
    void imageRef_refusesWhatDockerRefuses();
};

void TestDockerDecoders::pull_countsDownloadedBytesOnce()
{
    const QByteArray stream =
        R"({"status":"Pulling from lmsysorg/sglang","id":"dev"}
{"status":"Pulling fs layer","progressDetail":{},"id":"aaa"}
{"status":"Pulling fs layer","progressDetail":{},"id":"bbb"}
{"status":"Downloading","progressDetail":{"current":500,"total":1000},"progress":"[==> ]","id":"aaa"}
{"status":"Downloading","progressDetail":{"current":100,"total":3000},"id":"bbb"}
)";
    PullProgress p;
    QVERIFY(p.feed(stream.left(70)));
    p.feed(stream.mid(70));
    QCOMPARE(p.layers(), 2);
    QCOMPARE(p.downloadedBytes(), 600);
    QCOMPARE(p.totalBytes(), 4000);
    QCOMPARE(p.layersOfUnknownSize(), 0);
    QCOMPARE(p.estimatedTotalBytes(), 4000);
    p.feed(R"({"status":"Download complete","progressDetail":{},"id":"aaa"}
{"status":"Extracting","progressDetail":{"current":10,"total":1000},"id":"aaa"}
{"status":"Pull complete","progressDetail":{},"id":"aaa"}
{"status":"Already exists","progressDetail":{},"id":"bbb"}
{"status":"Digest: sha256:819722d1"}
{"status":"Status: Downloaded newer image for lmsysorg/sglang:dev"}
)");
    QCOMPARE(p.downloadedBytes(), 4000); // extraction did not count again
    QCOMPARE(p.layersDone(), 2);
    QCOMPARE(p.digest(), QStringLiteral("sha256:819722d1"));
    QVERIFY(p.error().isEmpty());
}

void TestDockerDecoders::pull_layersNotSizedYet_areEstimated()
{
    // dockerd names all layers at once and sizes each as its download starts, three at a time.
    PullProgress p;
    p.feed(R"({"status":"Pulling fs layer","progressDetail":{},"id":"aaa"}
{"status":"Pulling fs layer","progressDetail":{},"id":"bbb"}
{"status":"Waiting","progressDetail":{},"id":"ccc"}
{"status":"Waiting","progressDetail":{},"id":"ddd"}
{"status":"Already exists","progressDetail":{},"id":"eee"}
)");
    QCOMPARE(p.layersOfUnknownSize(), 4);
    QCOMPARE(p.estimatedTotalBytes(), 0); // nothing sized: no guess
    p.feed(R"({"status":"Downloading","progressDetail":{"current":100,"total":1000},"id":"aaa"}
{"status":"Downloading","progressDetail":{"current":100,"total":3000},"id":"bbb"}
)");
    QCOMPARE(p.layersOfUnknownSize(), 2); // ccc and ddd; eee is there already
    QCOMPARE(p.totalBytes(), 4000);
    QCOMPARE(p.estimatedTotalBytes(), 8000); // two more of the mean size (2000)
    p.feed(R"({"status":"Downloading","progressDetail":{"current":10,"total":500},"id":"ccc"}
{"status":"Downloading","progressDetail":{"current":10,"total":500},"id":"ddd"}
)");
    QCOMPARE(p.layersOfUnknownSize(), 0);
    QCOMPARE(p.estimatedTotalBytes(), p.totalBytes());
}

void TestDockerDecoders::pull_retriedLayerResumes_neverGoesBack()
{
    // dockerd 20.10 on a flaky link: the layer's download breaks at 600 of 1000 bytes, dockerd
    // counts down, resumes with a range request and reports the 400 bytes still missing as the
    // layer's total, its current from 0.
    PullProgress p;
    p.feed(R"({"status":"Pulling fs layer","progressDetail":{},"id":"aaa"}
{"status":"Downloading","progressDetail":{"current":600,"total":1000},"id":"aaa"}
{"status":"Retrying in 5 seconds","progressDetail":{},"id":"aaa"}
{"status":"Retrying in 4 seconds","progressDetail":{},"id":"aaa"}
)");
    QCOMPARE(p.retries(), 1); // one retry, whatever the countdown's length
    QCOMPARE(p.layersRetrying(), 1);
    QVERIFY2(p.summary().contains(QLatin1String("retrying 1")), qPrintable(p.summary()));
    QVERIFY2(p.layerLines().value(0).contains(QLatin1String("retrying (1)")), qPrintable(p.layerLines().value(0)));
    QCOMPARE(p.downloadedBytes(), 600);
    p.feed(R"({"status":"Retrying in 1 second","progressDetail":{},"id":"aaa"}
{"status":"Downloading","progressDetail":{"current":100,"total":400},"id":"aaa"}
)");
    QCOMPARE(p.retries(), 1);
    QCOMPARE(p.layersRetrying(), 0);
    QCOMPARE(p.totalBytes(), 1000); // the layer's size, not what was left of it
    QCOMPARE(p.downloadedBytes(), 700); // never back to 100
    QCOMPARE(p.layersDone(), 0); // not done before "Pull complete"
    p.feed(R"({"status":"Downloading","progressDetail":{"current":400,"total":400},"id":"aaa"}
{"status":"Download complete","progressDetail":{},"id":"aaa"}
)");
    QCOMPARE(p.downloadedBytes(), 1000);
    QCOMPARE(p.layersDone(), 0);
    QCOMPARE(p.summary(), QStringLiteral("0 of 1 layers, 1 retry"));
    p.feed(R"({"status":"Pull complete","progressDetail":{},"id":"aaa"}
)");
    QCOMPARE(p.layersDone(), 1);
}

void TestDockerDecoders::pull_reportsTheDaemonsError()
{
    PullProgress p;
    p.feed(R"({"errorDetail":{"message":"failed to register layer: no space left on device"},"error":"x"})"
           "\r\n");
    QCOMPARE(p.error(), QStringLiteral("failed to register layer: no space left on device"));
}

void TestDockerDecoders::pull_survivesAMalformedLine()
{
    PullProgress p;
    p.feed("not json\n{\"status\":\"Digest: sha256:1\"}\n");
    QCOMPARE(p.malformed(), QStringLiteral("not json"));
    QCOMPARE(p.digest(), QStringLiteral("sha256:1"));
}

void TestDockerDecoders::frames_anyCutGivesTheSameLines()
{
    const QByteArray body = frame(1, "one\ntw") + frame(1, "o\n") + frame(2, "err line\n") + frame(1, "last");
    for (int cut = 0; cut <= body.size(); ++cut) {
        LogFrameDecoder d;
        QList<LogLine> lines = d.feed(body.left(cut));
        lines += d.feed(body.mid(cut));
        lines += d.finish();
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines.at(0).text, QByteArray("one"));
        QCOMPARE(lines.at(1).text, QByteArray("two"));
        QCOMPARE(lines.at(2).stream, 2);
        QCOMPARE(lines.at(2).text, QByteArray("err line"));
        QCOMPARE(lines.at(3).text, QByteArray("last"));
        QVERIFY(!d.corrupt());
    }
}

void TestDockerDecoders::frames_rawWhenTty()
{
    LogFrameDecoder d(false);
    const QList<LogLine> lines = d.feed("a\r\nb\n");
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines.at(0).text, QByteArray("a"));
}

void TestDockerDecoders::frames_garbageStops()
{
    LogFrameDecoder d;
    QVERIFY(d.feed("Hello, this is not framed at all\n").isEmpty());
    QVERIFY(d.corrupt());
}

void TestDockerDecoders::frames_linesShareTheBody_andStandAlone()
{
    // The ring keeps every line: a line wholly inside a chunk shares the chunk's memory rather
    // than costing an allocation. Each must still read as its own bytes, survive the chunk and
    // the decoder, and change alone.
    QByteArray body = frame(1, "one\r\ntwo\n") + frame(2, "err line\nspans ") + frame(2, "frames\n");
    QList<LogLine> lines;
    {
        LogFrameDecoder d;
        lines = d.feed(body);
        const char *const begin = body.constData();
        const auto inside = [&](const QByteArray &t) {
            return t.constData() >= begin && t.constData() < begin + body.size();
        };
        QCOMPARE(lines.size(), 4);
        QVERIFY(inside(lines.at(0).text));
        QVERIFY(inside(lines.at(2).text));
        QVERIFY(!inside(lines.at(3).text)); // assembled across frames: a copy
    }
    body.fill('#'); // the body detaches from its lines; theirs stay
    body.clear();
    QCOMPARE(lines.at(0).text, QByteArray("one")); // CRLF's '\r' dropped from the slice too
    QCOMPARE(lines.at(1).text, QByteArray("two"));
    QCOMPARE(lines.at(2).text, QByteArray("err line"));
    QCOMPARE(lines.at(3).text, QByteArray("spans frames"));
    lines[0].text.append(" more");
    lines[1].text[0] = 'T';
    QCOMPARE(lines.at(0).text, QByteArray("one more"));
    QCOMPARE(lines.at(1).text, QByteArray("Two"));
    QCOMPARE(lines.at(2).text, QByteArray("err line"));

    // A short read in a large buffer (QIODevice::readAll leaves its capacity behind) is copied:
    // a slow log's lines must not each keep 64 KiB alive.
    QByteArray sparse;
    sparse.reserve(64 * 1024);
    sparse.append(frame(1, "slow line\n"));
    LogFrameDecoder d;
    const QList<LogLine> one = d.feed(sparse);
    QCOMPARE(one.size(), 1);
    QCOMPARE(one.at(0).text, QByteArray("slow line"));
    QVERIFY(one.at(0).text.constData() < sparse.constData() ||
            one.at(0).text.constData() >= sparse.constData() + sparse.size());
}

void TestDockerDecoders::imageRef_splitsAsDockerDoes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("tag");
    QTest::addColumn<QString>("qualified"); // what dockerd is asked to pull (fromImage)
    QTest::newRow("hub") << "lmsysorg/sglang:dev-minimax-m31-flash"
                         << "lmsysorg/sglang"
                         << "dev-minimax-m31-flash"
                         << "docker.io/lmsysorg/sglang";
    QTest::newRow("official") << "busybox"
                              << "busybox"
                              << "latest"
                              << "docker.io/library/busybox";
    // A registry's port is not a tag, and a registry is not Docker Hub.
    QTest::newRow("loopback registry") << "127.0.0.1:5000/sglang:test"
                                       << "127.0.0.1:5000/sglang"
                                       << "test"
                                       << "127.0.0.1:5000/sglang";
    QTest::newRow("port, no tag") << "registry.example:5000/team/sglang"
                                  << "registry.example:5000/team/sglang"
                                  << "latest"
                                  << "registry.example:5000/team/sglang";
    QTest::newRow("localhost") << "localhost/sglang:rocm"
                               << "localhost/sglang"
                               << "rocm"
                               << "localhost/sglang";
    QTest::newRow("dotted host") << "ghcr.io/org/sglang:v1"
                                 << "ghcr.io/org/sglang"
                                 << "v1"
                                 << "ghcr.io/org/sglang";
}

void TestDockerDecoders::imageRef_splitsAsDockerDoes()
{
    QFETCH(QString, text);
    const auto ref = ImageRef::parse(text);
    QVERIFY2(ref, qPrintable(ref.message()));
    QTEST(ref.value().name, "name");
    QTEST(ref.value().tag, "tag");
    QTEST(ref.value().qualifiedName(), "qualified");
}

void TestDockerDecoders::imageRef_refusesWhatDockerRefuses_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("says");
    QTest::newRow("empty") << "  "
                           << "empty";
    QTest::newRow("digest") << "lmsysorg/sglang@sha256:0123"
                            << "digest";
    QTest::newRow("upper case") << "LMSYSORG/sglang:dev"
                                << "lower case";
    QTest::newRow("space") << "lmsysorg/sg lang:dev"
                           << "not an image reference";
    QTest::newRow("empty tag") << "lmsysorg/sglang:"
                               << "not an image reference";
}

void TestDockerDecoders::imageRef_refusesWhatDockerRefuses()
{
    QFETCH(QString, text);
    QFETCH(QString, says);
    const auto ref = ImageRef::parse(text);
    QVERIFY(!ref);
    QVERIFY2(ref.message().contains(says), qPrintable(ref.message()));
}

QTEST_GUILESS_MAIN(TestDockerDecoders)
#include "tst_dockerdecoders.moc"
