#include "backend/core/apppaths.h"
#include "backend/fleet/inventory.h"
#include "backend/recipe/deployment.h"
#include "tests/integration/cli/clirun.h"
#include "tests/simhost/simhostfixture.h"
#include "tests/support/buildpaths.h"
#include "tests/support/sshtesthelpers.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace flashdeck;
using namespace flashdeck::test;

namespace {
const QString kKey = QStringLiteral("sk-flashdeck-test-6f1c2a9e");
}

/**
 * `flashdeck chat` as a real process over real SSH to the simulated SGLang server (issue 8):
 * streamed reasoning then answer, thinking off, an image, a wrong key, the server killed
 * mid-answer, and twenty chats at once.
 */
class TestChatCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void streamed_reasoningThenAnswer_json();
    void plainText_answerOnStdout_reasoningAndStatsOnStderr();
    void thinkingOff_noReasoning();
    void image_isSentAsData();
    void image_belowThePatchFactor_theServersWords();
    void image_refusedByContent();
    void wrongKey_says401_andNeverPrintsTheKey();
    void noServer_saysWhatToDo();
    void serverKilledMidAnswer_partialKept_clearError();
    void twentyAtOnce_allComplete();
    void debugLog_holdsNoPromptNoAnswerNoKey();
    void loadTest_twentyInFlight_reportAndCsv();
    void loadTest_wrongKey_stopsAfterAFew401s();
    void loadTest_serverIgnoresEos_shortRepliesFlagged();
    void loadTest_lowLatencyDeployment_warnsOfBatchOne_andUpstreamFigures();

private:
    bool startServer(QString *error, quint16 port, quint64 *id);
    CliRun chat(QStringList extra, const QString &key = kKey);
    static QList<QJsonObject> objects(const QByteArray &lines);

    std::unique_ptr<SimHostFixture> m_host;
    QTemporaryDir m_config;
    quint16 m_port = 0;
    quint64 m_server = 0;
};

QList<QJsonObject> TestChatCli::objects(const QByteArray &lines)
{
    QList<QJsonObject> out;
    for (const QByteArray &l : lines.split('\n')) {
        if (!l.isEmpty()) {
            out.append(QJsonDocument::fromJson(l).object());
        }
    }
    return out;
}

bool TestChatCli::startServer(QString *error, quint16 port, quint64 *id)
{
    ssh::RemoteCommand launch;
    launch.commandLine = "FLASHDECK_SIM_TIME_FACTOR=0.2 exec sglang-sim --model-path MiniMaxAI/MiniMax-M3.1-Flash "
                         "--tp 4 --host 127.0.0.1 --port " +
        QByteArray::number(port) + " --reasoning-parser minimax-m3 --api-key " + kKey.toUtf8();
    *id = m_host->connection().run(launch);
    // Ready when it says so (the same moment /health turns 200), not after polling.
    QByteArray log;
    if (!waitForCommandLine(m_host->connection(), *id, kServerReadyLine, 120000, &log)) {
        *error =
            QStringLiteral("the simulated server never became ready: ") + QString::fromUtf8(log) + m_host->daemonLog();
        return false;
    }
    return true;
}

void TestChatCli::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_host = std::make_unique<SimHostFixture>();
    QString error;
    QVERIFY2(m_host->start(QStringLiteral("b300x4"), &error), qPrintable(error));
    QVERIFY(m_host->addToInventory(m_config.path(), QStringLiteral("gpu")));
    m_port = freeLocalPort();
    QVERIFY2(startServer(&error, m_port, &m_server), qPrintable(error));
}

void TestChatCli::cleanupTestCase()
{
    if (m_host) {
        m_host->connection().cancel(m_server);
    }
}

CliRun TestChatCli::chat(QStringList extra, const QString &key)
{
    QStringList args{QStringLiteral("chat"), QStringLiteral("gpu"), QStringLiteral("--port"), QString::number(m_port)};
    args += extra;
    args << QStringLiteral("--config-dir") << m_config.path();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SGLANG_API_KEY"), key);
    env.insert(QStringLiteral("HOME"), m_host->clientHome());
    return runFlashdeckIn(env, args, 120000);
}

