#include "backend/recipe/shellwords.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace flashdeck {

namespace {

/** After an unquoted or double-quoted `$`: does the shell expand it (XCU 2.6)? A lone `$` is literal. */
bool expands(QChar next)
{
    return next.isLetterOrNumber() || QStringView(u"_{(@*#?-$!").contains(next);
}

/** What a shell does with `c` (unquoted) that words cannot say; empty when nothing. */
QString whatShellDoes(const QString &text, qsizetype i)
{
    const QChar c = text.at(i);
    const QChar next = i + 1 < text.size() ? text.at(i + 1) : QChar();
    switch (c.unicode()) {
    case ';':
        return QCoreApplication::translate("Recipe", "a semicolon, which starts another command");
    case '&':
        return next == QLatin1Char('&')
            ? QCoreApplication::translate("Recipe", "\"&&\", which runs another command")
            : QCoreApplication::translate("Recipe", "\"&\", which runs it in the background");
    case '|':
        return QCoreApplication::translate("Recipe", "a pipe, which runs another command");
    case '<':
    case '>':
        return QCoreApplication::translate("Recipe", "a redirection, which reads or writes a file");
    case '(':
    case ')':
        return QCoreApplication::translate("Recipe", "a parenthesis, which starts a subshell");
    case '`':
        return QCoreApplication::translate("Recipe", "a backtick, which runs a command and inserts its output");
    case '*':
    case '?':
    case '[':
        return QCoreApplication::translate("Recipe",
                                           "a file-name pattern, which the shell replaces with matching files");
    case '$':
        if (next == QLatin1Char('\'') || next == QLatin1Char('"')) {
            return QCoreApplication::translate("Recipe", "bash's $'…' quoting, which other shells read differently");
        }
        if (!expands(next)) {
            return {};
        }
        return next == QLatin1Char('(')
            ? QCoreApplication::translate("Recipe", "\"$(\", which runs a command and inserts its output")
            : QCoreApplication::translate("Recipe", "\"$\", which inserts a variable of your shell");
    case 0:
        return QCoreApplication::translate("Recipe", "a NUL character, which no command line can hold");
    default:
        return {};
    }
}

Status refuse(const QString &text, qsizetype i, const QString &what)
{
    const QChar c = text.at(i);
    const QString shown = c.isNull() ? QStringLiteral("\\0") : QString(c);
    return Status::failure(
        QCoreApplication::translate("Recipe",
                                    "The command has \"%1\" at %2: %3. Flashdeck reads the generator's command as "
                                    "words and never runs it through a shell: paste the one command the generator "
                                    "printed, with the values written out.")
            .arg(shown, ShellWords::position(text, i), what));
}

/** The index after a line break at `i` ("\n", or "\r\n"); -1 when there is none. */
qsizetype lineBreakEnd(const QString &text, qsizetype i)
{
    if (i < text.size() && text.at(i) == QLatin1Char('\n')) {
        return i + 1;
    }
    if (i + 1 < text.size() && text.at(i) == QLatin1Char('\r') && text.at(i + 1) == QLatin1Char('\n')) {
        return i + 2;
    }
    return -1;
}

} // namespace

QString ShellWords::position(const QString &text, qsizetype index)
{
    const QStringView before = QStringView(text).left(std::min(index, text.size()));
    const qsizetype line = before.count(QLatin1Char('\n')) + 1;
    const qsizetype column = index - (before.lastIndexOf(QLatin1Char('\n')) + 1) + 1;
    return QCoreApplication::translate("Recipe", "line %1, column %2").arg(line).arg(column);
}

