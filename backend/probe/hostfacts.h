#pragma once

#include "backend/core/result.h"

#include <QList>
#include <QString>

namespace flashdeck::probe {

/** `df -B1 --output=avail,target PATH` (host contract §2, F13). */
struct DiskFree
{
    qint64 availBytes = 0;
    QString mountPoint;
};
[[nodiscard]] Result<DiskFree> parseDf(const QByteArray &output);

/** `cat /proc/meminfo`: the figures HiCache planning needs (F36), in bytes. */
struct HostMemory
{
    qint64 totalBytes = 0;
    qint64 availableBytes = 0;
};
[[nodiscard]] Result<HostMemory> parseMeminfo(const QByteArray &output);

/** One listening TCP socket from `ss -Hltn`. */
struct ListeningSocket
{
    QString address; // "127.0.0.1", "0.0.0.0", "::", "*"
    quint16 port = 0;
};
QList<ListeningSocket> parseSsListening(const QByteArray &output);
/** Whether something listens on `port` where a loopback bind of it would collide. */
bool portTaken(const QList<ListeningSocket> &sockets, quint16 port);

} // namespace flashdeck::probe
