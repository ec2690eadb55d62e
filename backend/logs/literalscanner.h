#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <array>
#include <cstdint>
#include <vector>

namespace flashdeck::logs {

/**
 * Finds which of a set of literals occur in a line, 32 bytes per step with AVX2: the log
 * classifier's fast path where the CPU has AVX2 (LogRules falls back to Wu–Manber elsewhere).
 *
 * The filter is Teddy, Hyperscan's small-set literal matcher (G. Langdale, Hyperscan's
 * "fdr/teddy.c"; described by A. Gallant for Rust's aho-corasick crate, "packed/teddy/README.md"):
 * the literals are put in 8 buckets, and for each of their first three bytes two 16-entry
 * tables, indexed by the byte's low and high nibble, give the buckets whose literals may have
 * that byte there. `pshufb` looks up 32 bytes at once; ANDing the three offsets' answers leaves,
 * per position, the buckets whose literals may begin there. Only those positions are compared
 * with the bucket's literals, and most of a log line has none: a Wu–Manber window costs a hash
 * and a table load that depend on each other (`perf annotate`: 60 % of the classifier's time on
 * those two loads), where this costs about a dozen independent vector instructions per 32 bytes.
 *
 * The answer is exactly the naive one (tst_logpipeline checks it against a search per
 * substring, for this path and the fallback); the filter only decides where to compare.
 */
class LiteralScanner final
{
public:
    struct Literal
    {
        QByteArray bytes; // 3 bytes or more
        qint16 tag = 0; // what the caller wants back; the lowest tag that occurs wins
    };

    /** Whether this CPU runs the vector path (AVX2), checked once. */
    static bool cpuSupported();

    /**
     * Builds the tables. Not usable (isReady() false) when a literal is shorter than three
     * bytes, there are none, or the CPU lacks AVX2, or `enabled` is false (tests force the
     * fallback with it).
     */
    void build(const std::vector<Literal> &literals, bool enabled = true);
    bool isReady() const { return m_ready; }

    /** The lowest tag among the literals that occur in `line`, or -1. Only when isReady(). */
    int lowestTag(QByteArrayView line) const;

private:
    static constexpr int kBuckets = 8;
    static constexpr int kWindow = 32; // positions per step
    static constexpr int kSpan = kWindow + 2; // bytes a step reads: its positions and two more

    struct Entry
    {
        QByteArray bytes;
        std::uint64_t head = 0; // the first 8 bytes (fewer: zero-padded), compared first
        qint16 tag = 0;
    };

    struct Tables; // the vector registers' copy of m_masks (literalscanner.cpp)
    int step(const Tables &t, const unsigned char *line, qsizetype n, const unsigned char *window, qsizetype base,
             int best) const;
    int verify(const unsigned char *line, qsizetype n, qsizetype pos, unsigned buckets, int best) const;

    // [offset][0: low nibble, 1: high nibble][16 entries, repeated for both 128-bit lanes]
    // Read with unaligned loads: the scanner lives inside LogRules, wherever that is allocated.
    std::array<std::array<std::array<std::uint8_t, 32>, 2>, 3> m_masks{};
    std::array<std::vector<Entry>, kBuckets> m_bucket; // each sorted by tag
    int m_minLength = 0;
    bool m_ready = false;
};

} // namespace flashdeck::logs
