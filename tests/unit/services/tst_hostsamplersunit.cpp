#include "fakehttpserver.h"
#include "faketransport.h"

#include "backend/metrics/containersampler.h"
#include "backend/metrics/disksampler.h"

#include <QSignalSpy>
#include <QTest>

using namespace flashdeck;
using flashdeck::metrics::ContainerSampler;
using flashdeck::metrics::ContainerStatus;
using flashdeck::metrics::DiskSampler;
using flashdeck::testing::FakeHttpServer;
using flashdeck::testing::FakeTransport;

/**
 * The monitor's container and disk samplers over a scripted host: which container speaks for
 * the deployment, what an unreachable Docker says, and df's figure or its refusal.
 */
class TestHostSamplersUnit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void containers_theServerSpeaks_notTheCheckOrRouter();
    void containers_noneOfOurs();
    void containers_dockerUnreachable_thenBack();
    void containers_dockerHangs_saidWithinTheTimeout();
    void disk_freeBytes_orWhyNot_data();
    void disk_freeBytes_orWhyNot();
};

void TestHostSamplersUnit::containers_theServerSpeaks_notTheCheckOrRouter()
{
    FakeTransport fake(QStringLiteral("gpu1"));
    FakeHttpServer dockerd;
    fake.route("docker system dial-stdio", dockerd.port());
    dockerd.actAsDockerd();
    FakeHttpServer::Response list;
    // As dockerd lists them: newest first. The GPU check and the router are ours too, and silent.
    list.body = R"json([
      {"Id":"r0","Names":["/flashdeck-gpu1-mi355x-x8-two-tp4-router-router"],"State":"running","Status":"Up 1 minute",
       "Labels":{"io.flashdeck.deployment":"gpu1-mi355x-x8-two-tp4-router"}},
      {"Id":"c1","Names":["/flashdeck-gpu1-mi355x-x8-two-tp4-router-1"],"State":"running","Status":"Up 2 minutes",
       "Labels":{"io.flashdeck.deployment":"gpu1-mi355x-x8-two-tp4-router"}},
      {"Id":"c0","Names":["/flashdeck-gpu1-mi355x-x8-two-tp4-router-0"],"State":"running","Status":"Up 2 minutes",
       "Labels":{"io.flashdeck.deployment":"gpu1-mi355x-x8-two-tp4-router"}},
      {"Id":"g0","Names":["/flashdeck-gpu1-mi355x-x8-two-tp4-router-gpucheck"],"State":"exited","Status":"Exited (0)",
       "Labels":{"io.flashdeck.deployment":"gpu1-mi355x-x8-two-tp4-router"}}])json";
    dockerd.on("GET", "/containers/json", list);
    ContainerSampler sampler(fake, QStringLiteral("gpu1"), 60000);
    QSignalSpy listed(&sampler, &ContainerSampler::listed);
    sampler.start();
    QVERIFY(listed.wait(5000));
    const auto c = listed.first().first().value<std::optional<ContainerStatus>>();
    QVERIFY(c);
    QCOMPARE(c->name, QStringLiteral("flashdeck-gpu1-mi355x-x8-two-tp4-router-0"));
    QCOMPARE(c->state, QStringLiteral("running"));
    QCOMPARE(c->deployment, QStringLiteral("gpu1-mi355x-x8-two-tp4-router"));
    // Asked with the label filter: never the whole host's containers.
    QVERIFY(dockerd.requests().last().target.contains("filters="));
    sampler.stop();
    QCOMPARE(fake.openTunnels(), 0);
}

void TestHostSamplersUnit::containers_noneOfOurs()
{
    FakeTransport fake(QStringLiteral("gpu1"));
    FakeHttpServer dockerd;
    fake.route("docker system dial-stdio", dockerd.port());
    dockerd.actAsDockerd();
    FakeHttpServer::Response list;
    list.body = "[]";
    dockerd.on("GET", "/containers/json", list);
    ContainerSampler sampler(fake, QStringLiteral("gpu1"), 60000);
    QSignalSpy listed(&sampler, &ContainerSampler::listed);
    sampler.start();
    QVERIFY(listed.wait(5000));
    QVERIFY(!listed.first().first().value<std::optional<ContainerStatus>>());
}

