// The simulated host's `nvidia-smi`: prints the formats of the real tool, as captured in the
// H200 fixture (tests/data/nvidia-smi-h200x2), for the GPUs of the scenario in
// $FLASHDECK_SIM_DIR, with values that follow the simulated load (gpu-load.json).
//
// Supported, as Flashdeck's host contract uses them: -L, --version, -q -x,
// --query-gpu=FIELDS --format=csv[,noheader][,nounits] [-lms N | -l N | --loop-ms=N].

#include "tests/simhost/simscenario.h"

#include <QDateTime>
#include <QFile>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <thread>

using flashdeck::sim::SimGpu;
using flashdeck::sim::SimGpuLoad;
using flashdeck::sim::SimGpuProcess;
using flashdeck::sim::SimScenario;

namespace {

struct Sample
{
    int index;
    const SimGpu &gpu;
    SimGpuLoad load;
    QDateTime time;
};

struct Field
{
    QString header; // as printed in the CSV header line
    QString unit; // appended to values unless nounits; also in the header as " [unit]"
    std::function<QString(const Sample &, const SimScenario &)> value;
};

QString watts(double w)
{
    return QString::number(w, 'f', 2);
}

double powerOf(const Sample &s)
{
    if (s.load.powerW >= 0) {
        return s.load.powerW;
    }
    return s.gpu.idlePowerW;
}

int tempOf(const Sample &s)
{
    return s.load.tempC >= 0 ? s.load.tempC : s.gpu.idleTempC;
}

qint64 usedOf(const Sample &s)
{
    return s.load.memoryUsedMiB;
}

// Field names and header spellings from the driver's own list (help-query-gpu.txt) and the
// fixture stream: e.g. the query "clocks.sm" prints the header "clocks.current.sm [MHz]".
const std::map<QString, Field> &fields()
{
    static const std::map<QString, Field> table{
        {QStringLiteral("timestamp"),
         {QStringLiteral("timestamp"),
          {},
          [](const Sample &s, const SimScenario &) {
              return s.time.toString(QStringLiteral("yyyy/MM/dd HH:mm:ss.zzz"));
          }}},
        {QStringLiteral("index"),
         {QStringLiteral("index"), {}, [](const Sample &s, const SimScenario &) { return QString::number(s.index); }}},
        {QStringLiteral("count"),
         {QStringLiteral("count"),
          {},
          [](const Sample &, const SimScenario &sc) { return QString::number(sc.gpus.size()); }}},
        {QStringLiteral("name"),
         {QStringLiteral("name"), {}, [](const Sample &s, const SimScenario &) { return s.gpu.name; }}},
        {QStringLiteral("uuid"),
         {QStringLiteral("uuid"), {}, [](const Sample &s, const SimScenario &) { return s.gpu.uuid; }}},
        {QStringLiteral("driver_version"),
         {QStringLiteral("driver_version"),
          {},
          [](const Sample &, const SimScenario &sc) { return sc.driverVersion; }}},
        {QStringLiteral("pci.bus_id"),
         {QStringLiteral("pci.bus_id"), {}, [](const Sample &s, const SimScenario &) { return s.gpu.pciBusId; }}},
        {QStringLiteral("memory.total"),
         {QStringLiteral("memory.total"), QStringLiteral("MiB"),
          [](const Sample &s, const SimScenario &) { return QString::number(s.gpu.memoryTotalMiB); }}},
        {QStringLiteral("memory.used"),
         {QStringLiteral("memory.used"), QStringLiteral("MiB"),
          [](const Sample &s, const SimScenario &) { return QString::number(usedOf(s)); }}},
        {QStringLiteral("memory.free"),
         {QStringLiteral("memory.free"), QStringLiteral("MiB"),
          [](const Sample &s, const SimScenario &) {
              return QString::number(s.gpu.memoryTotalMiB - s.gpu.memoryReservedMiB - usedOf(s));
          }}},
        {QStringLiteral("utilization.gpu"),
         {QStringLiteral("utilization.gpu"), QStringLiteral("%"),
          [](const Sample &s, const SimScenario &) { return QString::number(s.load.utilizationGpu); }}},
        {QStringLiteral("utilization.memory"),
         {QStringLiteral("utilization.memory"), QStringLiteral("%"),
          [](const Sample &s, const SimScenario &) { return QString::number(s.load.utilizationMemory); }}},
        {QStringLiteral("temperature.gpu"),
         {QStringLiteral("temperature.gpu"),
          {},
          [](const Sample &s, const SimScenario &) { return QString::number(tempOf(s)); }}},
        {QStringLiteral("power.draw"),
         {QStringLiteral("power.draw"), QStringLiteral("W"),
          [](const Sample &s, const SimScenario &) { return watts(powerOf(s)); }}},
        {QStringLiteral("power.limit"),
         {QStringLiteral("power.limit"), QStringLiteral("W"),
          [](const Sample &s, const SimScenario &) { return watts(s.gpu.powerLimitW); }}},
        {QStringLiteral("clocks.sm"),
         {QStringLiteral("clocks.current.sm"), QStringLiteral("MHz"),
          [](const Sample &s, const SimScenario &) {
              return QString::number(s.load.utilizationGpu > 0 ? 1980 : s.gpu.idleSmClockMHz);
          }}},
        {QStringLiteral("clocks.current.sm"),
         {QStringLiteral("clocks.current.sm"), QStringLiteral("MHz"),
          [](const Sample &s, const SimScenario &) {
              return QString::number(s.load.utilizationGpu > 0 ? 1980 : s.gpu.idleSmClockMHz);
          }}},
        {QStringLiteral("pstate"),
         {QStringLiteral("pstate"), {}, [](const Sample &, const SimScenario &) { return QStringLiteral("P0"); }}},
    };
    return table;
}

void out(const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
}

int listGpus(const SimScenario &sc)
{
    for (int i = 0; i < sc.gpus.size(); ++i) {
        out(QStringLiteral("GPU %1: %2 (UUID: %3)\n").arg(i).arg(sc.gpus[i].name, sc.gpus[i].uuid));
    }
    return 0;
}

int version(const SimScenario &sc)
{
    out(QStringLiteral(
            "NVIDIA-SMI version  : %1\nNVML version        : %2\nDRIVER version      : %1\nCUDA Version        : "
            "%3\n")
            .arg(sc.driverVersion, sc.nvmlVersion, sc.cudaVersion));
    return 0;
}

QString replaceFirst(QString block, const QString &tag, const QString &value)
{
    const QString open = QLatin1Char('<') + tag + QLatin1Char('>');
    const qsizetype start = block.indexOf(open);
    const qsizetype end = block.indexOf(QStringLiteral("</") + tag + QLatin1Char('>'), start);
    if (start >= 0 && end > start) {
        block.replace(start + open.size(), end - start - open.size(), value);
    }
    return block;
}

// Within the first <parent>…</parent> of `block`, replace <tag>…</tag>.
QString replaceIn(QString block, const QString &parent, const QString &tag, const QString &value)
{
    const QString open = QLatin1Char('<') + parent + QLatin1Char('>');
    const QString close = QStringLiteral("</") + parent + QLatin1Char('>');
    const qsizetype start = block.indexOf(open);
    const qsizetype end = block.indexOf(close, start);
    if (start < 0 || end < 0) {
        return block;
    }
    const QString inner = replaceFirst(block.mid(start, end - start), tag, value);
    return block.replace(start, end - start, inner);
}

int queryXml(const SimScenario &sc)
{
    QFile file(QStringLiteral(":/templates/nvidia-smi-q.xml"));
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "simulated nvidia-smi: template missing\n");
        return 1;
    }
    const QString text = QString::fromUtf8(file.readAll());
    const qsizetype gpuStart = text.indexOf(QStringLiteral("\t<gpu id="));
    const qsizetype gpuEnd = text.indexOf(QStringLiteral("\t</gpu>\n"), gpuStart) + 8;
    const qsizetype lastEnd = text.lastIndexOf(QStringLiteral("\t</gpu>\n")) + 8;
    QString head = text.left(gpuStart);
    const QString tail = text.mid(lastEnd);
    const QString templ = text.mid(gpuStart, gpuEnd - gpuStart);

    head = replaceFirst(head, QStringLiteral("timestamp"),
                        QDateTime::currentDateTime().toString(QStringLiteral("ddd MMM d HH:mm:ss yyyy")));
    head = replaceFirst(head, QStringLiteral("driver_version"), sc.driverVersion);
    head = replaceFirst(head, QStringLiteral("cuda_version"), sc.cudaVersion);
    head = replaceFirst(head, QStringLiteral("attached_gpus"), QString::number(sc.gpus.size()));
    out(head);
    const QList<SimGpuLoad> loads = sc.currentLoad();
    for (int i = 0; i < sc.gpus.size(); ++i) {
        const SimGpu &g = sc.gpus[i];
        const Sample s{i, g, loads.value(i), QDateTime::currentDateTime()};
        QString b = templ;
        const qsizetype idStart = b.indexOf(QLatin1Char('"')) + 1;
        b.replace(idStart, b.indexOf(QLatin1Char('"'), idStart) - idStart, g.pciBusId);
        b = replaceFirst(b, QStringLiteral("product_name"), g.name);
        b = replaceFirst(b, QStringLiteral("product_architecture"), g.architecture);
        b = replaceFirst(b, QStringLiteral("uuid"), g.uuid);
        b = replaceFirst(b, QStringLiteral("minor_number"), QString::number(i));
        b = replaceIn(b, QStringLiteral("pci"), QStringLiteral("pci_bus_id"), g.pciBusId);
        const QString mib = QStringLiteral("%1 MiB");
        b = replaceIn(b, QStringLiteral("fb_memory_usage"), QStringLiteral("total"), mib.arg(g.memoryTotalMiB));
        b = replaceIn(b, QStringLiteral("fb_memory_usage"), QStringLiteral("reserved"), mib.arg(g.memoryReservedMiB));
        b = replaceIn(b, QStringLiteral("fb_memory_usage"), QStringLiteral("used"), mib.arg(usedOf(s)));
        b = replaceIn(b, QStringLiteral("fb_memory_usage"), QStringLiteral("free"),
                      mib.arg(g.memoryTotalMiB - g.memoryReservedMiB - usedOf(s)));
        b = replaceIn(b, QStringLiteral("utilization"), QStringLiteral("gpu_util"),
                      QStringLiteral("%1 %").arg(s.load.utilizationGpu));
        b = replaceIn(b, QStringLiteral("utilization"), QStringLiteral("memory_util"),
                      QStringLiteral("%1 %").arg(s.load.utilizationMemory));
        b = replaceIn(b, QStringLiteral("temperature"), QStringLiteral("gpu_temp"),
                      QStringLiteral("%1 C").arg(tempOf(s)));
        const QString w = QStringLiteral("%1 W");
        b = replaceIn(b, QStringLiteral("gpu_power_readings"), QStringLiteral("average_power_draw"),
                      w.arg(watts(powerOf(s))));
        b = replaceIn(b, QStringLiteral("gpu_power_readings"), QStringLiteral("instant_power_draw"),
                      w.arg(watts(powerOf(s))));
        for (const char *limit :
             {"current_power_limit", "requested_power_limit", "default_power_limit", "max_power_limit"}) {
            b = replaceIn(b, QStringLiteral("gpu_power_readings"), QString::fromLatin1(limit),
                          w.arg(watts(g.powerLimitW)));
        }
        // Every process holding memory, in the driver's own layout (the busy H200 capture).
        QString processes = QStringLiteral("<processes>\n");
        for (const SimGpuProcess &p : sc.smiListsNoProcesses ? QList<SimGpuProcess>() : s.load.processes) {
            processes += QStringLiteral("\t\t\t<process_info>\n"
                                        "\t\t\t\t<gpu_instance_id>N/A</gpu_instance_id>\n"
                                        "\t\t\t\t<compute_instance_id>N/A</compute_instance_id>\n"
                                        "\t\t\t\t<pid>%1</pid>\n"
                                        "\t\t\t\t<type>C</type>\n"
                                        "\t\t\t\t<process_name>%2</process_name>\n"
                                        "\t\t\t\t<used_memory>%3 MiB</used_memory>\n"
                                        "\t\t\t</process_info>\n")
                             .arg(p.pid)
                             .arg(p.name.toHtmlEscaped())
                             .arg(p.usedMiB);
        }
        const qsizetype open = b.indexOf(QStringLiteral("<processes>"));
        const qsizetype close = b.indexOf(QStringLiteral("</processes>"), open);
        if (open >= 0 && close > open) {
            b.replace(open, close - open, processes + QStringLiteral("\t\t"));
        }
        out(b);
    }
    out(tail);
    return 0;
}

