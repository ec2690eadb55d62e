#include "backend/ssh/keyfile.h"
#include "backend/ssh/sshconfig.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck::ssh;

/** ~/.ssh/config import and identity discovery; key-file encryption detection. */
class TestSshConfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aliases_skipWildcardsAndNegations();
    void resolve_firstValueWins_identitiesAccumulate();
    void resolve_includeAndMatch();
    void patternMatches_data();
    void patternMatches();
    void keyEncryption_detectedForEveryFormat_data();
    void keyEncryption_detectedForEveryFormat();
};

static const QByteArray kConfig = R"(# fleet
Host b300-a b300-b
    HostName %h.gpu.internal
    User ops
    Port 2222
    IdentityFile ~/.ssh/fleet_ed25519

Host b300-*
    User ignored-because-first-wins
    IdentityFile ~/.ssh/fallback

Host *.example !bastion.example
    ProxyJump bastion.example

Match host mi355x
    User matched

Host mi355x
    HostName=10.0.0.5
    IdentityFile "/keys/with space"

Host *
    IdentityFile ~/.ssh/id_default
)";

void TestSshConfig::aliases_skipWildcardsAndNegations()
{
    const SshConfig c = SshConfig::parse(kConfig, QStringLiteral("/nowhere"));
    QCOMPARE(c.aliases(), (QStringList{QStringLiteral("b300-a"), QStringLiteral("b300-b"), QStringLiteral("mi355x")}));
}

void TestSshConfig::resolve_firstValueWins_identitiesAccumulate()
{
    const SshConfig c = SshConfig::parse(kConfig, QStringLiteral("/nowhere"));
    const SshConfigHost h = c.resolve(QStringLiteral("b300-a"));
    QCOMPARE(h.hostName, QStringLiteral("b300-a.gpu.internal"));
    QCOMPARE(h.user, QStringLiteral("ops"));
    QCOMPARE(h.port, quint16(2222));
    QCOMPARE(h.identityFiles,
             (QStringList{QDir::homePath() + QStringLiteral("/.ssh/fleet_ed25519"),
                          QDir::homePath() + QStringLiteral("/.ssh/fallback"),
                          QDir::homePath() + QStringLiteral("/.ssh/id_default")}));
    const SshConfigHost m = c.resolve(QStringLiteral("mi355x"));
    QCOMPARE(m.hostName, QStringLiteral("10.0.0.5"));
    QVERIFY(m.user.isEmpty()); // Match blocks are not evaluated
    QCOMPARE(m.identityFiles.first(), QStringLiteral("/keys/with space"));
    QCOMPARE(c.resolve(QStringLiteral("x.example")).proxyJump, QStringLiteral("bastion.example"));
    QVERIFY(c.resolve(QStringLiteral("bastion.example")).proxyJump.isEmpty());
}

void TestSshConfig::resolve_includeAndMatch()
{
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("conf.d")));
    QFile inc(dir.path() + QStringLiteral("/conf.d/10-lab.conf"));
    QVERIFY(inc.open(QIODevice::WriteOnly));
    inc.write("Host lab\n  HostName 127.0.0.1\n  Port 2200\n");
    inc.close();
    QFile main(dir.path() + QStringLiteral("/config"));
    QVERIFY(main.open(QIODevice::WriteOnly));
    main.write("Include conf.d/*.conf\nHost other\n  User x\n");
    main.close();
    const SshConfig c = SshConfig::load(main.fileName());
    QVERIFY(c.aliases().contains(QStringLiteral("lab")));
    QCOMPARE(c.resolve(QStringLiteral("lab")).port, quint16(2200));
    QVERIFY(SshConfig::load(dir.path() + QStringLiteral("/missing")).aliases().isEmpty());
}

void TestSshConfig::patternMatches_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("matches");
    QTest::newRow("exact") << QStringLiteral("b300-a") << QStringLiteral("b300-a") << true;
    QTest::newRow("case-insensitive") << QStringLiteral("B300-A") << QStringLiteral("b300-a") << true;
    QTest::newRow("star") << QStringLiteral("b300-*") << QStringLiteral("b300-zz") << true;
    QTest::newRow("question") << QStringLiteral("node?") << QStringLiteral("node7") << true;
    QTest::newRow("question too short") << QStringLiteral("node?") << QStringLiteral("node") << false;
    QTest::newRow("dot is literal") << QStringLiteral("a.b") << QStringLiteral("axb") << false;
}

void TestSshConfig::patternMatches()
{
    QFETCH(QString, pattern);
    QFETCH(QString, host);
    QFETCH(bool, matches);
    QCOMPARE(SshConfig::patternMatches(pattern, host), matches);
}

void TestSshConfig::keyEncryption_detectedForEveryFormat_data()
{
    QTest::addColumn<QStringList>("keygenArgs");
    QTest::addColumn<bool>("encrypted");
    QTest::newRow("openssh ed25519 plain") << QStringList{QStringLiteral("-t"), QStringLiteral("ed25519")} << false;
    QTest::newRow("openssh ed25519 encrypted") << QStringList{QStringLiteral("-t"), QStringLiteral("ed25519"),
                                                              QStringLiteral("-N"), QStringLiteral("passw0rd-long")}
                                               << true;
    QTest::newRow("pem rsa encrypted") << QStringList{QStringLiteral("-t"), QStringLiteral("rsa"),
                                                      QStringLiteral("-b"), QStringLiteral("2048"),
                                                      QStringLiteral("-m"), QStringLiteral("PEM"),
                                                      QStringLiteral("-N"), QStringLiteral("passw0rd-long")}
                                       << true;
    QTest::newRow("pem ecdsa plain") << QStringList{QStringLiteral("-t"), QStringLiteral("ecdsa"), QStringLiteral("-m"),
                                                    QStringLiteral("PEM")}
                                     << false;
    QTest::newRow("pkcs8 ecdsa encrypted")
        << QStringList{QStringLiteral("-t"),    QStringLiteral("ecdsa"), QStringLiteral("-m"),
                       QStringLiteral("PKCS8"), QStringLiteral("-N"),    QStringLiteral("passw0rd-long")}
        << true;
}

void TestSshConfig::keyEncryption_detectedForEveryFormat()
{
    QFETCH(QStringList, keygenArgs);
    QFETCH(bool, encrypted);
    QTemporaryDir dir;
    const QString key = dir.path() + QStringLiteral("/k");
    QStringList args = keygenArgs;
    if (!args.contains(QStringLiteral("-N"))) {
        args << QStringLiteral("-N") << QString();
    }
    args << QStringLiteral("-q") << QStringLiteral("-f") << key;
    QProcess keygen;
    keygen.start(QStringLiteral("ssh-keygen"), args);
    QVERIFY(keygen.waitForFinished(30000));
    QCOMPARE(keygen.exitCode(), 0);
    QFile f(key);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(keyfile::isEncrypted(f.readAll()), encrypted);
}

QTEST_GUILESS_MAIN(TestSshConfig)
#include "tst_sshconfig.moc"
