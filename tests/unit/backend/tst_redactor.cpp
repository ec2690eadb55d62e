#include "backend/security/redactor.h"

#include <QTest>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

using flashdeck::security::Redactor;

class TestRedactor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void redact_patterns_data();
    void redact_patterns();
    void redact_registeredSecrets_data();
    void redact_registeredSecrets();
    void addSecret_tooShort_isRefused();
    void removeSecret_stopsRedacting();
    void redact_hugeBase64Image_isLinearAndComplete();
    void redact_concurrentWriters_neverLeak();
    void redact_secretsAmongOrdinaryWords_property();
};

void TestRedactor::redact_patterns_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");

    QTest::newRow("plain text untouched") << QStringLiteral("Load weight begin. avail mem=262.31 GB")
                                          << QStringLiteral("Load weight begin. avail mem=262.31 GB");
    QTest::newRow("empty") << QString() << QString();
    QTest::newRow("bearer header") << QStringLiteral("Authorization: Bearer sk-abc123.DEF_456~+/=")
                                   << QStringLiteral("Authorization: Bearer [REDACTED]");
    QTest::newRow("bearer lower case in curl")
        << QStringLiteral("curl -H 'authorization: bearer tok3n' http://127.0.0.1:30000/v1/models")
        << QStringLiteral("curl -H 'authorization: bearer [REDACTED]' http://127.0.0.1:30000/v1/models");
    QTest::newRow("bearer twice") << QStringLiteral("Bearer aaaa then Bearer bbbb")
                                  << QStringLiteral("Bearer [REDACTED] then Bearer [REDACTED]");
    QTest::newRow("bearer already redacted")
        << QStringLiteral("Bearer [REDACTED]") << QStringLiteral("Bearer [REDACTED]");
    QTest::newRow("word containing bearer untouched") << QStringLiteral("forbearer x") << QStringLiteral("forbearer x");
    QTest::newRow("basic auth header") << QStringLiteral("Authorization: Basic dXNlcjpwYXNz\nnext line")
                                       << QStringLiteral("Authorization: [REDACTED]\nnext line");
    QTest::newRow("authorization json") << QStringLiteral(R"({"Authorization": "Token abc def", "x": 1})")
                                        << QStringLiteral(R"({"Authorization": "[REDACTED]", "x": 1})");
    QTest::newRow("data uri png")
        << QStringLiteral(
               R"({"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=="}})")
        << QStringLiteral(
               R"({"type":"image_url","image_url":{"url":"data:image/png;base64,[REDACTED 24 base64 chars]"}})");
    QTest::newRow("data uri json escaped slash")
        << QStringLiteral(R"("data:image\/jpeg;base64,\/9j\/4AAQ")")
        << QStringLiteral(R"("data:image\/jpeg;base64,[REDACTED 10 base64 chars]")");
    QTest::newRow("data uri with parameters")
        << QStringLiteral("data:text/plain;charset=utf-8;base64,SGVsbG8=")
        << QStringLiteral("data:text/plain;charset=utf-8;base64,[REDACTED 8 base64 chars]");
    QTest::newRow("data uri not base64 untouched")
        << QStringLiteral("data:text/plain,hello") << QStringLiteral("data:text/plain,hello");
    QTest::newRow("metadata: prose untouched") << QStringLiteral("metadata: none") << QStringLiteral("metadata: none");
    QTest::newRow("sglang --api-key flag")
        << QStringLiteral("python3 -m sglang.launch_server --api-key s3cr3t-key --port 30000")
        << QStringLiteral("python3 -m sglang.launch_server --api-key [REDACTED] --port 30000");
    QTest::newRow("--api-key=value") << QStringLiteral("--api-key=abcd --tp 4")
                                     << QStringLiteral("--api-key=[REDACTED] --tp 4");
    QTest::newRow("api_key json") << QStringLiteral(R"({"api_key": "k-123\"x", "model": "m"})")
                                  << QStringLiteral(R"({"api_key": "[REDACTED]", "model": "m"})");
    QTest::newRow("password query") << QStringLiteral("user=root&password=hunter22&x=1")
                                    << QStringLiteral("user=root&password=[REDACTED]&x=1");
    QTest::newRow("passphrase single quoted")
        << QStringLiteral("passphrase='two words'") << QStringLiteral("passphrase='[REDACTED]'");
    QTest::newRow("hf token") << QStringLiteral("HF_TOKEN is hf_abcdefghijklmnopqrstuvwxyzABCDEFGH ok")
                              << QStringLiteral("HF_TOKEN is hf_[REDACTED] ok");
    QTest::newRow("hf_token= variable") << QStringLiteral("hf_token=abc123") << QStringLiteral("hf_token=[REDACTED]");
    QTest::newRow("short hf_ name untouched")
        << QStringLiteral("hf_transfer enabled") << QStringLiteral("hf_transfer enabled");
    QTest::newRow("tokens word untouched")
        << QStringLiteral("max_total_num_tokens=10400000") << QStringLiteral("max_total_num_tokens=10400000");
    QTest::newRow("password prose untouched")
        << QStringLiteral("auth method password: denied") << QStringLiteral("auth method password: denied");
    QTest::newRow("utf8 around secret") << QStringLiteral("clé → Bearer abc ✓")
                                        << QStringLiteral("clé → Bearer [REDACTED] ✓");
}

