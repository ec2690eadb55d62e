#include "backend/logs/literalscanner.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define FLASHDECK_TEDDY_AVX2 1
#endif

namespace flashdeck::logs {

bool LiteralScanner::cpuSupported()
{
#ifdef FLASHDECK_TEDDY_AVX2
    static const bool avx2 = __builtin_cpu_supports("avx2");
    return avx2;
#else
    return false;
#endif
}

void LiteralScanner::build(const std::vector<Literal> &literals, bool enabled)
{
    m_ready = false;
    m_masks = {};
    for (std::vector<Entry> &b : m_bucket) {
        b.clear();
    }
    m_minLength = 0;
    if (!enabled || !cpuSupported() || literals.empty()) {
        return;
    }
    for (const Literal &l : literals) {
        if (l.bytes.size() < 3) {
            return; // the filter reads three bytes of each literal
        }
    }
    // Literals that begin alike share a bucket, so each bucket's nibble tables admit few
    // combinations the literals do not have (every low nibble of a bucket's bytes pairs with
    // every high nibble: "CU" and "Tr" in one bucket also admit "Cr" and "Tu").
    std::vector<size_t> order(literals.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(), order.end(),
              [&literals](size_t a, size_t b) { return literals[a].bytes < literals[b].bytes; });
    m_minLength = int(literals.front().bytes.size());
    for (size_t i = 0; i < order.size(); ++i) {
        const Literal &l = literals[order[i]];
        const int bucket = int(i * kBuckets / order.size());
        for (int offset = 0; offset < 3; ++offset) {
            const auto c = quint8(l.bytes[offset]);
            for (int lane = 0; lane < 32; lane += 16) { // both 128-bit lanes: pshufb looks up within each
                m_masks[size_t(offset)][0][size_t(lane + (c & 0x0f))] |= quint8(1u << bucket);
                m_masks[size_t(offset)][1][size_t(lane + (c >> 4))] |= quint8(1u << bucket);
            }
        }
        Entry e;
        e.bytes = l.bytes;
        e.tag = l.tag;
        std::memcpy(&e.head, l.bytes.constData(), size_t(std::min<qsizetype>(8, l.bytes.size())));
        m_bucket[size_t(bucket)].push_back(std::move(e));
        m_minLength = std::min(m_minLength, int(l.bytes.size()));
    }
    for (std::vector<Entry> &b : m_bucket) {
        std::stable_sort(b.begin(), b.end(), [](const Entry &x, const Entry &y) { return x.tag < y.tag; });
    }
    m_ready = true;
}

namespace {

template<typename T>
inline T load(const void *p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

/** `a[0, len)` == `b[0, len)` by word loads: libc's memcmp call cost a fifth of the classifier's
 * time on SGLang's lines, most of which hold a literal (a decode batch, a milestone). */
inline bool sameBytes(const unsigned char *a, const char *b, qsizetype len)
{
    if (len >= 8) {
        for (qsizetype i = 0; i + 8 < len; i += 8) {
            if (load<std::uint64_t>(a + i) != load<std::uint64_t>(b + i)) {
                return false;
            }
        }
        return load<std::uint64_t>(a + len - 8) == load<std::uint64_t>(b + len - 8); // the last 8, overlapping
    }
    if (len >= 4) {
        return load<std::uint32_t>(a) == load<std::uint32_t>(b) &&
            load<std::uint32_t>(a + len - 4) == load<std::uint32_t>(b + len - 4);
    }
    return std::memcmp(a, b, size_t(len)) == 0;
}

} // namespace

int LiteralScanner::verify(const unsigned char *line, qsizetype n, qsizetype pos, unsigned buckets, int best) const
{
    for (; buckets != 0; buckets &= buckets - 1) {
        for (const Entry &e : m_bucket[size_t(std::countr_zero(buckets))]) {
            if (best >= 0 && e.tag >= best) {
                break; // sorted by tag: nothing further in this bucket can win
            }
            const qsizetype len = e.bytes.size();
            if (pos + len > n) {
                continue;
            }
            const unsigned char *at = line + pos;
            if (len >= 8 ? load<std::uint64_t>(at) == e.head && sameBytes(at, e.bytes.constData(), len)
                         : sameBytes(at, e.bytes.constData(), len)) {
                best = e.tag;
                break;
            }
        }
    }
    return best;
}

#ifdef FLASHDECK_TEDDY_AVX2

// Lambdas do not take a function's target attribute (GCC 12), so each vector piece is a
// function of its own compiled for AVX2, inlined into lowestTag().
#define FLASHDECK_AVX2 __attribute__((target("avx2")))

struct LiteralScanner::Tables
{
    __m256i low[3];
    __m256i high[3];
    __m256i nibble;
};

namespace {

FLASHDECK_AVX2 inline __m256i bucketsAt(const unsigned char *at, const __m256i &low, const __m256i &high,
                                        const __m256i &nibble)
{
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(at));
    const __m256i lo = _mm256_and_si256(v, nibble);
    const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble);
    return _mm256_and_si256(_mm256_shuffle_epi8(low, lo), _mm256_shuffle_epi8(high, hi));
}

} // namespace

