#include "backend/core/shellquote.h"

#include <QStringList>

namespace flashdeck {

namespace {

// Characters that are never special to sh, bash, dash or zsh at any position of a word.
// '=' is excluded at the start only because of zsh's "=cmd" expansion; '~' only at the
// start, where it means a home folder.
bool isSafe(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.' || c == '/' || c == ':' || c == ',' || c == '+' || c == '@' || c == '%' || c == '=';
}

} // namespace

bool isQuotable(const QByteArray &argument)
{
    return !argument.contains('\0');
}

QByteArray shellQuote(const QByteArray &argument)
{
    if (argument.isEmpty()) {
        return QByteArrayLiteral("''");
    }
    bool bare = argument.front() != '=';
    for (const char c : argument) {
        if (!isSafe(c)) {
            bare = false;
            break;
        }
    }
    if (bare) {
        return argument;
    }
    QByteArray out;
    out.reserve(argument.size() + 8);
    out.append('\'');
    for (const char c : argument) {
        if (c == '\'') {
            out.append("'\\''");
        } else {
            out.append(c);
        }
    }
    out.append('\'');
    return out;
}

QByteArray shellQuote(const QString &argument)
{
    return shellQuote(argument.toUtf8());
}

QByteArray shellJoin(const QList<QByteArray> &arguments)
{
    QByteArray out;
    for (const QByteArray &a : arguments) {
        if (!out.isEmpty()) {
            out.append(' ');
        }
        out.append(shellQuote(a));
    }
    return out;
}

QByteArray shellJoin(const QStringList &arguments)
{
    QList<QByteArray> bytes;
    bytes.reserve(arguments.size());
    for (const QString &a : arguments) {
        bytes.append(a.toUtf8());
    }
    return shellJoin(bytes);
}

QByteArray loginShellSafe(const QByteArray &commandLine)
{
    return QByteArrayLiteral("exec /bin/sh -c 'eval \"$(printf %s \"$0\" | base64 -d)\"' ") + commandLine.toBase64();
}

} // namespace flashdeck
