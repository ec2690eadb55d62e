#include "tests/simhost/simhostfixture.h"
#include "tests/support/sshtesthelpers.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

#include <algorithm>

using namespace flashdeck;
using namespace flashdeck::test;

namespace {
const QByteArray kKey = "sk-fd-test-0123456789abcdef";
}

/**
 * The SGLang simulator started on the simulated host over real SSH, its log streamed back,
 * and its API reached through a Flashdeck port tunnel, as the product will do it.
 */
class TestSglangSim : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void startupLog_hasTheRealMilestonesInOrder();
    void gpuMemory_reflectsWeightsAndKvPool();
    void apiKey_isRequiredExceptForHealthAndMetrics();
    void chat_separatesReasoning_andThinkingOff();
    void chat_thinksBeforeItAnswers_withinMaxTokens();
    void chat_streamsReasoningThenContentThenDone();
    void loadsAndMetrics_reportTheKvPool();

private:
    struct Reply
    {
        int status = 0;
        QByteArray body;
    };
    bool logContains(const QByteArray &text) const
    {
        return std::any_of(m_log.begin(), m_log.end(), [&text](const QByteArray &l) { return l.contains(text); });
    }
    Reply request(const QByteArray &method, const QString &path, const QByteArray &body = {}, bool withKey = true);

    SimHostFixture m_host;
    QNetworkAccessManager m_nam;
    quint64 m_server = 0;
    quint16 m_local = 0;
    QList<QByteArray> m_log;
};

TestSglangSim::Reply TestSglangSim::request(const QByteArray &method, const QString &path, const QByteArray &body,
                                            bool withKey)
{
    QNetworkRequest req(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(m_local).arg(path)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    if (withKey) {
        req.setRawHeader("Authorization", "Bearer " + kKey);
    }
    QNetworkReply *reply = m_nam.sendCustomRequest(req, method, body);
    QSignalSpy done(reply, &QNetworkReply::finished);
    done.wait(20000);
    Reply r{reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), reply->readAll()};
    reply->deleteLater();
    return r;
}

void TestSglangSim::initTestCase()
{
    QString error;
    if (!m_host.start(QStringLiteral("b300x4"), &error)) {
        QSKIP(qPrintable(error));
    }
    const quint16 port = freeLocalPort();

    connect(&m_host.connection(), &ssh::HostConnection::commandOutput, this,
            [this](quint64 id, const QList<QByteArray> &out, const QList<QByteArray> &err) {
                if (id == m_server) {
                    m_log += out;
                    m_log += err;
                }
            });
    ssh::RemoteCommand launch;
    launch.commandLine = "FLASHDECK_SIM_TIME_FACTOR=0.01 sglang-sim --model-path MiniMaxAI/MiniMax-M3.1-Flash --tp 4 "
                         "--trust-remote-code --host 127.0.0.1 --port " +
        QByteArray::number(port) +
        " --mem-fraction-static 0.8 --speculative-algorithm DSPARK --reasoning-parser minimax-m3 "
        "--enable-metrics --api-key " +
        kKey;
    m_server = m_host.connection().run(launch);
    QSignalSpy tunnel(&m_host.connection(), &ssh::HostConnection::tunnelReady);
    m_host.connection().openPortTunnel(QStringLiteral("127.0.0.1"), port);
    QVERIFY(tunnel.wait(10000));
    m_local = static_cast<quint16>(tunnel.first().at(1).toUInt());
    // Ready only when /health says 200 (never /v1/models, which answers early).
    QTRY_VERIFY_WITH_TIMEOUT(request("GET", QStringLiteral("/health"), {}, false).status == 200, 30000);
}

void TestSglangSim::cleanupTestCase()
{
    m_host.connection().cancel(m_server);
    m_host.stop();
}

