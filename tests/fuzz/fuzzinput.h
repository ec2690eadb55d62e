#pragma once

#include <QByteArray>
#include <QList>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

// Helpers shared by the fuzz targets (tests/fuzz/README.md). Each target is a libFuzzer entry
// point; the same source also builds into a replay test that runs the seed corpus and every
// crash found so far in ordinary `make test` runs.

namespace flashdeck::fuzz {

inline QByteArray bytes(const uint8_t *data, size_t size)
{
    return QByteArray(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
}

/**
 * The input cut into chunks whose sizes derive from its first byte, so that the fuzzer also
 * explores where a network read happens to end (a tag, a CRLF or a frame header cut in two).
 */
inline QList<QByteArray> chunks(const QByteArray &input)
{
    QList<QByteArray> out;
    if (input.isEmpty()) {
        return out;
    }
    quint32 state = static_cast<quint8>(input.front());
    const QByteArray rest = input.sliced(1);
    for (qsizetype pos = 0; pos < rest.size();) {
        state = state * 1103515245u + 12345u;
        const qsizetype n = qMin<qsizetype>(1 + (state >> 16) % 64, rest.size() - pos);
        out.append(rest.sliced(pos, n));
        pos += n;
    }
    return out;
}

/** A property the parser promises does not hold: a finding, reported like a crash. */
[[noreturn]] inline void fail(const char *what)
{
    std::fprintf(stderr, "fuzz property violated: %s\n", what);
    std::abort();
}

} // namespace flashdeck::fuzz

#define FUZZ_CHECK(condition)                                                                                          \
    do {                                                                                                               \
        if (!(condition)) {                                                                                            \
            ::flashdeck::fuzz::fail(#condition);                                                                       \
        }                                                                                                              \
    } while (false)
