// Metrics benchmarks (`make bench`): the Prometheus parse of a large scrape, and the time
// series behind the charts (a day at 1 Hz, the 24 h window of 8 GPUs downsampled to a chart's
// width). Prints a table; figures go to docs/PERFORMANCE.md. Nothing here asserts a time.

#include "backend/metrics/metricsarchive.h"
#include "backend/metrics/prometheustext.h"
#include "backend/metrics/serversnapshot.h"
#include "backend/metrics/timeseries.h"
#include "tests/bench/benchmachine.h"
#include "ui/charts/timechart.h"

#include <QApplication>
#include <QByteArray>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace flashdeck::metrics;

namespace {

/** A scrape shaped like SGLang's: gauges per TP rank, and histograms with 20 buckets each. */
QByteArray scrape(int series)
{
    QByteArray text;
    int n = 0;
    for (int family = 0; n < series; ++family) {
        text += "# HELP sglang:metric_" + QByteArray::number(family) + " A metric.\n# TYPE sglang:metric_" +
            QByteArray::number(family) + " gauge\n";
        for (int rank = 0; rank < 8 && n < series; ++rank, ++n) {
            text += "sglang:metric_" + QByteArray::number(family) +
                "{engine_type=\"unified\",model_name=\"MiniMaxAI/MiniMax-M3.1-Flash\",pp_rank=\"0\",tp_rank=\"" +
                QByteArray::number(rank) + "\"} " + QByteArray::number(1234.5678 * (rank + 1), 'g', 10) + "\n";
        }
    }
    return text;
}

/** Median of `runs` timings of f, in microseconds. */
template<typename F>
double medianUs(int runs, F &&f)
{
    std::vector<double> t;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer timer;
        timer.start();
        f();
        t.push_back(double(timer.nsecsElapsed()) / 1000.0);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    flashdeck::bench::printMachine();
    std::printf("%-58s %12s  %s\n", "benchmark", "median", "goal");
    const QByteArray text = scrape(2000);
    std::size_t samples = 0;
    const double parse = medianUs(200, [&] { samples += std::size_t(parsePrometheusText(text).samples.size()); });
    std::printf("%-58s %9.0f µs  < 2 ms (issue 7)\n",
                qPrintable(QStringLiteral("Prometheus parse, 2 000 series (%1 kB)").arg(text.size() / 1024)), parse);
    const PromScrape parsed = parsePrometheusText(text);
    const double snap = medianUs(200, [&] { (void)snapshotFromMetrics(parsed, 0); });
    std::printf("%-58s %9.0f µs\n", "server snapshot from that scrape", snap);

    std::vector<TimeSeries> gpus(8);
    QElapsedTimer fill;
    fill.start();
    for (qint64 t = 0; t < 86400; ++t) {
        for (std::size_t g = 0; g < gpus.size(); ++g) {
            gpus[g].append(t * 1000, double((t * 7 + qint64(g) * 13) % 100));
        }
    }
    const double perAppend = double(fill.nsecsElapsed()) / (86400.0 * 8);
    std::printf("%-58s %9.0f ns\n", "time series append (24 h x 8 GPUs at 1 Hz, per sample)", perAppend);
    std::size_t points = 0;
    const double window = medianUs(50, [&] {
        for (const TimeSeries &s : gpus) {
            points += std::size_t(s.window(0, 86400 * 1000, 1200).size());
        }
    });
    std::printf("%-58s %9.0f µs  < 16 ms per frame with drawing (issue 7)\n",
                "24 h window of 8 GPUs downsampled to 1 200 columns", window);
    std::printf("%-58s %9.0f kB\n", "memory of one full series (24 h)", double(gpus[0].memoryBytes()) / 1024.0);

    // On-disk retention: a host of 8 GPUs (4 series each) and 14 server series, all full.
    {
        SeriesMap host;
        for (int i = 0; i < 46; ++i) {
            host.insert(QStringLiteral("series.%1").arg(i), std::make_shared<TimeSeries>(gpus[std::size_t(i % 8)]));
        }
        QTemporaryDir dir;
        const MetricsArchive archive(dir.path() + QStringLiteral("/host.fdts"));
        const double save = medianUs(5, [&] { (void)archive.save(host, 86400 * 1000); });
        const double load = medianUs(5, [&] { (void)archive.load(86400 * 1000); });
        std::printf("%-58s %9.1f ms\n",
                    qPrintable(QStringLiteral("chart history of a full host, write (%1 MB, 46 series)")
                                   .arg(double(QFileInfo(archive.file()).size()) / 1e6, 0, 'f', 1)),
                    save / 1000.0);
        std::printf("%-58s %9.1f ms\n", "chart history of a full host, read back", load / 1000.0);
    }

    // The chart itself: 8 GPU lines over 24 h, refreshed (downsample + replace) and painted.
    flashdeck::ui::TimeChart chart(QStringLiteral("GPU utilisation"), QStringLiteral("%"));
    chart.resize(480, 240);
    for (std::size_t g = 0; g < gpus.size(); ++g) {
        const TimeSeries *s = &gpus[g];
        chart.addLine(QStringLiteral("GPU %1").arg(g), QColor::fromHsv(int(g) * 45, 200, 200), [s] { return s; });
    }
    chart.show();
    // grab() paints through the view's paintEvent, as the screen does.
    const double refreshOnly = medianUs(30, [&] { chart.refresh(86400 * 1000, 86400 * 1000); });
    const double draw = medianUs(30, [&] {
        chart.refresh(86400 * 1000, 86400 * 1000);
        (void)chart.grab();
    });
    std::printf("%-58s %9.0f µs\n", "chart refresh only: 24 h x 8 GPUs (480 px)", refreshOnly);
    std::printf("%-58s %9.0f µs  < 16 ms (issue 7)\n", "chart frame: 24 h x 8 GPUs, refresh and paint (480 px)", draw);
    return samples > 0 && points > 0 ? 0 : 1;
}
