#include "backend/ssh/sshlibrary.h"

#include <libssh/libssh.h>

#include <dlfcn.h>

namespace flashdeck::ssh {

QString libraryVersion()
{
    // ssh_version(0) returns the runtime version string, e.g. "0.10.6/openssl/zlib".
    return QString::fromUtf8(ssh_version(0));
}

void releaseThreadState()
{
    // OPENSSL_thread_stop(3): "frees resources allocated for the current thread".
    using ThreadStop = void (*)();
    if (void *symbol = dlsym(RTLD_DEFAULT, "OPENSSL_thread_stop")) {
        reinterpret_cast<ThreadStop>(symbol)();
    }
}

} // namespace flashdeck::ssh