void TestSglangSim::startupLog_hasTheRealMilestonesInOrder()
{
    const QList<QByteArray> milestones{"server_args=",
                                       "DSpark draft weights are bundled in the target checkpoint",
                                       "Load weight begin",
                                       "Load weight end",
                                       "nvfp4_to_fp8 backend=qmul4",
                                       "KV Cache is allocated. #tokens: 10400000",
                                       "Initialized DSpark draft runner",
                                       "max_total_num_tokens=10400000",
                                       "Uvicorn running on http://127.0.0.1:",
                                       "The server is fired up and ready to roll!"};
    QTRY_VERIFY_WITH_TIMEOUT(logContains("ready to roll"), 10000);
    qsizetype at = 0;
    for (const QByteArray &m : milestones) {
        qsizetype found = -1;
        for (qsizetype i = at; i < m_log.size(); ++i) {
            if (m_log.at(i).contains(m)) {
                found = i;
                break;
            }
        }
        QVERIFY2(found >= 0, m.constData());
        at = found;
    }
    // The real "[date time TP0] " prefix, and the key never printed.
    const QRegularExpression prefix(
        QStringLiteral("^\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d TP0\\] Load weight begin"));
    QVERIFY(std::any_of(m_log.begin(), m_log.end(),
                        [&prefix](const QByteArray &l) { return prefix.match(QString::fromUtf8(l)).hasMatch(); }));
    for (const QByteArray &l : m_log) {
        QVERIFY(!l.contains(kKey));
    }
}

void TestSglangSim::gpuMemory_reflectsWeightsAndKvPool()
{
    const auto r = runAndWait(m_host.connection(), "nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits");
    QVERIFY(r.succeeded());
    const QList<QByteArray> rows = r.stdoutData.trimmed().split('\n');
    QCOMPARE(rows.size(), 4);
    // mem-fraction-static 0.8 of 293660 MiB: weights + KV pool.
    QCOMPARE(rows.first().toLongLong(), qint64(293660 * 0.8));
}

void TestSglangSim::apiKey_isRequiredExceptForHealthAndMetrics()
{
    QCOMPARE(request("GET", QStringLiteral("/v1/models"), {}, false).status, 401);
    QCOMPARE(request("GET", QStringLiteral("/v1/models"), {}, false).body, QByteArray(R"({"error": "Unauthorized"})"));
    const Reply models = request("GET", QStringLiteral("/v1/models"));
    QCOMPARE(models.status, 200);
    QCOMPARE(QJsonDocument::fromJson(models.body)
                 .object()
                 .value(QStringLiteral("data"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("owned_by"))
                 .toString(),
             QStringLiteral("sglang"));
    QCOMPARE(request("GET", QStringLiteral("/health"), {}, false).status, 200);
    QCOMPARE(request("GET", QStringLiteral("/metrics"), {}, false).status, 200);
}

void TestSglangSim::chat_separatesReasoning_andThinkingOff()
{
    const QByteArray ask = R"({"model":"MiniMaxAI/MiniMax-M3.1-Flash","messages":[{"role":"user","content":"hi"}]})";
    const Reply on = request("POST", QStringLiteral("/v1/chat/completions"), ask);
    QCOMPARE(on.status, 200);
    const QJsonObject msg = QJsonDocument::fromJson(on.body)
                                .object()
                                .value(QStringLiteral("choices"))
                                .toArray()
                                .at(0)
                                .toObject()
                                .value(QStringLiteral("message"))
                                .toObject();
    QVERIFY(!msg.value(QStringLiteral("reasoning_content")).toString().isEmpty());
    QVERIFY(!msg.value(QStringLiteral("content")).toString().contains(QStringLiteral("<think>")));

    const QByteArray off =
        R"({"messages":[{"role":"user","content":"hi"}],"chat_template_kwargs":{"thinking_mode":"disabled"}})";
    const QJsonObject msgOff =
        QJsonDocument::fromJson(request("POST", QStringLiteral("/v1/chat/completions"), off).body)
            .object()
            .value(QStringLiteral("choices"))
            .toArray()
            .at(0)
            .toObject()
            .value(QStringLiteral("message"))
            .toObject();
    QVERIFY(msgOff.value(QStringLiteral("reasoning_content")).isNull());
    QVERIFY(!msgOff.value(QStringLiteral("content")).toString().isEmpty());

    // The vision preprocessor reads the picture's size: 224 × 224 passes (a PNG's signature and
    // IHDR are what it reads), 1 × 1 is below the patch factor, and bytes that are no picture fail.
    const auto withImage = [](const QByteArray &base64) -> QByteArray { // not a QStringBuilder of a dead argument
        return R"({"messages":[{"role":"user","content":[{"type":"text","text":"what is this?"},)"
               R"({"type":"image_url","image_url":{"url":"data:image/png;base64,)" +
            base64 + R"("}}]}],"chat_template_kwargs":{"thinking_mode":"disabled"}})";
    };
    const Reply img = request("POST", QStringLiteral("/v1/chat/completions"),
                              withImage("iVBORw0KGgoAAAANSUhEUgAAAOAAAADgCAIAAACVT/22"));
    QCOMPARE(img.status, 200);
    QVERIFY(img.body.contains("image"));
    const Reply pixel = request("POST", QStringLiteral("/v1/chat/completions"),
                                withImage("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1Pe"));
    QCOMPARE(pixel.status, 400);
    QCOMPARE(QJsonDocument::fromJson(pixel.body).object().value(QStringLiteral("message")).toString(),
             QStringLiteral("height:1 or width:1 must be larger than factor:28"));
    const Reply junk = request("POST", QStringLiteral("/v1/chat/completions"), withImage("PGh0bWw+"));
    QCOMPARE(junk.status, 400);
    QVERIFY(junk.body.contains("cannot identify image file"));
}

