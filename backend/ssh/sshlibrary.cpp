#include "backend/ssh/sshlibrary.h"

#include <libssh/libssh.h>

namespace flashdeck::ssh {

QString libraryVersion()
{
    // ssh_version(0) returns the runtime version string, e.g. "0.10.6/openssl/zlib".
    return QString::fromUtf8(ssh_version(0));
}

} // namespace flashdeck::ssh
