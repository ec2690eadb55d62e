#include "backend/core/shellquote.h"

#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTest>

#include <cctype>

using namespace flashdeck;

/** POSIX quoting, attacked with hostile strings and checked against real local shells. */
class TestShellQuote : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void quote_data();
    void quote();
    void roundTrip_throughRealShells_data();
    void roundTrip_throughRealShells();
    void randomBytes_roundTrip();
    void join_quotesEachArgument();
    void nul_isNotQuotable();
    void loginShellSafe_meansTheSameToEveryShell_data();
    void loginShellSafe_meansTheSameToEveryShell();

private:
    static QByteArray runSh(const QString &shell, const QByteArray &script);
};

void TestShellQuote::quote_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("bare word") << QByteArray("nvidia-smi") << QByteArray("nvidia-smi");
    QTest::newRow("path and flags") << QByteArray("--format=csv,noheader") << QByteArray("--format=csv,noheader");
    QTest::newRow("image@digest") << QByteArray("lmsysorg/sglang@sha256:5e5e")
                                  << QByteArray("lmsysorg/sglang@sha256:5e5e");
    QTest::newRow("empty") << QByteArray() << QByteArray("''");
    QTest::newRow("space") << QByteArray("a b") << QByteArray("'a b'");
    QTest::newRow("single quote") << QByteArray("it's") << QByteArray("'it'\\''s'");
    QTest::newRow("dollar") << QByteArray("$HOME") << QByteArray("'$HOME'");
    QTest::newRow("leading equals (zsh)") << QByteArray("=cmd") << QByteArray("'=cmd'");
    QTest::newRow("tilde") << QByteArray("~root") << QByteArray("'~root'");
    QTest::newRow("glob") << QByteArray("*.json") << QByteArray("'*.json'");
}

void TestShellQuote::quote()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, expected);
    QCOMPARE(shellQuote(input), expected);
}

QByteArray TestShellQuote::runSh(const QString &shell, const QByteArray &script)
{
    // The script goes in on stdin, byte for byte (arguments would pass through the locale).
    QProcess p;
    p.start(shell, {QStringLiteral("-s")});
    p.write(script + '\n');
    p.closeWriteChannel();
    p.waitForFinished(10000);
    return p.readAllStandardOutput();
}

void TestShellQuote::roundTrip_throughRealShells_data()
{
    QTest::addColumn<QString>("shell");
    QTest::addColumn<QByteArray>("argument");
    const QList<QByteArray> hostile{
        QByteArray("it's \"quoted\""),
        QByteArray("$(id) `id` ${HOME}"),
        QByteArray("a\nb\n"),
        QByteArray("; rm -rf / #"),
        QByteArray("* ? [x] ~ !"),
        QByteArray("\\\\n \\t"),
        QByteArray("'"),
        QByteArray("''''"),
        QByteArray("\xff\xfe\x80"),
        QByteArray("-e"),
        QByteArray("=ls"),
        QByteArray("\x01\x1b[0m"),
        QByteArray("✓ 模型 über"),
    };
    for (const QString &shell : {QStringLiteral("/bin/sh"), QStringLiteral("/bin/bash")}) {
        for (const QByteArray &a : hostile) {
            QTest::addRow("%s %s", qPrintable(shell), a.toHex().left(24).constData()) << shell << a;
        }
    }
}

void TestShellQuote::roundTrip_throughRealShells()
{
    QFETCH(QString, shell);
    QFETCH(QByteArray, argument);
    QCOMPARE(runSh(shell, "printf %s " + shellQuote(argument)), argument);
}

void TestShellQuote::randomBytes_roundTrip()
{
    QRandomGenerator rng(20261130); // fixed seed: reproducible
    for (int i = 0; i < 200; ++i) {
        QByteArray a;
        const int len = int(rng.bounded(40));
        for (int k = 0; k < len; ++k) {
            a.append(char(1 + rng.bounded(255))); // anything but NUL
        }
        QCOMPARE(runSh(QStringLiteral("/bin/sh"), "printf %s " + shellQuote(a)), a);
    }
}

void TestShellQuote::join_quotesEachArgument()
{
    QCOMPARE(shellJoin(QStringList{QStringLiteral("docker"), QStringLiteral("logs"), QStringLiteral("a b")}),
             QByteArray("docker logs 'a b'"));
    QCOMPARE(runSh(QStringLiteral("/bin/sh"), "set -- " + shellJoin(QList<QByteArray>{"x y", "", "'"}) + "; echo $#"),
             QByteArray("3\n"));
}

void TestShellQuote::nul_isNotQuotable()
{
    QVERIFY(isQuotable("abc"));
    QVERIFY(!isQuotable(QByteArray("a\0b", 3)));
}

void TestShellQuote::loginShellSafe_meansTheSameToEveryShell_data()
{
    QTest::addColumn<QString>("shell");
    // sshd runs `$SHELL -c <what we send>`: the login shells operators really have.
    for (const char *shell : {"/bin/sh", "/bin/bash", "/bin/dash", "/usr/bin/zsh", "/usr/bin/fish", "/bin/tcsh"}) {
        QTest::newRow(shell) << QString::fromLatin1(shell);
    }
}

void TestShellQuote::loginShellSafe_meansTheSameToEveryShell()
{
    QFETCH(QString, shell);
    QVERIFY2(QFile::exists(shell), qPrintable(shell + QStringLiteral(" is missing: scripts/bootstrap installs it")));
    const QByteArray command = "printf '%s|' " +
        shellJoin(QList<QByteArray>{"it's \"quoted\"", "$(id) `id` ${HOME}", "a\\b", "!x", "'", "-e", "✓"}) +
        "; echo \"$(( 6 * 7 ))\" ok; test \"$$\" -gt 1 && exit 3";
    const QByteArray wrapped = loginShellSafe(command);
    // Everything after the fixed decoder is letters, digits and + / = : nothing a shell reads.
    const QByteArray payload = wrapped.mid(wrapped.lastIndexOf(' ') + 1);
    for (const char c : payload) {
        QVERIFY(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/' || c == '=');
    }
    QProcess p;
    p.start(shell, {QStringLiteral("-c"), QString::fromLatin1(wrapped)});
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitCode(), 3);
    QCOMPARE(p.readAllStandardOutput(), QByteArray("it's \"quoted\"|$(id) `id` ${HOME}|a\\b|!x|'|-e|✓|42 ok\n"));
}

QTEST_GUILESS_MAIN(TestShellQuote)
#include "tst_shellquote.moc"
