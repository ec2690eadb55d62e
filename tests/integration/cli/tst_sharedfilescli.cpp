#include "tests/support/buildpaths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <vector>

/**
 * Many `flashdeck hosts` processes at once, as a shell loop with `&` starts them (issue 40: 16
 * parallel adds left 4 hosts; removes beside adds undid some adds). Each one's change is made to
 * hosts.json as it is then, under its lock: nothing is lost.
 */
class TestSharedFilesCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void parallelAdds_thenRemovesBesideAdds_loseNothing();
    void sameNameTwiceAtOnce_oneWins_otherIsToldWhy();
    void corruptInventory_addRefused_fileKeptAndCopied();

private:
    struct Run
    {
        QString args;
        int code = -1;
        QByteArray err;
    };
    /** Starts every command at once and waits for them all. */
    std::vector<Run> runTogether(const QList<QStringList> &commands);
    QStringList hostNames() const;
    QString inventoryFile() const { return m_config + QStringLiteral("/hosts.json"); }

    std::unique_ptr<QTemporaryDir> m_home;
    QString m_config;
};

void TestSharedFilesCli::init()
{
    m_home = std::make_unique<QTemporaryDir>();
    QVERIFY(m_home->isValid());
    m_config = m_home->path() + QStringLiteral("/config");
}

std::vector<TestSharedFilesCli::Run> TestSharedFilesCli::runTogether(const QList<QStringList> &commands)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), m_home->path()); // no real config
    std::vector<std::unique_ptr<QProcess>> processes;
    for (const QStringList &args : commands) {
        auto p = std::make_unique<QProcess>();
        p->setProcessEnvironment(env);
        p->start(flashdeck::test::flashdeckBinary(), QStringList{QStringLiteral("--config-dir"), m_config} + args);
        processes.push_back(std::move(p));
    }
    std::vector<Run> runs;
    for (qsizetype i = 0; i < commands.size(); ++i) {
        QProcess &p = *processes.at(size_t(i));
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
        }
        runs.push_back({commands.at(i).join(QLatin1Char(' ')),
                        p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardError()});
    }
    return runs;
}

QStringList TestSharedFilesCli::hostNames() const
{
    QFile f(inventoryFile());
    if (!f.open(QIODevice::ReadOnly)) {
        return {QStringLiteral("<no hosts.json>")};
    }
    QStringList names;
    for (const QJsonValue &h : QJsonDocument::fromJson(f.readAll()).object().value(QLatin1String("hosts")).toArray()) {
        names.append(h.toObject().value(QLatin1String("name")).toString());
    }
    names.sort();
    return names;
}

namespace {
QStringList addHost(const QString &name, int n)
{
    return {QStringLiteral("hosts"), QStringLiteral("add"), name, QStringLiteral("--ssh"),
            QStringLiteral("ops@10.40.0.%1").arg(n)};
}
} // namespace

void TestSharedFilesCli::parallelAdds_thenRemovesBesideAdds_loseNothing()
{
    QList<QStringList> adds;
    QStringList expected;
    for (int i = 0; i < 16; ++i) {
        expected.append(QStringLiteral("gpu%1").arg(i, 2, 10, QLatin1Char('0')));
        adds.append(addHost(expected.last(), i + 1));
    }
    for (const Run &r : runTogether(adds)) {
        QVERIFY2(r.code == 0, qPrintable(r.args + QStringLiteral(": ") + QString::fromUtf8(r.err)));
    }
    QCOMPARE(hostNames(), expected);

    // 8 removes beside 8 adds, all at once.
    QList<QStringList> mixed;
    for (int i = 0; i < 8; ++i) {
        mixed.append({QStringLiteral("hosts"), QStringLiteral("remove"), expected.at(i)});
        mixed.append(addHost(QStringLiteral("new%1").arg(i), 100 + i));
    }
    for (const Run &r : runTogether(mixed)) {
        QVERIFY2(r.code == 0, qPrintable(r.args + QStringLiteral(": ") + QString::fromUtf8(r.err)));
    }
    QStringList after = expected.mid(8);
    for (int i = 0; i < 8; ++i) {
        after.append(QStringLiteral("new%1").arg(i));
    }
    after.sort();
    QCOMPARE(hostNames(), after);
    QCOMPARE(int(QFile::permissions(inventoryFile())) & 0x7077, int(QFile::ReadOwner | QFile::WriteOwner));
}

void TestSharedFilesCli::sameNameTwiceAtOnce_oneWins_otherIsToldWhy()
{
    const std::vector<Run> runs = runTogether({addHost(QStringLiteral("gpu"), 1), addHost(QStringLiteral("gpu"), 2)});
    QList<int> codes{runs.at(0).code, runs.at(1).code};
    std::sort(codes.begin(), codes.end());
    QCOMPARE(codes, (QList<int>{0, 2})); // 2: usage, as adding a name the list shows already
    const Run &loser = runs.at(0).code == 2 ? runs.at(0) : runs.at(1);
    QVERIFY2(loser.err.contains("already in the inventory"), loser.err.constData());
    QCOMPARE(hostNames(), QStringList{QStringLiteral("gpu")});
}

void TestSharedFilesCli::corruptInventory_addRefused_fileKeptAndCopied()
{
    QVERIFY(QDir().mkpath(m_config));
    const QByteArray bad("{\"version\": 1, \"hosts\": [ {\"name\": \"gpu1\", ");
    {
        QFile f(inventoryFile());
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(bad), qint64(bad.size()));
    }
    const std::vector<Run> runs = runTogether({addHost(QStringLiteral("gpu2"), 2)});
    QCOMPARE(runs.at(0).code, 1); // the check failed: not the caller's usage
    const QString err = QString::fromUtf8(runs.at(0).err);
    QVERIFY2(err.contains(inventoryFile()) && err.contains(QLatin1String("not valid JSON")), qPrintable(err));
    QFile f(inventoryFile());
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), bad);
    const QStringList copies = QDir(m_config).entryList({QStringLiteral("hosts.json.corrupt-*")}, QDir::Files);
    QCOMPARE(copies.size(), 1);
    QVERIFY2(err.contains(m_config + QLatin1Char('/') + copies.first()), qPrintable(err));
}

QTEST_GUILESS_MAIN(TestSharedFilesCli)
#include "tst_sharedfilescli.moc"
