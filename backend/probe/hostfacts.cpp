#include "backend/probe/hostfacts.h"

#include "backend/core/hosttext.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace flashdeck::probe {

Result<DiskFree> parseDf(const QByteArray &output)
{
    const QList<QByteArray> lines = output.trimmed().split('\n');
    if (lines.size() < 2 || !lines.first().contains("Avail")) {
        return Status::failure(
            QStringLiteral("df printed something unexpected: \"%1\"").arg(hostText(output.left(200), 200)));
    }
    // "  123456789 /mount point" (the mount point may hold spaces).
    static const QRegularExpression row(QStringLiteral("^\\s*(\\d+)\\s+(.+)$"));
    const QRegularExpressionMatch m = row.match(QString::fromUtf8(lines.at(1)));
    if (!m.hasMatch()) {
        return Status::failure(
            QStringLiteral("df printed no free-space figure: \"%1\"").arg(QString::fromUtf8(lines.at(1).left(200))));
    }
    return DiskFree{m.captured(1).toLongLong(), m.captured(2).trimmed()};
}

Result<HostMemory> parseMeminfo(const QByteArray &output)
{
    HostMemory m;
    for (const QByteArray &line : output.split('\n')) {
        const QList<QByteArray> parts = line.simplified().split(' ');
        if (parts.size() < 2) {
            continue;
        }
        const qint64 kib = parts.at(1).toLongLong();
        if (parts.at(0) == "MemTotal:") {
            m.totalBytes = kib * 1024;
        } else if (parts.at(0) == "MemAvailable:") {
            m.availableBytes = kib * 1024;
        }
    }
    if (m.totalBytes <= 0) {
        return Status::failure(QCoreApplication::translate("Probe", "/proc/meminfo has no MemTotal line."));
    }
    return m;
}

QList<ListeningSocket> parseSsListening(const QByteArray &output)
{
    // "LISTEN 0      128        127.0.0.1:30000      0.0.0.0:*" (with -H: no header).
    QList<ListeningSocket> out;
    for (const QByteArray &line : output.split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() < 4) {
            continue;
        }
        const QString local = QString::fromUtf8(f.at(3));
        const qsizetype colon = local.lastIndexOf(QLatin1Char(':'));
        bool ok = false;
        const quint16 port = local.mid(colon + 1).toUShort(&ok);
        if (colon <= 0 || !ok) {
            continue;
        }
        QString address = local.left(colon);
        if (address.startsWith(QLatin1Char('[')) && address.endsWith(QLatin1Char(']'))) {
            address = address.mid(1, address.size() - 2);
        }
        address = address.section(QLatin1Char('%'), 0, 0); // "0.0.0.0%lo"
        out.append({address, port});
    }
    return out;
}

bool portTaken(const QList<ListeningSocket> &sockets, quint16 port)
{
    for (const ListeningSocket &s : sockets) {
        if (s.port == port &&
            (s.address == QLatin1String("127.0.0.1") || s.address == QLatin1String("0.0.0.0") ||
             s.address == QLatin1String("*") || s.address == QLatin1String("::") ||
             s.address.startsWith(QLatin1String("127.")))) {
            return true;
        }
    }
    return false;
}

} // namespace flashdeck::probe
