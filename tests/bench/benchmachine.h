#pragma once

// What a benchmark's figures depend on, printed with them (issue 45: "so a figure carries its
// machine"): the CPU's model, its cores, and the instruction-set features the code paths under
// test choose between (OpenSSL picks its AES-GCM and ChaCha20 code by them at run time).

#include <QByteArray>
#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cstdio>
#include <thread>
#include <vector>

namespace flashdeck::bench {

struct Machine
{
    QString model;
    unsigned cores = 0;
    QStringList features; // of the ones asked for, those the CPU has
    QStringList missing; // …and those it lacks
};

/** Reads /proc/cpuinfo's first processor block for its model and which of `wanted` it has. */
inline Machine describeMachine(const QStringList &wanted)
{
    Machine m;
    m.cores = std::thread::hardware_concurrency();
    QFile f(QStringLiteral("/proc/cpuinfo"));
    const QByteArray text = f.open(QIODevice::ReadOnly) ? f.read(64 * 1024) : QByteArray();
    QList<QByteArray> flags;
    for (const QByteArray &line : text.split('\n')) {
        const QByteArray value = line.mid(line.indexOf(':') + 1).trimmed();
        if (m.model.isEmpty() && line.startsWith("model name")) {
            m.model = QString::fromUtf8(value);
        } else if (flags.isEmpty() && (line.startsWith("flags") || line.startsWith("Features"))) {
            flags = value.simplified().split(' ');
        }
    }
    for (const QString &w : wanted) {
        (flags.contains(w.toUtf8()) ? m.features : m.missing).append(w);
    }
    return m;
}

/** "CPU: AMD EPYC, 2 cores; has avx2 …; lacks …": the line every benchmark prints first. */
inline QString machineLine(const Machine &m)
{
    QString line = QStringLiteral("CPU: %1, %2 cores").arg(m.model).arg(m.cores);
    if (!m.features.isEmpty()) {
        line += QStringLiteral("; has ") + m.features.join(QLatin1Char(' '));
    }
    if (!m.missing.isEmpty()) {
        line += QStringLiteral("; lacks ") + m.missing.join(QLatin1Char(' '));
    }
    return line;
}

/** Prints machineLine() for the features the code under test chooses by (none: the model and cores). */
inline void printMachine(const QStringList &wanted = {})
{
    std::printf("%s\n", qPrintable(machineLine(describeMachine(wanted))));
}

/** Every run's figure, in the order run: "0.810 0.770 0.920" (a median says nothing of the spread). */
inline QString runsText(const std::vector<double> &v, int decimals = 3)
{
    QStringList out;
    for (const double x : v) {
        out.append(QString::number(x, 'f', decimals));
    }
    return out.join(QLatin1Char(' '));
}

/** The median of several runs' figures (the mean of the middle two of an even count); 0 for none. */
inline double medianOf(std::vector<double> v)
{
    if (v.empty()) {
        return 0;
    }
    std::sort(v.begin(), v.end());
    const std::size_t mid = v.size() / 2;
    return v.size() % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

} // namespace flashdeck::bench