int queryGpu(const SimScenario &sc, const QStringList &names, bool header, bool units, int loopMs)
{
    QList<const Field *> selected;
    for (const QString &n : names) {
        const auto it = fields().find(n.trimmed());
        if (it == fields().end()) {
            // The real tool's wording for an unknown field.
            out(QStringLiteral("Field \"%1\" is not a valid field to query.\n\n").arg(n.trimmed()));
            return 2;
        }
        selected.append(&it->second);
    }
    if (header) {
        QStringList cols;
        for (const Field *f : selected) {
            cols.append(f->unit.isEmpty() ? f->header : QStringLiteral("%1 [%2]").arg(f->header, f->unit));
        }
        out(cols.join(QStringLiteral(", ")) + QLatin1Char('\n'));
    }
    for (;;) {
        const QList<SimGpuLoad> loads = sc.currentLoad();
        for (int i = 0; i < sc.gpus.size(); ++i) {
            const Sample s{i, sc.gpus[i], loads.value(i), QDateTime::currentDateTime()};
            QStringList cols;
            for (const Field *f : selected) {
                const QString v = f->value(s, sc);
                cols.append(units && !f->unit.isEmpty() ? v + QLatin1Char(' ') + f->unit : v);
            }
            out(cols.join(QStringLiteral(", ")) + QLatin1Char('\n'));
        }
        std::fflush(stdout);
        if (loopMs <= 0 || std::ferror(stdout)) {
            return std::ferror(stdout) ? 1 : 0;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(loopMs));
    }
}