void TestChatCli::streamed_reasoningThenAnswer_json()
{
    const CliRun r =
        chat({QStringLiteral("--prompt"), QStringLiteral("What is a KV cache?"), QStringLiteral("--json")});
    QVERIFY2(
        r.exitCode == 0,
        qPrintable(
            QStringLiteral("exit %1: %2 %3").arg(r.exitCode).arg(QString::fromUtf8(r.out), QString::fromUtf8(r.err))));
    const QList<QJsonObject> lines = objects(r.out);
    QVERIFY(lines.size() > 4);
    QString reasoning;
    QString content;
    int firstContent = -1;
    int lastReasoning = -1;
    for (int i = 0; i < lines.size() - 1; ++i) {
        const QString type = lines[i][QLatin1String("type")].toString();
        if (type == QLatin1String("reasoning")) {
            reasoning += lines[i][QLatin1String("text")].toString();
            lastReasoning = i;
        } else {
            QCOMPARE(type, QStringLiteral("content"));
            content += lines[i][QLatin1String("text")].toString();
            firstContent = firstContent < 0 ? i : firstContent;
        }
    }
    QVERIFY(reasoning.startsWith(QStringLiteral("The user asks a question.")));
    QVERIFY(!content.isEmpty());
    QVERIFY(lastReasoning < firstContent); // reasoning streams first (sglang-facts §4.3)
    QVERIFY(lines.size() > 6); // streamed in pieces, not one block
    const QJsonObject stats = lines.last();
    QCOMPARE(stats[QLatin1String("type")].toString(), QStringLiteral("stats"));
    QVERIFY(stats[QLatin1String("ttft_ms")].toInteger() > 0);
    QVERIFY(stats[QLatin1String("tokens_per_s")].toDouble() > 0);
    QVERIFY(stats[QLatin1String("prompt_tokens")].toInteger() > 0);
    QVERIFY(stats[QLatin1String("completion_tokens")].toInteger() > 0);
    QVERIFY(stats[QLatin1String("reasoning_tokens")].toInteger() > 0);
    QCOMPARE(stats[QLatin1String("finish_reason")].toString(), QStringLiteral("stop"));
    QVERIFY(!r.out.contains(kKey.toUtf8()) && !r.err.contains(kKey.toUtf8()));
}

void TestChatCli::plainText_answerOnStdout_reasoningAndStatsOnStderr()
{
    const CliRun r = chat(
        {QStringLiteral("--prompt"), QStringLiteral("Hello"), QStringLiteral("--max-tokens"), QStringLiteral("12")});
    QVERIFY2(r.exitCode == 0,
             qPrintable(QStringLiteral("exit %1: %2 / %3")
                            .arg(r.exitCode)
                            .arg(QString::fromUtf8(r.out), QString::fromUtf8(r.err))));
    QVERIFY(r.err.contains("The user asks a question."));
    QVERIFY(!r.out.contains("The user asks"));
    QVERIFY(r.err.contains("first token"));
    QVERIFY2(r.err.contains("length"), r.err.constData()); // max_tokens reached
}

