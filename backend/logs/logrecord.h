#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QtGlobal>

namespace flashdeck::logs {

/** One classified line of a container's log, as the Logs page and `flashdeck logs` hold it. */
struct LogRecord
{
    qint64 seq = 0; // 1, 2, … in arrival order for this follower; never reused
    qint64 timeNs = 0; // Docker's timestamp of the line (ns since the epoch); 0 when unknown
    QByteArray text; // bytes as sent: invalid UTF-8 is kept, the view replaces it when shown
    qint16 rule = -1; // index into LogRules::rules(), or -1
    quint8 stream = 1; // 1 stdout, 2 stderr
    bool cut = false; // cut at 1 MiB
};

/**
 * Splits the RFC 3339 timestamp Docker puts before each line with `timestamps=1`
 * ("2026-11-30T18:10:38.123456789Z text", trailing zeros of the fraction dropped, or an offset
 * such as "+01:00"). Returns the number of bytes it used (the space included) and sets
 * `timeNs`; 0 when the line does not start with one (then `timeNs` is untouched).
 */
qsizetype splitDockerTimestamp(QByteArrayView line, qint64 &timeNs);

/** `timeNs` as Docker's `since` parameter: whole seconds, then nanoseconds ("1764526238.123456789"). */
QByteArray dockerSince(qint64 timeNs);

} // namespace flashdeck::logs