void TestRedactor::redact_patterns()
{
    QFETCH(QString, input);
    QFETCH(QString, expected);
    Redactor redactor;
    QCOMPARE(redactor.redact(input), expected);
}

void TestRedactor::redact_registeredSecrets_data()
{
    QTest::addColumn<QStringList>("secrets");
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");

    QTest::newRow("once") << QStringList{QStringLiteral("sk-fd-9c1e55aa")}
                          << QStringLiteral("key sk-fd-9c1e55aa in text") << QStringLiteral("key [REDACTED] in text");
    QTest::newRow("many times, no separators") << QStringList{QStringLiteral("abcd")} << QStringLiteral("abcdabcdxabcd")
                                               << QStringLiteral("[REDACTED][REDACTED]x[REDACTED]");
    QTest::newRow("longest first") << QStringList{QStringLiteral("pass"), QStringLiteral("password123")}
                                   << QStringLiteral("it was password123") << QStringLiteral("it was [REDACTED]");
    QTest::newRow("non-ascii secret") << QStringList{QStringLiteral("ключ-секрет")} << QStringLiteral("→ключ-секрет←")
                                      << QStringLiteral("→[REDACTED]←");
    QTest::newRow("secret inside an URL")
        << QStringList{QStringLiteral("t0ps3cret")} << QStringLiteral("http://u:t0ps3cret@host/")
        << QStringLiteral("http://u:[REDACTED]@host/");
}

void TestRedactor::redact_registeredSecrets()
{
    QFETCH(QStringList, secrets);
    QFETCH(QString, input);
    QFETCH(QString, expected);
    Redactor redactor;
    for (const QString &s : secrets) {
        QVERIFY(redactor.addSecret(s));
    }
    QCOMPARE(redactor.redact(input), expected);
}

void TestRedactor::addSecret_tooShort_isRefused()
{
    Redactor redactor;
    QVERIFY(!redactor.addSecret(QStringLiteral("abc")));
    QCOMPARE(redactor.secretCount(), std::size_t{0});
    QCOMPARE(redactor.redact(QStringLiteral("abc")), QStringLiteral("abc"));
}

void TestRedactor::removeSecret_stopsRedacting()
{
    Redactor redactor;
    QVERIFY(redactor.addSecret(QStringLiteral("rotating-key-1")));
    QVERIFY(redactor.addSecret(QStringLiteral("rotating-key-1"))); // duplicates are kept once
    QCOMPARE(redactor.secretCount(), std::size_t{1});
    redactor.removeSecret(QStringLiteral("rotating-key-1"));
    QCOMPARE(redactor.redact(QStringLiteral("rotating-key-1")), QStringLiteral("rotating-key-1"));
}