void TestChatCli::thinkingOff_noReasoning()
{
    const CliRun r = chat({QStringLiteral("--prompt"), QStringLiteral("Quick answer."), QStringLiteral("--no-thinking"),
                           QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QList<QJsonObject> lines = objects(r.out);
    for (const QJsonObject &o : lines) {
        QVERIFY(o[QLatin1String("type")].toString() != QLatin1String("reasoning"));
    }
    QVERIFY(lines.first()[QLatin1String("type")].toString() == QLatin1String("content"));
    QCOMPARE(lines.last()[QLatin1String("thinking_ignored")].toBool(), false);
}

void TestChatCli::image_isSentAsData()
{
    const CliRun r =
        chat({QStringLiteral("--prompt"), QStringLiteral("What is in the picture?"), QStringLiteral("--image"),
              flashdeck::test::testData(u"/images/red-circle-224.png"), QStringLiteral("--no-thinking")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.out.startsWith("The image shows a round red shape."), r.out.constData());
}

void TestChatCli::image_belowThePatchFactor_theServersWords()
{
    // A vision preprocessor refuses a side below its patch factor (28): a 16 × 16 picture.
    const CliRun r =
        chat({QStringLiteral("--prompt"), QStringLiteral("What is in the picture?"), QStringLiteral("--image"),
              flashdeck::test::testData(u"/images/small-square.png"), QStringLiteral("--no-thinking")});
    QVERIFY(r.exitCode != 0);
    QVERIFY2(r.err.contains("HTTP 400") && r.err.contains("\"height:16 or width:16 must be larger than factor:28\""),
             r.err.constData());
}

void TestChatCli::image_refusedByContent()
{
    QTemporaryDir dir;
    QFile fake(dir.path() + QStringLiteral("/not-an-image.png"));
    QVERIFY(fake.open(QIODevice::WriteOnly) && fake.write("<html>hello</html>") > 0);
    fake.close();
    const CliRun r =
        chat({QStringLiteral("--prompt"), QStringLiteral("x"), QStringLiteral("--image"), fake.fileName()});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("not a PNG, JPEG or WebP"), r.err.constData());
}

void TestChatCli::wrongKey_says401_andNeverPrintsTheKey()
{
    const QString wrong = QStringLiteral("sk-wrong-0000-do-not-print");
    const CliRun r = chat({QStringLiteral("--prompt"), QStringLiteral("Hello"), QStringLiteral("--json")}, wrong);
    QCOMPARE(r.exitCode, 1);
    const QList<QJsonObject> lines = objects(r.out);
    QCOMPARE(lines.size(), 1);
    QCOMPARE(lines.first()[QLatin1String("type")].toString(), QStringLiteral("error"));
    const QString message = lines.first()[QLatin1String("message")].toString();
    QVERIFY2(message.contains(QStringLiteral("refused the API key (HTTP 401)")), qPrintable(message));
    // The key came from $SGLANG_API_KEY: the words name it, not a key Flashdeck holds.
    QVERIFY2(message.contains(QStringLiteral("$SGLANG_API_KEY")) &&
                 !message.contains(QStringLiteral("The key Flashdeck holds")),
             qPrintable(message));
    QVERIFY(!r.out.contains(wrong.toUtf8()) && !r.err.contains(wrong.toUtf8()));
}

void TestChatCli::noServer_saysWhatToDo()
{
    QStringList args{QStringLiteral("chat"),           QStringLiteral("gpu"),      QStringLiteral("--port"),
                     QString::number(freeLocalPort()), QStringLiteral("--prompt"), QStringLiteral("hi")};
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), m_host->clientHome());
    p.setProcessEnvironment(env);
    p.start(flashdeck::test::flashdeckBinary(), args << QStringLiteral("--config-dir") << m_config.path());
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 1);
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(err.contains("Is it running on the host?") || err.contains("Could not reach the server's port"),
             err.constData());
    // Without --port and without a deployment: say how to point at a server.
    const CliRun none =
        runFlashdeck(m_config.path(),
                     {QStringLiteral("chat"), QStringLiteral("gpu"), QStringLiteral("--prompt"), QStringLiteral("hi")});
    QCOMPARE(none.exitCode, 2);
    QVERIFY2(none.err.contains("--port"), none.err.constData());
}

