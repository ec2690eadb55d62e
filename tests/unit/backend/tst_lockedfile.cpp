#include "backend/core/lockedfile.h"
#include "tests/support/releasetogether.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <iostream>
#include <memory>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace flashdeck;

namespace {

/** The change every writer here makes: a JSON array of names, `+name` adds one, `-name` removes it. */
LockedFile::Edit applyOne(const std::optional<QByteArray> &current, const QString &op)
{
    QJsonArray names;
    if (current) {
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(*current, &error);
        if (error.error != QJsonParseError::NoError || !doc.isArray()) {
            return LockedFile::Edit::corrupt(Status::failure(QStringLiteral("names.json is not a JSON array.")));
        }
        names = doc.array();
    }
    const QString name = op.mid(1);
    if (op.startsWith(QLatin1Char('+'))) {
        if (names.contains(name)) {
            return LockedFile::Edit::refuse(Status::failure(QStringLiteral("%1 is there already.").arg(name)));
        }
        names.append(name);
    } else {
        for (qsizetype i = 0; i < names.size(); ++i) {
            if (names.at(i).toString() == name) {
                names.removeAt(i);
                break;
            }
        }
    }
    return LockedFile::Edit::replaceWith(QJsonDocument(names).toJson(QJsonDocument::Compact));
}

/**
 * Changes each child makes, one update each: `op` on NAME.0 … NAME.9. One change per process
 * left the race to chance (the processes' starts are spread over more time than a change takes);
 * ten in a row from each of 16 processes overlap every time without the lock.
 */
constexpr int kChangesPerChild = 10;

QStringList expand(const QStringList &names)
{
    QStringList out;
    for (const QString &n : names) {
        for (int k = 0; k < kChangesPerChild; ++k) {
            out.append(n + QStringLiteral(".%1").arg(k));
        }
    }
    out.sort();
    return out;
}

/** The child process: waits for "go" on stdin (so that all start together), then makes its changes. */
int runChild(const QString &path, const QString &op)
{
    std::string go;
    std::getline(std::cin, go);
    const LockedFile file(path, QFile::ReadOwner | QFile::WriteOwner);
    for (int k = 0; k < kChangesPerChild; ++k) {
        const QString one = op + QStringLiteral(".%1").arg(k);
        const Status s =
            file.update([&one](const std::optional<QByteArray> &current) { return applyOne(current, one); });
        if (!s) {
            std::cerr << s.message().toStdString() << '\n';
            return 1;
        }
    }
    return 0;
}

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

QStringList namesIn(const QString &path)
{
    QStringList out;
    for (const QJsonValue &v : QJsonDocument::fromJson(contents(path)).array()) {
        out.append(v.toString());
    }
    out.sort();
    return out;
}

} // namespace

/**
 * Every file several processes change goes through LockedFile::update (issue 40: 16 parallel
 * `flashdeck hosts add` left 4 hosts). Real processes, started together, each make one change:
 * none may be lost; a file that does not parse is never overwritten and a copy is kept aside.
 */
class TestLockedFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void concurrentProcesses_loseNothing_data();
    void concurrentProcesses_loseNothing();
    void corruptFile_refused_unchanged_copyKeptAside();
    void refusedChange_writesNothing();
    void unreadableFile_saysSo();
    void heldLock_timesOut_namingTheLock();
    void lockFile_ownerOnly_andKept();
};

void TestLockedFile::concurrentProcesses_loseNothing_data()
{
    QTest::addColumn<QStringList>("before");
    QTest::addColumn<QStringList>("ops");
    QTest::addColumn<QStringList>("after");
    QStringList adds;
    QStringList added;
    for (int i = 0; i < 16; ++i) {
        adds.append(QStringLiteral("+h%1").arg(i, 2, 10, QLatin1Char('0')));
        added.append(adds.last().mid(1));
    }
    QTest::newRow("16 processes adding") << QStringList() << adds << expand(added);
    QStringList before;
    QStringList mixed;
    QStringList expected;
    for (int i = 0; i < 8; ++i) {
        before.append(QStringLiteral("old%1").arg(i));
        mixed.append(QStringLiteral("-old%1").arg(i));
        mixed.append(QStringLiteral("+new%1").arg(i));
        expected.append(QStringLiteral("new%1").arg(i));
    }
    QTest::newRow("8 removing beside 8 adding") << expand(before) << mixed << expand(expected);
}

void TestLockedFile::concurrentProcesses_loseNothing()
{
    QFETCH(QStringList, before);
    QFETCH(QStringList, ops);
    QFETCH(QStringList, after);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("names.json"));
    if (!before.isEmpty()) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.write(QJsonDocument(QJsonArray::fromStringList(before)).toJson()) > 0);
    }
    std::vector<std::unique_ptr<QProcess>> children;
    for (const QString &op : ops) {
        auto p = std::make_unique<QProcess>();
        p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p->start(QCoreApplication::applicationFilePath(), {QStringLiteral("--child"), path, op});
        QVERIFY2(p->waitForStarted(), qPrintable(p->errorString()));
        children.push_back(std::move(p));
    }
    const QString released = flashdeck::test::releaseTogether(children);
    QVERIFY2(released.isEmpty(), qPrintable(released));
    after.sort();
    QCOMPARE(namesIn(path), after);
}

