#include "backend/core/processtree.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QMultiHash>
#include <QThread>

#include <signal.h>

namespace flashdeck {

namespace {

// "pid (comm) S ppid …": comm may hold spaces and parentheses, so split after the last ')'.
QList<QByteArray> statFields(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QByteArray line = stat.readAll();
    return line.mid(line.lastIndexOf(')') + 2).split(' ');
}

} // namespace

QList<qint64> processDescendants(qint64 root)
{
    QMultiHash<qint64, qint64> children;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &e : entries) {
        bool ok = false;
        const qint64 pid = e.toLongLong(&ok);
        if (!ok) {
            continue;
        }
        const QList<QByteArray> fields = statFields(pid);
        if (fields.size() > 1) {
            children.insert(fields.at(1).toLongLong(), pid);
        }
    }
    QList<qint64> out;
    QList<qint64> todo{root};
    while (!todo.isEmpty()) {
        const qint64 p = todo.takeFirst();
        for (const qint64 c : children.values(p)) {
            out.append(c);
            todo.append(c);
        }
    }
    return out;
}

bool processAlive(qint64 pid)
{
    if (pid <= 0) {
        return false;
    }
    const QList<QByteArray> fields = statFields(pid);
    return !fields.isEmpty() && fields.at(0) != "Z" && fields.at(0) != "X";
}

bool stopProcessTree(qint64 pid, int graceMs)
{
    if (!processAlive(pid)) {
        return true;
    }
    QList<qint64> tree = processDescendants(pid);
    ::kill(static_cast<pid_t>(pid), SIGTERM);
    // Polling /proc is the only way to watch a process that is not our child.
    const QDeadlineTimer deadline(graceMs);
    while (processAlive(pid) && !deadline.hasExpired()) {
        QThread::msleep(20);
    }
    tree += processDescendants(pid);
    tree.prepend(pid);
    for (const qint64 p : tree) {
        if (processAlive(p)) {
            ::kill(static_cast<pid_t>(p), SIGKILL);
        }
    }
    const QDeadlineTimer killed(5000);
    auto anyAlive = [&tree] { return std::any_of(tree.begin(), tree.end(), processAlive); };
    while (anyAlive() && !killed.hasExpired()) {
        QThread::msleep(20);
    }
    return !anyAlive();
}

} // namespace flashdeck
