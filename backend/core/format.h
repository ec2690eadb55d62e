#pragma once

#include <QString>

#include <optional>

namespace flashdeck::fmt {

/**
 * The one number formatter of the window and the command line (screens.md): digits grouped with
 * a narrow space, units after a space, an en dash for "unknown" (never a made-up 0). One unit
 * convention: memory in GiB (the GPU tools count MiB), bytes on disk and on the wire in GB
 * (decimal, as df and dockerd's pull report them), each labelled.
 */
QString grouped(qint64 v);
QString mib(std::optional<qint64> v); // "143 771 MiB"
QString gib(std::optional<double> mib); // from MiB, compact: "1 758 GiB", "7.5 GiB"
QString gibExact(double mib); // from MiB, one decimal: "143.4 GiB" (a check's sentence)
QString gibOf(double usedMib, double totalMib); // "1 758 / 2 197 GiB"
QString percent(std::optional<double> fraction, int decimals = 0); // 0..1 → "82 %"
QString tokens(std::optional<double> v); // "10.4 M tokens", "512 tokens"
QString tokensPerSecond(std::optional<double> v); // "1 635 tok/s"
QString seconds(std::optional<double> v); // "1.8 s", "230 ms"
QString gigabytes(std::optional<qint64> bytes); // compact: "3 840 GB"
QString gbExact(qint64 bytes); // one decimal: "21.5 GB", "252.0 GB"
QString gbNumber(qint64 bytes); // the number alone, one decimal: "120.4" (for "%1 of %2 GB")
QString bytes(std::optional<qint64> bytes); // decimal units, 3 digits: "18.2 GB", "412 MB", "950 B"
QString duration(std::optional<double> seconds); // "32 s", "4 min 10 s", "2 h 5 min"
QString ago(qint64 thenMs, qint64 nowMs); // "just now", "12 s ago", "3 min ago", "2 h ago"
/** The symbol for unknown values. */
QString unknown();

} // namespace flashdeck::fmt
