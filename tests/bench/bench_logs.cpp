// Log pipeline benchmarks (`make bench`, issue 6): lines classified into the ring buffer per
// second against `grep -E` with the same patterns on the same file (default 1 GiB of real SGLang
// lines, FLASHDECK_BENCH_LOG_MB to change), and the GUI event loop's latency while 50 000 lines
// a second stream into the Logs page's view. Prints every run, the medians (of five by default,
// FLASHDECK_BENCH_LOG_RUNS), the CPU and the features the classifier chooses by; figures go to
// docs/PERFORMANCE.md, one row per machine. Nothing here asserts a time.

#include "backend/logs/linesplitter.h"
#include "backend/logs/logbuffer.h"
#include "backend/logs/logrules.h"
#include "tests/bench/benchmachine.h"
#include "ui/logs/logmodel.h"
#include "ui/logs/logpanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QListView>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace flashdeck;

namespace {

// Lines as SGLang writes them (sglang-facts §3, §11): mostly decode batches and access lines,
// with the start-up milestones now and then.
const char *const kLines[] = {
    "[2026-11-30 08:40:12 TP0] Decode batch. #running-req: 37, #token: 412032, token usage: 0.04, accept len: 3.12, "
    "cuda graph: True, gen throughput (token/s): 1635.22, #queue-req: 0, ",
    "[2026-11-30 08:40:12] INFO:     127.0.0.1:51234 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK",
    "[2026-11-30 08:40:12 TP0] Prefill batch. #new-seq: 1, #new-token: 812, #cached-token: 4096, token usage: 0.04, "
    "#running-req: 36, #queue-req: 0, ",
    "[2026-11-30 08:31:55 TP0] Compiled inference.dequant.nvfp4_to_fp8 backend=qmul4 in 12.3s",
    "[2026-11-30 08:31:56 TP0] KV Cache is allocated. #tokens: 10400000, K size: 61.20 GB, V size: 61.20 GB",
    "[2026-11-30 08:32:10] The server is fired up and ready to roll!",
    "[2026-11-30 08:40:13 TP0] Decode batch. #running-req: 38, #token: 415100, token usage: 0.04, accept len: 3.09, "
    "cuda graph: True, gen throughput (token/s): 1641.80, #queue-req: 1, ",
};

QString writeLog(const QString &path, qint64 bytes, qint64 *lines)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        return f.errorString();
    }
    QByteArray block;
    qint64 inBlock = 0;
    for (int i = 0; block.size() < (1 << 20); ++i) {
        block += kLines[(i * 7 + i / 3) % (sizeof kLines / sizeof *kLines)];
        block += '\n';
        ++inBlock;
    }
    *lines = 0;
    for (qint64 written = 0; written < bytes; written += block.size()) {
        f.write(block);
        *lines += inBlock;
    }
    return {};
}

