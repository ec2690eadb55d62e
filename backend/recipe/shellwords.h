#pragma once

#include "backend/core/result.h"

#include <QString>
#include <QStringList>

namespace flashdeck::recipe {

/**
 * Splits one command line into words as a POSIX shell reads them (XCU 2.2 Quoting, 2.3 Token
 * Recognition), without ever running it: single quotes, double quotes, backslash escapes and
 * `\`-newline continuations, `#` comments at the start of a word. What a shell would do more
 * with — a second command (`;`, `&`, `|`, `&&`, a line break), a redirection (`<`, `>`), a
 * subshell (`(`, `)`), an expansion (`$VAR`, `$(…)`, `${…}`, backticks), a file-name pattern
 * (`*`, `?`, `[`), an unbalanced quote — is refused with the character and where it is, since
 * the words would then depend on the operator's shell and files, not on the text.
 *
 * A `~` stays as written (docker options that hold one are the caches Flashdeck maps itself).
 * Carriage returns before a line break (a command copied from a Windows editor) are dropped.
 */
class ShellWords
{
public:
    /** The words of `text`, or why a shell would read more into it than words. */
    [[nodiscard]] static Result<QStringList> split(const QString &text);

    /** "line 2, column 14" of `index` in `text` (1-based, as editors count). */
    static QString position(const QString &text, qsizetype index);
};

} // namespace flashdeck::recipe