void TestChatCli::serverKilledMidAnswer_partialKept_clearError()
{
    // A server of its own that streams a token every half second, so the kill lands mid-answer,
    // and thinks only 20 words first (at 140–220 words of thought this test took 41 s).
    QFile scenario(m_host->simDir() + QStringLiteral("/scenario.json"));
    QVERIFY(scenario.open(QIODevice::ReadOnly));
    const QByteArray original = scenario.readAll();
    scenario.close();
    QJsonObject sc = QJsonDocument::fromJson(original).object();
    sc[QLatin1String("faults")] =
        QJsonObject{{QLatin1String("token_seconds"), 0.5}, {QLatin1String("reasoning_words"), 20}};
    QVERIFY(scenario.open(QIODevice::WriteOnly | QIODevice::Truncate));
    scenario.write(QJsonDocument(sc).toJson());
    scenario.close();
    const quint16 slowPort = freeLocalPort();
    quint64 slow = 0;
    QString why;
    const bool started = startServer(&why, slowPort, &slow);
    QVERIFY(scenario.open(QIODevice::WriteOnly | QIODevice::Truncate));
    scenario.write(original);
    scenario.close();
    QVERIFY2(started, qPrintable(why));
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SGLANG_API_KEY"), kKey);
    env.insert(QStringLiteral("HOME"), m_host->clientHome());
    p.setProcessEnvironment(env);
    p.start(flashdeck::test::flashdeckBinary(),
            {QStringLiteral("chat"), QStringLiteral("gpu"), QStringLiteral("--port"), QString::number(slowPort),
             QStringLiteral("--prompt"), QStringLiteral("Tell me a long story."), QStringLiteral("--json"),
             QStringLiteral("--config-dir"), m_config.path()});
    QByteArray out;
    // The first answer text is out: kill the server (as a crash or a restart would).
    QTRY_VERIFY_WITH_TIMEOUT((out += p.readAllStandardOutput()).contains("\"type\":\"content\""), 60000);
    // "[3]4567" matches the server's "--port 34567" but not this command's own shell (and the
    // simulated host is this machine: the pattern must not match flashdeck's own arguments).
    const QByteArray port = QByteArray::number(slowPort);
    m_host->connection().run("pkill -KILL --ns $$ --nslist net -f -- 'sglang-sim .*--port [" + port.left(1) + "]" +
                             port.mid(1) + " '");
    QVERIFY(p.waitForFinished(60000));
    out += p.readAllStandardOutput();
    QCOMPARE(p.exitCode(), 1);
    const QList<QJsonObject> lines = objects(out);
    QVERIFY(lines.size() >= 3);
    QString content;
    for (const QJsonObject &o : lines) {
        if (o[QLatin1String("type")].toString() == QLatin1String("content")) {
            content += o[QLatin1String("text")].toString();
        }
    }
    QVERIFY(!content.isEmpty()); // the partial answer was delivered and kept
    const QJsonObject error = lines.at(lines.size() - 2);
    QCOMPARE(error[QLatin1String("type")].toString(), QStringLiteral("error"));
    QVERIFY2(error[QLatin1String("message")].toString().contains(QStringLiteral("partial answer is kept")),
             qPrintable(error[QLatin1String("message")].toString()));
    QCOMPARE(lines.last()[QLatin1String("type")].toString(), QStringLiteral("stats"));
    QVERIFY(lines.last()[QLatin1String("finish_reason")].isNull());
    m_host->connection().cancel(slow);
}

void TestChatCli::twentyAtOnce_allComplete()
{
    std::vector<std::unique_ptr<QProcess>> procs;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SGLANG_API_KEY"), kKey);
    env.insert(QStringLiteral("HOME"), m_host->clientHome());
    for (int i = 0; i < 20; ++i) {
        auto p = std::make_unique<QProcess>();
        p->setProcessEnvironment(env);
        p->start(flashdeck::test::flashdeckBinary(),
                 {QStringLiteral("chat"), QStringLiteral("gpu"), QStringLiteral("--port"), QString::number(m_port),
                  QStringLiteral("--prompt"), QStringLiteral("Chat %1").arg(i), QStringLiteral("--json"),
                  QStringLiteral("--config-dir"), m_config.path()});
        procs.push_back(std::move(p));
    }
    for (auto &p : procs) {
        QVERIFY(p->waitForFinished(180000));
        const QByteArray out = p->readAllStandardOutput();
        QVERIFY2(
            p->exitCode() == 0,
            qPrintable(
                QStringLiteral("exit %1: %2").arg(p->exitCode()).arg(QString::fromUtf8(p->readAllStandardError()))));
        const QList<QJsonObject> lines = objects(out);
        QCOMPARE(lines.last()[QLatin1String("finish_reason")].toString(), QStringLiteral("stop"));
    }
}