// The plain `nvidia-smi` table (driver 5xx layout: 41/24/22-column cells, 91 columns wide), as
// F15's "run nvidia-smi inside the image" shows it. Values come from the scenario and load.
int plainTable(const SimScenario &sc)
{
    const QString rule =
        QStringLiteral("+-----------------------------------------+------------------------+----------------------+\n");
    auto line = [](const QString &inner) -> QString {
        return QStringLiteral("|") + inner.leftJustified(89) + QStringLiteral("|\n");
    };
    auto row = [](const QString &a, const QString &b, const QString &c) -> QString {
        return QStringLiteral("|") + a.leftJustified(41) + QStringLiteral("|") + b.leftJustified(24) +
            QStringLiteral("|") + c.leftJustified(22) + QStringLiteral("|\n");
    };
    QString t =
        QDateTime::currentDateTime().toString(QStringLiteral("ddd MMM d HH:mm:ss yyyy")) + QStringLiteral("       \n");
    t += QStringLiteral("+") + QString(89, QLatin1Char('-')) + QStringLiteral("+\n");
    t += line(QStringLiteral(" NVIDIA-SMI %1 Driver Version: %2 CUDA Version: %3")
                  .arg(sc.driverVersion.leftJustified(22), sc.driverVersion.leftJustified(14),
                       sc.cudaVersion.leftJustified(9)));
    t += rule;
    t += row(QStringLiteral(" GPU  Name                 Persistence-M"), QStringLiteral(" Bus-Id          Disp.A"),
             QStringLiteral(" Volatile Uncorr. ECC"));
    t += row(QStringLiteral(" Fan  Temp   Perf          Pwr:Usage/Cap"), QStringLiteral("           Memory-Usage"),
             QStringLiteral(" GPU-Util  Compute M."));
    t += row(QString(), QString(), QStringLiteral("               MIG M."));
    t +=
        QStringLiteral("|=========================================+========================+======================|\n");
    const QList<SimGpuLoad> loads = sc.currentLoad();
    for (int i = 0; i < sc.gpus.size(); ++i) {
        const SimGpu &g = sc.gpus[i];
        const SimGpuLoad l = loads.value(i);
        const int temp = l.tempC >= 0 ? l.tempC : g.idleTempC;
        const double power = l.powerW >= 0 ? l.powerW : g.idlePowerW;
        t += row(QStringLiteral("%1  %2On  ").arg(i, 4).arg(g.name.left(30).leftJustified(31)),
                 QStringLiteral(" %1 Off ").arg(g.pciBusId.right(16), 18), QStringLiteral("%1 ").arg(0, 21));
        t += row(QStringLiteral(" N/A  %1C    P0%2W / %3W ")
                     .arg(temp, 3)
                     .arg(qRound(power), 15)
                     .arg(qRound(g.powerLimitW), 4),
                 QStringLiteral("%1MiB / %2MiB ").arg(l.memoryUsedMiB, 8).arg(g.memoryTotalMiB, 6),
                 QStringLiteral("%1%      Default ").arg(l.utilizationGpu, 7));
        t += row(QString(), QString(), QStringLiteral("             Disabled "));
        t += rule;
    }
    t += QString(91, QLatin1Char(' ')) + QLatin1Char('\n');
    t += QStringLiteral("+") + QString(89, QLatin1Char('-')) + QStringLiteral("+\n");
    t += line(QStringLiteral(" Processes:"));
    t += line(
        QStringLiteral("  GPU   GI   CI              PID   Type   Process name                        GPU Memory"));
    t += line(QStringLiteral("        ID   ID                                                               Usage"));
    t += QStringLiteral("|") + QString(89, QLatin1Char('=')) + QStringLiteral("|\n");
    bool any = false;
    for (int i = 0; i < sc.gpus.size(); ++i) {
        const SimGpuLoad l = loads.value(i);
        if (l.memoryUsedMiB > 0 && l.pid > 0 && !sc.smiListsNoProcesses) {
            any = true;
            t += line(QStringLiteral("  %1   N/A  N/A  %2      C   %3 %4MiB ")
                          .arg(i, 3)
                          .arg(l.pid, 15)
                          .arg(QStringLiteral("python3").leftJustified(35))
                          .arg(l.memoryUsedMiB, 10));
        }
    }
    if (!any) {
        t += line(QStringLiteral("  No running processes found"));
    }
    t += QStringLiteral("+") + QString(89, QLatin1Char('-')) + QStringLiteral("+\n");
    out(t);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QString error;
    const std::optional<SimScenario> scenario = SimScenario::fromEnvironment(&error);
    if (!scenario) {
        std::fprintf(stderr, "simulated nvidia-smi: %s\n", qPrintable(error));
        return 9;
    }
    QStringList args;
    for (int i = 1; i < argc; ++i) {
        args.append(QString::fromLocal8Bit(argv[i]));
    }
    QStringList query;
    QString format;
    bool xml = false;
    bool q = false;
    int loopMs = 0;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (a == QStringLiteral("-L") || a == QStringLiteral("--list-gpus")) {
            return listGpus(*scenario);
        }
        if (a == QStringLiteral("--version")) {
            return version(*scenario);
        }
        if (a == QStringLiteral("-q") || a == QStringLiteral("--query")) {
            q = true;
        } else if (a == QStringLiteral("-x") || a == QStringLiteral("--xml-format")) {
            xml = true;
        } else if (a.startsWith(QStringLiteral("--query-gpu="))) {
            query = a.mid(12).split(QLatin1Char(','));
        } else if (a.startsWith(QStringLiteral("--format="))) {
            format = a.mid(9);
        } else if (a == QStringLiteral("-lms") && i + 1 < args.size()) {
            loopMs = args.at(++i).toInt();
        } else if (a.startsWith(QStringLiteral("--loop-ms="))) {
            loopMs = a.mid(10).toInt();
        } else if (a == QStringLiteral("-l") && i + 1 < args.size()) {
            loopMs = args.at(++i).toInt() * 1000;
        } else if (a.startsWith(QStringLiteral("--loop="))) {
            loopMs = a.mid(7).toInt() * 1000;
        } else {
            std::fprintf(stderr, "simulated nvidia-smi: option %s is not simulated\n", qPrintable(a));
            return 2;
        }
    }
    if (q && xml) {
        return queryXml(*scenario);
    }
    if (!query.isEmpty()) {
        const QStringList fmt = format.split(QLatin1Char(','));
        if (!fmt.contains(QStringLiteral("csv"))) {
            out(QStringLiteral("Only CSV output format is supported for --query-gpu.\n"));
            return 2;
        }
        return queryGpu(*scenario, query, !fmt.contains(QStringLiteral("noheader")),
                        !fmt.contains(QStringLiteral("nounits")), loopMs);
    }
    if (args.isEmpty()) {
        return plainTable(*scenario);
    }
    std::fprintf(stderr, "simulated nvidia-smi: this form is not simulated (see tests/simhost/README.md)\n");
    return 2;
}
