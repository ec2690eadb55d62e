#include "fakehttpserver.h"
#include "faketransport.h"

#include "backend/logs/logrules.h"
#include "backend/logs/sharedlog.h"

#include <QTest>

using namespace flashdeck;
using flashdeck::testing::FakeHttpServer;
using flashdeck::testing::FakeTransport;

namespace {

QByteArray frame(int second)
{
    return FakeHttpServer::dockerFrame("2026-12-01T10:00:" + QByteArray::number(second).rightJustified(2, '0') +
                                       ".000000001Z line " + QByteArray::number(second) + '\n');
}

} // namespace

/**
 * One log stream per host however many pages read it: the Deploy page and the Logs page share
 * one tunnel and one Docker stream; a late reader gets the lines it asks for from what was kept;
 * the stream stops when the last reader goes.
 */
class TestSharedLogUnit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void twoReaders_oneStream_lateReaderGetsHistory();
};

void TestSharedLogUnit::twoReaders_oneStream_lateReaderGetsHistory()
{
    auto rules = logs::LogRules::builtIn();
    QVERIFY(rules);
    FakeTransport fake(QStringLiteral("gpu1"));
    FakeHttpServer dockerd;
    fake.route("docker system dial-stdio", dockerd.port());
    dockerd.actAsDockerd();
    FakeHttpServer::Response list;
    list.body = R"([{"Id":"c0","Names":["/flashdeck-gpu1-b300x4-balanced-0"],"State":"running","Status":"Up",)"
                R"("Labels":{"io.flashdeck.deployment":"gpu1-b300x4-balanced"}}])";
    dockerd.on("GET", "/containers/json", list);
    FakeHttpServer::Response logs;
    logs.contentType = "application/vnd.docker.multiplexed-stream";
    logs.holdOpen = true;
    logs.body = frame(1) + frame(2) + frame(3);
    dockerd.on("GET", "/containers/c0/logs", logs);

    logs::SharedLog shared(fake, rules.value(), QStringLiteral("gpu1"), 100);
    QObject deployPage;
    QObject logsPage;
    QList<QByteArray> first;
    QList<QByteArray> second;
    shared.subscribe(&deployPage, 5000, [&first](const QList<logs::LogRecord> &records) {
        for (const logs::LogRecord &r : records) {
            first.append(r.text);
        }
    });
    QTRY_COMPARE(first.size(), 3);
    // A second page: the last two lines kept, then live lines, from the same stream.
    shared.subscribe(&logsPage, 2, [&second](const QList<logs::LogRecord> &records) {
        for (const logs::LogRecord &r : records) {
            second.append(r.text);
        }
    });
    QTRY_COMPARE(second.size(), 2);
    QCOMPARE(second, (QList<QByteArray>{"line 2", "line 3"}));
    QCOMPARE(dockerd.push(frame(4)), 1); // one stream on dockerd's side
    QTRY_COMPARE(second.size(), 3);
    QTRY_COMPARE(first.size(), 4);
    QCOMPARE(second.last(), QByteArray("line 4"));
    QCOMPARE(dockerd.count("GET", "/v1.47/containers/c0/logs"), 1);
    QCOMPARE(fake.openTunnels(), 1);
    QVERIFY(shared.stateText().startsWith(QLatin1String("Following flashdeck-gpu1-b300x4-balanced-0")));

    shared.unsubscribe(&deployPage);
    QCOMPARE(fake.openTunnels(), 1); // the Logs page still reads
    QCOMPARE(shared.readers(), 1);
    {
        QObject gone; // a reader that goes away unsubscribes by itself
        shared.subscribe(&gone, 0, [](const QList<logs::LogRecord> &) {});
        QCOMPARE(shared.readers(), 2);
    }
    QCOMPARE(shared.readers(), 1);
    shared.unsubscribe(&logsPage);
    QCOMPARE(fake.openTunnels(), 0); // nobody reads: no tunnel, no stream
    QVERIFY(shared.stateText().isEmpty());
}

QTEST_GUILESS_MAIN(TestSharedLogUnit)
#include "tst_sharedlogunit.moc"
