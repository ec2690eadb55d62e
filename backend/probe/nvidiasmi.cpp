#include "backend/probe/nvidiasmi.h"

#include "backend/core/hosttext.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QXmlStreamReader>

namespace flashdeck::probe {

namespace {

// "143771 MiB" → 143771; "[N/A]", "N/A", "[Not Supported]" → nothing.
std::optional<double> number(const QString &text)
{
    QString t = text.trimmed();
    if (t.isEmpty() || t.startsWith(QLatin1Char('[')) || t == QLatin1String("N/A")) {
        return std::nullopt;
    }
    t = t.section(QLatin1Char(' '), 0, 0);
    bool ok = false;
    const double v = t.toDouble(&ok);
    return ok ? std::optional<double>(v) : std::nullopt;
}

} // namespace

Result<NvidiaDriver> parseNvidiaSmiXml(const QByteArray &xml)
{
    QXmlStreamReader r(xml);
    NvidiaDriver d;
    QStringList path;
    while (!r.atEnd()) {
        const auto token = r.readNext();
        if (token == QXmlStreamReader::StartElement) {
            const QString name = r.name().toString();
            path.append(name);
            if (name == QLatin1String("gpu")) {
                NvidiaGpu gpu;
                gpu.index = int(d.gpus.size());
                gpu.pciBusId = r.attributes().value(QStringLiteral("id")).toString();
                d.gpus.append(gpu);
                continue;
            }
            const QString parent = path.size() >= 2 ? path.at(path.size() - 2) : QString();
            if (name == QLatin1String("driver_version") && parent == QLatin1String("nvidia_smi_log")) {
                d.driverVersion = r.readElementText().trimmed();
                path.removeLast();
            } else if (name == QLatin1String("cuda_version") && parent == QLatin1String("nvidia_smi_log")) {
                d.cudaVersion = r.readElementText().trimmed();
                path.removeLast();
            } else if (!d.gpus.isEmpty() && parent == QLatin1String("gpu") &&
                       name == QLatin1String("product_architecture")) {
                d.gpus.last().architecture = hostText(r.readElementText().trimmed().toUtf8(), 40);
                path.removeLast();
            } else if (!d.gpus.isEmpty() && parent == QLatin1String("gpu") &&
                       (name == QLatin1String("product_name") || name == QLatin1String("uuid"))) {
                (name == QLatin1String("uuid") ? d.gpus.last().uuid : d.gpus.last().name) =
                    r.readElementText().trimmed();
                path.removeLast();
            } else if (!d.gpus.isEmpty() && (name == QLatin1String("total") || name == QLatin1String("used")) &&
                       parent == QLatin1String("fb_memory_usage")) {
                (name == QLatin1String("total") ? d.gpus.last().memoryTotalMiB : d.gpus.last().memoryUsedMiB) =
                    qint64(number(r.readElementText()).value_or(0));
                path.removeLast();
            } else if (!d.gpus.isEmpty() && name == QLatin1String("process_info") &&
                       parent == QLatin1String("processes")) {
                d.gpus.last().processes.append(GpuProcess{});
            } else if (!d.gpus.isEmpty() && !d.gpus.last().processes.isEmpty() &&
                       parent == QLatin1String("process_info") && path.size() >= 3 &&
                       path.at(path.size() - 3) == QLatin1String("processes")) {
                GpuProcess &proc = d.gpus.last().processes.last();
                const QString text = r.readElementText().trimmed();
                path.removeLast();
                if (name == QLatin1String("pid")) {
                    proc.pid = qint64(number(text).value_or(0));
                } else if (name == QLatin1String("process_name")) {
                    proc.name = hostText(text.toUtf8(), 200);
                } else if (name == QLatin1String("type")) {
                    proc.type = hostText(text.toUtf8(), 20);
                } else if (name == QLatin1String("used_memory")) {
                    proc.usedMemoryMiB = qint64(number(text).value_or(0));
                }
            }
        } else if (token == QXmlStreamReader::EndElement && !path.isEmpty()) {
            path.removeLast();
        }
    }
    if (r.hasError()) {
        return Status::failure(QStringLiteral("nvidia-smi -q -x printed XML that does not parse (%1 at line %2).")
                                   .arg(r.errorString())
                                   .arg(r.lineNumber()));
    }
    if (d.driverVersion.isEmpty() || d.cudaVersion.isEmpty()) {
        return Status::failure(QStringLiteral("nvidia-smi -q -x did not report the driver and CUDA versions."));
    }
    return d;
}

QStringList splitCsvRow(const QByteArray &line)
{
    QStringList out;
    for (const QByteArray &f : line.trimmed().split(',')) {
        out.append(QString::fromUtf8(f.trimmed()));
    }
    return out;
}

Result<GpuSample> parseGpuSample(const QByteArray &line)
{
    QStringList f = splitCsvRow(line);
    std::optional<qint64> hostTimeMs;
    if (f.size() == 10) {
        // "2026/11/30 07:37:27.246", as the real stream prints it (nvidia-smi-h200x2's capture);
        // the sampler runs nvidia-smi under TZ=UTC, so that is what the time is read as.
        const QString stamp = f.takeFirst();
        const QDateTime t(QDate::fromString(stamp.left(10), QStringLiteral("yyyy/MM/dd")),
                          QTime::fromString(stamp.mid(11), QStringLiteral("HH:mm:ss.zzz")), Qt::UTC);
        if (t.isValid()) {
            hostTimeMs = t.toMSecsSinceEpoch();
        }
    }
    if (f.size() != 9) {
        return Status::failure(QCoreApplication::translate("Probe", "A GPU sample has %1 fields instead of 9: \"%2\"")
                                   .arg(f.size())
                                   .arg(hostText(line.left(200), 200)));
    }
    GpuSample s;
    s.hostTimeMs = hostTimeMs;
    bool ok = false;
    s.index = f.at(0).toInt(&ok);
    if (!ok) {
        return Status::failure(QCoreApplication::translate("Probe", "A GPU sample has no index: \"%1\"")
                                   .arg(hostText(line.left(200), 200)));
    }
    s.name = f.at(1);
    s.uuid = f.at(2);
    auto asInt = [](const QString &t) -> std::optional<qint64> {
        const auto v = number(t);
        return v ? std::optional<qint64>(qint64(*v)) : std::nullopt;
    };
    s.memoryTotalMiB = asInt(f.at(3));
    s.memoryUsedMiB = asInt(f.at(4));
    if (const auto u = asInt(f.at(5))) {
        s.utilizationGpu = int(*u);
    }
    s.temperatureC = number(f.at(6));
    s.powerW = number(f.at(7));
    s.powerLimitW = number(f.at(8));
    return s;
}

} // namespace flashdeck::probe