FLASHDECK_AVX2 inline int LiteralScanner::step(const Tables &t, const unsigned char *line, qsizetype n,
                                               const unsigned char *window, qsizetype base, int best) const
{
    // Per position of the 32 from `window`: the buckets whose literals may begin there.
    const __m256i may = _mm256_and_si256(_mm256_and_si256(bucketsAt(window, t.low[0], t.high[0], t.nibble),
                                                          bucketsAt(window + 1, t.low[1], t.high[1], t.nibble)),
                                         bucketsAt(window + 2, t.low[2], t.high[2], t.nibble));
    auto candidates = ~unsigned(_mm256_movemask_epi8(_mm256_cmpeq_epi8(may, _mm256_setzero_si256())));
    if (candidates == 0) {
        return best; // the usual case: nothing can begin in these 32 positions
    }
    alignas(32) quint8 lanes[kWindow];
    _mm256_store_si256(reinterpret_cast<__m256i *>(lanes), may);
    for (; candidates != 0 && best != 0; candidates &= candidates - 1) {
        const int k = std::countr_zero(candidates);
        best = verify(line, n, base + k, lanes[k], best);
    }
    return best;
}

FLASHDECK_AVX2 int LiteralScanner::lowestTag(QByteArrayView text) const
{
    const auto *line = reinterpret_cast<const unsigned char *>(text.data());
    const qsizetype n = text.size();
    if (n < m_minLength) {
        return -1;
    }
    Tables t;
    for (int offset = 0; offset < 3; ++offset) {
        t.low[offset] = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(m_masks[size_t(offset)][0].data()));
        t.high[offset] = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(m_masks[size_t(offset)][1].data()));
    }
    t.nibble = _mm256_set1_epi8(0x0f);
    if (n < kSpan) {
        // Too short for one step (it reads kSpan bytes): a zero-padded copy. Zeros may pass the
        // filter, but no literal fits past the line's end, so verify() rejects them.
        alignas(32) unsigned char padded[kSpan + 30] = {};
        std::memcpy(padded, line, size_t(n));
        return step(t, line, n, padded, 0, -1);
    }
    int best = -1;
    qsizetype base = 0;
    for (; base + kSpan <= n && best != 0; base += kWindow) {
        best = step(t, line, n, line + base, base, best);
    }
    if (best != 0 && base <= n - m_minLength) {
        // The positions left (fewer than 32): one more step ending at the line's end, partly
        // over positions already looked at (a literal found twice changes nothing).
        best = step(t, line, n, line + n - kSpan, n - kSpan, best);
    }
    return best;
}

#undef FLASHDECK_AVX2

#else

int LiteralScanner::lowestTag(QByteArrayView) const
{
    return -1; // never ready on this CPU (cpuSupported() is false)
}

#endif

} // namespace flashdeck::logs
