#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QMetaMethod>
#include <QStringList>
#include <QTest>

namespace flashdeck::test {

/**
 * The test functions of `test` that shard `shard` of `count` runs: every test function (not
 * initTestCase, cleanupTestCase, init, cleanup or a _data table), dealt out round-robin in
 * declaration order, so each function runs in exactly one shard and a new one is never left out.
 */
inline QStringList shardFunctions(const QObject &test, int shard, int count)
{
    static const QList<QByteArray> fixtures{"initTestCase", "cleanupTestCase", "init", "cleanup", "initTestCase_data"};
    QStringList names;
    const QMetaObject *meta = test.metaObject();
    int index = 0;
    for (int i = meta->methodOffset(); i < meta->methodCount(); ++i) {
        const QMetaMethod m = meta->method(i);
        if (m.methodType() != QMetaMethod::Slot || m.access() != QMetaMethod::Private || m.parameterCount() != 0 ||
            fixtures.contains(m.name()) || m.name().endsWith("_data")) {
            continue;
        }
        if (index++ % count == shard) {
            names.append(QString::fromLatin1(m.name()));
        }
    }
    return names;
}

/**
 * Runs the whole test, or with FLASHDECK_TEST_SHARD=k/n in the environment (ctest sets it: one
 * long end-to-end executable registered as n tests that run in parallel) only shard k's functions.
 * Function names on the command line win over the shard.
 */
inline int execSharded(QObject &test, int argc, char **argv)
{
    QStringList args;
    for (int i = 0; i < argc; ++i) {
        args.append(QString::fromLocal8Bit(argv[i]));
    }
    const QByteArray spec = qgetenv("FLASHDECK_TEST_SHARD");
    // A function named on the command line; the values of QTest's options (-o FILE,FORMAT,
    // -maxwarnings N, …) are not names (an -o once ran every function in every shard).
    static const QStringList withValue{QStringLiteral("-o"),
                                       QStringLiteral("-maxwarnings"),
                                       QStringLiteral("-eventdelay"),
                                       QStringLiteral("-keydelay"),
                                       QStringLiteral("-mousedelay"),
                                       QStringLiteral("-seed"),
                                       QStringLiteral("-iterations"),
                                       QStringLiteral("-median"),
                                       QStringLiteral("-minimumvalue"),
                                       QStringLiteral("-minimumtotal"),
                                       QStringLiteral("-platform")};
    bool named = false;
    for (qsizetype i = 1; i < args.size(); ++i) {
        if (withValue.contains(args.at(i))) {
            ++i;
        } else if (!args.at(i).startsWith(QLatin1Char('-'))) {
            named = true;
        }
    }
    if (!spec.isEmpty() && !named) {
        const QList<QByteArray> parts = spec.split('/');
        const int shard = parts.value(0).toInt();
        const int count = parts.value(1).toInt();
        if (count <= 0 || shard < 0 || shard >= count) {
            qFatal("FLASHDECK_TEST_SHARD=%s: expected k/n with 0 <= k < n", spec.constData());
        }
        args += shardFunctions(test, shard, count);
    }
    return QTest::qExec(&test, args);
}

} // namespace flashdeck::test

/** QTEST_GUILESS_MAIN, sharded by FLASHDECK_TEST_SHARD (see execSharded). */
#define FLASHDECK_TEST_SHARDED_MAIN(TestObject)                                                                        \
    int main(int argc, char *argv[])                                                                                   \
    {                                                                                                                  \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                                             \
        QTEST_QAPP_SETUP(QCoreApplication)                                                                             \
        TestObject tc;                                                                                                 \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                     \
        return flashdeck::test::execSharded(tc, argc, argv);                                                           \
    }
