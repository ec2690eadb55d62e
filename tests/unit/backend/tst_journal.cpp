#include "backend/deploy/journal.h"
#include "backend/security/redactor.h"
#include "tests/support/tmpfsmount.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace flashdeck;

/** The deployment journal: append-only JSON lines, redacted, robust to a torn last line. */
class TestJournal : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void appendThenRead_roundTrips();
    void secrets_neverReachTheFile();
    void tornLastLine_isSkippedWithANote();
    void damagedMiddle_isAnError();
    void tornLastLine_isRepairedByTheNextAppend();
    void fullDisk_failsClearly_journalStaysWhole_thenResumes();
    void unwritable_saysWhereAndWhat();

private:
    static recipe::StepRecord record(const QString &step, recipe::StepStatus status, const QString &seen = {});
    QTemporaryDir m_dir;
    security::Redactor m_redactor;
};

recipe::StepRecord TestJournal::record(const QString &step, recipe::StepStatus status, const QString &seen)
{
    recipe::StepRecord r;
    r.step = step;
    r.status = status;
    r.title = QStringLiteral("Title of ") + step;
    r.seen = seen;
    r.at = QDateTime::currentDateTimeUtc();
    return r;
}

void TestJournal::appendThenRead_roundTrips()
{
    deploy::Journal j(m_dir.filePath(QStringLiteral("a/journal.jsonl")), m_redactor);
    QVERIFY(j.append(record(QStringLiteral("preflight.driver"), recipe::StepStatus::Running)));
    QVERIFY(
        j.append(record(QStringLiteral("preflight.driver"), recipe::StepStatus::Fail, QStringLiteral("CUDA 13.0"))));
    QVERIFY(j.append(record(QStringLiteral("preflight.disk"), recipe::StepStatus::Pass)));
    const auto all = j.read();
    QVERIFY(all);
    QCOMPARE(all.value().size(), 3);
    QCOMPARE(all.value().at(1).seen, QStringLiteral("CUDA 13.0"));
    const auto latest = j.latest();
    QVERIFY(latest);
    QCOMPARE(latest.value().size(), 2);
    QCOMPARE(latest.value().first().status, recipe::StepStatus::Fail);
    QCOMPARE(QFile(j.path()).permissions() & (QFile::ReadOther | QFile::ReadGroup), QFile::Permissions());
}

void TestJournal::secrets_neverReachTheFile()
{
    const QString key = QStringLiteral("sk-fd-ThisIsTheSecretKeyOfTheDeployment0123456789");
    QVERIFY(m_redactor.addSecret(key));
    deploy::Journal j(m_dir.filePath(QStringLiteral("b/journal.jsonl")), m_redactor);
    recipe::StepRecord r = record(QStringLiteral("launch"), recipe::StepStatus::Pass);
    r.command = QStringLiteral("docker run … --api-key ") + key;
    QVERIFY(j.append(r));
    QFile f(j.path());
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(!text.contains(key.toUtf8()));
    QVERIFY(text.contains("--api-key"));
    m_redactor.removeSecret(key);
}

void TestJournal::tornLastLine_isSkippedWithANote()
{
    deploy::Journal j(m_dir.filePath(QStringLiteral("c/journal.jsonl")), m_redactor);
    QVERIFY(j.append(record(QStringLiteral("pull"), recipe::StepStatus::Running)));
    QFile f(j.path());
    QVERIFY(f.open(QIODevice::Append));
    f.write(R"({"step":"pull","status":"pa)");
    f.close();
    QString warning;
    const auto all = j.read(&warning);
    QVERIFY(all);
    QCOMPARE(all.value().size(), 1);
    QVERIFY(warning.contains(QLatin1String("cut short")));
}

void TestJournal::damagedMiddle_isAnError()
{
    deploy::Journal j(m_dir.filePath(QStringLiteral("d/journal.jsonl")), m_redactor);
    QVERIFY(j.append(record(QStringLiteral("a"), recipe::StepStatus::Pass)));
    QFile f(j.path());
    QVERIFY(f.open(QIODevice::Append));
    f.write("garbage\n");
    f.close();
    QVERIFY(j.append(record(QStringLiteral("b"), recipe::StepStatus::Pass)));
    const auto all = j.read();
    QVERIFY(!all);
    QVERIFY(all.message().contains(QLatin1String("line 2")));
}

void TestJournal::tornLastLine_isRepairedByTheNextAppend()
{
    // Flashdeck SIGKILLed mid-write, then run again with --resume: the next record must not be
    // glued to the torn one (the journal would read as damaged in the middle).
    deploy::Journal j(m_dir.filePath(QStringLiteral("e/journal.jsonl")), m_redactor);
    QVERIFY(j.append(record(QStringLiteral("pull"), recipe::StepStatus::Running)));
    QFile f(j.path());
    QVERIFY(f.open(QIODevice::Append));
    f.write(R"({"step":"pull","status":"pa)");
    f.close();
    QVERIFY(j.append(record(QStringLiteral("pull"), recipe::StepStatus::Pass, QStringLiteral("resumed"))));
    QString warning;
    const auto all = j.read(&warning);
    QVERIFY2(all, qPrintable(all.status().message()));
    QCOMPARE(all.value().size(), 2);
    QCOMPARE(all.value().last().seen, QStringLiteral("resumed"));
    QVERIFY(warning.isEmpty());
}

void TestJournal::fullDisk_failsClearly_journalStaysWhole_thenResumes()
{
    test::TmpfsMount disk(m_dir.filePath(QStringLiteral("full")), 64);
    QVERIFY2(disk.isMounted(), qPrintable(disk.error()));
    deploy::Journal j(m_dir.filePath(QStringLiteral("full/demo/journal.jsonl")), m_redactor);
    QVERIFY(j.append(record(QStringLiteral("pull"), recipe::StepStatus::Running)));
    const QByteArray before = [&] {
        QFile f(j.path());
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }();
    // Leave room for part of a line, not a whole one: the kernel takes what fits (a partial
    // write), which is the case that tears a line.
    QVERIFY(disk.fill(4096) > 0);
    const recipe::StepRecord big =
        record(QStringLiteral("pull"), recipe::StepStatus::Pass, QString(20000, QLatin1Char('x')));
    const Status s = j.append(big);
    QVERIFY(!s);
    QVERIFY2(s.message().contains(QLatin1String("No space left on device")), qPrintable(s.message()));
    QVERIFY(s.message().contains(j.path()));
    QVERIFY(s.message().contains(QLatin1String("--resume")));
    QFile f(j.path());
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), before); // nothing half-written
    f.close();
    QString warning;
    QCOMPARE(j.read(&warning).value().size(), 1);
    QVERIFY(warning.isEmpty());
    // Space freed: the same record goes in whole.
    disk.unfill();
    QVERIFY(j.append(big));
    QCOMPARE(j.read().value().size(), 2);
}

void TestJournal::unwritable_saysWhereAndWhat()
{
    deploy::Journal j(QStringLiteral("/proc/flashdeck-cannot-write/journal.jsonl"), m_redactor);
    const Status s = j.append(record(QStringLiteral("a"), recipe::StepStatus::Pass));
    QVERIFY(!s);
    QVERIFY(s.message().contains(QLatin1String("/proc/flashdeck-cannot-write/journal.jsonl")));
}

QTEST_GUILESS_MAIN(TestJournal)
#include "tst_journal.moc"
