#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace flashdeck::ssh {

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

} // namespace flashdeck::ssh
