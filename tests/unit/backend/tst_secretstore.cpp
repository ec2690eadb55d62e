#include "backend/security/secretstore.h"

#include <QDirIterator>
#include <QEventLoop>
#include <QFile>
#include <QStandardPaths>
#include <QTest>

#include <functional>
#include <optional>

using namespace flashdeck;

namespace {

const QString kService = QStringLiteral("Flashdeck test");

/** Runs an asynchronous store call to completion (the keyring answers over D-Bus). */
Status awaitStatus(const std::function<void(security::SecretStore::StatusDone)> &call)
{
    std::optional<Status> out;
    call([&out](const Status &s) { out = s; });
    if (!QTest::qWaitFor([&out] { return out.has_value(); }, 30000)) {
        return Status::failure(QStringLiteral("the keyring did not answer in 30 s"));
    }
    return *out;
}

Result<QString> awaitRead(const std::function<void(security::SecretStore::ReadDone)> &call)
{
    std::optional<Result<QString>> out;
    call([&out](const Result<QString> &r) { out = r; });
    if (!QTest::qWaitFor([&out] { return out.has_value(); }, 30000)) {
        return Status::failure(QStringLiteral("the keyring did not answer in 30 s"));
    }
    return *out;
}

} // namespace

/**
 * The secret store against a real Secret Service (GNOME keyring in a private D-Bus session,
 * tests/support/with-keyring) and without any session bus, as on a headless server.
 */
class TestSecretStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void keyring_roundTripAcrossInstances_andNeverPlaintextOnDisk();
    void noSessionBus_saysSoAtOnce_andKeepsSecretsInMemoryOnly();
};

void TestSecretStore::keyring_roundTripAcrossInstances_andNeverPlaintextOnDisk()
{
    QVERIFY2(!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"),
             "run this test through tests/support/with-keyring (ctest does)");
    const QString key = security::SecretStore::apiKeyKey(QStringLiteral("gpu1-b300x4-balanced"));
    const QString secret = QStringLiteral("sk-fd-keyring-test-0123456789abcdefghijklmnopqrstuvwxyz");
    {
        security::SecretStore store(kService);
        QVERIFY(store.keyringAvailable());
        QVERIFY(store.memoryOnlyReason().isEmpty());
        const Status written =
            awaitStatus([&](security::SecretStore::StatusDone d) { store.write(key, secret, std::move(d)); });
        QVERIFY2(written.isOk(), qPrintable(written.message()));
    }
    {
        security::SecretStore again(kService); // a new run: nothing in memory, the keyring answers
        const Result<QString> read =
            awaitRead([&](security::SecretStore::ReadDone d) { again.read(key, std::move(d)); });
        QVERIFY2(read.isOk(), qPrintable(read.message()));
        QCOMPARE(read.value(), secret);
        const Result<QString> none = awaitRead([&](security::SecretStore::ReadDone d) {
            again.read(security::SecretStore::apiKeyKey(QStringLiteral("never-stored")), std::move(d));
        });
        QVERIFY(none.isOk());
        QVERIFY(none.value().isEmpty());
    }
    // The keyring encrypts what it keeps: the secret is nowhere on disk in plain text.
    const QString home = qEnvironmentVariable("FLASHDECK_KEYRING_HOME");
    QVERIFY(!home.isEmpty());
    int files = 0;
    for (QDirIterator it(home, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();) {
        QFile f(it.next());
        if (f.open(QIODevice::ReadOnly)) {
            ++files;
            QVERIFY2(!f.readAll().contains(secret.toUtf8()), qPrintable(f.fileName()));
        }
    }
    QVERIFY(files > 0); // the keyring file exists
    {
        security::SecretStore store(kService);
        QVERIFY(awaitStatus([&](security::SecretStore::StatusDone d) { store.remove(key, std::move(d)); }).isOk());
        security::SecretStore after(kService);
        const Result<QString> gone =
            awaitRead([&](security::SecretStore::ReadDone d) { after.read(key, std::move(d)); });
        QVERIFY(gone.isOk());
        QVERIFY(gone.value().isEmpty());
    }
}

void TestSecretStore::noSessionBus_saysSoAtOnce_andKeepsSecretsInMemoryOnly()
{
    const QByteArray bus = qgetenv("DBUS_SESSION_BUS_ADDRESS");
    qunsetenv("DBUS_SESSION_BUS_ADDRESS");
    security::SecretStore store(kService);
    qputenv("DBUS_SESSION_BUS_ADDRESS", bus);
    QVERIFY(!store.keyringAvailable());
    QVERIFY(store.memoryOnlyReason().contains(QLatin1String("no D-Bus session")));
    QVERIFY(store.memoryOnlyReason().contains(QLatin1String("never written to disk")));
    const QString key = security::SecretStore::apiKeyKey(QStringLiteral("h"));
    QVERIFY(awaitStatus([&](security::SecretStore::StatusDone d) {
                store.write(key, QStringLiteral("in-memory-secret"), std::move(d));
            }).isOk());
    QCOMPARE(awaitRead([&](security::SecretStore::ReadDone d) { store.read(key, std::move(d)); }).value(),
             QStringLiteral("in-memory-secret"));
    security::SecretStore other(kService); // another run (with the bus back): it never saw that secret
    QVERIFY(awaitRead([&](security::SecretStore::ReadDone d) { other.read(key, std::move(d)); }).value().isEmpty());
}

QTEST_GUILESS_MAIN(TestSecretStore)
#include "tst_secretstore.moc"
