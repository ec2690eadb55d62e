#pragma once

namespace flashdeck::ssh {

/**
 * Routes libssh's own log into the "ssh" logger. libssh keeps the level and callback per
 * thread (src/log.c: LIBSSH_THREAD), so every thread that touches libssh calls this first.
 * The libssh level follows the ssh logger: trace → protocol, debug → warnings, else nothing.
 */
void installLibsshLogging();

} // namespace flashdeck::ssh