void TestChatCli::debugLog_holdsNoPromptNoAnswerNoKey()
{
    // F32: with every subsystem at debug and the log on stderr, the log carries none of the
    // prompt, the answer or the key (the answer goes to stdout only, as --json deltas).
    const QString secretPrompt = QStringLiteral("my-private-question-7c1d about payroll");
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SGLANG_API_KEY"), kKey);
    env.insert(QStringLiteral("HOME"), m_host->clientHome());
    env.insert(QStringLiteral("FLASHDECK_LOG"), QStringLiteral("debug"));
    p.setProcessEnvironment(env);
    p.start(flashdeck::test::flashdeckBinary(),
            {QStringLiteral("chat"), QStringLiteral("gpu"), QStringLiteral("--port"), QString::number(m_port),
             QStringLiteral("--prompt"), secretPrompt, QStringLiteral("--json"), QStringLiteral("--log-stderr"),
             QStringLiteral("--config-dir"), m_config.path()});
    QVERIFY(p.waitForFinished(120000));
    const QByteArray out = p.readAllStandardOutput();
    const QByteArray log = p.readAllStandardError();
    QVERIFY2(p.exitCode() == 0, log.constData());
    QVERIFY2(log.contains("ssh"), log.constData()); // the log did run, at debug
    QVERIFY(!log.contains("my-private-question-7c1d"));
    QVERIFY(!log.contains(kKey.toUtf8()));
    QString answer;
    for (const QJsonObject &o : objects(out)) {
        if (o[QLatin1String("type")].toString() == QLatin1String("content")) {
            answer += o[QLatin1String("text")].toString();
        }
    }
    QVERIFY(answer.size() > 20);
    QVERIFY(!log.contains(answer.left(20).toUtf8()));
}