void TestRedactor::redact_hugeBase64Image_isLinearAndComplete()
{
    // A 24 MiB pasted image must not survive, nor crash a regex engine.
    const std::string payload(24 * 1024 * 1024, 'A');
    const std::string text = "{\"url\":\"data:image/png;base64," + payload + "\"}";
    const std::string out = Redactor::redactPatterns(text);
    QCOMPARE(QByteArray::fromStdString(out),
             QByteArray("{\"url\":\"data:image/png;base64,[REDACTED 25165824 base64 chars]\"}"));
}

void TestRedactor::redact_concurrentWriters_neverLeak()
{
    Redactor redactor;
    QVERIFY(redactor.addSecret(QStringLiteral("stable-secret-value")));
    std::atomic<int> leaks{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&redactor, &leaks, t] {
            for (int i = 0; i < 2000; ++i) {
                if (t == 0) {
                    (void)redactor.addSecret(QStringLiteral("extra-%1").arg(i));
                }
                const std::string out = redactor.redact(std::string_view("a stable-secret-value b"));
                if (out.find("stable-secret-value") != std::string::npos) {
                    ++leaks;
                }
            }
        });
    }
    for (std::thread &th : threads) {
        th.join();
    }
    QCOMPARE(leaks.load(), 0);
}

void TestRedactor::redact_secretsAmongOrdinaryWords_property()
{
    // The scanner tries its rules only where one could begin (a word's first letter, '-', '"',
    // 'd' of data:): generated lines mix every rule's trigger, in every case and position, with
    // SGLang's ordinary words; no secret value may survive, and a line without one is unchanged.
    const char *const ordinary[] = {
        "Decode batch.", "#token: 412032,", "token usage: 0.04,", "gen throughput", "tokens",  "password_file",
        "datasets",      "hf_hub",          "--port 30000",       "\"model\":",     "Bearers", "authorization",
        "secretly",      "apikeys",         "(token/s):",         "data-parallel"};
    const char *const triggers[] = {
        "Bearer ",        "bearer ",       "Authorization: Basic ",  "AUTHORIZATION: ", "--api-key ",
        "--api-key=",     "api_key=",      "\"password\": \"",       "--token ",        "SECRET=",
        "client_secret=", "access_token=", "data:image/png;base64,", "hf_token=",       "\"api_key\":\"",
        "Passphrase="};
    std::uint32_t seed = 20261202;
    // An LCG's low bits repeat with a short period: the high ones choose.
    const auto next = [&seed] { return (seed = seed * 1664525u + 1013904223u) >> 12; };
    const Redactor redactor;
    for (int line = 0; line < 20000; ++line) {
        std::string text;
        std::vector<std::string> secrets;
        const int words = 2 + int(next() % 8);
        for (int w = 0; w < words; ++w) {
            if (next() % 4 == 0) {
                std::string secret = "S3cr";
                for (int k = 0; k < 12; ++k) {
                    secret.push_back("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789"[next() % 56]);
                }
                text += triggers[next() % std::size(triggers)];
                text += secret;
                secrets.push_back(secret);
            } else {
                text += ordinary[next() % std::size(ordinary)];
            }
            text += next() % 3 == 0 ? ", " : " ";
        }
        const std::string out = redactor.redact(text);
        for (const std::string &secret : secrets) {
            QVERIFY2(out.find(secret) == std::string::npos, (text + "  →  " + out).c_str());
        }
        if (secrets.empty()) {
            QCOMPARE(out, text);
        }
        std::string appended = "kept: ";
        redactor.redactInto(text, appended);
        QCOMPARE(appended, "kept: " + out); // appends, never replaces
    }
}

QTEST_GUILESS_MAIN(TestRedactor)
#include "tst_redactor.moc"
