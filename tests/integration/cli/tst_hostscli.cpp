#include "backend/ssh/cipherpreference.h"
#include "tests/support/buildpaths.h"
#include "tests/support/sshdfixture.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck::test;

/**
 * The `flashdeck hosts` contract, run as a real process against a real sshd: commands,
 * --json lines and every exit code (0 ok, 2 usage, 3 unknown key, 4 refused key, 5 auth,
 * 6 unreachable).
 */
class TestHostsCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void addListRemove();
    void check_unknownKey_exit3_thenAccept_exit0_json();
    void check_changedKey_exit4_knownHostsUnchanged();
    void check_authFailed_exit5();
    void check_unreachable_exit6();
    void check_negotiatesAStrongCipher_orRefuses_data();
    void check_negotiatesAStrongCipher_orRefuses();
    void usageErrors_exit2_data();
    void usageErrors_exit2();

private:
    struct Run
    {
        int code = -1;
        QByteArray out;
        QByteArray err;
    };
    Run flashdeck(const QStringList &args);
    void addHost(const QString &identity);
    QString knownHosts() const { return m_home->path() + QStringLiteral("/kh"); }

    std::unique_ptr<QTemporaryDir> m_home;
    std::unique_ptr<SshdFixture> m_sshd;
    QString m_config;
};

void TestHostsCli::init()
{
    m_home = std::make_unique<QTemporaryDir>();
    m_config = m_home->path() + QStringLiteral("/config");
    m_sshd = std::make_unique<SshdFixture>();
    QString error;
    if (!m_sshd->start(&error)) {
        QSKIP(qPrintable(error));
    }
}

void TestHostsCli::cleanup()
{
    m_sshd.reset();
}

TestHostsCli::Run TestHostsCli::flashdeck(const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), m_home->path()); // no real ~/.ssh, no real config
    env.remove(QStringLiteral("SSH_AUTH_SOCK"));
    p.setProcessEnvironment(env);
    p.start(flashdeck::test::flashdeckBinary(), QStringList{QStringLiteral("--config-dir"), m_config} + args);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();
    }
    Run run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
    if (run.code < 0) {
        qWarning().noquote() << "flashdeck crashed:" << run.err; // sanitizer reports land here
    }
    return run;
}

void TestHostsCli::addHost(const QString &identity)
{
    const Run r =
        flashdeck({QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("lab"), QStringLiteral("--ssh"),
                   QStringLiteral("%1@127.0.0.1:%2").arg(SshdFixture::currentUser()).arg(m_sshd->port()),
                   QStringLiteral("--identity"), identity, QStringLiteral("--known-hosts"), knownHosts()});
    QCOMPARE(r.code, 0);
}

void TestHostsCli::addListRemove()
{
    addHost(QStringLiteral("/nonexistent/key"));
    Run r = flashdeck({QStringLiteral("hosts"), QStringLiteral("list"), QStringLiteral("--json")});
    QCOMPARE(r.code, 0);
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 1);
    const QJsonObject o = QJsonDocument::fromJson(lines.first()).object();
    QCOMPARE(o.value(QStringLiteral("name")).toString(), QStringLiteral("lab"));
    QCOMPARE(o.value(QStringLiteral("port")).toInt(), int(m_sshd->port()));
    QCOMPARE(o.value(QStringLiteral("known_hosts_file")).toString(), knownHosts());
    r = flashdeck({QStringLiteral("hosts"), QStringLiteral("list")});
    QVERIFY(r.out.contains("lab"));
    QCOMPARE(flashdeck({QStringLiteral("hosts"), QStringLiteral("remove"), QStringLiteral("lab")}).code, 0);
    QCOMPARE(flashdeck({QStringLiteral("hosts"), QStringLiteral("remove"), QStringLiteral("lab")}).code, 1);
    QVERIFY(flashdeck({QStringLiteral("hosts"), QStringLiteral("list"), QStringLiteral("--json")}).out.isEmpty());
}

