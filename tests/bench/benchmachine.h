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