void TestLockedFile::corruptFile_refused_unchanged_copyKeptAside()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("names.json"));
    const QByteArray bad("[\"a\", \"b\"  <- cut short");
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(bad), qint64(bad.size()));
    }
    const LockedFile file(path);
    const auto add = [](const std::optional<QByteArray> &current) { return applyOne(current, QStringLiteral("+c")); };
    const Status s = file.update(add);
    QVERIFY(!s);
    QCOMPARE(contents(path), bad);
    QVERIFY2(s.message().contains(QLatin1String("not a JSON array")), qPrintable(s.message()));
    const QStringList copies = QDir(dir.path()).entryList({QStringLiteral("names.json.corrupt-*")}, QDir::Files);
    QCOMPARE(copies.size(), 1);
    const QString copy = dir.filePath(copies.first());
    QCOMPARE(contents(copy), bad);
    QVERIFY2(s.message().contains(copy), qPrintable(s.message()));
    QCOMPARE(int(QFile::permissions(copy)) & 0x7077, int(QFile::ReadOwner | QFile::WriteOwner));

    // Trying again keeps no second copy of the same bytes, and still writes nothing.
    const Status again = file.update(add);
    QVERIFY(!again);
    QVERIFY2(again.message().contains(copy), qPrintable(again.message()));
    QCOMPARE(QDir(dir.path()).entryList({QStringLiteral("names.json.corrupt-*")}, QDir::Files).size(), 1);
    QCOMPARE(contents(path), bad);
}

void TestLockedFile::refusedChange_writesNothing()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("names.json"));
    const LockedFile file(path);
    QVERIFY(file.update([](const auto &current) { return applyOne(current, QStringLiteral("+a")); }));
    const QByteArray before = contents(path);
    const QDateTime modified = QFileInfo(path).fileTime(QFileDevice::FileModificationTime);
    const Status s = file.update([](const auto &current) { return applyOne(current, QStringLiteral("+a")); });
    QVERIFY(!s);
    QCOMPARE(s.message(), QStringLiteral("a is there already."));
    QCOMPARE(contents(path), before);
    QCOMPARE(QFileInfo(path).fileTime(QFileDevice::FileModificationTime), modified);
    QCOMPARE(QDir(dir.path()).entryList({QStringLiteral("names.json.corrupt-*")}, QDir::Files).size(), 0);
}

void TestLockedFile::unreadableFile_saysSo()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("names.json"));
    QVERIFY(QDir().mkdir(path)); // read(2) fails on it even for root, which ignores permissions
    bool asked = false;
    const Status s = LockedFile(path).update([&asked](const auto &current) {
        asked = true;
        return applyOne(current, QStringLiteral("+a"));
    });
    QVERIFY(!s);
    QVERIFY(!asked);
    QVERIFY2(s.message().contains(path) && s.message().contains(QLatin1String("Cannot read")), qPrintable(s.message()));
    QVERIFY(QFileInfo(path).isDir());
}

void TestLockedFile::heldLock_timesOut_namingTheLock()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("names.json"));
    const LockedFile file(path, {}, 200);
    const int fd = ::open(QFile::encodeName(file.lockPath()).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    QVERIFY(fd >= 0);
    QCOMPARE(::flock(fd, LOCK_EX), 0);
    const Status s = file.update([](const auto &current) { return applyOne(current, QStringLiteral("+a")); });
    QCOMPARE(::close(fd), 0);
    QVERIFY(!s);
    QVERIFY2(s.message().contains(file.lockPath()) && s.message().contains(QLatin1String("another Flashdeck")),
             qPrintable(s.message()));
    QVERIFY(!QFileInfo::exists(path));
    // Released: the next change goes through.
    QVERIFY(file.update([](const auto &current) { return applyOne(current, QStringLiteral("+a")); }));
    QCOMPARE(namesIn(path), QStringList{QStringLiteral("a")});
}

void TestLockedFile::lockFile_ownerOnly_andKept()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sub/names.json"));
    const LockedFile file(path, QFile::ReadOwner | QFile::WriteOwner);
    QVERIFY(file.update([](const auto &current) { return applyOne(current, QStringLiteral("+a")); }));
    QVERIFY(file.update([](const auto &current) { return applyOne(current, QStringLiteral("-a")); }));
    QVERIFY(QFileInfo::exists(file.lockPath()));
    QCOMPARE(int(QFile::permissions(file.lockPath())) & 0x7077, int(QFile::ReadOwner | QFile::WriteOwner));
    QCOMPARE(int(QFile::permissions(path)) & 0x7077, int(QFile::ReadOwner | QFile::WriteOwner));
    QCOMPARE(namesIn(path), QStringList());
}

int main(int argc, char **argv)
{
    if (argc == 4 && qstrcmp(argv[1], "--child") == 0) {
        return runChild(QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[3]));
    }
    QCoreApplication app(argc, argv);
    TestLockedFile test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_lockedfile.moc"