Result<QStringList> ShellWords::split(const QString &given)
{
    // A Windows line end is a line end, and so is any run of "\r" before a "\n": dropped all at
    // once, so that no "\r\n" is left inside a word (fuzz_generatorcommand: dropping one "\r" a
    // time left "\r\r\n" as "\r\n", and the word written out again read back without it).
    static const QRegularExpression crlf(QStringLiteral("\r+\n"));
    const QString text = QString(given).replace(crlf, QStringLiteral("\n"));
    // Anywhere, even escaped by a backslash (which the loop below would take as the next character):
    // no command line holds one (fuzz_generatorcommand found a NUL after a backslash kept in a word).
    if (const qsizetype nul = text.indexOf(QChar()); nul >= 0) {
        return refuse(text, nul, whatShellDoes(text, nul));
    }
    enum class Quote { None, Single, Double };
    Quote quote = Quote::None;
    qsizetype quoteAt = 0;
    QStringList words;
    QString word;
    bool inWord = false;
    bool commandEnded = false; // a line break ended the command: another word would be a second one
    const auto endWord = [&] {
        if (inWord) {
            // And within a word: quotes between the "\r" and the "\n" ("a\r"'\n') keep them apart above.
            words.append(word.replace(crlf, QStringLiteral("\n")));
            word.clear();
            inWord = false;
        }
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('\r') && lineBreakEnd(text, i) > 0) {
            continue; // the "\n" after it does the work
        }
        if (c == QChar()) {
            return refuse(text, i, whatShellDoes(text, i)); // quoted or not: no command line holds one
        }
        if (quote == Quote::Single) {
            if (c == QLatin1Char('\'')) {
                quote = Quote::None;
            } else {
                word += c;
            }
            continue;
        }
        if (quote == Quote::Double) {
            if (c == QLatin1Char('"')) {
                quote = Quote::None;
            } else if (c == QLatin1Char('\\') && i + 1 < text.size()) {
                // Inside double quotes a backslash escapes only $ ` " \ and the line break (XCU 2.2.3).
                if (const qsizetype after = lineBreakEnd(text, i + 1); after > 0) {
                    i = after - 1;
                } else if (QStringView(u"$`\"\\").contains(text.at(i + 1))) {
                    word += text.at(++i);
                } else {
                    word += c;
                }
            } else if (c == QLatin1Char('`') || c == QChar() ||
                       (c == QLatin1Char('$') && i + 1 < text.size() && expands(text.at(i + 1)))) {
                return refuse(text, i, whatShellDoes(text, i));
            } else {
                word += c;
            }
            continue;
        }
        if (c == QLatin1Char(' ') || c == QLatin1Char('\t')) {
            endWord();
            continue;
        }
        if (c == QLatin1Char('\n')) {
            endWord();
            commandEnded = !words.isEmpty();
            continue;
        }
        if (c == QLatin1Char('#') && !inWord) {
            while (i + 1 < text.size() && text.at(i + 1) != QLatin1Char('\n')) {
                ++i; // a comment runs to the end of its line
            }
            continue;
        }
        if (commandEnded && !inWord) {
            return Status::failure(
                QCoreApplication::translate(
                    "Recipe",
                    "A second command starts at %1: a line break ends a command. Give one command; end "
                    "each of its lines but the last with a backslash, as the generator prints it.")
                    .arg(position(text, i)));
        }
        if (c == QLatin1Char('\\')) {
            if (i + 1 >= text.size()) {
                return Status::failure(
                    QCoreApplication::translate("Recipe",
                                                "The command ends with a backslash at %1: a line is missing after "
                                                "it. Paste the whole command.")
                        .arg(position(text, i)));
            }
            if (const qsizetype after = lineBreakEnd(text, i + 1); after > 0) {
                i = after - 1; // a continuation: the next line goes on with this word or the next
            } else {
                word += text.at(++i);
                inWord = true;
            }
            continue;
        }
        if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            quote = c == QLatin1Char('\'') ? Quote::Single : Quote::Double;
            quoteAt = i;
            inWord = true;
            continue;
        }
        if (const QString what = whatShellDoes(text, i); !what.isEmpty()) {
            return refuse(text, i, what);
        }
        word += c;
        inWord = true;
    }
    if (quote != Quote::None) {
        return Status::failure(
            QCoreApplication::translate("Recipe",
                                        "The quote (%1) opened at %2 is never closed. Paste the whole command, or "
                                        "close the quote.")
                .arg(text.at(quoteAt))
                .arg(position(text, quoteAt)));
    }
    endWord();
    return words;
}

} // namespace flashdeck
