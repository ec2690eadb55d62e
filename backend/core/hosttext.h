#pragma once

#include <QString>

class QByteArray;

namespace flashdeck {

/**
 * Output from a host (a tool's stderr, a server's error body), made fit to show an operator in
 * a step, a terminal or a journal: decoded as UTF-8 (invalid bytes become U+FFFD), ANSI escape
 * sequences removed and other control characters replaced (a hostile host must not move the
 * operator's cursor, retitle the terminal or hide text), and cut to its last `maxChars`
 * characters, where errors usually are (issue 9: hostile hosts).
 */
QString hostText(const QByteArray &bytes, int maxChars = 400);

} // namespace flashdeck
