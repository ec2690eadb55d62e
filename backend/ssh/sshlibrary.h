#pragma once

#include <QString>

namespace flashdeck::ssh {

/** The version of the libssh we run with (not the one we were built against). */
QString libraryVersion();

/**
 * Frees the crypto library's per-thread state on the calling thread. Call it last on a
 * thread that used libssh. OpenSSL otherwise frees that state in a pthread key destructor,
 * which runs after QThread::wait() has already returned; a process that exits right after a
 * connection closed (every CLI command) races it, and LeakSanitizer reports ~10 KB lost in
 * libcrypto. Looked up at run time, so backend does not link OpenSSL itself.
 */
void releaseThreadState();

} // namespace flashdeck::ssh
