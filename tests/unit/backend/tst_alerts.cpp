#include "backend/metrics/hoststatus.h"

#include <QCoreApplication>
#include <QTest>
#include <QTranslator>

#include <nlohmann/json.hpp>

using namespace flashdeck::metrics;

Q_DECLARE_METATYPE(HostStatus)

namespace {

/** Marks every text it is asked for: a message built without a translation reads unmarked. */
class MarkingTranslator final : public QTranslator
{
public:
    bool isEmpty() const override { return false; }
    QString translate(const char *, const char *sourceText, const char *, int) const override
    {
        return QStringLiteral("«") + QString::fromUtf8(sourceText);
    }
};

} // namespace

/** F34's alerts as pure judgements of a host's status, and their tracking over time. */
class TestAlerts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void evaluate_data();
    void evaluate();
    void tracker_keepsSince_andMovesEndedToHistory();
    void pinsDrift_fromTheRecords_alsoWhileAway();
    void json_unknownsAreNull();
};

void TestAlerts::evaluate_data()
{
    QTest::addColumn<HostStatus>("status");
    QTest::addColumn<QStringList>("ids");

    HostStatus up;
    up.host = QStringLiteral("gpu1");
    up.state = HostState::Up;
    QTest::newRow("all quiet") << up << QStringList{};

    HostStatus s = up;
    s.state = HostState::Unreachable;
    s.error = QStringLiteral("Connection refused");
    s.qmul4Fallback = true; // nothing else is judged while the host is away
    QTest::newRow("unreachable") << s << QStringList{QStringLiteral("host-unreachable")};

    s = up;
    flashdeck::probe::GpuSample g;
    g.index = 2;
    g.memoryTotalMiB = 1000;
    g.memoryUsedMiB = 960;
    flashdeck::probe::GpuSample unknown; // no memory reading: no judgement
    unknown.index = 3;
    s.gpus = {g, unknown};
    QTest::newRow("GPU memory") << s << QStringList{QStringLiteral("gpu-memory-high:2")};

    s = up;
    ServerSnapshot snap;
    snap.queued = 40;
    s.server = snap;
    s.rates.ttftP95 = 12.5;
    s.rates.errorRate = 0.2;
    QTest::newRow("queue, latency, errors")
        << s
        << QStringList{QStringLiteral("queue-high"), QStringLiteral("latency-high"), QStringLiteral("error-rate-high")};

    s = up;
    s.container = ContainerStatus{QStringLiteral("flashdeck-gpu1-b300x4-balanced-0"),
                                  QStringLiteral("restarting"),
                                  QStringLiteral("Restarting (1) 3 seconds ago"),
                                  {}};
    QTest::newRow("restarting") << s << QStringList{QStringLiteral("container-restarting")};
    s.container->state = QStringLiteral("exited");
    s.container->state = QStringLiteral("exited");
    s.container->status = QStringLiteral("Exited (137) 2 minutes ago");
    QTest::newRow("exited") << s << QStringList{QStringLiteral("container-down")};
    // Between a launch's create and start; also a start that failed (a GPU the runtime refused).
    s.container->state = QStringLiteral("created");
    s.container->status = QStringLiteral("Created");
    QTest::newRow("created") << s << QStringList{QStringLiteral("container-down")};
    s.container->state = QStringLiteral("paused");
    s.container->status = QStringLiteral("Up 3 minutes (Paused)");
    QTest::newRow("paused") << s << QStringList{QStringLiteral("container-down")};
    s.container->state = QStringLiteral("running");
    s.health = ServerHealth::Down;
    QTest::newRow("running, server silent") << s << QStringList{QStringLiteral("container-down")};
    // An upgrade from a window or a terminal stops the server on purpose: said, not critical.
    s.upgradeRunning = true;
    QTest::newRow("upgrade running, server silent") << s << QStringList{QStringLiteral("upgrade-running")};
    s.container->state = QStringLiteral("exited");
    QTest::newRow("upgrade running, container stopped") << s << QStringList{QStringLiteral("upgrade-running")};
    // A deployment from a window or a terminal makes and starts the container: its moment between
    // create and start, and the server loading, are the work under way, not an outage.
    s.upgradeRunning = false;
    s.deployRunning = true;
    s.container->state = QStringLiteral("created");
    s.container->status = QStringLiteral("Created");
    QTest::newRow("deployment running, container created") << s << QStringList{QStringLiteral("deploy-running")};
    s.container->state = QStringLiteral("running");
    QTest::newRow("deployment running, server loading") << s << QStringList{QStringLiteral("deploy-running")};

    s = up;
    s.diskFreeBytes = qint64(20e9);
    s.qmul4Fallback = true;
    QTest::newRow("disk and qmul4 (F20)")
        << s << QStringList{QStringLiteral("disk-low"), QStringLiteral("qmul4-fallback")};
}

