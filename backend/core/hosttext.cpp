#include "backend/core/hosttext.h"

#include <QByteArray>

namespace flashdeck {

namespace {

/** Skips an escape sequence starting at `i` (ESC); returns the index after it. */
qsizetype skipEscape(const QByteArray &b, qsizetype i)
{
    if (i + 1 >= b.size()) {
        return b.size();
    }
    const char kind = b.at(i + 1);
    if (kind == '[') { // CSI: parameters and intermediates, then a final byte 0x40–0x7E (ECMA-48 §5.4)
        qsizetype j = i + 2;
        while (j < b.size() && !(b.at(j) >= 0x40 && b.at(j) <= 0x7e)) {
            ++j;
        }
        return std::min(j + 1, b.size());
    }
    if (kind == ']' || kind == 'P' || kind == '_' || kind == '^') { // OSC, DCS, APC, PM: to BEL or ESC '\'
        qsizetype j = i + 2;
        while (j < b.size() && b.at(j) != '\a' && !(b.at(j) == '\x1b' && j + 1 < b.size() && b.at(j + 1) == '\\')) {
            ++j;
        }
        return j < b.size() && b.at(j) == '\a' ? j + 1 : std::min(j + 2, b.size());
    }
    return i + 2; // a two-byte escape
}

} // namespace

QString hostText(const QByteArray &bytes, int maxChars)
{
    // Only the tail is shown: look at a bounded window (a 4-byte UTF-8 sequence per character
    // at most, plus room for escapes) so a 4 MiB capture costs no more than a short one.
    const qsizetype window = qsizetype(maxChars) * 8;
    const QByteArray tail = bytes.size() > window ? bytes.right(window) : bytes;
    QByteArray clean;
    clean.reserve(tail.size());
    for (qsizetype i = 0; i < tail.size();) {
        const char c = tail.at(i);
        if (c == '\x1b') {
            i = skipEscape(tail, i);
            continue;
        }
        if (c == '\r' && i + 1 < tail.size() && tail.at(i + 1) == '\n') {
            ++i; // a CRLF line end is a line end; a lone CR (overwriting the line) is not
            continue;
        }
        clean.append(c);
        ++i;
    }
    QString text = QString::fromUtf8(clean);
    for (QChar &ch : text) {
        const char16_t u = ch.unicode();
        const bool control = (u < 0x20 && u != u'\n' && u != u'\t') || u == 0x7f || (u >= 0x80 && u < 0xa0) ||
            u == 0x202e || u == 0x202d || u == 0x2066 || u == 0x2067 || u == 0x2068; // and bidi overrides
        if (control) {
            ch = QChar(0xfffd);
        }
    }
    text = text.trimmed();
    const bool cut = bytes.size() > window || text.size() > maxChars;
    if (text.size() > maxChars) {
        text = text.right(maxChars);
        // Start at a line when there is one: "…dle" helps nobody.
        if (const qsizetype nl = text.indexOf(QLatin1Char('\n')); nl >= 0 && nl + 1 < text.size()) {
            text = text.mid(nl + 1);
        }
    }
    return cut ? QStringLiteral("…") + text : text;
}

} // namespace flashdeck
