#include "backend/chat/chatrequest.h"

#include <QProcess>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace flashdeck::chat;

/** Request building for the playground and `flashdeck chat` (issue 8, F22, F24). */
class TestChatRequest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaults_areTheModelCards();
    void params_data();
    void params();
    void images_areDataUriParts();
    void curl_usesTheVariable_andElidesImages();
    void curl_isValidShell();
};

namespace {

QList<ChatTurn> conversation()
{
    ChatTurn system{QStringLiteral("system"), QStringLiteral("Be brief."), {}, {}};
    ChatTurn user{QStringLiteral("user"), QStringLiteral("What's a KV cache? It's 'quoted'."), {}, {}};
    return {system, user};
}

nlohmann::json parse(const QByteArray &b)
{
    return nlohmann::json::parse(b.toStdString());
}

} // namespace

void TestChatRequest::defaults_areTheModelCards()
{
    const nlohmann::json body = parse(buildChatBody(conversation(), ChatParams(), QStringLiteral("m")));
    QCOMPARE(body["temperature"].get<double>(), 1.0); // F24
    QCOMPARE(body["top_p"].get<double>(), 0.95);
    QVERIFY(body["stream"].get<bool>());
    QVERIFY(body["stream_options"]["include_usage"].get<bool>());
    QVERIFY(!body.contains("chat_template_kwargs")); // thinking on: the template's default
    QVERIFY(!body.contains("max_tokens"));
    QVERIFY(!body.contains("seed"));
    QCOMPARE(body["messages"].size(), std::size_t(2));
    QCOMPARE(body["messages"][0]["role"].get<std::string>(), std::string("system"));
    QCOMPARE(body["messages"][1]["content"].get<std::string>(), std::string("What's a KV cache? It's 'quoted'."));
}

void TestChatRequest::params_data()
{
    QTest::addColumn<bool>("thinking");
    QTest::addColumn<int>("maxTokens");
    QTest::addColumn<QStringList>("stop");
    QTest::addColumn<qint64>("seed");
    QTest::newRow("thinking off") << false << 0 << QStringList() << qint64(-1);
    QTest::newRow("max tokens") << true << 128 << QStringList() << qint64(-1);
    QTest::newRow("stops and seed") << true << 0 << QStringList{QStringLiteral("\n\n"), QStringLiteral("END")}
                                    << qint64(42);
}

void TestChatRequest::params()
{
    QFETCH(bool, thinking);
    QFETCH(int, maxTokens);
    QFETCH(QStringList, stop);
    QFETCH(qint64, seed);
    ChatParams p;
    p.thinking = thinking;
    if (maxTokens > 0) {
        p.maxTokens = maxTokens;
    }
    p.stop = stop;
    if (seed >= 0) {
        p.seed = seed;
    }
    const nlohmann::json body = parse(buildChatBody(conversation(), p, QStringLiteral("m")));
    QCOMPARE(body.contains("chat_template_kwargs"), !thinking);
    if (!thinking) { // MiniMax-M3's switch (F22, sglang-facts §4.2)
        QCOMPARE(body["chat_template_kwargs"]["thinking_mode"].get<std::string>(), std::string("disabled"));
    }
    QCOMPARE(body.contains("max_tokens"), maxTokens > 0);
    if (maxTokens > 0) {
        QCOMPARE(body["max_tokens"].get<int>(), maxTokens);
    }
    QCOMPARE(body.contains("stop"), !stop.isEmpty());
    if (!stop.isEmpty()) {
        QCOMPARE(body["stop"][0].get<std::string>(), stop.first().toStdString());
    }
    QCOMPARE(body.contains("seed"), seed >= 0);
}

void TestChatRequest::images_areDataUriParts()
{
    QList<ChatTurn> turns = conversation();
    turns.last().images.append({QStringLiteral("image/png"), QByteArray("\x89PNG fake", 9), QStringLiteral("a.png")});
    const nlohmann::json body = parse(buildChatBody(turns, ChatParams(), QStringLiteral("m")));
    const nlohmann::json &parts = body["messages"][1]["content"];
    QCOMPARE(parts.size(), std::size_t(2));
    QCOMPARE(parts[0]["type"].get<std::string>(), std::string("text"));
    QCOMPARE(parts[1]["type"].get<std::string>(), std::string("image_url"));
    QCOMPARE(QString::fromStdString(parts[1]["image_url"]["url"].get<std::string>()),
             QStringLiteral("data:image/png;base64,") + QString::fromLatin1(QByteArray("\x89PNG fake", 9).toBase64()));
    const QByteArray elided = elideDataUris(buildChatBody(turns, ChatParams(), QStringLiteral("m")));
    QVERIFY(elided.contains("data:image/png;base64,…(9 bytes)"));
    QVERIFY(!elided.contains(QByteArray("\x89PNG fake", 9).toBase64()));
}

void TestChatRequest::curl_usesTheVariable_andElidesImages()
{
    QList<ChatTurn> turns = conversation();
    turns.last().images.append({QStringLiteral("image/png"), QByteArray(300, 'z'), QStringLiteral("a.png")});
    const QString curl = curlCommand(turns, ChatParams(), QStringLiteral("MiniMaxAI/MiniMax-M3.1-Flash"), 30000);
    QVERIFY(curl.contains(QStringLiteral("\"Authorization: Bearer $SGLANG_API_KEY\"")));
    QVERIFY(curl.contains(QStringLiteral("http://127.0.0.1:30000/v1/chat/completions")));
    QVERIFY(!curl.contains(QString::fromLatin1(QByteArray(300, 'z').toBase64())));
    const QString full = curlCommand(turns, ChatParams(), QStringLiteral("m"), 30000, true);
    QVERIFY(full.contains(QString::fromLatin1(QByteArray(300, 'z').toBase64())));
}

void TestChatRequest::curl_isValidShell()
{
    // The -d argument, run through a real shell, gives back exactly the JSON body.
    const QList<ChatTurn> turns = conversation();
    const QString curl = curlCommand(turns, ChatParams(), QStringLiteral("m"), 30000);
    const QString d = curl.mid(curl.indexOf(QStringLiteral("-d ")) + 3);
    QProcess sh;
    sh.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("printf %s ") + d});
    QVERIFY(sh.waitForFinished(10000));
    QCOMPARE(sh.readAllStandardOutput(), buildChatBody(turns, ChatParams(), QStringLiteral("m")));
}

QTEST_GUILESS_MAIN(TestChatRequest)
#include "tst_chatrequest.moc"