void TestChatCli::loadTest_twentyInFlight_reportAndCsv()
{
    QTemporaryDir dir;
    const QString csv = dir.path() + QStringLiteral("/requests.csv");
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SGLANG_API_KEY"), kKey);
    env.insert(QStringLiteral("HOME"), m_host->clientHome());
    p.setProcessEnvironment(env);
    p.start(flashdeck::test::flashdeckBinary(),
            {QStringLiteral("loadtest"), QStringLiteral("gpu"), QStringLiteral("--port"), QString::number(m_port),
             QStringLiteral("--concurrency"), QStringLiteral("20"), QStringLiteral("--prompt-tokens"),
             QStringLiteral("200"), QStringLiteral("--output-tokens"), QStringLiteral("16"),
             QStringLiteral("--duration"), QStringLiteral("3"), QStringLiteral("--json"), QStringLiteral("--csv"), csv,
             QStringLiteral("--config-dir"), m_config.path()});
    QVERIFY(p.waitForFinished(120000));
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(p.exitCode() == 0, err.constData());
    const QJsonObject r = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    QCOMPARE(r[QLatin1String("concurrency")].toInt(), 20);
    QCOMPARE(r[QLatin1String("failed")].toInt(), 0);
    const int completed = r[QLatin1String("completed")].toInt();
    QVERIFY2(completed >= 20, qPrintable(QString::number(completed))); // every one of the first twenty, then more
    QVERIFY(r[QLatin1String("ttft_p50_ms")].toDouble() > 0);
    QVERIFY(r[QLatin1String("ttft_p95_ms")].toDouble() >= r[QLatin1String("ttft_p50_ms")].toDouble());
    QVERIFY(r[QLatin1String("itl_p50_ms")].toDouble() > 0);
    QVERIFY(r[QLatin1String("tokens_per_s")].toDouble() > 0);
    const QJsonArray timeline = r[QLatin1String("timeline")].toArray();
    // One tick a second while it runs: after 1 s and 2 s for sure; the 3 s tick can lose the race
    // with the last requests finishing (seen under ASan), so it is not counted on.
    QVERIFY(timeline.size() >= 2);
    bool sawKv = false;
    for (const QJsonValue &t : timeline) {
        sawKv = sawKv || !t.toObject()[QLatin1String("kv_usage")].isNull();
    }
    QVERIFY(sawKv); // the server's side, from /v1/loads with the key
    QVERIFY(err.contains("in flight"));
    QFile rows(csv);
    QVERIFY(rows.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = rows.readAll().trimmed().split('\n');
    QCOMPARE(lines.first(), QByteArray("request,start_s,ttft_ms,total_ms,completion_tokens,outcome,error"));
    QCOMPARE(lines.size() - 1, completed);
}

void TestChatCli::loadTest_wrongKey_stopsAfterAFew401s()
{
    // A wrong key fails every request alike: the run stops after a handful in a row and says why,
    // instead of refusing requests for the whole duration.
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SGLANG_API_KEY"), QStringLiteral("sk-wrong-0000-do-not-print"));
    env.insert(QStringLiteral("HOME"), m_host->clientHome());
    p.setProcessEnvironment(env);
    p.start(flashdeck::test::flashdeckBinary(),
            {QStringLiteral("loadtest"), QStringLiteral("gpu"), QStringLiteral("--port"), QString::number(m_port),
             QStringLiteral("--concurrency"), QStringLiteral("2"), QStringLiteral("--prompt-tokens"),
             QStringLiteral("16"), QStringLiteral("--output-tokens"), QStringLiteral("16"),
             QStringLiteral("--duration"), QStringLiteral("600"), QStringLiteral("--json"),
             QStringLiteral("--config-dir"), m_config.path()});
    QVERIFY(p.waitForFinished(120000)); // not the 600 s asked
    const QByteArray err = p.readAllStandardError();
    QCOMPARE(p.exitCode(), 1);
    const QJsonObject r = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    const QString aborted = r[QLatin1String("aborted")].toString();
    QVERIFY2(aborted.contains(QLatin1String("refused with HTTP 401")), qPrintable(aborted));
    QVERIFY(r[QLatin1String("failed")].toInt() >= 5);
    QVERIFY(err.contains("refused with HTTP 401"));
    QVERIFY(!err.contains("sk-wrong-0000-do-not-print"));
}

void TestChatCli::loadTest_serverIgnoresEos_shortRepliesFlagged()
{
    // Real SGLang decodes on to max_tokens with ignore_eos; a server that stops at the end of its
    // answer makes tokens/s a figure at another length. The report says so, in words.
    QVERIFY(m_host->useScenario(QStringLiteral("eos-ignored")));
    const quint16 port = freeLocalPort();
    quint64 server = 0;
    QString error;
    QVERIFY2(startServer(&error, port, &server), qPrintable(error));
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SGLANG_API_KEY"), kKey);
    env.insert(QStringLiteral("HOME"), m_host->clientHome());
    p.setProcessEnvironment(env);
    const auto loadTest = [&](quint16 on, bool json) {
        p.start(flashdeck::test::flashdeckBinary(),
                QStringList{QStringLiteral("loadtest"), QStringLiteral("gpu"), QStringLiteral("--port"),
                            QString::number(on), QStringLiteral("--concurrency"), QStringLiteral("2"),
                            QStringLiteral("--prompt-tokens"), QStringLiteral("16"), QStringLiteral("--output-tokens"),
                            QStringLiteral("600"), QStringLiteral("--duration"), QStringLiteral("2"),
                            QStringLiteral("--config-dir"), m_config.path()} +
                    (json ? QStringList{QStringLiteral("--json")} : QStringList{}));
        return p.waitForFinished(120000);
    };
    QVERIFY(loadTest(port, true));
    QCOMPARE(p.exitCode(), 0);
    const QJsonObject r = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    QVERIFY(r[QLatin1String("completed")].toInt() > 0);
    QCOMPARE(r[QLatin1String("short_replies")].toInt(), r[QLatin1String("completed")].toInt());
    QVERIFY(loadTest(port, false));
    const QByteArray human = p.readAllStandardOutput();
    QVERIFY2(human.contains("shorter than the 600 tokens asked") && human.contains("ignore_eos"), human.constData());
    QVERIFY2(human.contains("(client)") && human.contains("(server)"), human.constData());
    m_host->connection().cancel(server);
    QVERIFY(m_host->useScenario(QStringLiteral("b300x4")));
    // The faithful server: every reply as long as asked.
    QVERIFY(loadTest(m_port, true));
    const QJsonObject ok = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    QVERIFY(ok[QLatin1String("completed")].toInt() > 0);
    QCOMPARE(ok[QLatin1String("short_replies")].toInt(), 0);
}

void TestChatCli::loadTest_lowLatencyDeployment_warnsOfBatchOne_andUpstreamFigures()
{
    // Issue 41: a deployment of the Low-Latency profile (MonoKernel: batch-size-1 steps only)
    // is warned of before the run and in the report; published figures are upstream references.
    const flashdeck::AppPaths paths(m_config.path());
    recipe::Deployment d;
    d.host = QStringLiteral("gpu");
    d.profile = QStringLiteral("b300x4-low-latency");
    d.recipe = QStringLiteral("minimax-m31-flash");
    d.port = m_port;
    d.ok = true;
    QVERIFY(QDir().mkpath(recipe::Deployment::directory(paths, d.host)));
    QVERIFY(d.write(paths).isOk());
    const auto cleanup = qScopeGuard([&] { QDir(recipe::Deployment::directory(paths, d.host)).removeRecursively(); });
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SGLANG_API_KEY"), kKey);
    env.insert(QStringLiteral("HOME"), m_host->clientHome());
    p.setProcessEnvironment(env);
    const auto loadTest = [&](bool json) {
        p.start(flashdeck::test::flashdeckBinary(),
                QStringList{QStringLiteral("loadtest"), QStringLiteral("gpu"), QStringLiteral("--concurrency"),
                            QStringLiteral("2"), QStringLiteral("--prompt-tokens"), QStringLiteral("16"),
                            QStringLiteral("--output-tokens"), QStringLiteral("8"), QStringLiteral("--duration"),
                            QStringLiteral("1"), QStringLiteral("--config-dir"), m_config.path()} +
                    (json ? QStringList{QStringLiteral("--json")} : QStringList{}));
        return p.waitForFinished(120000);
    };
    QVERIFY(loadTest(true));
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(p.exitCode() == 0, err.constData());
    QVERIFY2(err.contains("Low-Latency profile") && err.contains("batch-size-1 steps only"), err.constData());
    const QJsonObject r = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    QCOMPARE(r[QLatin1String("profile")].toString(), QStringLiteral("b300x4-low-latency"));
    const QJsonArray notes = r[QLatin1String("notes")].toArray();
    QVERIFY(notes.first().toString().contains(QLatin1String("serves less than the Balanced profile")));
    QVERIFY(notes.last().toString().contains(QLatin1String("upstream references, not a MiniMax guarantee")));
    QVERIFY(loadTest(false));
    const QByteArray human = p.readAllStandardOutput();
    QVERIFY2(human.contains("note: This deployment runs the Low-Latency profile") &&
                 human.contains("upstream references, not a MiniMax guarantee"),
             human.constData());
}

QTEST_GUILESS_MAIN(TestChatCli)
#include "tst_chatcli.moc"
