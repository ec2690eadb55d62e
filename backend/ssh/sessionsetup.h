#pragma once

#include "backend/ssh/sshhandles.h"
#include "backend/ssh/sshtypes.h"

namespace flashdeck::ssh {

/** Building a libssh session for a target, and naming its connect errors. */
class SessionSetup final
{
public:
    /**
     * A new session with the target's options set in KIO's order (conventions §5.3): host,
     * timeout, port, user, known_hosts, then the config file last. Null with `error` set when
     * an option is refused. Reports the user and host libssh will really use.
     */
    static SessionPtr create(const SshTarget &target, SshError &error, QString *effectiveUser, QString *effectiveHost);
    /** The one place libssh's connect errors become ours (KIO's toKIOError idea). */
    static SshError connectError(ssh_session session, const QString &where);
    static QString knownHostsPath(const SshTarget &target);
    /** The host's identity, the config's IdentityFiles for it, then OpenSSH's defaults. */
    static QStringList identityCandidates(const SshTarget &target);
};

} // namespace flashdeck::ssh
