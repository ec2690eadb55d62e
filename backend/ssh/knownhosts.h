#pragma once

#include "backend/core/result.h"
#include "backend/ssh/sshtypes.h"

#include <libssh/libssh.h>

namespace flashdeck::ssh {

/**
 * Host-key trust, checked right after connect and before any authentication (conventions
 * §5.4). Every ssh_session_is_known_server state is mapped; CHANGED and OTHER are refused
 * with an explanation like OpenSSH's. There is no "connect anyway".
 */
class KnownHosts final
{
public:
    /** Reads the server's key and looks it up; for CHANGED/OTHER also finds the old line. */
    static HostKeyInfo inspect(ssh_session session, const QString &knownHostsFile);

    /** Writes the server's key to the known_hosts file; a failed write is an error. */
    [[nodiscard]] static Status accept(ssh_session session, const QString &knownHostsFile);

    /** The refusal or error text for a state that cannot continue. */
    static SshError refusal(const HostKeyInfo &info);

    /** "[host]:port" for non-default ports, as OpenSSH and libssh write known_hosts. */
    static QString hostPattern(const QString &host, unsigned int port);

    /** "file:line" and key type of the first known_hosts line for `pattern`, if any. */
    static std::pair<QString, QString> findEntry(const QString &knownHostsFile, const QString &pattern);
    /**
     * "file:line" of an `@revoked` line for `keyBase64` (the key blob as known_hosts writes it),
     * or empty. libssh 0.10 skips marker lines, so a revoked key would otherwise be trusted
     * through any other line that names it. Stricter than OpenSSH: the line's host patterns are
     * not consulted — a key revoked anywhere is refused everywhere.
     */
    static QString findRevoked(const QString &knownHostsFile, const QByteArray &keyBase64);
};

} // namespace flashdeck::ssh