void TestSglangSim::chat_thinksBeforeItAnswers_withinMaxTokens()
{
    // A reasoning model spends its budget thinking: 64 tokens end inside the thought.
    const Reply cut = request("POST", QStringLiteral("/v1/chat/completions"),
                              R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":64})");
    QCOMPARE(cut.status, 200);
    const QJsonObject choice =
        QJsonDocument::fromJson(cut.body).object().value(QStringLiteral("choices")).toArray().at(0).toObject();
    QCOMPARE(choice.value(QStringLiteral("finish_reason")).toString(), QStringLiteral("length"));
    const QJsonObject message = choice.value(QStringLiteral("message")).toObject();
    QVERIFY(message.value(QStringLiteral("content")).isNull());
    QVERIFY(!message.value(QStringLiteral("reasoning_content")).toString().isEmpty());
    // A budget it finishes its thought in: an answer, and the reasoning beside it.
    const Reply whole = request("POST", QStringLiteral("/v1/chat/completions"),
                                R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":2048})");
    const QJsonObject done =
        QJsonDocument::fromJson(whole.body).object().value(QStringLiteral("choices")).toArray().at(0).toObject();
    QCOMPARE(done.value(QStringLiteral("finish_reason")).toString(), QStringLiteral("stop"));
    QVERIFY(!done.value(QStringLiteral("message")).toObject().value(QStringLiteral("content")).toString().isEmpty());
    const QJsonObject usage = QJsonDocument::fromJson(whole.body).object().value(QStringLiteral("usage")).toObject();
    QVERIFY(usage.value(QStringLiteral("reasoning_tokens")).toInt() > 64);
}

void TestSglangSim::chat_streamsReasoningThenContentThenDone()
{
    const Reply r = request("POST", QStringLiteral("/v1/chat/completions"),
                            R"({"stream":true,"messages":[{"role":"user","content":"hi"}]})");
    QCOMPARE(r.status, 200);
    const QList<QByteArray> events = r.body.split('\n');
    int firstContent = -1;
    int lastReasoning = -1;
    int index = 0;
    for (const QByteArray &e : events) {
        if (!e.startsWith("data: {")) {
            continue;
        }
        const QJsonObject delta = QJsonDocument::fromJson(e.mid(6))
                                      .object()
                                      .value(QStringLiteral("choices"))
                                      .toArray()
                                      .at(0)
                                      .toObject()
                                      .value(QStringLiteral("delta"))
                                      .toObject();
        // The first chunk carries the role with an empty content and a null reasoning (SGLang's shape).
        if (!delta.value(QStringLiteral("reasoning_content")).toString().isEmpty()) {
            lastReasoning = index;
        }
        if (!delta.value(QStringLiteral("content")).toString().isEmpty() && firstContent < 0) {
            firstContent = index;
        }
        ++index;
    }
    QVERIFY(lastReasoning >= 0);
    QVERIFY(firstContent > lastReasoning);
    QVERIFY(r.body.trimmed().endsWith("data: [DONE]"));
}

void TestSglangSim::loadsAndMetrics_reportTheKvPool()
{
    const Reply loads = request("GET", QStringLiteral("/v1/loads"));
    QCOMPARE(loads.status, 200);
    const QJsonObject l0 =
        QJsonDocument::fromJson(loads.body).object().value(QStringLiteral("loads")).toArray().at(0).toObject();
    QCOMPARE(l0.value(QStringLiteral("max_total_num_tokens")).toInteger(), qint64(10400000));
    const Reply metrics = request("GET", QStringLiteral("/metrics"), {}, false);
    QVERIFY(metrics.body.contains("sglang:max_total_num_tokens{"));
    QVERIFY(metrics.body.contains("sglang:token_usage{"));
    QVERIFY(metrics.body.contains("sglang:num_requests_total{"));
}

QTEST_GUILESS_MAIN(TestSglangSim)
#include "tst_sglangsim.moc"
