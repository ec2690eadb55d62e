// The ready wait's log checks over a first start's log (`make bench`, issue 42): a million lines
// (the download's and the shards' progress, kernels compiling, a server's requests) fed as the
// stream delivers them, 64 lines a read, every failure rule asked after each read as the wait
// asks it. Against `grep -E` with the failure rules' substrings over the same file once (what an
// operator runs instead: `docker logs … | grep -E`), and against the old way (the whole log
// classified again on each read) at sizes where that still ends. Prints a table; figures go to
// docs/PERFORMANCE.md. Nothing here asserts a time.

#include "backend/deploy/checks.h"
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

// Lines as a first start of SGLang prints them (tests/data/sglang-logs, sglang-facts §3, §6).
const char *const kStart[] = {
    "Downloading (incomplete total...):  41%|████      | 103G/252G [12:01<17:22, 143MB/s]",
    "[2026-11-30 08:20:12 TP0] Loading safetensors checkpoint shards:  37% Completed | 36/96 [01:02<01:50,  1.15s/it]",
    "[2026-11-30 08:25:40 TP0] Compiling kernel fused_moe_kernel (num_warps=4, num_stages=3) for M=256",
    "[2026-11-30 08:40:12] INFO:     127.0.0.1:51240 - \"GET /health HTTP/1.1\" 503 Service Unavailable",
    "[2026-11-30 08:40:12 TP0] Prefill batch. #new-seq: 1, #new-token: 812, #cached-token: 4096, token usage: 0.04, "
    "#running-req: 36, #queue-req: 0, ",
    "[2026-11-30 08:40:13 TP0] Decode batch. #running-req: 38, #token: 415100, token usage: 0.04, accept len: 3.09, "
    "cuda graph: True, gen throughput (token/s): 1641.80, #queue-req: 1, ",
};

QStringList startLines(int n)
{
    QStringList out;
    out.reserve(n);
    std::uint32_t seed = 42;
    for (int i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        out << QString::fromUtf8(kStart[(seed >> 8) % 6]);
    }
    out << QStringLiteral("[2026-11-30 08:47:09] The server is fired up and ready to roll!");
    return out;
}

constexpr int kRead = 64;

/** The wait's way: append each read's lines, then ask for a named failure. */
double incremental(const QStringList &lines, const logs::LogRules &rules, int *verdicts)
{
    QElapsedTimer t;
    t.start();
    deploy::StartLog log(rules);
    for (qsizetype at = 0; at < lines.size(); at += kRead) {
        for (qsizetype i = at; i < std::min(lines.size(), at + kRead); ++i) {
            (void)log.append(lines.at(i));
        }
        *verdicts += deploy::checks::launchFailure(log, true).status == recipe::StepStatus::Fail;
    }
    return double(t.nsecsElapsed()) / 1e9;
}

/** The old way: the whole log so far classified again after each read. */
double everyReadAgain(const QStringList &lines, const logs::LogRules &rules, int *verdicts)
{
    QElapsedTimer t;
    t.start();
    QStringList sofar;
    for (qsizetype at = 0; at < lines.size(); at += kRead) {
        sofar += lines.mid(at, kRead);
        *verdicts += deploy::checks::launchFailure(sofar, rules, true).status == recipe::StepStatus::Fail;
    }
    return double(t.nsecsElapsed()) / 1e9;
}

double grepOnce(const QStringList &lines, const logs::LogRules &rules, const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("start-%1.log").arg(lines.size()));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        return -1;
    }
    f.write(lines.join(QLatin1Char('\n')).toUtf8() + '\n');
    f.close();
    QStringList args{QStringLiteral("-c"), QStringLiteral("-E")};
    for (const logs::LogRule &r : rules.rules()) {
        if (r.severity == QLatin1String("error")) {
            for (const QByteArray &m : r.match) {
                args << QStringLiteral("-e") << QRegularExpression::escape(QString::fromUtf8(m));
            }
        }
    }
    QProcess p;
    p.setStandardOutputFile(QProcess::nullDevice());
    QElapsedTimer t;
    t.start();
    p.start(QStringLiteral("grep"), args << path);
    p.waitForFinished(-1);
    return double(t.nsecsElapsed()) / 1e9;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const logs::LogRules rules = bench::builtInRulesOrExit();
    QTemporaryDir dir;
    const int runs = 5;
    bench::printMachine({QStringLiteral("sse4_2"), QStringLiteral("avx2"), QStringLiteral("avx512f")});
    std::printf("%-28s %14s %14s %10s %18s\n", "ready wait's log checks", "incremental s", "grep -E once s", "ratio",
                "every read again s");
    int verdicts = 0;
    for (const int n : {10000, 40000, 250000, 1000000}) {
        const QStringList lines = startLines(n);
        std::vector<double> ours;
        std::vector<double> grep;
        for (int i = 0; i < runs; ++i) {
            ours.push_back(incremental(lines, rules, &verdicts));
            grep.push_back(grepOnce(lines, rules, dir));
        }
        // The old way is quadratic: measured where it still ends in seconds.
        const QString old =
            n <= 40000 ? QString::number(everyReadAgain(lines, rules, &verdicts), 'f', 3) : QStringLiteral("(not run)");
        const double os = median(ours);
        const double gs = median(grep);
        std::printf("%-28s %14.3f %14.3f %9.2fx %18s\n", qPrintable(QStringLiteral("%1 lines").arg(n)), os, gs, gs / os,
                    qPrintable(old));
        std::printf("  every run, incremental: %s; grep: %s\n", qPrintable(bench::runsText(ours)),
                    qPrintable(bench::runsText(grep)));
    }
    std::printf("(ratio = grep's seconds / Flashdeck's: >= 1.0 is as fast as grep reading the log once; medians of "
                "%d runs; %d failure verdicts, 0 expected)\n",
                runs, verdicts);
    return verdicts == 0 ? 0 : 1;
}
