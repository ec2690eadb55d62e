#include "backend/core/singleinstance.h"

#include <QDir>
#include <QFile>
#include <QLocalServer>
#include <QSignalSpy>
#include <QTest>
#include <QUuid>

using flashdeck::SingleInstance;

/** One window per user and configuration (issue 10): primary, secondary, and a stale socket. */
class TestSingleInstance : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void secondStart_activatesTheFirst();
    void afterTheFirstEnds_theNextIsPrimary();
    void staleSocket_isReplaced();
    void keys_differPerConfiguration();
};

namespace {
QString uniqueKey()
{
    return QStringLiteral("flashdeck-test-") + QUuid::createUuid().toString(QUuid::Id128).left(12);
}
} // namespace

void TestSingleInstance::secondStart_activatesTheFirst()
{
    const QString key = uniqueKey();
    SingleInstance first(key);
    const auto a = first.claim();
    QVERIFY2(a.isOk(), qPrintable(a.message()));
    QCOMPARE(a.value(), SingleInstance::Role::Primary);
    QSignalSpy activated(&first, &SingleInstance::activationRequested);
    SingleInstance second(key);
    const auto b = second.claim();
    QVERIFY(b.isOk());
    QCOMPARE(b.value(), SingleInstance::Role::Secondary);
    QVERIFY(activated.wait(5000));
    QCOMPARE(activated.size(), 1);
}

void TestSingleInstance::afterTheFirstEnds_theNextIsPrimary()
{
    const QString key = uniqueKey();
    {
        SingleInstance first(key);
        QCOMPARE(first.claim().value(), SingleInstance::Role::Primary);
    }
    SingleInstance next(key);
    QCOMPARE(next.claim().value(), SingleInstance::Role::Primary);
}

void TestSingleInstance::staleSocket_isReplaced()
{
    // What a crashed instance leaves: the socket file, with nobody listening on it.
    const QString key = uniqueKey();
    const QString path = QDir::tempPath() + QLatin1Char('/') + key;
    QFile stale(path);
    QVERIFY(stale.open(QIODevice::WriteOnly));
    stale.close();
    SingleInstance instance(key);
    const auto role = instance.claim(500);
    QVERIFY2(role.isOk(), qPrintable(role.message()));
    QCOMPARE(role.value(), SingleInstance::Role::Primary);
    SingleInstance second(key);
    QCOMPARE(second.claim().value(), SingleInstance::Role::Secondary); // and it really listens
}

void TestSingleInstance::keys_differPerConfiguration()
{
    QVERIFY(SingleInstance::keyFor(QStringLiteral("/a")) != SingleInstance::keyFor(QStringLiteral("/b")));
    QCOMPARE(SingleInstance::keyFor(QStringLiteral("/a")), SingleInstance::keyFor(QStringLiteral("/a")));
    QVERIFY(SingleInstance::keyFor(QStringLiteral("/a")).size() < 40); // a short socket path
}

QTEST_GUILESS_MAIN(TestSingleInstance)
#include "tst_singleinstance.moc"
