#include "backend/core/format.h"

#include <QCoreApplication>

#include <cmath>

namespace flashdeck::fmt {

QString unknown()
{
    return QStringLiteral("–");
}

QString grouped(qint64 v)
{
    QString digits = QString::number(std::llabs(v));
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3) {
        digits.insert(i, QChar(0x202F)); // narrow no-break space: "143 771"
    }
    return v < 0 ? QLatin1Char('-') + digits : digits;
}

QString mib(std::optional<qint64> v)
{
    return v ? grouped(*v) + QStringLiteral(" MiB") : unknown();
}

namespace {

constexpr double kMibPerGib = 1024.0;

/** MiB as GiB, compact: whole and grouped from 10 GiB, one decimal below ("1 758", "7.5"). */
QString gibNumber(double mib)
{
    const double shown = mib / kMibPerGib;
    return shown >= 10 ? grouped(std::llround(shown)) : QString::number(shown, 'f', 1);
}

} // namespace

QString gib(std::optional<double> m)
{
    return m ? gibNumber(*m) + QStringLiteral(" GiB") : unknown();
}

QString gibExact(double m)
{
    return QString::number(m / kMibPerGib, 'f', 1) + QStringLiteral(" GiB");
}

QString gibOf(double usedMib, double totalMib)
{
    return QStringLiteral("%1 / %2 GiB").arg(gibNumber(usedMib), gibNumber(totalMib));
}

QString percent(std::optional<double> fraction, int decimals)
{
    return fraction && std::isfinite(*fraction)
        ? QString::number(*fraction * 100.0, 'f', decimals) + QStringLiteral(" %")
        : unknown();
}

QString tokens(std::optional<double> v)
{
    if (!v) {
        return unknown();
    }
    if (*v >= 1e6) {
        return QString::number(*v / 1e6, 'f', 1) + QCoreApplication::translate("Format", " M tokens");
    }
    if (*v >= 1e4) {
        return QString::number(*v / 1e3, 'f', 0) + QCoreApplication::translate("Format", " k tokens");
    }
    return grouped(qint64(*v)) + QStringLiteral(" tokens");
}

QString tokensPerSecond(std::optional<double> v)
{
    return v ? grouped(qint64(std::llround(*v))) + QStringLiteral(" tok/s") : unknown();
}

QString seconds(std::optional<double> v)
{
    if (!v || !std::isfinite(*v)) {
        return unknown();
    }
    if (*v < 1.0) {
        return QString::number(*v * 1000.0, 'f', 0) + QStringLiteral(" ms");
    }
    return QString::number(*v, 'f', *v < 10 ? 1 : 0) + QStringLiteral(" s");
}

QString gigabytes(std::optional<qint64> bytes)
{
    return bytes ? grouped(qint64(std::llround(double(*bytes) / 1e9))) + QStringLiteral(" GB") : unknown();
}

QString gbNumber(qint64 bytes)
{
    return QString::number(double(bytes) / 1e9, 'f', 1);
}

QString gbExact(qint64 bytes)
{
    return gbNumber(bytes) + QStringLiteral(" GB");
}

QString bytes(std::optional<qint64> v)
{
    if (!v || *v < 0) {
        return unknown();
    }
    const double b = double(*v);
    const std::pair<double, const char *> units[] = {{1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}};
    for (const auto &[size, unit] : units) {
        if (b >= size) {
            const double x = b / size;
            return QString::number(x, 'f', x < 10 ? 2 : (x < 100 ? 1 : 0)) + QLatin1Char(' ') + QLatin1String(unit);
        }
    }
    return QString::number(*v) + QStringLiteral(" B");
}

QString duration(std::optional<double> v)
{
    if (!v || !std::isfinite(*v) || *v < 0) {
        return unknown();
    }
    const qint64 s = std::llround(*v);
    if (s < 60) {
        return QCoreApplication::translate("Format", "%1 s").arg(s);
    }
    if (s < 3600) {
        return QCoreApplication::translate("Format", "%1 min %2 s").arg(s / 60).arg(s % 60);
    }
    return QCoreApplication::translate("Format", "%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
}

QString ago(qint64 thenMs, qint64 nowMs)
{
    if (thenMs <= 0) {
        return unknown();
    }
    const qint64 s = std::max<qint64>(0, (nowMs - thenMs) / 1000);
    if (s < 3) {
        return QCoreApplication::translate("Format", "just now");
    }
    if (s < 60) {
        return QCoreApplication::translate("Format", "%1 s ago").arg(s);
    }
    if (s < 3600) {
        return QCoreApplication::translate("Format", "%1 min ago").arg(s / 60);
    }
    return QCoreApplication::translate("Format", "%1 h ago").arg(s / 3600);
}

} // namespace flashdeck::fmt