void TestHostsCli::check_unknownKey_exit3_thenAccept_exit0_json()
{
    addHost(m_sshd->addClientKey(QStringLiteral("id_cli")));
    Run r =
        flashdeck({QStringLiteral("hosts"), QStringLiteral("check"), QStringLiteral("lab"), QStringLiteral("--json")});
    QCOMPARE(r.code, 3);
    QJsonObject o = QJsonDocument::fromJson(r.out.trimmed()).object();
    QCOMPARE(o.value(QStringLiteral("host_key")).toString(), QStringLiteral("rejected"));
    QCOMPARE(o.value(QStringLiteral("fingerprint")).toString(), m_sshd->hostKeyFingerprint());
    QCOMPARE(o.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
             QStringLiteral("host-key-unknown"));
    QVERIFY(!QFile::exists(knownHosts()));

    r = flashdeck({QStringLiteral("hosts"), QStringLiteral("check"), QStringLiteral("lab"),
                   QStringLiteral("--accept-new-host-key"), QStringLiteral("--json")});
    QCOMPARE(r.code, 0);
    o = QJsonDocument::fromJson(r.out.trimmed()).object();
    QCOMPARE(o.value(QStringLiteral("ok")).toBool(), true);
    QCOMPARE(o.value(QStringLiteral("host_key")).toString(), QStringLiteral("accepted"));
    QCOMPARE(o.value(QStringLiteral("key_type")).toString(), QStringLiteral("ssh-ed25519"));
    QVERIFY(o.value(QStringLiteral("uname")).toString().startsWith(QStringLiteral("Linux")));

    r = flashdeck({QStringLiteral("hosts"), QStringLiteral("check"), QStringLiteral("lab")});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("(trusted)"), r.out.constData());
    QVERIFY(r.out.contains("uname -a: Linux"));
}

void TestHostsCli::check_negotiatesAStrongCipher_orRefuses_data()
{
    QTest::addColumn<QString>("serverCiphers"); // sshd_config Ciphers; empty: OpenSSH's defaults
    QTest::addColumn<QString>("negotiated"); // empty: the connection is refused
    // OpenSSH's own order puts chacha20 first; ours wins (the client's order decides, RFC 4253
    // §7.1): AES-GCM where this CPU has AES instructions.
    QTest::newRow("OpenSSH defaults") << QString()
                                      << QString::fromLatin1(
                                             flashdeck::ssh::CipherPreference::forThisMachine().split(',').first());
    QTest::newRow("chacha20 only") << QStringLiteral("chacha20-poly1305@openssh.com")
                                   << QStringLiteral("chacha20-poly1305@openssh.com");
    QTest::newRow("an old server: CTR") << QStringLiteral("aes256-ctr") << QStringLiteral("aes256-ctr");
    QTest::newRow("CBC only: refused") << QStringLiteral("aes128-cbc,3des-cbc") << QString();
}

void TestHostsCli::check_negotiatesAStrongCipher_orRefuses()
{
    QFETCH(QString, serverCiphers);
    QFETCH(QString, negotiated);
    if (!serverCiphers.isEmpty()) {
        SshdFixture::Options options;
        options.extraConfig = {QStringLiteral("Ciphers ") + serverCiphers};
        m_sshd = std::make_unique<SshdFixture>(options);
        QString error;
        QVERIFY2(m_sshd->start(&error), qPrintable(error));
    }
    addHost(m_sshd->addClientKey(QStringLiteral("id_cli")));
    const Run r = flashdeck({QStringLiteral("hosts"), QStringLiteral("check"), QStringLiteral("lab"),
                             QStringLiteral("--accept-new-host-key"), QStringLiteral("--json")});
    const QJsonObject o = QJsonDocument::fromJson(r.out.trimmed()).object();
    if (negotiated.isEmpty()) {
        QVERIFY2(r.code != 0, r.out.constData());
        QVERIFY(!o.contains(QStringLiteral("cipher")));
        // libssh's own words: which methods each side offered.
        const QString message = o.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString();
        QVERIFY2(message.contains(QLatin1String("offers no cipher Flashdeck uses")) &&
                     message.contains(QLatin1String("aes128-cbc")) && message.contains(QLatin1String("sshd_config")),
                 qPrintable(message));
        return;
    }
    QVERIFY2(r.code == 0, r.out.constData());
    QCOMPARE(o.value(QStringLiteral("cipher")).toString(), negotiated);
    QVERIFY(!o.value(QStringLiteral("kex")).toString().isEmpty());
    const Run human = flashdeck({QStringLiteral("hosts"), QStringLiteral("check"), QStringLiteral("lab")});
    QVERIFY2(human.out.contains(QByteArray(QByteArray("Cipher: ") + negotiated.toUtf8())), human.out.constData());
}

