#include "backend/logs/logrecord.h"

namespace flashdeck::logs {

namespace {

bool digits(const char *p, int n, int &value)
{
    value = 0;
    for (int i = 0; i < n; ++i) {
        if (p[i] < '0' || p[i] > '9') {
            return false;
        }
        value = value * 10 + (p[i] - '0');
    }
    return true;
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant, "chrono-Compatible Low-Level
// Date Algorithms", days_from_civil): no time zone database, no QDateTime per line.
qint64 daysFromCivil(qint64 y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const qint64 era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + qint64(doe) - 719468;
}

} // namespace

qsizetype splitDockerTimestamp(QByteArrayView line, qint64 &timeNs)
{
    const char *p = line.data();
    const qsizetype n = line.size();
    // YYYY-MM-DDTHH:MM:SS is 19 bytes; then an optional fraction, then Z or ±HH:MM, then a space
    // (p[19] is read below: at least 20 bytes).
    int year, month, day, hour, minute, second;
    if (n < 20 || p[4] != '-' || p[7] != '-' || p[10] != 'T' || p[13] != ':' || p[16] != ':' || !digits(p, 4, year) ||
        !digits(p + 5, 2, month) || !digits(p + 8, 2, day) || !digits(p + 11, 2, hour) || !digits(p + 14, 2, minute) ||
        !digits(p + 17, 2, second) || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 ||
        second > 60) {
        return 0;
    }
    qsizetype i = 19;
    qint64 frac = 0;
    if (p[i] == '.') {
        ++i;
        int places = 0;
        while (i < n && p[i] >= '0' && p[i] <= '9') {
            if (places < 9) {
                frac = frac * 10 + (p[i] - '0');
                ++places;
            }
            ++i;
        }
        if (places == 0) {
            return 0;
        }
        for (; places < 9; ++places) {
            frac *= 10;
        }
    }
    qint64 offsetSeconds = 0;
    if (i < n && p[i] == 'Z') {
        ++i;
    } else if (i + 6 <= n && (p[i] == '+' || p[i] == '-') && p[i + 3] == ':') {
        int oh, om;
        if (!digits(p + i + 1, 2, oh) || !digits(p + i + 4, 2, om)) {
            return 0;
        }
        offsetSeconds = (oh * 3600 + om * 60) * (p[i] == '+' ? 1 : -1);
        i += 6;
    } else {
        return 0;
    }
    if (i < n && p[i] != ' ') {
        return 0;
    }
    const qint64 seconds = daysFromCivil(year, unsigned(month), unsigned(day)) * 86400 + hour * 3600 + minute * 60 +
        second - offsetSeconds;
    timeNs = seconds * 1000000000LL + frac;
    return i < n ? i + 1 : i;
}

QByteArray dockerSince(qint64 timeNs)
{
    const qint64 s = timeNs / 1000000000LL;
    const qint64 ns = timeNs % 1000000000LL;
    return QByteArray::number(s).append('.').append(QByteArray::number(ns).rightJustified(9, '0'));
}

} // namespace flashdeck::logs