QString regexEscape(const QByteArray &s)
{
    return QRegularExpression::escape(QString::fromUtf8(s));
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    const auto rules = logs::LogRules::builtIn();
    if (!rules) {
        std::fprintf(stderr, "%s\n", qPrintable(rules.message()));
        return 1;
    }
    const qint64 mb = qEnvironmentVariableIntValue("FLASHDECK_BENCH_LOG_MB") > 0
        ? qEnvironmentVariableIntValue("FLASHDECK_BENCH_LOG_MB")
        : 1024;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sglang.log"));
    qint64 lines = 0;
    if (const QString e = writeLog(path, mb << 20, &lines); !e.isEmpty()) {
        std::fprintf(stderr, "cannot write %s: %s\n", qPrintable(path), qPrintable(e));
        return 1;
    }

    // 1. Flashdeck: read, split (CR, CRLF, 1 MiB cap), classify, into the 200 000-line ring; with
    // the vector filter where this CPU has it, then with the portable matcher alone (what a CPU
    // without AVX2 runs), so that both are measured against the same grep.
    const auto pipeline = [&path](const logs::LogRules &classifier) {
        QElapsedTimer t;
        t.start();
        QFile f(path);
        (void)f.open(QIODevice::ReadOnly);
        logs::LineSplitter splitter;
        logs::LogBuffer buffer;
        QList<logs::LogRecord> batch;
        qint64 seq = 0;
        while (!f.atEnd()) {
            QList<logs::SplitLine> split = splitter.feed(f.read(1 << 20));
            batch.reserve(split.size());
            for (logs::SplitLine &l : split) { // the lines' text moves on, as LogFollower's does
                logs::LogRecord r;
                r.seq = ++seq;
                r.rule = qint16(classifier.classify(l.text));
                r.text = std::move(l.text);
                batch.append(std::move(r));
            }
            (void)buffer.append(std::move(batch));
            batch = QList<logs::LogRecord>();
        }
        return double(t.nsecsElapsed()) / 1e9;
    };
    const logs::LogRules portable = rules.value().withoutVectorScan();

    // 2. grep -E with the same patterns, counting matches (its fastest output).
    QStringList grepArgs{QStringLiteral("-E"), QStringLiteral("-c")};
    for (const logs::LogRule &r : rules.value().rules()) {
        for (const QByteArray &m : r.match) {
            grepArgs << QStringLiteral("-e") << regexEscape(m);
        }
    }
    grepArgs << path;
    const auto grepRun = [&grepArgs] {
        QProcess grep;
        QElapsedTimer t;
        t.start();
        grep.start(QStringLiteral("grep"), grepArgs);
        grep.waitForFinished(-1);
        return double(t.nsecsElapsed()) / 1e9;
    };

    // The three take turns, run by run, so that a machine busy for a moment costs each alike.
    const int runs = qEnvironmentVariableIntValue("FLASHDECK_BENCH_LOG_RUNS") > 0
        ? qEnvironmentVariableIntValue("FLASHDECK_BENCH_LOG_RUNS")
        : 5;
    const bench::Machine machine = bench::describeMachine(
        {QStringLiteral("sse4_2"), QStringLiteral("avx2"), QStringLiteral("avx512f"), QStringLiteral("avx512bw")});
    std::printf("%s\n", qPrintable(bench::machineLine(machine)));
    std::printf("classifier: %s\n\n", rules.value().usesVectorScan() ? "vector (AVX2)" : "portable");
    std::printf("%-6s %12s %12s %12s %10s %10s\n", "run", "Flashdeck", "portable", "grep -E", "ratio", "portable");
    std::vector<double> ours, portables, greps;
    for (int run = 1; run <= runs; ++run) {
        ours.push_back(pipeline(rules.value()));
        portables.push_back(pipeline(portable));
        greps.push_back(grepRun());
        std::printf("%-6d %12.2f %12.2f %12.2f %9.2fx %9.2fx\n", run, ours.back(), portables.back(), greps.back(),
                    greps.back() / ours.back(), greps.back() / portables.back());
    }
    const double oursS = bench::medianOf(ours);
    const double portableS = bench::medianOf(portables);
    const double grepS = bench::medianOf(greps);
    std::printf("\n%-58s %14s %14s\n", "log pipeline, medians", "Flashdeck", "grep -E");
    std::printf("%-58s %14.2f %14.2f\n", qPrintable(QStringLiteral("%1 MiB, %2 lines: seconds").arg(mb).arg(lines)),
                oursS, grepS);
    std::printf("%-58s %14.0f %14.0f\n", "lines per second", double(lines) / oursS, double(lines) / grepS);
    std::printf("%-58s %14.2f\n", "ratio (goal >= 1.5)", grepS / oursS);
    std::printf("%-58s %14.2f\n", "the same, portable matcher only: seconds", portableS);
    std::printf("%-58s %14.2f\n", "its ratio", grepS / portableS);

    // Where the pipeline's time goes: the same file read alone, then split, then each line
    // classified (no record, no ring), medians of three; the rest of the pipeline's time is the
    // records and the ring.
    const auto stage = [&path](const std::function<void(const QByteArray &)> &onChunk) {
        std::vector<double> s;
        for (int i = 0; i < 3; ++i) {
            QElapsedTimer t;
            t.start();
            QFile f(path);
            (void)f.open(QIODevice::ReadOnly);
            while (!f.atEnd()) {
                onChunk(f.read(1 << 20));
            }
            s.push_back(double(t.nsecsElapsed()) / 1e9);
        }
        return bench::medianOf(s);
    };
    qint64 sink = 0;
    const double readS = stage([&sink](const QByteArray &chunk) { sink += chunk.size(); });
    logs::LineSplitter splitOnly;
    const double splitS = stage([&](const QByteArray &chunk) {
        splitOnly.feedEach(chunk, [&sink](QByteArrayView line, bool, bool) { sink += line.size(); });
    });
    const auto classifyStage = [&](const logs::LogRules &classifier) {
        logs::LineSplitter splitter;
        return stage([&](const QByteArray &chunk) {
            splitter.feedEach(chunk, [&](QByteArrayView line, bool, bool) { sink += classifier.classify(line); });
        });
    };
    const double vectorS = classifyStage(rules.value());
    const double portableClassifyS = classifyStage(portable);
    std::printf("\n%-58s %14s\n", "where the time goes (medians of 3)", "seconds");
    std::printf("%-58s %14.2f\n", "read the file (1 MiB reads)", readS);
    std::printf("%-58s %14.2f\n", "splitting into lines", splitS - readS);
    std::printf("%-58s %14.2f\n", "classifying them, the chosen classifier", vectorS - splitS);
    std::printf("%-58s %14.2f\n", "classifying them, the portable classifier", portableClassifyS - splitS);
    std::printf("%-58s %14.2f\n", "records and the ring (the pipeline's rest)", oursS - vectorS);
    std::printf("%-58s %14lld\n", "(checksum)", qlonglong(sink % 1000));

    if (qEnvironmentVariableIsSet("FLASHDECK_BENCH_NO_GUI")) {
        return 0; // for profiling the pipeline alone
    }
    // 3. The GUI thread while 50 000 lines/s arrive in batches of 2 500 every 50 ms: a probe
    // timer every 2 ms measures how late the event loop serves it.
    ui::LogPanel panel(rules.value());
    panel.resize(1400, 800);
    panel.show();
    QList<logs::LogRecord> feed;
    for (int i = 0; i < 2500; ++i) {
        logs::LogRecord r;
        r.text = kLines[i % (sizeof kLines / sizeof *kLines)];
        r.rule = qint16(rules.value().classify(r.text));
        r.timeNs = 1796062692000000000LL + i;
        feed.append(r);
    }
    qint64 seq = 0;
    QTimer producer;
    producer.setTimerType(Qt::PreciseTimer);
    QObject::connect(&producer, &QTimer::timeout, [&] {
        for (logs::LogRecord &r : feed) {
            r.seq = ++seq;
        }
        panel.appendRecords(feed);
    });
    std::vector<double> lateMs;
    QElapsedTimer probeClock;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const double elapsed = double(probeClock.nsecsElapsed()) / 1e6;
        lateMs.push_back(std::max(0.0, elapsed - 2.0));
        probeClock.restart();
    });
    producer.start(50);
    probeClock.start();
    probe.start(2);
    QTimer::singleShot(10000, &app, &QApplication::quit);
    app.exec();
    std::sort(lateMs.begin(), lateMs.end());
    auto pct = [&lateMs](double p) { return lateMs.empty() ? 0.0 : lateMs[size_t(p * double(lateMs.size() - 1))]; };
    std::printf("\n%-58s %14s\n", "GUI event loop, 50 000 lines/s into the Logs view (10 s)", "ms late");
    std::printf("%-58s %14.2f\n", "p50", pct(0.50));
    std::printf("%-58s %14.2f\n", "p99 (goal < 16)", pct(0.99));
    std::printf("%-58s %14.2f\n", "max", lateMs.empty() ? 0.0 : lateMs.back());
    std::printf("%-58s %14lld\n", "lines shown (ring of 200 000)", qlonglong(panel.model()->total()));
    return 0;
}