void TestAlerts::evaluate()
{
    QFETCH(HostStatus, status);
    QFETCH(QStringList, ids);
    // Every message is the operator's language (a container's alert once was English in the
    // Chinese window): each is built from a translated text; Docker's words stay inside it.
    MarkingTranslator marking;
    QCoreApplication::installTranslator(&marking);
    const QList<Alert> alerts = evaluateAlerts(status, AlertThresholds{});
    QCoreApplication::removeTranslator(&marking);
    QStringList got;
    for (const Alert &a : alerts) {
        got.append(a.id);
        QVERIFY2(a.message.startsWith(QStringLiteral("«")), qPrintable(a.message));
        if (status.container && a.id.startsWith(QLatin1String("container-")) && status.health != ServerHealth::Down) {
            QVERIFY2(a.message.contains(status.container->name) && a.message.contains(status.container->status),
                     qPrintable(a.message));
        }
        QVERIFY(a.severity == QLatin1String("warning") || a.severity == QLatin1String("critical") ||
                (a.severity == QLatin1String("info") &&
                 (a.id == QLatin1String("upgrade-running") || a.id == QLatin1String("deploy-running"))));
    }
    QCOMPARE(got, ids);
}

void TestAlerts::pinsDrift_fromTheRecords_alsoWhileAway()
{
    // The pins are what the records say the host runs: an upgrade from a terminal to other pins
    // is drift whether or not the host answers now; a host that runs nothing never drifts.
    flashdeck::recipe::Pins fleet;
    fleet.imageDigest = QStringLiteral("sha256:aaaa");
    fleet.modelRevision = QStringLiteral("62cbc27");
    fleet.profile = QStringLiteral("b300x4-balanced");
    AlertThresholds t;
    t.pins = fleet;
    t.pinsFile = QStringLiteral("/ops/fleet.pins.json");
    HostStatus s;
    s.host = QStringLiteral("gpu1");
    s.state = HostState::Up;
    s.pins = fleet;
    const auto ids = [&] {
        QStringList got;
        for (const Alert &a : evaluateAlerts(s, t)) {
            got << a.id;
        }
        return got;
    };
    QCOMPARE(ids(), QStringList{});
    s.pins->imageDigest = QStringLiteral("sha256:bbbb");
    QCOMPARE(ids(), QStringList{QStringLiteral("pins-drift")});
    QVERIFY(evaluateAlerts(s, t).first().message.contains(QLatin1String("fleet.pins.json")));
    s.state = HostState::Unreachable;
    QCOMPARE(ids(), (QStringList{QStringLiteral("host-unreachable"), QStringLiteral("pins-drift")}));
    s.pins.reset(); // undeployed
    QCOMPARE(ids(), QStringList{QStringLiteral("host-unreachable")});
}

void TestAlerts::tracker_keepsSince_andMovesEndedToHistory()
{
    AlertTracker t;
    const Alert q{QStringLiteral("queue-high"), QStringLiteral("warning"), QStringLiteral("m"), 0, 0};
    const Alert d{QStringLiteral("disk-low"), QStringLiteral("warning"), QStringLiteral("m"), 0, 0};
    t.update({q}, 1000);
    QList<Alert> now = t.update({q, d}, 2000);
    QCOMPARE(now.size(), 2);
    QCOMPARE(now[0].sinceMs, 1000); // still the same episode
    QCOMPARE(now[0].lastMs, 2000);
    QCOMPARE(now[1].sinceMs, 2000);
    now = t.update({d}, 3000);
    QCOMPARE(now.size(), 1);
    QCOMPARE(t.history().size(), 1);
    QCOMPARE(t.history().first().id, QStringLiteral("queue-high"));
    QCOMPARE(t.history().first().lastMs, 2000);
    now = t.update({q}, 4000);
    QCOMPARE(now.first().sinceMs, 4000); // a new episode
}

void TestAlerts::json_unknownsAreNull()
{
    HostStatus s;
    s.host = QStringLiteral("h");
    s.state = HostState::Up;
    flashdeck::probe::GpuSample g;
    g.index = 0;
    g.name = QStringLiteral("NVIDIA H200");
    g.memoryTotalMiB = 143771;
    s.gpus = {g};
    const nlohmann::json j = s.toJson();
    QCOMPARE(j["gpus"][0]["memory_total_mib"].get<qint64>(), 143771);
    QVERIFY(j["gpus"][0]["memory_used_mib"].is_null());
    QVERIFY(j["gpus"][0]["power_w"].is_null());
    QVERIFY(j["server"].is_null());
    QVERIFY(j["container"].is_null()); // Docker never answered: unknown, not "none"
    QVERIFY(j["disk_free_bytes"].is_null());
    s.health = ServerHealth::Starting;
    QCOMPARE(s.toJson()["server"]["health"].get<std::string>(), std::string("starting"));
    QVERIFY(s.toJson()["server"]["token_usage"].is_null());
}

QTEST_GUILESS_MAIN(TestAlerts)
#include "tst_alerts.moc"
