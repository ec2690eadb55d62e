// `flashdeck logs --file F --highlights-only > out` against `grep -E` with the same literals
// (`make bench`, issue 27): a million SGLang lines, 55 % of them decode batches (a real server
// logs one every 40 decode steps per rank, so they are most of its log), then the same file
// without them. Whole processes, output to a file, several runs alternated, medians. Prints a
// table; figures go to docs/PERFORMANCE.md. Nothing here asserts a time.

#include "backend/logs/logrules.h"
#include "tests/bench/benchmachine.h"
#include "tests/bench/benchprocess.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace flashdeck;
using flashdeck::bench::median;

namespace {

// Lines as SGLang writes them (tests/data/sglang-logs, sglang-facts §3, §11).
const char *const kDecode[] = {
    "[2026-11-30 08:40:12 TP0] Decode batch. #running-req: 37, #token: 412032, token usage: 0.04, accept len: 3.12, "
    "cuda graph: True, gen throughput (token/s): 1635.22, #queue-req: 0, ",
    "[2026-11-30 08:40:13 TP0] Decode batch. #running-req: 38, #token: 415100, token usage: 0.04, accept len: 3.09, "
    "cuda graph: True, gen throughput (token/s): 1641.80, #queue-req: 1, ",
};
const char *const kOther[] = {
    "[2026-11-30 08:40:12] INFO:     127.0.0.1:51234 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK",
    "[2026-11-30 08:40:12 TP0] Prefill batch. #new-seq: 1, #new-token: 812, #cached-token: 4096, token usage: 0.04, "
    "#running-req: 36, #queue-req: 0, ",
    "[2026-11-30 08:40:14] INFO:     127.0.0.1:51240 - \"GET /health HTTP/1.1\" 200 OK",
    "[2026-11-30 08:40:14] INFO:     127.0.0.1:51242 - \"GET /metrics HTTP/1.1\" 200 OK",
    "[2026-11-30 08:31:55 TP0] Compiled inference.dequant.nvfp4_to_fp8 backend=qmul4 in 12.3s",
    "[2026-11-30 08:31:56 TP0] KV Cache is allocated. #tokens: 10400000, K size: 61.20 GB, V size: 61.20 GB",
};

/** `lines` lines, `decodePercent` % of them decode batches, spread as a server writes them. */
QString writeLog(const QString &path, int lines, int decodePercent)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        return f.errorString();
    }
    QByteArray out;
    std::uint32_t seed = 27;
    for (int i = 0; i < lines; ++i) {
        seed = seed * 1664525u + 1013904223u;
        const std::uint32_t r = seed >> 8;
        out += int(r % 100) < decodePercent ? kDecode[(r >> 8) % 2] : kOther[(r >> 8) % 6];
        out += '\n';
        if (out.size() > (1 << 20)) {
            f.write(out);
            out.clear();
        }
    }
    f.write(out);
    return {};
}

struct Run
{
    double seconds = 0;
    qint64 outputLines = 0;
};

Run run(const QString &program, const QStringList &args, const QString &output)
{
    QProcess p;
    p.setStandardOutputFile(output);
    p.setStandardErrorFile(QProcess::nullDevice());
    QElapsedTimer t;
    t.start();
    p.start(program, args);
    p.waitForFinished(-1);
    Run r;
    r.seconds = double(t.nsecsElapsed()) / 1e9;
    QFile f(output);
    if (f.open(QIODevice::ReadOnly)) {
        while (!f.atEnd()) {
            r.outputLines += f.read(1 << 20).count('\n');
        }
    }
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const logs::LogRules rules = bench::builtInRulesOrExit();
    const int lines = qEnvironmentVariableIntValue("FLASHDECK_BENCH_TRIAGE_LINES") > 0
        ? qEnvironmentVariableIntValue("FLASHDECK_BENCH_TRIAGE_LINES")
        : 1000000;
    const int runs = 5;
    // FLASHDECK_BENCH_BIN: another build's binary, to measure a before and an after in one run.
    const QString flashdeck = qEnvironmentVariable("FLASHDECK_BENCH_BIN", QStringLiteral(FLASHDECK_BIN));
    QTemporaryDir dir;
    QStringList grepArgs{QStringLiteral("-E")};
    for (const logs::LogRule &r : rules.rules()) {
        for (const QByteArray &m : r.match) {
            grepArgs << QStringLiteral("-e") << QRegularExpression::escape(QString::fromUtf8(m));
        }
    }
    bench::printMachine({QStringLiteral("sse4_2"), QStringLiteral("avx2"), QStringLiteral("avx512f")});
    std::printf("%-44s %12s %12s %8s %14s\n", "flashdeck logs --file --highlights-only", "Flashdeck s", "grep -E s",
                "ratio", "lines printed");
    for (const int decode : {55, 0}) {
        const QString log = dir.filePath(QStringLiteral("sglang-%1.log").arg(decode));
        if (const QString e = writeLog(log, lines, decode); !e.isEmpty()) {
            std::fprintf(stderr, "cannot write %s: %s\n", qPrintable(log), qPrintable(e));
            return 1;
        }
        std::vector<double> ours;
        std::vector<double> grep;
        Run o;
        Run g;
        for (int i = 0; i < runs; ++i) { // alternated: a busy moment costs both
            o = run(flashdeck,
                    {QStringLiteral("--config-dir"), dir.filePath(QStringLiteral("cfg")), QStringLiteral("logs"),
                     QStringLiteral("--file"), log, QStringLiteral("--highlights-only")},
                    dir.filePath(QStringLiteral("ours.out")));
            g = run(QStringLiteral("grep"), grepArgs + QStringList{log}, dir.filePath(QStringLiteral("grep.out")));
            ours.push_back(o.seconds);
            grep.push_back(g.seconds);
        }
        const double os = median(ours);
        const double gs = median(grep);
        std::printf("%-44s %12.3f %12.3f %7.2fx %7lld/%lld\n",
                    qPrintable(QStringLiteral("%1 lines, %2 % decode").arg(lines).arg(decode)), os, gs, gs / os,
                    static_cast<long long>(o.outputLines), static_cast<long long>(g.outputLines));
        std::printf("  every run, Flashdeck: %s; grep: %s\n", qPrintable(bench::runsText(ours)),
                    qPrintable(bench::runsText(grep)));
    }
    std::printf("(ratio = grep's seconds / Flashdeck's: >= 1.0 is as fast as grep; medians of %d runs)\n", runs);
    return 0;
}
