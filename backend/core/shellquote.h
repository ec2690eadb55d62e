#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace flashdeck {

/**
 * Quotes one argument for a POSIX shell (the remote login shell runs our command lines).
 *
 * Works on bytes, so non-UTF-8 file names survive. Arguments made only of characters no
 * shell treats specially are left bare for readable runbooks; everything else is wrapped in
 * single quotes, with each embedded single quote written as '\''. An empty argument becomes ''.
 * NUL cannot be passed through a command line at all: callers must reject it (see isQuotable).
 */
QByteArray shellQuote(const QByteArray &argument);
QByteArray shellQuote(const QString &argument);

/** Quotes and joins arguments with single spaces: the one way we build remote command lines. */
QByteArray shellJoin(const QList<QByteArray> &arguments);
QByteArray shellJoin(const QStringList &arguments);

/** False for arguments no shell can receive (they contain NUL). */
bool isQuotable(const QByteArray &argument);

/**
 * What we hand sshd to run `commandLine` (a POSIX sh command line) whatever the user's login
 * shell is. sshd runs every command through the login shell (`$SHELL -c …`), and fish, tcsh and
 * friends read sh syntax differently: fish takes `\'` inside single quotes as an escape and
 * refuses `$$`, tcsh has its own quoting. So the command travels as base64 — letters, digits,
 * `+/=`, which every shell passes through unchanged — behind a fixed single-quoted decoder with
 * no backslash, quote or `!` in it, read identically by sh, bash, dash, zsh, fish and tcsh:
 *
 *     exec /bin/sh -c 'eval "$(printf %s "$0" | base64 -d)"' <base64 of commandLine>
 *
 * `exec` keeps the login shell's pid, so `$$` in the command is still the session's process.
 */
QByteArray loginShellSafe(const QByteArray &commandLine);

} // namespace flashdeck
