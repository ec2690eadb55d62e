#include "backend/recipe/shellwords.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace flashdeck::recipe {

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

/**
 * One split in progress: the words so far, the word being read and the quote it is in. `take`
 * reads the character at `i` and moves `i` past what it read along with it (an escaped
 * character, a line continuation, a comment).
 */
class WordSplitter
{
public:
    WordSplitter(const QString &text, const QRegularExpression &crlf)
        : m_text(text)
        , m_crlf(crlf)
    { }

    Status take(qsizetype &i);
    /** The words at the end of the text; a quote still open is refused. */
    Result<QStringList> finish();

private:
    enum class Quote { None, Single, Double };

    void endWord();
    Status doubleQuoted(qsizetype &i);
    Status unquoted(qsizetype &i);
    Status backslash(qsizetype &i);

    const QString &m_text;
    const QRegularExpression &m_crlf;
    Quote m_quote = Quote::None;
    qsizetype m_quoteAt = 0;
    QStringList m_words;
    QString m_word;
    bool m_inWord = false;
    bool m_commandEnded = false; // a line break ended the command: another word would be a second one
};

void WordSplitter::endWord()
{
    if (m_inWord) {
        // And within a word: quotes between the "\r" and the "\n" ("a\r"'\n') kept them apart in split().
        m_words.append(m_word.replace(m_crlf, QStringLiteral("\n")));
        m_word.clear();
        m_inWord = false;
    }
}

Status WordSplitter::take(qsizetype &i)
{
    const QChar c = m_text.at(i);
    if (c == QLatin1Char('\r') && lineBreakEnd(m_text, i) > 0) {
        return Status::ok(); // the "\n" after it does the work
    }
    if (c == QChar()) {
        return refuse(m_text, i, whatShellDoes(m_text, i)); // quoted or not: no command line holds one
    }
    if (m_quote == Quote::Single) {
        if (c == QLatin1Char('\'')) {
            m_quote = Quote::None;
        } else {
            m_word += c;
        }
        return Status::ok();
    }
    if (m_quote == Quote::Double) {
        return doubleQuoted(i);
    }
    return unquoted(i);
}

Status WordSplitter::doubleQuoted(qsizetype &i)
{
    const QChar c = m_text.at(i);
    if (c == QLatin1Char('"')) {
        m_quote = Quote::None;
    } else if (c == QLatin1Char('\\') && i + 1 < m_text.size()) {
        // Inside double quotes a backslash escapes only $ ` " \ and the line break (XCU 2.2.3).
        if (const qsizetype after = lineBreakEnd(m_text, i + 1); after > 0) {
            i = after - 1;
        } else if (QStringView(u"$`\"\\").contains(m_text.at(i + 1))) {
            m_word += m_text.at(++i);
        } else {
            m_word += c;
        }
    } else if (c == QLatin1Char('`') || c == QChar() ||
               (c == QLatin1Char('$') && i + 1 < m_text.size() && expands(m_text.at(i + 1)))) {
        return refuse(m_text, i, whatShellDoes(m_text, i));
    } else {
        m_word += c;
    }
    return Status::ok();
}

Status WordSplitter::unquoted(qsizetype &i)
{
    const QChar c = m_text.at(i);
    if (c == QLatin1Char(' ') || c == QLatin1Char('\t')) {
        endWord();
        return Status::ok();
    }
    if (c == QLatin1Char('\n')) {
        endWord();
        m_commandEnded = !m_words.isEmpty();
        return Status::ok();
    }
    if (c == QLatin1Char('#') && !m_inWord) {
        while (i + 1 < m_text.size() && m_text.at(i + 1) != QLatin1Char('\n')) {
            ++i; // a comment runs to the end of its line
        }
        return Status::ok();
    }
    if (m_commandEnded && !m_inWord) {
        return Status::failure(QCoreApplication::translate(
                                   "Recipe",
                                   "A second command starts at %1: a line break ends a command. Give one command; end "
                                   "each of its lines but the last with a backslash, as the generator prints it.")
                                   .arg(ShellWords::position(m_text, i)));
    }
    if (c == QLatin1Char('\\')) {
        return backslash(i);
    }
    if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
        m_quote = c == QLatin1Char('\'') ? Quote::Single : Quote::Double;
        m_quoteAt = i;
        m_inWord = true;
        return Status::ok();
    }
    if (const QString what = whatShellDoes(m_text, i); !what.isEmpty()) {
        return refuse(m_text, i, what);
    }
    m_word += c;
    m_inWord = true;
    return Status::ok();
}

Status WordSplitter::backslash(qsizetype &i)
{
    if (i + 1 >= m_text.size()) {
        return Status::failure(QCoreApplication::translate("Recipe",
                                                           "The command ends with a backslash at %1: a line is "
                                                           "missing after it. Paste the whole command.")
                                   .arg(ShellWords::position(m_text, i)));
    }
    if (const qsizetype after = lineBreakEnd(m_text, i + 1); after > 0) {
        i = after - 1; // a continuation: the next line goes on with this word or the next
    } else {
        m_word += m_text.at(++i);
        m_inWord = true;
    }
    return Status::ok();
}

Result<QStringList> WordSplitter::finish()
{
    if (m_quote != Quote::None) {
        return Status::failure(
            QCoreApplication::translate("Recipe",
                                        "The quote (%1) opened at %2 is never closed. Paste the whole command, or "
                                        "close the quote.")
                .arg(m_text.at(m_quoteAt))
                .arg(ShellWords::position(m_text, m_quoteAt)));
    }
    endWord();
    return m_words;
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
    WordSplitter splitter(text, crlf);
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (Status taken = splitter.take(i); !taken) {
            return taken;
        }
    }
    return splitter.finish();
}

} // namespace flashdeck::recipe
