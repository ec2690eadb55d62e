#include "backend/metrics/metricsarchive.h"

#include "backend/core/atomicfile.h"
#include "backend/metrics/timeseries.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDataStream>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cstring>

namespace flashdeck::metrics {

namespace {

constexpr quint32 kMagic = 0x46445453; // "FDTS"
constexpr quint16 kVersion = 1;
// The series are stored in this machine's byte order (TimeSeries::writeTo): say which.
constexpr quint8 kByteOrder = Q_BYTE_ORDER == Q_LITTLE_ENDIAN ? 1 : 2;
// A host has a few dozen series; a name is a short metric id. Anything past these is damage.
constexpr qint32 kMaxSeries = 4096;

/**
 * A check of the payload, fast over megabytes: FNV-1a over 64-bit words (qChecksum's CRC-16
 * took 39 ms for one host's history; this takes about one). It catches a cut or a flipped
 * byte, which is all it is for: the file is not defended against a forger.
 */
quint64 checksum(const QByteArray &data)
{
    quint64 h = 14695981039346656037ULL;
    const qsizetype words = data.size() / 8;
    for (qsizetype i = 0; i < words; ++i) {
        quint64 w;
        std::memcpy(&w, data.constData() + i * 8, 8);
        h = (h ^ w) * 1099511628211ULL;
    }
    for (qsizetype i = words * 8; i < data.size(); ++i) {
        h = (h ^ quint8(data[i])) * 1099511628211ULL;
    }
    return h ^ quint64(data.size());
}

} // namespace

MetricsArchive::MetricsArchive(QString file)
    : m_file(std::move(file))
{ }

Status MetricsArchive::save(const SeriesMap &series, qint64 nowMs) const
{
    QByteArray payload;
    {
        QDataStream out(&payload, QIODevice::WriteOnly);
        out.setVersion(QDataStream::Qt_6_0);
        out << qint32(series.size());
        for (auto it = series.cbegin(); it != series.cend(); ++it) {
            out << it.key();
            it.value()->writeTo(out);
        }
    }
    const QString dir = QFileInfo(m_file).absolutePath();
    if (!QDir().mkpath(dir)) {
        return Status::failure(
            QCoreApplication::translate("Metrics",
                                        "Cannot create %1 for the chart history. Check its permissions, or turn off "
                                        "\"Keep chart history on disk\" in Settings.")
                .arg(QDir::toNativeSeparators(dir)));
    }
    QByteArray bytes;
    {
        QDataStream header(&bytes, QIODevice::WriteOnly);
        header.setVersion(QDataStream::Qt_6_0);
        header << kMagic << kVersion << kByteOrder << nowMs << quint64(payload.size()) << checksum(payload);
    }
    bytes += payload;
    if (const Status s = writeFileAtomically(m_file, bytes); !s) {
        // The previous file is left as it was: the last good history is not lost.
        return Status::failure(QCoreApplication::translate(
                                   "Metrics",
                                   "Cannot write the chart history %1: %2. The previous copy is kept; free some disk "
                                   "space.")
                                   .arg(QDir::toNativeSeparators(m_file), s.message()));
    }
    return Status::ok();
}

Result<SeriesMap> MetricsArchive::load(qint64 nowMs, qint64 maxAgeMs) const
{
    QFile f(m_file);
    if (!f.exists()) {
        return SeriesMap();
    }
    if (!f.open(QIODevice::ReadOnly)) {
        return Status::failure(
            QCoreApplication::translate("Metrics", "Cannot read the chart history %1: %2. The charts start empty.")
                .arg(QDir::toNativeSeparators(m_file), f.errorString()));
    }
    auto damaged = [this, &f](const QString &why) -> Status {
        f.close();
        const QString aside = m_file + QStringLiteral(".damaged");
        QFile::remove(aside);
        QFile::rename(m_file, aside);
        return Status::failure(
            QCoreApplication::translate("Metrics",
                                        "The chart history %1 is damaged (%2); it was moved to %3 and the "
                                        "charts start empty.")
                .arg(QDir::toNativeSeparators(m_file), why, QDir::toNativeSeparators(aside)));
    };
    QDataStream header(&f);
    header.setVersion(QDataStream::Qt_6_0);
    quint32 magic = 0;
    quint16 version = 0;
    quint8 byteOrder = 0;
    qint64 savedAtMs = 0;
    quint64 length = 0;
    quint64 crc = 0;
    header >> magic >> version >> byteOrder >> savedAtMs >> length >> crc;
    if (header.status() != QDataStream::Ok || magic != kMagic) {
        return damaged(QCoreApplication::translate("Metrics", "not a Flashdeck chart history"));
    }
    if (version != kVersion) {
        return damaged(QCoreApplication::translate("Metrics", "format version %1, this Flashdeck reads %2")
                           .arg(version)
                           .arg(kVersion));
    }
    if (byteOrder != kByteOrder) {
        return damaged(QCoreApplication::translate("Metrics", "written on a machine of the other byte order"));
    }
    if (length != quint64(f.size() - f.pos())) {
        return damaged(QCoreApplication::translate("Metrics", "%1 bytes where %2 were written")
                           .arg(f.size() - f.pos())
                           .arg(length));
    }
    const QByteArray payload = f.readAll();
    if (checksum(payload) != crc) {
        return damaged(QCoreApplication::translate("Metrics", "checksum mismatch"));
    }
    if (nowMs - savedAtMs > maxAgeMs) {
        return SeriesMap(); // all of it is older than any chart window
    }
    QDataStream in(payload);
    in.setVersion(QDataStream::Qt_6_0);
    qint32 count = 0;
    in >> count;
    if (count < 0 || count > kMaxSeries) {
        return damaged(QStringLiteral("%1 series").arg(count));
    }
    SeriesMap out;
    for (qint32 i = 0; i < count; ++i) {
        QString name;
        in >> name;
        auto series = std::make_shared<TimeSeries>();
        if (in.status() != QDataStream::Ok || name.isEmpty() || !series->readFrom(in)) {
            return damaged(QCoreApplication::translate("Metrics", "series %1 of %2 unreadable").arg(i + 1).arg(count));
        }
        series->appendGap(std::max(nowMs, savedAtMs + 1));
        out.insert(name, std::move(series));
    }
    return out;
}

} // namespace flashdeck::metrics
