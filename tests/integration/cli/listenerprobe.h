#pragma once

#include "tests/support/buildpaths.h"

#include <QDir>
#include <QFile>
#include <QList>
#include <QProcess>
#include <QSet>
#include <QString>

#include <arpa/inet.h>
#include <cstring>
#include <unistd.h>

/** A socket a process listens on, as /proc lists it. */
struct ListenerSocket
{
    bool tcp = true;
    QString address; // tcp: where to connect (a wildcard becomes loopback)
    quint16 port = 0;
    QString path; // unix: the path, "@name" for an abstract socket
    quint64 inode = 0;

    QString text() const { return tcp ? QStringLiteral("%1 port %2").arg(address).arg(port) : path; }
};

/** The inodes of the sockets process `pid` holds open (its fd links "socket:[N]"). */
inline QSet<quint64> socketInodesOf(qint64 pid)
{
    QSet<quint64> out;
    const QString dir = QStringLiteral("/proc/%1/fd").arg(pid);
    for (const QString &fd : QDir(dir).entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot)) {
        char link[128] = {};
        const QByteArray path = QFile::encodeName(dir + QLatin1Char('/') + fd);
        const ssize_t n = ::readlink(path.constData(), link, sizeof link - 1);
        if (n <= 0) {
            continue; // closed meanwhile
        }
        const QByteArray target(link, n);
        if (target.startsWith("socket:[") && target.endsWith(']')) {
            out.insert(target.mid(8).chopped(1).toULongLong());
        }
    }
    return out;
}

/** "0100007F" (tcp) or 32 hex digits (tcp6), as the kernel prints them: back to an address. */
inline QString addressFromProc(const QByteArray &hex)
{
    unsigned char bytes[16] = {};
    const int words = int(hex.size() / 8);
    for (int i = 0; i < words; ++i) {
        const quint32 word = hex.mid(i * 8, 8).toUInt(nullptr, 16);
        std::memcpy(bytes + 4 * i, &word, 4); // the raw word, in this machine's order
    }
    char text[INET6_ADDRSTRLEN] = {};
    ::inet_ntop(words == 4 ? AF_INET6 : AF_INET, bytes, text, sizeof text);
    const QString address = QString::fromLatin1(text);
    if (address == QLatin1String("0.0.0.0")) {
        return QStringLiteral("127.0.0.1");
    }
    return address == QLatin1String("::") ? QStringLiteral("::1") : address;
}

/**
 * Every TCP (LISTEN entries of /proc/PID/net/tcp and tcp6) and Unix stream socket
 * (/proc/PID/net/unix, accepting connections) that process `pid` listens on: those whose inode
 * is one of its descriptors.
 */
inline QList<ListenerSocket> listenersOf(qint64 pid)
{
    const QSet<quint64> inodes = socketInodesOf(pid);
    QList<ListenerSocket> out;
    for (const char *table : {"tcp", "tcp6"}) {
        QFile f(QStringLiteral("/proc/%1/net/%2").arg(pid).arg(QLatin1String(table)));
        if (!f.open(QIODevice::ReadOnly)) {
            continue;
        }
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QList<QByteArray> fields = line.simplified().split(' ');
            if (fields.size() < 10 || fields.at(3) != "0A" || !inodes.contains(fields.at(9).toULongLong())) {
                continue;
            }
            const QList<QByteArray> local = fields.at(1).split(':');
            out.append({true,
                        addressFromProc(local.at(0)),
                        quint16(local.at(1).toUInt(nullptr, 16)),
                        {},
                        fields.at(9).toULongLong()});
        }
    }
    QFile unixTable(QStringLiteral("/proc/%1/net/unix").arg(pid));
    if (unixTable.open(QIODevice::ReadOnly)) {
        // Num RefCount Protocol Flags Type St Inode Path; Flags 00010000 is __SO_ACCEPTCON.
        for (const QByteArray &line : unixTable.readAll().split('\n')) {
            const QList<QByteArray> fields = line.simplified().split(' ');
            if (fields.size() < 8 || !(fields.at(3).toUInt(nullptr, 16) & 0x10000) ||
                !inodes.contains(fields.at(6).toULongLong())) {
                continue;
            }
            out.append({false, {}, 0, QString::fromUtf8(fields.at(7)), fields.at(6).toULongLong()});
        }
    }
    return out;
}

/**
 * What user nobody gets from `l`: the probe's line ("connected bytes=N end=…" or
 * "refused …"). The probe connects, sends an HTTP GET and reads to the end.
 */
inline QByteArray probeAsNobody(const ListenerSocket &l)
{
    QStringList args{QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"), QStringLiteral("--clear-groups"),
                     QStringLiteral("--"), flashdeck::test::socketProbe()};
    if (l.tcp) {
        args << QStringLiteral("tcp") << l.address << QString::number(l.port);
    } else {
        args << QStringLiteral("unix") << l.path;
    }
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("ASAN_OPTIONS"), QStringLiteral("detect_leaks=0"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral("setpriv"), args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return "probe hung";
    }
    return p.readAllStandardOutput().trimmed() + p.readAllStandardError().trimmed();
}