void TestHostsCli::check_changedKey_exit4_knownHostsUnchanged()
{
    addHost(m_sshd->addClientKey(QStringLiteral("id_cli")));
    QCOMPARE(flashdeck({QStringLiteral("hosts"), QStringLiteral("check"), QStringLiteral("lab"),
                        QStringLiteral("--accept-new-host-key")})
                 .code,
             0);
    QFile kh(knownHosts());
    QVERIFY(kh.open(QIODevice::ReadOnly));
    const QByteArray before = kh.readAll();
    kh.close();
    QVERIFY(m_sshd->replaceHostKey(QStringLiteral("ed25519")));
    QString error;
    QVERIFY2(m_sshd->restart(&error), qPrintable(error));
    // --accept-new-host-key never accepts a changed key.
    const Run r = flashdeck({QStringLiteral("hosts"), QStringLiteral("check"), QStringLiteral("lab"),
                             QStringLiteral("--accept-new-host-key")});
    QVERIFY2(r.code == 4, r.err.constData());
    QVERIFY2(r.err.contains("has changed"), r.err.constData());
    QVERIFY(r.err.contains("ssh-keygen -f"));
    QVERIFY(kh.open(QIODevice::ReadOnly));
    QCOMPARE(kh.readAll(), before);
}

void TestHostsCli::check_authFailed_exit5()
{
    const QString key = m_sshd->addClientKey(QStringLiteral("id_cli"));
    QFile::resize(m_sshd->dir() + QStringLiteral("/authorized_keys"), 0);
    addHost(key);
    const Run r = flashdeck({QStringLiteral("hosts"), QStringLiteral("check"), QStringLiteral("lab"),
                             QStringLiteral("--accept-new-host-key"), QStringLiteral("--json")});
    QCOMPARE(r.code, 5);
    const QJsonObject o = QJsonDocument::fromJson(r.out.trimmed()).object();
    QCOMPARE(o.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
             QStringLiteral("auth-denied"));
}

void TestHostsCli::check_unreachable_exit6()
{
    addHost(m_sshd->addClientKey(QStringLiteral("id_cli")));
    m_sshd->stop();
    const Run r = flashdeck({QStringLiteral("hosts"), QStringLiteral("check"), QStringLiteral("lab")});
    QCOMPARE(r.code, 6);
    QVERIFY2(r.err.contains("Cannot reach"), r.err.constData());
}

void TestHostsCli::usageErrors_exit2_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("no verb") << QStringList{QStringLiteral("hosts")};
    QTest::newRow("unknown verb") << QStringList{QStringLiteral("hosts"), QStringLiteral("frob")};
    QTest::newRow("add without --ssh") << QStringList{QStringLiteral("hosts"), QStringLiteral("add"),
                                                      QStringLiteral("x")};
    QTest::newRow("add bad spec") << QStringList{QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("x"),
                                                 QStringLiteral("--ssh"), QStringLiteral("h:99999")};
    QTest::newRow("check unknown host") << QStringList{QStringLiteral("hosts"), QStringLiteral("check"),
                                                       QStringLiteral("nope")};
    QTest::newRow("unknown option") << QStringList{QStringLiteral("hosts"), QStringLiteral("list"),
                                                   QStringLiteral("--x")};
}

void TestHostsCli::usageErrors_exit2()
{
    QFETCH(QStringList, args);
    const Run r = flashdeck(args);
    QCOMPARE(r.code, 2);
    QVERIFY(!r.err.isEmpty());
}

QTEST_GUILESS_MAIN(TestHostsCli)
#include "tst_hostscli.moc"