void TestHostSamplersUnit::containers_dockerUnreachable_thenBack()
{
    FakeTransport fake(QStringLiteral("gpu1"));
    fake.refuse("docker system dial-stdio",
                QStringLiteral("Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker "
                               "daemon running?"));
    ContainerSampler sampler(fake, QStringLiteral("gpu1"), 20);
    QSignalSpy failed(&sampler, &ContainerSampler::failed);
    QSignalSpy listed(&sampler, &ContainerSampler::listed);
    sampler.start();
    QVERIFY(failed.wait(5000));
    QVERIFY(failed.first().at(0).toString().startsWith(QLatin1String("Cannot connect to the Docker daemon")));
    QCOMPARE(failed.first().at(1).toBool(), true); // unreachable, not refused
    // Docker comes back: the next period opens a new tunnel and lists.
    FakeHttpServer dockerd;
    dockerd.actAsDockerd();
    FakeHttpServer::Response list;
    list.body = "[]";
    dockerd.on("GET", "/containers/json", list);
    fake.route("docker system dial-stdio", dockerd.port());
    QVERIFY(listed.wait(5000));
}

void TestHostSamplersUnit::containers_dockerHangs_saidWithinTheTimeout()
{
    // A dockerd that takes the list and never finishes its answer (a hung daemon): the monitor hears
    // of it, in words, instead of waiting for ever on the host's shared call connection.
    FakeTransport fake(QStringLiteral("gpu1"));
    FakeHttpServer dockerd;
    fake.route("docker system dial-stdio", dockerd.port());
    dockerd.actAsDockerd();
    FakeHttpServer::Response hung;
    hung.body = "[";
    hung.holdOpen = true;
    dockerd.on("GET", "/containers/json", hung);
    ContainerSampler sampler(fake, QStringLiteral("gpu1"), 60000, nullptr, 300);
    QSignalSpy failed(&sampler, &ContainerSampler::failed);
    sampler.start();
    QVERIFY(failed.wait(5000));
    QVERIFY2(failed.first().at(0).toString().contains(QLatin1String("No answer within 0.3 s")),
             qPrintable(failed.first().at(0).toString()));
    QCOMPARE(failed.first().at(1).toBool(), false); // dockerd was reached: it did not answer
}

void TestHostSamplersUnit::disk_freeBytes_orWhyNot_data()
{
    QTest::addColumn<QByteArray>("out");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<qint64>("free"); // -1: failed
    QTest::addColumn<QString>("why");
    QTest::newRow("GNU df") << QByteArray("        Avail Mounted on\n3840000000000 /\n") << 0 << qint64(3840000000000)
                            << QString();
    QTest::newRow("a mount point with spaces")
        << QByteArray("       Avail Mounted on\n 123456789 /mnt/model cache\n") << 0 << qint64(123456789) << QString();
    QTest::newRow("BusyBox df, no --output") << QByteArray("df: unrecognized option: output=avail,target\n") << 1
                                             << qint64(-1) << QStringLiteral("df printed something unexpected");
}

void TestHostSamplersUnit::disk_freeBytes_orWhyNot()
{
    QFETCH(QByteArray, out);
    QFETCH(int, exitCode);
    QFETCH(qint64, free);
    QFETCH(QString, why);
    FakeTransport fake;
    fake.answer("df -B1", FakeTransport::Answer{out, {}, exitCode, {}, {}, false});
    DiskSampler disk(fake, 60000);
    QSignalSpy measured(&disk, &DiskSampler::measured);
    QSignalSpy failed(&disk, &DiskSampler::failed);
    disk.start();
    QTRY_COMPARE(measured.size() + failed.size(), 1);
    if (free >= 0) {
        QCOMPARE(measured.first().first().toLongLong(), free);
    } else {
        QVERIFY2(failed.first().first().toString().startsWith(why), qPrintable(failed.first().first().toString()));
    }
    QVERIFY(fake.commands().first().contains("~/.cache/huggingface"));
}

QTEST_GUILESS_MAIN(TestHostSamplersUnit)
#include "tst_hostsamplersunit.moc"
